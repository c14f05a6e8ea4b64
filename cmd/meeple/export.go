package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

func runExport(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("export", stderr)
	sf := addStoreFlags(fs)
	channel := fs.String("channel", "", "Discord channel (or thread) id of an active game")
	id := fs.Uint64("game", 0, "id of any game, active or archived (instead of -channel)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*channel == "") == (*id == 0) {
		fmt.Fprintln(stderr, "meeple export: give -channel or -game")
		return errUsage
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	s, _, err := sf.open(salvageFile, getenv, slog.New(slog.NewTextHandler(stderr, nil)), stdout)
	if err != nil {
		return err
	}
	defer s.Close()
	var g *storage.Game
	if *channel != "" {
		g, err = s.Get(ctx, *channel)
	} else {
		g, err = s.GetByID(ctx, *id)
	}
	if err != nil {
		return withAdvice(s.String(), err)
	}
	if g.Status == storage.StatusLobby {
		return fmt.Errorf("the game in channel %s has not started: nothing to export", g.Channel)
	}
	return writeGame(stdout, g)
}

// Comments an export adds to the script for import to read back: when the
// game was created and archived, and when each action was taken. Replay
// and the other script readers skip them as comments.
const (
	commentCreated   = "created"
	commentFinished  = "finished"
	commentAbandoned = "abandoned"
	commentAt        = "at"
)

// writeGame writes g as a script with its times.
func writeGame(w io.Writer, g *storage.Game) error {
	if err := engine.WriteScript(w, g.Kind, g.Setup, nil); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s %s\n", commentCreated, g.Created.UTC().Format(time.RFC3339Nano))
	switch g.Status {
	case storage.StatusFinished:
		fmt.Fprintf(bw, "# %s %s\n", commentFinished, g.Finished.UTC().Format(time.RFC3339Nano))
	case storage.StatusAbandoned:
		fmt.Fprintf(bw, "# %s %s\n", commentAbandoned, g.Finished.UTC().Format(time.RFC3339Nano))
	}
	for _, e := range g.Log {
		m := engine.Move{Seat: e.Seat, Action: e.Action}
		fmt.Fprintf(bw, "%s  # %s %s\n", m, commentAt, e.At.UTC().Format(time.RFC3339Nano))
	}
	return bw.Flush()
}
