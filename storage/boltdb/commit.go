package boltdb

import (
	"encoding/binary"
	"fmt"

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
func (s *Store) Commit(channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error) {
	entries, err := s.rules.OutcomeEntries(o)
	if err != nil {
		return nil, fmt.Errorf("storage: commit to channel %s: %w", channel, err)
	}
	var out *storage.Game
	err = s.update(func(tx *bolt.Tx) error {
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
	if len(v) != 16 {
		return fmt.Errorf("%w: commit record %.40q", storage.ErrCorrupt, key)
	}
	g, err := s.readGame(tx, beUint64(v), false)
	if err != nil {
		return err
	}
	return &storage.AppliedError{Key: key, Game: g}
}

// keep notes that the commit with interaction key made g.
func (s *Store) keep(tx *bolt.Tx, key string, g *storage.Game) error {
	if key == "" {
		return nil
	}
	return bucket(tx, bktCommits).Put([]byte(key), binary.BigEndian.AppendUint64(idKey(g.ID), g.Revision))
}
