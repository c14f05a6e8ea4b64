package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

func runImport(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stderr)
	sf := addStoreFlags(fs)
	channel := fs.String("channel", "", "Discord channel (or thread) id to hold the game; it must have no active game")
	guild := fs.String("guild", "", "Discord guild (server) id the channel belongs to")
	script := fs.String("script", "", "game script as \"meeple export\" writes it, header first (- for standard input)")
	seats := fs.String("seats", "", "who plays each seat, comma-separated: a Discord user id, or ai:NAME for a computer player")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *channel == "" || *script == "" || *seats == "" {
		fmt.Fprintln(stderr, "meeple import: -channel, -script and -seats are required")
		return errUsage
	}
	if err := checkDiscordID("-channel", *channel); err != nil {
		return err
	}
	if *guild != "" {
		if err := checkDiscordID("-guild", *guild); err != nil {
			return err
		}
	}
	data, err := readInput(*script)
	if err != nil {
		return err
	}
	path, reg, err := sf.resolve(getenv)
	if err != nil {
		return err
	}
	g, lines, err := scriptGame(data, *script)
	if err != nil {
		return err
	}
	g.Guild, g.Channel = *guild, *channel
	rules, err := reg.Lookup(g.Kind)
	if err != nil {
		return fmt.Errorf("%s: %w", *script, err)
	}
	if g.Seats, err = parseSeats(*seats, g.Setup.Players, rules); err != nil {
		return err
	}
	// the whole script is checked before the database is opened, so that
	// a refused import neither creates nor changes it
	if _, err := storage.NewContract(reg, nil).Import(g); err != nil {
		return scriptError(*script, lines, rules, err)
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	s, err := openStore(path, reg, writeFile, boltdb.Options{Logger: slog.New(slog.NewTextHandler(stderr, nil))}, stdout)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.Import(ctx, g); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %s game %d into channel %s: %d players, %d actions", g.Kind, g.ID, g.Channel, g.Setup.Players, g.Version)
	switch g.Status {
	case storage.StatusFinished:
		fmt.Fprint(stdout, "; it is over, so it went to the archive with its result")
	case storage.StatusAbandoned:
		fmt.Fprint(stdout, "; it was abandoned, so it went to the archive")
	}
	fmt.Fprintln(stdout)
	return nil
}

// readInput reads a file, or standard input for "-".
func readInput(path string) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(path)
}

// scriptGame reads a script with its header into a game record to import,
// with the times an export notes in its comments, and the script's line
// number of each action.
func scriptGame(data []byte, name string) (*storage.Game, []int, error) {
	lines := strings.Split(string(data), "\n")
	kind, setup, ok := engine.ScriptHeader(lines[0])
	if !ok {
		return nil, nil, fmt.Errorf("%s: the first line must be a header \"# game G players N seed S [name=value …]\", as meeple export writes", name)
	}
	moves, err := engine.ReadScript(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	g := &storage.Game{Kind: kind, Status: storage.StatusRunning, Setup: setup}
	for n, line := range lines[1:] {
		word, at, err := scriptTime(line)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: line %d: %w", name, n+2, err)
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			switch word {
			case commentCreated:
				g.Created = at
			case commentFinished:
				g.Finished = at
			case commentAbandoned:
				g.Finished, g.Status = at, storage.StatusAbandoned
			}
		}
	}
	numbers := make([]int, 0, len(moves))
	for _, m := range moves {
		_, at, _ := scriptTime(lines[m.Line-1])
		g.Log = append(g.Log, storage.Entry{Seat: m.Seat, Action: m.Action, At: at})
		numbers = append(numbers, m.Line)
	}
	return g, numbers, nil
}

// scriptError names the script line of an action the rules refuse, with
// their reason in English; other errors pass unchanged.
func scriptError(name string, lines []int, rules engine.Rules, err error) error {
	var replay *storage.ReplayError
	if !errors.As(err, &replay) || replay.Index >= len(lines) {
		return err
	}
	return fmt.Errorf("%s: line %d: P%d %q is refused: %w", name, lines[replay.Index], replay.Seat+1, replay.Action, worded(nil, rules, replay.Err))
}

// checkDiscordID refuses what cannot be a Discord id (a snowflake): one
// is a number of 17 to 20 digits, as Discord's ids have been from its
// first day on.
func checkDiscordID(what, id string) error {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || len(id) < 17 || id[0] == '0' || n == 0 {
		return fmt.Errorf("%s is %q, not a Discord id: an id is a number of 17 to 20 digits "+
			"(in Discord, turn on Developer Mode and use Copy ID on the channel, server or user)", what, id)
	}
	return nil
}

// scriptTime reads a time comment ("# created 2026-…", "P1: roll  # at
// 2026-…") and returns its word and time; other comments give nothing.
func scriptTime(line string) (string, time.Time, error) {
	_, comment, ok := strings.Cut(line, "#")
	f := strings.Fields(comment)
	if !ok || len(f) != 2 {
		return "", time.Time{}, nil
	}
	switch f[0] {
	case commentCreated, commentFinished, commentAbandoned, commentAt:
	default:
		return "", time.Time{}, nil
	}
	at, err := time.Parse(time.RFC3339Nano, f[1])
	if err != nil {
		return "", time.Time{}, fmt.Errorf("the %s time %q is not an RFC 3339 time", f[0], f[1])
	}
	return f[0], at, nil
}

// parseSeats reads the -seats list, one entry per seat: a Discord user id,
// each user in one seat only, or ai:NAME.
func parseSeats(list string, players int, rules engine.Rules) ([]storage.Seat, error) {
	names := strings.Split(list, ",")
	if len(names) != players {
		return nil, fmt.Errorf("-seats names %d seats, the game has %d", len(names), players)
	}
	seats := make([]storage.Seat, players)
	seated := map[string]int{}
	for i, n := range names {
		n = strings.TrimSpace(n)
		switch name, ok := strings.CutPrefix(n, "ai:"); {
		case n == "":
			return nil, fmt.Errorf("-seats: seat %d is empty", i+1)
		case ok:
			if _, err := ai.Lookup(rules, name); err != nil {
				return nil, fmt.Errorf("seat %d: %w", i+1, err)
			}
			seats[i].Computer = name
		default:
			if err := checkDiscordID(fmt.Sprintf("-seats: seat %d", i+1), n); err != nil {
				return nil, fmt.Errorf("%w; a computer player is ai:NAME", err)
			}
			if first, ok := seated[n]; ok {
				return nil, fmt.Errorf("-seats: user %s is in seats %d and %d; a person plays one seat", n, first, i+1)
			}
			seated[n] = i + 1
			seats[i].User = n
		}
	}
	return seats, nil
}
