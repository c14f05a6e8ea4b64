package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage"
)

// Clock is a settable clock for a store's Now option.
type Clock struct{ T time.Time }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { return c.T }

// PrunesAsItCommits checks that s, opened with clock's Now, forgets keys
// older than storage.KeyHorizon as it commits, and never one inside it: a
// key kept 50 minutes ago still answers its retry, and one kept more than
// the horizon ago is forgotten at a commit PruneEvery or more after the
// last pruning (its retry is then refused as stale).
func PrunesAsItCommits(t *testing.T, s Store, clock *Clock) {
	NewRace(t, s, "g1", "c1", 2, "1000")
	commit := func(key string) (storage.Guard, storage.Outcome) {
		t.Helper()
		g, state, err := s.Load(context.Background(), "c1")
		if err != nil {
			t.Fatal(err)
		}
		o := commitNext(t, g, state, key)
		if _, err := s.Commit(context.Background(), "c1", g.Guard(), o); err != nil {
			t.Fatal(err)
		}
		return g.Guard(), o
	}
	retry := func(at storage.Guard, o storage.Outcome) error {
		_, err := s.Commit(context.Background(), "c1", at, o)
		return err
	}
	t0 := clock.T
	at1, o1 := commit("k1")
	clock.T = t0.Add(50 * time.Minute)
	at2, o2 := commit("k2")
	if err := retry(at1, o1); !errors.Is(err, storage.ErrApplied) {
		t.Fatalf("a retry 50 minutes later: %v, want ErrApplied", err)
	}
	clock.T = t0.Add(storage.KeyHorizon + 5*time.Minute)
	commit("k3")
	if err := retry(at1, o1); !errors.Is(err, storage.ErrStale) {
		t.Fatalf("a retry past the horizon: %v, want ErrStale (its key forgotten)", err)
	}
	if err := retry(at2, o2); !errors.Is(err, storage.ErrApplied) {
		t.Fatalf("a retry of a key kept 15 minutes ago: %v, want ErrApplied", err)
	}
}
