package postgres_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
	"github.com/meeplegames/meeple/storage/storetest"
)

// A database of schema 6 (before the seat index) gets it from the step
// that adds it: each running game waits on the seats its state prompts,
// from its last change, and every active game's entries are written;
// an entry that disagrees with its game is damage Verify names.
func TestSeatIndexIsFilledAndVerified(t *testing.T) {
	dsn, s := filled(t)
	want := map[string][]storage.Seating{}
	for _, u := range []string{"u1", "u2"} {
		seats, err := s.Seatings(context.Background(), u)
		if err != nil || len(seats) == 0 {
			t.Fatalf("%s's entries: %+v, %v", u, seats, err)
		}
		want[u] = seats
	}
	s.Close()
	conn := connect(t, dsn)
	exec(t, conn, undoStep7)
	ctx := context.Background()
	rows, err := conn.Query(ctx, "SELECT id, record FROM games WHERE active")
	if err != nil {
		t.Fatal(err)
	}
	records := map[int64][]byte{}
	for rows.Next() {
		var id int64
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			t.Fatal(err)
		}
		g, err := storage.DecodeGame("", data)
		if err != nil {
			t.Fatal(err)
		}
		g.Waits = nil // as a build before waits wrote it
		if records[id], err = storage.EncodeGame(g); err != nil {
			t.Fatal(err)
		}
	}
	rows.Close()
	for id, data := range records {
		if _, err := conn.Exec(ctx, "UPDATE games SET record = $2 WHERE id = $1", id, data); err != nil {
			t.Fatal(err)
		}
	}

	s, err = postgres.Open(dsn, storetest.Games(), postgres.Options{Verify: true})
	if err != nil {
		t.Fatalf("open of schema 6: %v", err)
	}
	defer s.Close()
	for u, before := range want {
		seats, err := s.Seatings(ctx, u)
		if err != nil || len(seats) != len(before) {
			t.Fatalf("%s's entries after the step: %+v, %v; before: %+v", u, seats, err, before)
		}
		for _, st := range seats {
			g, state, err := s.Load(ctx, st.Channel)
			if err != nil {
				t.Fatal(err)
			}
			var waiting []engine.Seat
			if state != nil { // running, not in the lobby
				if p := state.Prompts()[0].Seat; slices.Contains(st.Seats, p) {
					waiting = []engine.Seat{p}
				}
			}
			if !slices.Equal(st.Waiting, waiting) || (st.Waits() && !st.Since.Equal(g.Updated)) {
				t.Errorf("%s's entry %+v after the step, want waiting on %v since %v", u, st, waiting, g.Updated)
			}
		}
	}
	exec(t, conn, "UPDATE game_users SET seating = set_byte(seating, 10, 0) WHERE user_id = 'u1' AND active")
	if err := s.Verify(); !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "seat index entry of user u1") {
		t.Errorf("Verify of a damaged seat index entry: %v, want ErrCorrupt naming it", err)
	}
	if _, err := s.Seatings(ctx, "u1"); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("reading a damaged seat index entry: %v, want ErrCorrupt", err)
	}
}
