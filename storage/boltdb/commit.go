package boltdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

// Commit keeps an interaction's whole outcome on channel's running game in
// one transaction, so one durable write, and returns the game (without
// its log). at is the game and revision the interaction started from; a
// stale one (another game in the channel, or the game's history moved
// on) fails with a *VersionError and, like any refusal (an entry Append
// would refuse, an error from Edit, an ending Finish would refuse),
// changes nothing. A commit whose o.Key was already kept fails with an
// *AppliedError holding the game as stored, before any other check.
func (s *Store) Commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error) {
	entries, err := s.rules.OutcomeEntries(o)
	if err != nil {
		return nil, fmt.Errorf("storage: commit to channel %s: %w", channel, err)
	}
	var out *storage.Game
	err = s.update(ctx, func(tx *bolt.Tx) error {
		if err := s.applied(tx, o.Key); err != nil {
			return refuse(err)
		}
		old, err := s.activeGame(tx, channel, false)
		if err != nil {
			return refuse(err)
		}
		g, err := s.rules.Outcome(old, at, entries, o)
		if err != nil {
			return refuse(err)
		}
		if err := s.revise(tx, old, g); err != nil {
			return err
		}
		if err := s.keep(tx, o.Key, g); err != nil {
			return err
		}
		if err := s.pruneDue(tx); err != nil {
			return err
		}
		for i, e := range entries {
			if err := bucket(tx, bktLog).Put(logKey(g.ID, old.Version+i), s.codec.EncodeEntry(e)); err != nil {
				return err
			}
		}
		if snap := storage.OutcomeSnapshot(g, o); snap != nil {
			if err := bucket(tx, bktSnapshots).Put(idKey(g.ID), s.codec.EncodeSnapshot(storage.NewSnapshot(g.Version, g.Revision, snap))); err != nil {
				return err
			}
		}
		if !g.Status.Active() {
			if err := s.addStats(tx, g); err != nil {
				return err
			}
		}
		out = g
		return s.putGame(tx, old, g)
	})
	if err != nil {
		return nil, fmt.Errorf("storage: commit to channel %s: %w", channel, err)
	}
	return out, nil
}

// revise gives g, the record a write makes of old (nil for a new game), a
// new revision when its history changed, from the file's one counter
// (the meta bucket's sequence), which never gives a value twice.
func (s *Store) revise(tx *bolt.Tx, old, g *storage.Game) error {
	if !storage.HistoryChanged(old, g) {
		return nil
	}
	rev, err := bucket(tx, bktMeta).NextSequence()
	if err != nil {
		return err
	}
	g.Revision = rev
	return nil
}

// applied refuses a commit whose interaction key was kept before, with an
// *AppliedError that holds the game as stored.
func (s *Store) applied(tx *bolt.Tx, key string) error {
	if key == "" {
		return nil
	}
	v := bucket(tx, bktCommits).Get([]byte(key))
	if v == nil {
		return nil
	}
	if _, err := keptAt(key, v); err != nil {
		return err
	}
	g, err := s.readGame(tx, beUint64(v), false)
	if err != nil {
		return err
	}
	return &storage.AppliedError{Key: key, Game: g}
}

// keep notes that the commit with interaction key made g, now.
func (s *Store) keep(tx *bolt.Tx, key string, g *storage.Game) error {
	if key == "" {
		return nil
	}
	return bucket(tx, bktCommits).Put([]byte(key), commitRecord(key, g.ID, g.Revision, s.now()))
}

// commitRecord is the commits bucket's record of key: the game and
// revision its commit made, when, and the CRC-32C of all that and the key.
func commitRecord(key string, id, revision uint64, at time.Time) []byte {
	v := binary.BigEndian.AppendUint64(idKey(id), revision)
	v = binary.BigEndian.AppendUint64(v, uint64(at.UnixNano()))
	return binary.BigEndian.AppendUint32(v, storage.Checksum(append([]byte(key), v...)))
}

// keptAt checks the commits bucket's record v of key and returns when it
// was kept; a record from before pruning (16 bytes, no time) returns the
// zero time.
func keptAt(key string, v []byte) (time.Time, error) {
	switch {
	case len(v) == 16:
		return time.Time{}, nil
	case len(v) == 28 && storage.Checksum(append([]byte(key), v[:24]...)) == binary.BigEndian.Uint32(v[24:]):
		return time.Unix(0, int64(binary.BigEndian.Uint64(v[16:24]))), nil
	}
	return time.Time{}, fmt.Errorf("%w: commit record of interaction %.40q is damaged", storage.ErrCorrupt, key)
}

// pruneDue forgets the interaction keys older than storage.KeyHorizon,
// inside tx, when the last time was storage.PruneEvery ago or more.
func (s *Store) pruneDue(tx *bolt.Tx) error {
	now := s.now()
	last := s.pruned.Load()
	if now.UnixNano()-last < int64(storage.PruneEvery) || !s.pruned.CompareAndSwap(last, now.UnixNano()) {
		return nil
	}
	_, err := s.prune(tx, now.Add(-storage.KeyHorizon), now)
	return err
}

// PruneKeys forgets the interaction keys of commits kept before
// keptBefore, as storage.KeyPruner. A key kept before keys had times (an
// older Meeple) is given the time now instead, and forgotten a horizon
// later.
func (s *Store) PruneKeys(ctx context.Context, keptBefore time.Time) (int, error) {
	var n int
	err := s.update(ctx, func(tx *bolt.Tx) error {
		var err error
		n, err = s.prune(tx, keptBefore, s.now())
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("storage: prune interaction keys: %w", err)
	}
	return n, nil
}

// prune deletes from tx the keys kept before keptBefore and stamps those
// without a time with now. A damaged record is kept (Verify and the
// commit that meets it report it).
func (s *Store) prune(tx *bolt.Tx, keptBefore, now time.Time) (int, error) {
	b := bucket(tx, bktCommits)
	var drop, stamp [][]byte
	err := b.ForEach(func(k, v []byte) error {
		at, err := keptAt(string(k), v)
		switch {
		case err != nil:
		case at.IsZero():
			stamp = append(stamp, bytes.Clone(k))
		case at.Before(keptBefore):
			drop = append(drop, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range stamp {
		v := b.Get(k)
		if err := b.Put(k, commitRecord(string(k), beUint64(v), beUint64(v[8:]), now)); err != nil {
			return 0, err
		}
	}
	for _, k := range drop {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	if err := forgetPending(tx, keptBefore); err != nil {
		return 0, err
	}
	return len(drop), forgetDeliveries(tx, keptBefore)
}
