package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
)

func runImport(args []string, stdout, stderr io.Writer) error {
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
	data, err := readInput(*script)
	if err != nil {
		return err
	}
	s, reg, err := sf.open(writeFile, slog.New(slog.NewTextHandler(stderr, nil)), stdout)
	if err != nil {
		return err
	}
	defer s.Close()
	g, err := scriptGame(data, *script)
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
	if err := s.Import(g); err != nil {
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
// with the times an export notes in its comments.
func scriptGame(data []byte, name string) (*storage.Game, error) {
	lines := strings.Split(string(data), "\n")
	kind, setup, ok := engine.ScriptHeader(lines[0])
	if !ok {
		return nil, fmt.Errorf("%s: the first line must be a header \"# game G players N seed S [name=value …]\", as meeple export writes", name)
	}
	moves, err := engine.ReadScript(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	g := &storage.Game{Kind: kind, Status: storage.StatusRunning, Setup: setup}
	for n, line := range lines[1:] {
		word, at, err := scriptTime(line)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", name, n+2, err)
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
	for _, m := range moves {
		_, at, _ := scriptTime(lines[m.Line-1])
		g.Log = append(g.Log, storage.Entry{Seat: m.Seat, Action: m.Action, At: at})
	}
	return g, nil
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

// parseSeats reads the -seats list, one entry per seat.
func parseSeats(list string, players int, rules engine.Rules) ([]storage.Seat, error) {
	names := strings.Split(list, ",")
	if len(names) != players {
		return nil, fmt.Errorf("-seats names %d seats, the game has %d", len(names), players)
	}
	seats := make([]storage.Seat, players)
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
			seats[i].User = n
		}
	}
	return seats, nil
}
