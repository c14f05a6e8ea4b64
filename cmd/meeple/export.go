package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

func runExport(args []string, stdout, stderr io.Writer) error {
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
	s, _, err := sf.open(readFile, slog.New(slog.NewTextHandler(stderr, nil)), stdout)
	if err != nil {
		return err
	}
	defer s.Close()
	var g *storage.Game
	if *channel != "" {
		g, err = s.Get(*channel)
	} else {
		g, err = s.GetByID(*id)
	}
	if err != nil {
		return err
	}
	if g.Status == storage.StatusLobby {
		return fmt.Errorf("the game in channel %s has not started: nothing to export", g.Channel)
	}
	return engine.WriteScript(stdout, g.Kind, g.Setup, g.Moves())
}
