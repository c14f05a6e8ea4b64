package boltdb_test

import (
	"context"
	"fmt"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// One interaction, one transaction: a player's action, the computer's
// answers it sets off, the next deadline and, when the game ends, its
// ending, all kept by one Commit from the version the interaction read.
func ExampleStore_Commit() {
	s, g, closeStore, err := startExampleRace()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer closeStore()
	for g.Finished.IsZero() {
		g0, state, err := s.Load(context.Background(), "200")
		if err != nil {
			fmt.Println(err)
			return
		}
		var o storage.Outcome
		for _, seat := range []engine.Seat{0, 1} { // the player, then the computer
			if state.Over() {
				break
			}
			if _, err := state.Apply(seat, "step 3"); err != nil {
				fmt.Println(err)
				return
			}
			o.Entries = append(o.Entries, storage.Entry{Seat: seat, Action: "step 3"})
		}
		o.Snapshot, _ = state.Encode()
		if state.Over() {
			res := state.Result()
			o.Finish = &storage.Ending{Status: storage.StatusFinished, Result: &res}
		} else {
			o.Edit = func(g *storage.Game) error { g.Deadline = time.Now().Add(48 * time.Hour); return nil }
		}
		if g, err = s.Commit(context.Background(), "200", g0.Guard(), o); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("version", g.Version, "status", g.Status, "deadline set:", !g.Deadline.IsZero())
	}
	// Output:
	// version 2 status running deadline set: true
	// version 3 status finished deadline set: false
}
