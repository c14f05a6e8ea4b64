package boltdb_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/storetest"
	bolt "go.etcd.io/bbolt"
)

// counted is s's GameCounts as text.
func counted(t *testing.T, s *boltdb.Store) string { t.Helper(); return countedTB(t, s) }

func countedTB(t testing.TB, s *boltdb.Store) string {
	t.Helper()
	counts, err := s.GameCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, c := range counts {
		parts = append(parts, fmt.Sprintf("%s %s %d", c.Kind, c.Status, c.Games))
	}
	return strings.Join(parts, ", ")
}

// toLayout2 takes a file back to layout 2, as a build before the tally
// left it.
func toLayout2(t *testing.T, path string) {
	t.Helper()
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte("tally")); err != nil {
			return err
		}
		return tx.Bucket([]byte("meta")).Put([]byte("layout"), binary.AppendUvarint(nil, 2))
	})
}

// A file of layout 2 has no tally: read-only, its games are counted from
// their records; opened for writing, it is upgraded to layout 4 once,
// with the tally built from the games, and no backup (nothing it held is
// rewritten).
func TestLayout2FileGetsItsTally(t *testing.T) {
	path := fillStore(t, 3, 1)
	s := openStore(t, path, boltdb.Options{})
	if _, err := s.Finish(context.Background(), "c0", storetest.GuardAt(t, s, "c0", 1), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	const want = "race abandoned 1, race running 2"
	toLayout2(t, path)

	ro := openStore(t, path, boltdb.Options{ReadOnly: true, Verify: true})
	if got := counted(t, ro); got != want {
		t.Errorf("read-only layout 2 file: GameCounts = %q, want %q", got, want)
	}
	ro.Close()

	s = openStore(t, path, boltdb.Options{Verify: true})
	if file, _, err := s.Layout(); err != nil || file != 4 {
		t.Fatalf("after the upgrade: layout %d, %v; want 4", file, err)
	}
	if got := counted(t, s); got != want {
		t.Errorf("upgraded file: GameCounts = %q, want %q", got, want)
	}
	if err := s.Verify(); err != nil {
		t.Fatalf("Verify of the upgraded file: %v", err)
	}
	s.Close()
	if _, err := os.Stat(path + boltdb.UpgradeBackup); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the upgrade from layout 2 left a backup: %v", err)
	}
}

// A tally that disagrees with the games is damage Verify names.
func TestVerifyFindsAWrongTally(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(b *bolt.Bucket) error
		says   string
	}{
		{"a count too high", func(b *bolt.Bucket) error {
			return b.Put([]byte("race\x00running"), binary.BigEndian.AppendUint64(nil, 3))
		}, "counts 3 running games of race, the records 2"},
		{"a count missing", func(b *bolt.Bucket) error { return b.Delete([]byte("race\x00running")) }, "counts no running games of race"},
		{"a count of nothing", func(b *bolt.Bucket) error {
			return b.Put([]byte("race\x00finished"), binary.BigEndian.AppendUint64(nil, 1))
		}, "counts 1 finished games of race, the records 0"},
		{"no count at all", func(b *bolt.Bucket) error { return b.Put([]byte("race\x00lobby"), []byte{1}) }, "is no count"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := fillStore(t, 2, 1)
			rawUpdate(t, path, func(tx *bolt.Tx) error { return c.damage(tx.Bucket([]byte("tally"))) })
			_, err := boltdb.Open(path, registry(), boltdb.Options{Verify: true})
			if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Open with Verify: %v, want ErrCorrupt saying %q", err, c.says)
			}
		})
	}
}

// BenchmarkGameCounts10000Games reads the games by kind and status of a
// file holding 10,000 archived games and 100 running ones, as a metrics
// scrape does: from the tally, and by counting the records (what a
// layout 2 file opened read-only costs, and what the tally saves).
func BenchmarkGameCounts10000Games(b *testing.B) {
	path := filepath.Join(b.TempDir(), "meeple.db")
	s, err := boltdb.Open(path, registry(), boltdb.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 64 {
		wg.Go(func() {
			for i := w; i < 10000; i += 64 {
				g := &storage.Game{Kind: "race", Guild: "g1", Channel: strconv.Itoa(1000 + i), Status: storage.StatusAbandoned,
					Setup: storetest.RaceSetup(2), Seats: []storage.Seat{{User: "u1"}, {User: "u2"}}}
				if err := s.Import(context.Background(), g); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	for i := range 100 {
		newRace(b, s, "g1", "r"+strconv.Itoa(i), 2, "1000000")
	}
	const want = "race abandoned 10000, race running 100"
	for _, c := range []struct {
		name string
		open func() *boltdb.Store
	}{
		{"tally", func() *boltdb.Store { return s }},
		{"records", func() *boltdb.Store {
			s.Close()
			rawUpdate(b, path, func(tx *bolt.Tx) error {
				if err := tx.DeleteBucket([]byte("tally")); err != nil {
					return err
				}
				return tx.Bucket([]byte("meta")).Put([]byte("layout"), binary.AppendUvarint(nil, 2))
			})
			ro, err := boltdb.Open(path, registry(), boltdb.Options{ReadOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			return ro
		}},
	} {
		st := c.open()
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got := countedTB(b, st); got != want {
					b.Fatalf("GameCounts = %q, want %q", got, want)
				}
			}
		})
		defer st.Close()
	}
}
