package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// replayOutput is what "meeple replay" prints.
type replayOutput struct {
	Game    string          `json:"game"`
	Players int             `json:"players"`
	Seed    uint64          `json:"seed"`
	Actions int             `json:"actions"`
	Phase   string          `json:"phase"`
	Over    bool            `json:"over"`
	Result  engine.Result   `json:"result"`
	State   json.RawMessage `json:"state"`
}

func runReplay(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", stderr)
	gf := addGameFlags(fs)
	script := fs.String("script", "", "file of actions, one \"P<seat>: <action>\" a line (- for standard input)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *script == "" {
		fmt.Fprintln(stderr, "meeple replay: -script is required")
		return errUsage
	}
	sf, err := readScriptFile(*script)
	if err != nil {
		return err
	}
	gf.adopt(fs, sf)
	rules, setup, err := gf.setup()
	if err != nil {
		return err
	}
	moves := sf.moves
	state, err := rules.New(setup)
	if err != nil {
		return worded(nil, rules, err)
	}
	if err := applyMoves(rules, state, moves); err != nil {
		return err
	}
	data, err := state.Encode()
	if err != nil {
		return err
	}
	cat, err := locale.New()
	if err != nil {
		return err
	}
	out := replayOutput{
		Game: rules.Name(), Players: setup.Players, Seed: setup.Seed, Actions: len(moves),
		Phase: wording.ForRules(cat.For(locale.English), rules, nil).Say(state.Phase()), Over: state.Over(), Result: state.Result(), State: data,
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// scriptFile is a game script read from a file: its moves and, when its
// first line is the header engine.WriteScript writes, the game and setup it names.
type scriptFile struct {
	moves     []engine.Move
	hasHeader bool
	game      string
	setup     engine.Setup
}

// readScriptFile reads a game script from a file, or standard input for "-".
func readScriptFile(path string) (scriptFile, error) {
	var (
		data []byte
		err  error
	)
	if path == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return scriptFile{}, err
	}
	var sf scriptFile
	first, _, _ := strings.Cut(string(data), "\n")
	sf.game, sf.setup, sf.hasHeader = engine.ScriptHeader(first)
	if sf.moves, err = engine.ReadScript(bytes.NewReader(data)); err != nil {
		return scriptFile{}, fmt.Errorf("%s: %w", path, err)
	}
	return sf, nil
}

// applyMoves applies moves to state, a game of rules, in order and names
// the line of the first refused one and why, in English.
func applyMoves(rules engine.Rules, state engine.State, moves []engine.Move) error {
	for _, m := range moves {
		if int(m.Seat) >= state.Players() {
			return fmt.Errorf("line %d: P%d is not seated (%d players)", m.Line, m.Seat+1, state.Players())
		}
		if _, err := state.Apply(m.Seat, m.Action); err != nil {
			return fmt.Errorf("line %d: %q: %w", m.Line, m.Action, worded(nil, rules, err))
		}
	}
	return nil
}
