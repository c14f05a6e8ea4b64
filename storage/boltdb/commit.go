package boltdb

import (
	"fmt"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

// Commit keeps an interaction's whole outcome on channel's running game in
// one transaction, so one durable write, and returns the game (without
// its log). expectVersion is the version the interaction started from; a
// stale one fails with a *VersionError and, like any refusal (an entry
// Append would refuse, an error from Edit, an ending Finish would refuse),
// changes nothing.
func (s *Store) Commit(channel string, expectVersion int, o storage.Outcome) (*storage.Game, error) {
	entries, err := s.rules.OutcomeEntries(o)
	if err != nil {
		return nil, fmt.Errorf("storage: commit to channel %s: %w", channel, err)
	}
	var out *storage.Game
	err = s.update(func(tx *bolt.Tx) error {
		old, err := s.activeGame(tx, channel, false)
		if err != nil {
			return refuse(err)
		}
		g, err := s.rules.Outcome(old, expectVersion, entries, o)
		if err != nil {
			return refuse(err)
		}
		for i, e := range entries {
			if err := bucket(tx, bktLog).Put(logKey(g.ID, old.Version+i), s.codec.EncodeEntry(e)); err != nil {
				return err
			}
		}
		if snap := storage.OutcomeSnapshot(g, o); snap != nil {
			if err := bucket(tx, bktSnapshots).Put(idKey(g.ID), s.codec.EncodeSnapshot(storage.NewSnapshot(g.Version, snap))); err != nil {
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
