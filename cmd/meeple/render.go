package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/wording"
)

func runRender(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("render", stderr)
	gf := addGameFlags(fs)
	script := fs.String("script", "", "file of actions to apply first, one \"P<seat>: <action>\" a line (- for standard input); none renders the start")
	out := fs.String("out", "", "folder to write the images to (created if missing)")
	names := fs.String("names", "", "players' display names for the legends, separated by commas")
	lang := addLangFlag(fs, "the images' words")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		fmt.Fprintln(stderr, "meeple render: -out is required")
		return errUsage
	}
	var sf scriptFile
	if *script != "" {
		var err error
		if sf, err = readScriptFile(*script); err != nil {
			return err
		}
		gf.adopt(fs, sf)
	}
	rules, setup, err := gf.setup()
	if err != nil {
		return err
	}
	seatNames, err := renderNames(*names, setup.Players)
	if err != nil {
		return err
	}
	state, err := rules.New(setup)
	if err != nil {
		return worded(nil, rules, err)
	}
	if err := applyMoves(rules, state, sf.moves); err != nil {
		return err
	}
	printer, err := lang.printer(fs, getenv)
	if err != nil {
		return err
	}
	r, err := imaging.New()
	if err != nil {
		return err
	}
	images, err := renderState(r, state, wording.ForRules(printer, rules, seatNames))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	for _, img := range images {
		path := filepath.Join(*out, img.name)
		if err := os.WriteFile(path, img.png, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\t%d bytes\n", path, len(img.png))
	}
	return nil
}

// renderNames reads -names: none, or one name for each of the players,
// none of them blank.
func renderNames(list string, players int) ([]string, error) {
	if list == "" {
		return nil, nil
	}
	names := strings.Split(list, ",")
	if len(names) != players {
		return nil, badFlag("names", fmt.Sprintf("%d %s", len(names), plural(len(names), "name", "names")),
			fmt.Sprintf("the game has %d players; give one name for each, in seat order", players))
	}
	for i, n := range names {
		if strings.TrimSpace(n) == "" {
			return nil, badFlag("names", fmt.Sprintf("%q", list), fmt.Sprintf("the name of seat %d is blank", i+1))
		}
	}
	return names, nil
}

// plural is one or many as n says.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// namedImage is one file "meeple render" writes.
type namedImage struct {
	name string
	png  []byte
}

// renderState draws the public board and its glance (from the spectator's
// view), every seat's private mat where the game has them, and the scores
// once the game is over.
func renderState(r *imaging.Renderer, state engine.State, w *wording.Words) ([]namedImage, error) {
	public := state.View(engine.Spectator)
	board, err := r.Board(public, w)
	if err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	glance, err := r.Glance(public, w)
	if err != nil {
		return nil, fmt.Errorf("glance: %w", err)
	}
	images := []namedImage{{"board.png", board}, {"glance.png", glance}}
	for seat := 0; seat < state.Players(); seat++ {
		mat, err := r.Mat(state.View(engine.Seat(seat)), w)
		if errors.Is(err, imaging.ErrNoMat) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("mat of P%d: %w", seat+1, err)
		}
		images = append(images, namedImage{fmt.Sprintf("mat-p%d.png", seat+1), mat})
	}
	if state.Over() {
		scores, err := r.Scores(public, w)
		if err != nil {
			return nil, fmt.Errorf("scores: %w", err)
		}
		images = append(images, namedImage{"scores.png", scores})
	}
	return images, nil
}
