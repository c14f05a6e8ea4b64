package table

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// TestAGameLockIsFreeAfterAPanic panics under a game's lock and takes
// the lock again: With released it.
func TestAGameLockIsFreeAfterAPanic(t *testing.T) {
	locks := NewLocks()
	func() {
		defer func() { _ = recover() }()
		_ = locks.With("1", func() error { panic("boom") })
	}()
	if err := locks.With("1", func() error { return errors.New("ran") }); err == nil || err.Error() != "ran" {
		t.Fatalf("With after a panic: %v", err)
	}
}

// TestADueGameHasOneJobAtATime wakes a game twice before its job starts
// and once while it runs: one job, which goes on once for the wake it
// missed and then ends.
func TestADueGameHasOneJobAtATime(t *testing.T) {
	q := NewDueGames()
	q.Wake("1")
	q.Wake("1")
	q.Wake("2")
	if ch, ok := q.next(); !ok || ch != "1" {
		t.Fatalf("next = %q, %v; want 1, the oldest", ch, ok)
	}
	q.Wake("1") // while its job runs
	if !q.again("1", false) {
		t.Fatal("a job woken while it ran stopped")
	}
	if q.again("1", false) {
		t.Fatal("a job that did not move and was not woken went on")
	}
	if ch, ok := q.next(); !ok || ch != "2" {
		t.Fatalf("next = %q, %v; want 2 and no second job for 1", ch, ok)
	}
	q.again("2", false)
	q.close()
	if _, ok := q.next(); ok {
		t.Fatal("next handed out a game after close")
	}
	q.wait()
}

// scriptedStore is a Store whose Commit gives the errors listed, one a call,
// then a stored game.
type scriptedStore struct {
	Store
	errs    []error
	commits int
}

func (s *scriptedStore) Commit(context.Context, string, storage.Guard, storage.Outcome) (*storage.Game, error) {
	s.commits++
	if len(s.errs) == 0 {
		return &storage.Game{ID: 1}, nil
	}
	err := s.errs[0]
	s.errs = s.errs[1:]
	return nil, err
}

// TestACommitTellsThePlayerTheTruth retries a keyed commit while its
// answer is lost or its database down, and says what became of the move.
func TestACommitTellsThePlayerTheTruth(t *testing.T) {
	lost := fmt.Errorf("connection reset: %w", storage.ErrUnknownOutcome)
	down := fmt.Errorf("starting up: %w", storage.ErrUnavailable)
	always := func(err error) []error {
		errs := make([]error, len(commitRetries)+1)
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	for name, tc := range map[string]struct {
		key     string
		errs    []error
		want    error // nil: stored
		commits int
	}{
		"kept at once":                  {key: "k", commits: 1},
		"kept after a lost answer":      {key: "k", errs: []error{lost}, commits: 2},
		"lost throughout":               {key: "k", errs: always(lost), want: ErrUnknownOutcome, commits: len(commitRetries) + 1},
		"down throughout":               {key: "k", errs: always(down), want: ErrNotRecorded, commits: len(commitRetries) + 1},
		"lost, then down throughout":    {key: "k", errs: append([]error{lost}, always(down)[1:]...), want: ErrUnknownOutcome, commits: len(commitRetries) + 1},
		"lost, then refused":            {key: "k", errs: []error{lost, storage.ErrStale}, want: ErrNotRecorded, commits: 2},
		"refused":                       {key: "k", errs: []error{storage.ErrStale}, want: storage.ErrStale, commits: 1},
		"without a key, never retried":  {errs: []error{lost}, want: storage.ErrUnknownOutcome, commits: 1},
		"lost, then found already kept": {key: "k", errs: []error{lost, &storage.AppliedError{Game: &storage.Game{ID: 1}}}, want: storage.ErrApplied, commits: 2},
	} {
		t.Run(name, func(t *testing.T) {
			s := &scriptedStore{errs: tc.errs}
			var paused time.Duration
			ref := NewReferee(Config{Store: s, Games: engine.NewRegistry(), Locks: NewLocks(), Now: time.Now,
				After: func(d time.Duration, f func()) func() bool { paused += d; f(); return func() bool { return false } }})
			_, err := ref.commit(context.Background(), "1", storage.Guard{Game: 1}, storage.Outcome{Key: tc.key})
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if s.commits != tc.commits {
				t.Errorf("%d commits, want %d", s.commits, tc.commits)
			}
			if tc.commits > 1 && paused == 0 {
				t.Error("retried without a pause")
			}
		})
	}
}
