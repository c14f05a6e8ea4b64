package boltdb

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/meeplegames/meeple/storage"
	bolt "go.etcd.io/bbolt"
)

// verifyGames checks that the records of tx's file agree with each other,
// so that damage that leaves each record readable is still found: every
// game reads whole (its record under its own id, its log without gaps,
// a running game's snapshot of its log's length, intact); no log entry
// or snapshot belongs to no game; the indexes (active, due, by guild and
// user) hold exactly the keys the games make; the statistics are those
// the archived games count; the tally holds the games' kinds and statuses; every pending reply
// reads under its own interaction's id; and every kept interaction's
// record is intact and names a game of the file. The error names the game, the record and
// what disagrees.
func (s *Store) verifyGames(tx *bolt.Tx) error {
	index := map[string]map[string][]byte{}
	for _, name := range []string{bktActive, bktGuildActive, bktUserActive, bktDue, bktGuildArchive, bktUserArchive, bktUserSeats} {
		index[name] = map[string][]byte{}
	}
	stats := map[string]*storage.Stats{}
	tally := map[string]int{}
	entries, snapshots := 0, 0
	err := bucket(tx, bktGames).ForEach(func(k, _ []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("%w: a game record under key %x, which is no game id", storage.ErrCorrupt, k)
		}
		id := beUint64(k)
		g, err := s.readGame(tx, id, true)
		if err != nil {
			return fmt.Errorf("game %d: %w", id, err)
		}
		entries += g.Version
		tally[string(tallyKey(g.Kind, g.Status))]++
		if data := bucket(tx, bktSnapshots).Get(k); data != nil {
			snapshots++
			snap, err := s.codec.DecodeSnapshot(idString(k), data)
			switch {
			case err != nil:
				return fmt.Errorf("game %d: %w", id, err)
			case !snap.Intact():
				return fmt.Errorf("game %d: snapshot record %d: its state does not match its checksum: %w", id, id, storage.ErrCorrupt)
			case g.Status == storage.StatusRunning && snap.Version != g.Version:
				return fmt.Errorf("game %d: snapshot record %d is of version %d, the log of %d: %w", id, id, snap.Version, g.Version, storage.ErrCorrupt)
			}
		} else if g.Status == storage.StatusRunning {
			return fmt.Errorf("game %d: the running game has no snapshot record: %w", id, storage.ErrCorrupt)
		}
		made, err := indexEntries(g)
		if err != nil {
			return fmt.Errorf("game %d: %w", id, err)
		}
		for _, e := range made {
			if _, dup := index[e.bucket][string(e.key)]; dup {
				return fmt.Errorf("game %d: %s index key %q is another game's too (two active games in one channel?): %w", id, e.bucket, e.key, storage.ErrCorrupt)
			}
			index[e.bucket][string(e.key)] = e.value
		}
		if !g.Status.Active() {
			for _, user := range storage.StatsUsers(g) {
				key := user + "\x00" + g.Kind
				if stats[key] == nil {
					stats[key] = &storage.Stats{User: user, Kind: g.Kind}
				}
				stats[key].Count(g)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if n := bucket(tx, bktLog).Stats().KeyN; n != entries {
		return fmt.Errorf("%w: the log holds %d entries, the games' logs %d: some belong to no game or sit outside their game's log", storage.ErrCorrupt, n, entries)
	}
	if n := bucket(tx, bktSnapshots).Stats().KeyN; n != snapshots {
		return fmt.Errorf("%w: %d snapshot records, %d of them of a game: the others belong to no game", storage.ErrCorrupt, n, snapshots)
	}
	if bucket(tx, bktUserSeats) == nil {
		delete(index, bktUserSeats) // a file of layout 3 or older, opened read-only
	}
	for _, name := range slices.Sorted(maps.Keys(index)) {
		want := index[name]
		found := 0
		err := bucket(tx, name).ForEach(func(k, v []byte) error {
			w, ok := want[string(k)]
			if !ok || !bytes.Equal(w, v) {
				return fmt.Errorf("%w: %s index entry %q (%x) is not what any game makes", storage.ErrCorrupt, name, k, v)
			}
			found++
			return nil
		})
		if err != nil {
			return err
		}
		if found != len(want) {
			return fmt.Errorf("%w: the %s index lacks %d of the games' entries", storage.ErrCorrupt, name, len(want)-found)
		}
	}
	if err := verifyTally(tx, tally); err != nil {
		return err
	}
	found := 0
	err = bucket(tx, bktStats).ForEach(func(k, v []byte) error {
		var st storage.Stats
		if err := s.codec.OpenJSON(storage.RecStats, string(k), v, &st); err != nil {
			return err
		}
		want := stats[string(k)]
		if want == nil || *want != st {
			return fmt.Errorf("%w: stats record %q is not what the archived games count (%+v, the games: %+v)", storage.ErrCorrupt, k, st, want)
		}
		found++
		return nil
	})
	if err != nil {
		return err
	}
	if found != len(stats) {
		return fmt.Errorf("%w: %d users' statistics in a game are missing", storage.ErrCorrupt, len(stats)-found)
	}
	if err := verifyPending(tx); err != nil {
		return err
	}
	commits := bucket(tx, bktCommits)
	if commits == nil {
		return nil // a file of layout 1, from before interaction keys
	}
	return commits.ForEach(func(k, v []byte) error {
		if _, err := keptAt(string(k), v); err != nil {
			return err
		}
		if bucket(tx, bktGames).Get(v[:8]) == nil {
			return fmt.Errorf("%w: commit record of interaction %.40q names game %d, which the file does not hold", storage.ErrCorrupt, k, beUint64(v))
		}
		return nil
	})
}
