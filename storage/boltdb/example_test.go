package boltdb_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// A game's life in the store: create it in a channel, apply each action to
// the loaded state and append it with the state after it, then finish it.
func Example() {
	s, _, closeStore, err := startExampleRace()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer closeStore()
	for {
		g, state, err := s.Load(context.Background(), "200")
		if err != nil {
			fmt.Println(err)
			return
		}
		if state.Over() {
			res := state.Result()
			if _, err := s.Finish(context.Background(), "200", g.Guard(), storage.StatusFinished, &res); err != nil {
				fmt.Println(err)
			}
			fmt.Println("finished after", g.Version, "actions, scores", res.Scores)
			break
		}
		p := state.Prompts()[0]
		if _, err := state.Apply(p.Seat, "step 3"); err != nil {
			fmt.Println(err)
			return
		}
		snap, _ := state.Encode()
		if _, err := s.Append(context.Background(), "200", g.Guard(), storage.Entry{Seat: p.Seat, Action: "step 3"}, snap); errors.Is(err, storage.ErrStale) {
			continue // someone else moved first: load again
		} else if err != nil {
			fmt.Println(err)
			return
		}
	}
	stats, _ := s.Stats(context.Background(), "300")
	fmt.Printf("user 300: played %d, won %d, best %d\n", stats[0].Played, stats[0].Won, stats[0].Best)
	// Output:
	// finished after 3 actions, scores [6 3]
	// user 300: played 1, won 1, best 6
}

// startExampleRace opens a store in a fresh temporary folder and creates a
// race in channel 200 between user 300 and a computer; closeStore closes the
// store and removes the folder.
func startExampleRace() (s *boltdb.Store, g *storage.Game, closeStore func(), err error) {
	dir, err := os.MkdirTemp("", "meeple")
	if err != nil {
		return nil, nil, nil, err
	}
	s, err = boltdb.Open(filepath.Join(dir, "meeple.db"), engine.NewRegistry(race{}), boltdb.Options{})
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, nil, err
	}
	closeStore = func() { s.Close(); os.RemoveAll(dir) }
	g = &storage.Game{
		Kind: "race", Guild: "100", Channel: "200", Creator: "300", Status: storage.StatusRunning,
		Setup: engine.Setup{Players: 2, Seed: 1, Options: map[string]string{"goal": "5"}},
		Seats: []storage.Seat{{User: "300"}, {Computer: "random"}},
	}
	if err := s.Create(context.Background(), g); err != nil {
		closeStore()
		return nil, nil, nil, err
	}
	return s, g, closeStore, nil
}
