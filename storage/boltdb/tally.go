package boltdb

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/meeplegames/meeple/storage"
	bolt "go.etcd.io/bbolt"
)

// The tally bucket counts the file's games by kind and status, so that
// GameCounts reads a handful of keys however many games the archive
// holds. putGame keeps it in the transaction that moves a game; the
// upgrade to layout 3 builds it from the games once; Verify recounts it.

// tallyKey is a tally entry's key: the kind, a 0 byte, the status.
func tallyKey(kind string, status storage.Status) []byte {
	return append(append([]byte(kind), 0), status...)
}

// tallyGame moves g's count from old's kind and status (old nil: a new
// game) to its own, when they differ.
func tallyGame(tx *bolt.Tx, old, g *storage.Game) error {
	if old != nil && old.Kind == g.Kind && old.Status == g.Status {
		return nil
	}
	b := bucket(tx, bktTally)
	if old != nil {
		if err := addTally(b, tallyKey(old.Kind, old.Status), -1); err != nil {
			return err
		}
	}
	return addTally(b, tallyKey(g.Kind, g.Status), 1)
}

// addTally adds delta to one count, dropping a count that reaches 0. A
// damaged count (not 8 bytes, or below 0) is not worth refusing a game's
// write for: it restarts from what delta makes of 0, and Verify reports
// the disagreement.
func addTally(b *bolt.Bucket, key []byte, delta int64) error {
	n := int64(0)
	if v := b.Get(key); len(v) == 8 {
		n = int64(beUint64(v))
	}
	n = max(n+delta, 0)
	if n == 0 {
		return b.Delete(key)
	}
	return b.Put(key, binary.BigEndian.AppendUint64(nil, uint64(n)))
}

// countGames counts tx's games by kind and status from their records,
// keyed as the tally bucket is.
func (s *Store) countGames(tx *bolt.Tx) (map[string]int, error) {
	counts := map[string]int{}
	err := bucket(tx, bktGames).ForEach(func(k, v []byte) error {
		g, err := s.codec.DecodeGame(idString(k), v)
		if err != nil {
			return err
		}
		counts[string(tallyKey(g.Kind, g.Status))]++
		return nil
	})
	return counts, err
}

// fillTally writes counts into the (empty) tally bucket.
func fillTally(tx *bolt.Tx, counts map[string]int) error {
	b := bucket(tx, bktTally)
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if err := addTally(b, []byte(k), int64(counts[k])); err != nil {
			return err
		}
	}
	return nil
}

// readTally reads the tally bucket, keyed as countGames keys.
func readTally(tx *bolt.Tx) (map[string]int, error) {
	counts := map[string]int{}
	err := bucket(tx, bktTally).ForEach(func(k, v []byte) error {
		if len(v) != 8 || !strings.Contains(string(k), "\x00") {
			return fmt.Errorf("%w: tally entry %q (%x) is no count", storage.ErrCorrupt, k, v)
		}
		counts[string(k)] = int(beUint64(v))
		return nil
	})
	return counts, err
}

// GameCounts returns how many games the file holds of each kind and
// status, sorted by kind and status (no entry for none). It reads the
// tally the writes keep; a file of an older layout opened read-only has
// none, and is counted from its records.
func (s *Store) GameCounts(ctx context.Context) ([]storage.GameCount, error) {
	var counts map[string]int
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		if bucket(tx, bktTally) == nil {
			counts, err = s.countGames(tx)
		} else {
			counts, err = readTally(tx)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: count games by kind: %w", err)
	}
	out := make([]storage.GameCount, 0, len(counts))
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		kind, status, _ := strings.Cut(k, "\x00")
		out = append(out, storage.GameCount{Kind: kind, Status: storage.Status(status), Games: counts[k]})
	}
	return out, nil
}

// verifyTally checks that the tally holds what counted, the games'
// kinds and statuses as their records say.
func verifyTally(tx *bolt.Tx, counted map[string]int) error {
	if bucket(tx, bktTally) == nil {
		return nil // a file of an older layout, opened read-only
	}
	kept, err := readTally(tx)
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(kept)) {
		if kept[k] != counted[k] {
			kind, status, _ := strings.Cut(k, "\x00")
			return fmt.Errorf("%w: the tally counts %d %s games of %s, the records %d", storage.ErrCorrupt, kept[k], status, kind, counted[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(counted)) {
		if _, ok := kept[k]; !ok {
			kind, status, _ := strings.Cut(k, "\x00")
			return fmt.Errorf("%w: the tally counts no %s games of %s, the records %d", storage.ErrCorrupt, status, kind, counted[k])
		}
	}
	return nil
}
