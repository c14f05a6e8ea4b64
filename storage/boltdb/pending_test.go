package boltdb_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	bolt "go.etcd.io/bbolt"
)

// A damaged pending reply is found by the check run and meeple check do,
// named by its interaction and never by its token, and a take leaves it
// while handing out the intact ones.
func TestVerifyFindsADamagedPendingReply(t *testing.T) {
	path := fillStore(t, 1, 2)
	s, err := boltdb.Open(path, registry(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"5001", "5002"} {
		p := storage.Pending{ID: id, App: "app1", Token: "secret-token-" + id, Received: time.Now(), Channel: "c0", Locale: "fr"}
		if err := s.KeepPending(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Verify(); err != nil {
		t.Fatalf("Verify of intact pending replies: %v", err)
	}
	s.Close()
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("pending"))
		v := b.Get([]byte("5001"))
		return b.Put([]byte("5001"), flipByte(v, len(v)/2))
	})
	_, err = boltdb.Open(path, registry(), boltdb.Options{Verify: true})
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "pending reply record 5001") || strings.Contains(err.Error(), "secret-token") {
		t.Fatalf("Open with Verify: %v, want ErrCorrupt naming pending reply 5001 and no token", err)
	}
	s = openStore(t, path, boltdb.Options{})
	taken, err := s.TakePending(context.Background(), func(storage.Pending) bool { return true })
	if !errors.Is(err, storage.ErrCorrupt) || len(taken) != 1 || taken[0].ID != "5002" {
		t.Fatalf("TakePending beside a damaged reply: %d taken, %v; want 5002 and ErrCorrupt", len(taken), err)
	}
}
