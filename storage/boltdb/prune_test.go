package boltdb_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/storetest"
	bolt "go.etcd.io/bbolt"
)

// Interaction keys older than the horizon are forgotten as the store
// commits; younger ones answer their retries.
func TestKeysArePrunedAsCommitsGo(t *testing.T) {
	clock := &storetest.Clock{T: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	s, err := boltdb.Open(filepath.Join(t.TempDir(), "m.db"), storetest.Games(), boltdb.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.PrunesAsItCommits(t, s, clock)
}

// A damaged record of a kept interaction is found by Check, which names
// the interaction.
func TestADamagedCommitRecordIsFound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := boltdb.Open(path, storetest.Games(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	storetest.NewRace(t, s, "g1", "c1", 2, "1000")
	g, state, err := s.Load(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	p := state.Prompts()[0]
	if _, err := state.Apply(p.Seat, "roll"); err != nil {
		t.Fatal(err)
	}
	snap, _ := state.Encode()
	if _, err := s.Commit(context.Background(), "c1", g.Guard(), storage.Outcome{Key: "interaction-1", Entries: []storage.Entry{{Seat: p.Seat, Action: "roll"}}, Snapshot: snap}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := boltdb.Check(path, storetest.Games()); err != nil {
		t.Fatalf("check of an undamaged file: %v", err)
	}
	raw, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("commits"))
		v := bytes.Clone(b.Get([]byte("interaction-1")))
		v[20] ^= 1 // the time it was kept
		return b.Put([]byte("interaction-1"), v)
	})
	raw.Close()
	if _, err := boltdb.Check(path, storetest.Games()); !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "interaction-1") {
		t.Fatalf("check of a damaged commit record: %v", err)
	}
}
