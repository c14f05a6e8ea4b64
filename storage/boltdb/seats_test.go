package boltdb_test

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	bolt "go.etcd.io/bbolt"
)

// toLayout3 takes a file back to layout 3, as a build before the seat
// index left it: no user-seats bucket, and game records without waits.
func toLayout3(t *testing.T, path string) {
	t.Helper()
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte("user-seats")); err != nil {
			return err
		}
		games := tx.Bucket([]byte("games"))
		err := games.ForEach(func(k, v []byte) error {
			g, err := storage.DecodeGame("", v)
			if err != nil {
				return err
			}
			g.Waits = nil
			data, err := storage.EncodeGame(g)
			if err != nil {
				return err
			}
			return games.Put(k, data)
		})
		if err != nil {
			return err
		}
		return tx.Bucket([]byte("meta")).Put([]byte("layout"), binary.AppendUvarint(nil, 3))
	})
}

// A file of layout 3 is upgraded once: each running game waits on the
// seats its state prompts, from its last change, and the seat index
// holds every active game's entries, which Check then verifies; a
// damaged entry is damage Check names.
func TestLayout3FileGetsItsSeatIndex(t *testing.T) {
	path := fillStore(t, 2, 1) // two races of u1 and u2, each at u2's turn
	toLayout3(t, path)
	s := openStore(t, path, boltdb.Options{Verify: true})
	if file, _, _ := s.Layout(); file != 4 {
		t.Fatalf("layout %d after the upgrade, want 4", file)
	}
	for _, c := range []struct {
		user    string
		waiting []engine.Seat
	}{{"u1", nil}, {"u2", []engine.Seat{1}}} {
		seats, err := s.Seatings(context.Background(), c.user)
		if err != nil || len(seats) != 2 {
			t.Fatalf("%s's entries after the upgrade: %+v, %v; want both games", c.user, seats, err)
		}
		for _, st := range seats {
			g, _ := s.GetByID(context.Background(), st.Game)
			if !slices.Equal(st.Waiting, c.waiting) || (st.Waits() && !st.Since.Equal(g.Updated)) {
				t.Errorf("%s's entry %+v, want waiting on %v since %v", c.user, st, c.waiting, g.Updated)
			}
		}
	}
	s.Close()

	rawUpdate(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("user-seats"))
		k, v := b.Cursor().First()
		return b.Put(k, flipByte(v, len(v)/2))
	})
	s = openStore(t, path, boltdb.Options{})
	if err := s.Verify(); !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "user-seats") {
		t.Fatalf("Verify of a damaged seat index entry: %v, want ErrCorrupt naming user-seats", err)
	}
	if _, err := s.Seatings(context.Background(), "u1"); !errors.Is(err, storage.ErrCorrupt) {
		t.Fatalf("reading a damaged seat index entry: %v, want ErrCorrupt", err)
	}
}
