package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// seatingOf is user's seat index entry for game id, or false.
func seatingOf(t *testing.T, s Store, user string, id uint64) (storage.Seating, bool) {
	t.Helper()
	seats, err := s.Seatings(context.Background(), user)
	if err != nil {
		t.Fatalf("seatings of %s: %v", user, err)
	}
	for _, st := range seats {
		if st.Game == id {
			return st, true
		}
	}
	return storage.Seating{}, false
}

// testSeatIndex follows one user's seat index entries through a game's
// life: the lobby, the start, actions that move the wait from seat to
// seat, the bot's fields (deadline, board), an undo, a reopening, and
// the end, which takes the entries away; other users' games never show.
func testSeatIndex(t *testing.T, opener Opener) {
	s := open(t, opener)
	lobby := &storage.Game{Kind: "race", Guild: "g1", Channel: "c1", Creator: "u1", Status: storage.StatusLobby,
		Setup: RaceSetup(2), Seats: []storage.Seat{{User: "u1"}, {User: "u2"}}}
	if err := s.Create(context.Background(), lobby); err != nil {
		t.Fatal(err)
	}
	other := NewRace(t, s, "g2", "c2", 3, "1000000") // u1, u2, u3: waits on u1 (seat 1)
	NewRace(t, s, "g2", "c3", 1, "1000000")          // u1 alone
	if st, ok := seatingOf(t, s, "u1", lobby.ID); !ok || st.Status != storage.StatusLobby || st.Waits() || st.Channel != "c1" || st.Guild != "g1" {
		t.Fatalf("u1's entry for the lobby: %+v, %v", st, ok)
	}
	if seats, _ := s.Seatings(context.Background(), "u3"); len(seats) != 1 || seats[0].Game != other.ID || seats[0].Waits() {
		t.Fatalf("u3's entries: %+v, want the one game, not waiting on them", seats)
	}
	if seats, _ := s.Seatings(context.Background(), "u9"); len(seats) != 0 {
		t.Fatalf("a user in no game has entries: %+v", seats)
	}

	started, _, err := s.Start(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := seatingOf(t, s, "u1", started.ID)
	if st.Status != storage.StatusRunning || !slices.Equal(st.Waiting, []engine.Seat{0}) || !st.Since.Equal(started.Updated) {
		t.Fatalf("u1's entry after the start: %+v, want waiting on seat 1 since %v", st, started.Updated)
	}
	if st, _ := seatingOf(t, s, "u2", started.ID); st.Waits() || !slices.Equal(st.Seats, []engine.Seat{1}) {
		t.Fatalf("u2's entry after the start: %+v", st)
	}

	// u1 moves: the game now waits on u2, since that move.
	at := time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC)
	g, o := outcome(t, s, "c1", 1)
	o.Entries[0].At, o.Waiting = at, []engine.Seat{1}
	deadline := at.Add(48 * time.Hour)
	o.Edit = func(g *storage.Game) error {
		g.Deadline, g.Messages = deadline, map[string]string{storage.BoardMessage: "m1"}
		return nil
	}
	if _, err := s.Commit(context.Background(), "c1", g.Guard(), o); err != nil {
		t.Fatal(err)
	}
	if st, _ := seatingOf(t, s, "u1", g.ID); st.Waits() || !st.Since.IsZero() || st.Board != "m1" || !st.Deadline.Equal(deadline) {
		t.Fatalf("u1's entry after their move: %+v", st)
	}
	st, _ = seatingOf(t, s, "u2", g.ID)
	if !st.Waits() || !st.Since.Equal(at) || st.Board != "m1" || !st.Deadline.Equal(deadline) {
		t.Fatalf("u2's entry after u1's move: %+v, want waiting since %v, board m1, deadline %v", st, at, deadline)
	}

	// An edit alone (the board moves) keeps the wait's beginning.
	if _, err := s.Update(context.Background(), "c1", g.ID, func(g *storage.Game) error { g.Messages[storage.BoardMessage] = "m2"; return nil }); err != nil {
		t.Fatal(err)
	}
	if st, _ := seatingOf(t, s, "u2", g.ID); st.Board != "m2" || !st.Since.Equal(at) {
		t.Fatalf("u2's entry after the board moved: %+v", st)
	}
	if _, err := s.Update(context.Background(), "c1", g.ID, func(g *storage.Game) error { g.Waits = nil; return nil }); err == nil {
		t.Fatal("an update changed the waits, which are the store's")
	}
	// A commit that names a seat the table lacks is refused.
	g, o = outcome(t, s, "c1", 1)
	o.Waiting = []engine.Seat{5}
	if _, err := s.Commit(context.Background(), "c1", g.Guard(), o); err == nil {
		t.Fatal("a commit waiting on seat 6 of 2 was kept")
	}

	// A seat that changes hands takes its wait along.
	if _, err := s.Update(context.Background(), "c1", g.ID, func(g *storage.Game) error { g.Seats[1] = storage.Seat{User: "u7"}; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, ok := seatingOf(t, s, "u2", g.ID); ok {
		t.Fatal("u2 keeps an entry for the seat they handed over")
	}
	if st, _ := seatingOf(t, s, "u7", g.ID); !st.Waits() || !st.Since.Equal(at) {
		t.Fatalf("u7's entry for the seat they took: %+v", st)
	}

	// Undo: the game waits on u1 again, from the undo.
	undone, _, err := s.Undo(context.Background(), "c1", g.Guard(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := seatingOf(t, s, "u1", g.ID); !st.Waits() || !st.Since.Equal(undone.Updated) {
		t.Fatalf("u1's entry after the undo: %+v, want waiting since %v", st, undone.Updated)
	}

	// Everything survives reopening.
	before, _ := s.Seatings(context.Background(), "u1")
	s.Close()
	s = open(t, opener)
	if after, err := s.Seatings(context.Background(), "u1"); err != nil || fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("u1's entries after reopening: %+v, %v; before: %+v", after, err, before)
	}

	// The end takes the game out of everyone's entries.
	if _, err := s.Finish(context.Background(), "c1", undone.Guard(), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"u1", "u7"} {
		if _, ok := seatingOf(t, s, u, g.ID); ok {
			t.Fatalf("%s keeps an entry for the abandoned game", u)
		}
	}
	if seats, _ := s.Seatings(context.Background(), "u1"); len(seats) != 2 {
		t.Fatalf("u1's entries after one game ended: %+v, want the other two", seats)
	}
}
