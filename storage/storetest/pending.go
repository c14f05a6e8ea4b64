package storetest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage"
)

// testPendingReplies: a store keeps pending replies through a restart,
// exactly as given, forgets one when told, hands each one out to one of
// several takers at once and only those the taker accepts, knows which
// interactions' commits it kept, and forgets replies received before a
// prune.
func testPendingReplies(t *testing.T, opener Opener) {
	s := open(t, opener)
	at := time.Now().UTC().Truncate(time.Microsecond) // within the store's prune horizon
	reply := func(id string, received time.Time) storage.Pending {
		return storage.Pending{ID: id, App: "app1", Token: "token-" + id, Received: received, Guild: "g1", Channel: "c1", Game: 7, Locale: "de", Owner: "run-a"}
	}
	for _, p := range []storage.Pending{reply("2001", at), reply("2002", at.Add(-time.Hour)), reply("2003", at), reply("2004", at)} {
		if err := s.KeepPending(context.Background(), p); err != nil {
			t.Fatalf("KeepPending(%s): %v", p.ID, err)
		}
	}
	for _, bad := range []storage.Pending{{App: "a", Token: "t", Received: at}, {ID: "1", Token: "t", Received: at}, {ID: "1", App: "a", Received: at}, {ID: "1", App: "a", Token: "t"}} {
		if err := s.KeepPending(context.Background(), bad); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("KeepPending(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
	if err := s.DropPending(context.Background(), "2004"); err != nil {
		t.Fatal(err)
	}
	if err := s.DropPending(context.Background(), "2999"); err != nil {
		t.Fatalf("dropping a reply the store does not hold: %v", err)
	}
	s.Close()
	s = open(t, opener)
	ids := func(ps []storage.Pending) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		slices.Sort(out)
		return out
	}
	none, err := s.TakePending(context.Background(), func(storage.Pending) bool { return false })
	if err != nil || len(none) != 0 {
		t.Fatalf("a taker that accepts nothing got %v, %v", ids(none), err)
	}
	// Several processes take at once: each reply goes to one of them, and
	// only the ones they accept.
	var (
		mu  sync.Mutex
		got []storage.Pending
		wg  sync.WaitGroup
	)
	for range 4 {
		wg.Go(func() {
			ps, err := s.TakePending(context.Background(), func(p storage.Pending) bool { return p.ID != "2003" })
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			got = append(got, ps...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if !slices.Equal(ids(got), []string{"2001", "2002"}) {
		t.Fatalf("four takers at once got %v, want 2001 and 2002 once each (2003 refused, 2004 dropped)", ids(got))
	}
	for _, p := range got {
		want := reply(p.ID, at)
		if p.ID == "2002" {
			want.Received = at.Add(-time.Hour)
		}
		if !p.Received.Equal(want.Received) {
			t.Errorf("reply %s was received at %v, read back as %v", p.ID, want.Received, p.Received)
		}
		p.Received = want.Received
		if p != want {
			t.Errorf("reply read back as %+v, kept as %+v", p, want)
		}
	}
	if again, err := s.TakePending(context.Background(), func(storage.Pending) bool { return true }); err != nil || !slices.Equal(ids(again), []string{"2003"}) {
		t.Fatalf("after the take, the store holds %v (%v), want 2003 alone", ids(again), err)
	}

	// A prune forgets the replies received before its bound.
	for _, p := range []storage.Pending{reply("3001", at), reply("3002", at.Add(-time.Minute))} {
		if err := s.KeepPending(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.PruneKeys(context.Background(), at); err != nil {
		t.Fatal(err)
	}
	if left, err := s.TakePending(context.Background(), func(storage.Pending) bool { return true }); err != nil || !slices.Equal(ids(left), []string{"3001"}) {
		t.Fatalf("after a prune, the store holds %v (%v), want 3001 alone", ids(left), err)
	}

	// Committed knows the interactions whose commits were kept.
	NewRace(t, s, "g1", "c1", 2, "1000")
	g, state, err := s.Load(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(context.Background(), "c1", g.Guard(), commitNext(t, g, state, "4001")); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]bool{"4001": true, "4002": false} {
		if kept, err := s.Committed(context.Background(), key); err != nil || kept != want {
			t.Errorf("Committed(%s) = %v, %v; want %v", key, kept, err, want)
		}
	}
}
