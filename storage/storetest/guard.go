package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// commitNext is the commit of g's next action (as Play plays it) on its
// state, with key as the interaction's key.
func commitNext(t *testing.T, g *storage.Game, state engine.State, key string) storage.Outcome {
	t.Helper()
	p := state.Prompts()[0]
	action := NextAction(g.Version)
	if _, err := state.Apply(p.Seat, action); err != nil {
		t.Fatal(err)
	}
	snap, err := state.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return storage.Outcome{Key: key, Entries: []storage.Entry{{Seat: p.Seat, Action: action}}, Snapshot: snap}
}

// refusedAsStale checks that every kind of write guarded by at, a guard
// that no longer holds in channel, is refused with a *VersionError and
// changes nothing.
func refusedAsStale(t *testing.T, s Store, channel string, at storage.Guard, o storage.Outcome) {
	t.Helper()
	before, err := s.Get(context.Background(), channel)
	if err != nil {
		t.Fatal(err)
	}
	var ve *storage.VersionError
	if _, err := s.Commit(context.Background(), channel, at, o); !errors.Is(err, storage.ErrStale) || !errors.As(err, &ve) || ve.Expected != at || ve.Actual != before.Guard() {
		t.Errorf("stale commit: %v, want a VersionError from %+v to %+v", err, at, before.Guard())
	}
	if _, err := s.Append(context.Background(), channel, at, o.Entries[0], o.Snapshot); !errors.Is(err, storage.ErrStale) {
		t.Errorf("stale append: %v, want ErrStale", err)
	}
	if _, _, err := s.Undo(context.Background(), channel, at, 1); !errors.Is(err, storage.ErrStale) {
		t.Errorf("stale undo: %v, want ErrStale", err)
	}
	if _, err := s.Finish(context.Background(), channel, at, storage.StatusAbandoned, nil); !errors.Is(err, storage.ErrStale) {
		t.Errorf("stale abandon: %v, want ErrStale", err)
	}
	if at.Game != before.ID {
		if _, err := s.Update(context.Background(), channel, at.Game, func(g *storage.Game) error { g.Nudged = g.Updated; return nil }); !errors.Is(err, storage.ErrStale) {
			t.Errorf("an edit meant for game %d applied to game %d: %v, want ErrStale", at.Game, before.ID, err)
		}
	}
	after, err := s.Get(context.Background(), channel)
	if err != nil {
		t.Fatal(err)
	}
	if after.ID != before.ID || after.Revision != before.Revision || after.Version != before.Version ||
		!bytes.Equal(after.Snapshot, before.Snapshot) || !after.Nudged.Equal(before.Nudged) || after.Status != before.Status {
		t.Fatalf("refused stale writes changed the game: %+v, was %+v", after, before)
	}
	if !bytes.Equal(after.Snapshot, Replayed(t, after)) {
		t.Fatal("the game's log no longer replays to its snapshot")
	}
}

// testReplacedGame: a writer loads a game; the game ends and another
// starts in its channel and reaches the same version; the writer's
// writes, based on the first game, are refused.
func testReplacedGame(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 2, "1000000")
	for range 12 {
		Play(t, s, "c1")
	}
	first, state, err := s.Load(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	stale := commitNext(t, first, state, "")
	if _, err := s.Finish(context.Background(), "c1", first.Guard(), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	second := NewRace(t, s, "g1", "c1", 2, "1000000")
	for range 12 {
		Play(t, s, "c1")
	}
	if g, _ := s.Get(context.Background(), "c1"); g.ID != second.ID || g.Version != first.Version {
		t.Fatalf("the second game is game %d at version %d, want game %d at version %d", g.ID, g.Version, second.ID, first.Version)
	}
	refusedAsStale(t, s, "c1", first.Guard(), stale)
	if g, _ := s.GetByID(context.Background(), first.ID); g.Status != storage.StatusAbandoned || g.Version != first.Version {
		t.Fatalf("the first game after the refused writes: %s at version %d", g.Status, g.Version)
	}
}

// testUndoneHistory: a writer loads a game; meanwhile its last action is
// undone and a different one played, which brings the version back; the
// writer's writes, based on the history that was undone, are refused.
// Every revision the game passes through is new.
func testUndoneHistory(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 2, "1000000")
	for range 5 {
		Play(t, s, "c1")
	}
	seen := map[uint64]bool{}
	g, state, err := s.Load(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	seen[g.Revision] = true
	before := g.Guard()
	stale := commitNext(t, g, state.Clone(), "")
	// another writer: an action, its undo, and a different action
	after, err := s.Commit(context.Background(), "c1", before, commitNext(t, g, state.Clone(), ""))
	if err != nil {
		t.Fatal(err)
	}
	seen[after.Revision] = true
	undone, state, err := s.Undo(context.Background(), "c1", after.Guard(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if seen[undone.Revision] {
		t.Fatalf("the undo brought revision %d back", undone.Revision)
	}
	seen[undone.Revision] = true
	p := state.Prompts()[0]
	other := "step 1" // not NextAction(5), "roll"
	if _, err := state.Apply(p.Seat, other); err != nil {
		t.Fatal(err)
	}
	snap, _ := state.Encode()
	again, err := s.Commit(context.Background(), "c1", undone.Guard(), storage.Outcome{Entries: []storage.Entry{{Seat: p.Seat, Action: other}}, Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	if seen[again.Revision] || again.Version != after.Version {
		t.Fatalf("after undo and another action: version %d (want %d), revision %d (seen: %v)", again.Version, after.Version, again.Revision, seen[again.Revision])
	}
	refusedAsStale(t, s, "c1", before, stale)         // the history the writer loaded
	refusedAsStale(t, s, "c1", after.Guard(), stale)  // the same version, another history
	refusedAsStale(t, s, "c1", undone.Guard(), stale) // a revision the game had, not has
	if g, _ := s.Get(context.Background(), "c1"); g.Log[5].Action != other {
		t.Fatalf("action 6 is %q, want %q", g.Log[5].Action, other)
	}
}

// testRetriedCommit: a commit that carries its interaction's key is kept
// once; its retry (after a lost answer) is told it was applied, with the
// game as stored, and writes nothing, even after the game moved on or
// ended, and after the store is opened again.
func testRetriedCommit(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 2, "6")
	g, state, err := s.Load(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	o := commitNext(t, g, state, "1234567890123456789")
	done, err := s.Commit(context.Background(), "c1", g.Guard(), o)
	if err != nil {
		t.Fatal(err)
	}
	retry := func(when string) {
		t.Helper()
		before, _ := s.GetByID(context.Background(), g.ID)
		_, err := s.Commit(context.Background(), "c1", g.Guard(), o)
		var ae *storage.AppliedError
		if !errors.Is(err, storage.ErrApplied) || !errors.As(err, &ae) || ae.Game.ID != g.ID {
			t.Fatalf("%s: retry: %v, want an AppliedError naming game %d", when, err, g.ID)
		}
		if after, _ := s.GetByID(context.Background(), g.ID); after.Version != before.Version || after.Revision != before.Revision {
			t.Fatalf("%s: the retry changed the game", when)
		}
	}
	retry("at once")
	if done.Version != 1 {
		t.Fatalf("the commit left version %d, want 1", done.Version)
	}
	Play(t, s, "c1")
	retry("after the game moved on")
	s.Close()
	s = open(t, opener)
	retry("after opening the store again")
	if _, err := s.Commit(context.Background(), "c1", GuardAt(t, s, "c1", 2), storage.Outcome{Key: "x\x00"}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("a key that is no id: %v, want ErrInvalid", err)
	}
}

// Interaction keys are forgotten only when kept before the time PruneKeys
// is given: a retry inside the horizon still finds its commit, and one
// after it is refused all the same, as stale (its revision moved on).
func testPruneKeys(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 2, "1000")
	g, state, err := s.Load(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	o := commitNext(t, g, state, "interaction-1")
	kept := time.Now()
	if _, err := s.Commit(context.Background(), "c1", g.Guard(), o); err != nil {
		t.Fatal(err)
	}
	for _, before := range []time.Time{kept.Add(-storage.KeyHorizon), kept.Add(-time.Minute)} {
		if n, err := s.PruneKeys(context.Background(), before); n != 0 || err != nil {
			t.Fatalf("PruneKeys(%v before the commit) = %d, %v; want 0", kept.Sub(before), n, err)
		}
		if _, err := s.Commit(context.Background(), "c1", g.Guard(), o); !errors.Is(err, storage.ErrApplied) {
			t.Fatalf("a retry after pruning older keys: %v, want ErrApplied", err)
		}
	}
	if n, err := s.PruneKeys(context.Background(), time.Now().Add(time.Minute)); n != 1 || err != nil {
		t.Fatalf("PruneKeys after the commit = %d, %v; want 1", n, err)
	}
	if _, err := s.Commit(context.Background(), "c1", g.Guard(), o); !errors.Is(err, storage.ErrStale) {
		t.Fatalf("a retry once its key is forgotten: %v, want ErrStale", err)
	}
	if got, _ := s.Get(context.Background(), "c1"); got.Version != 1 {
		t.Fatalf("version %d after one commit and its retries, want 1", got.Version)
	}
}
