package boltdb

import (
	"bytes"
	"context"
	"fmt"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

// Seatings returns user's entries in the seat index, one per active game
// they hold a seat in, by game id: one read of the index under the
// user, whatever the number of games in the file.
func (s *Store) Seatings(ctx context.Context, user string) ([]storage.Seating, error) {
	if err := storage.CheckID("user", user); err != nil {
		return nil, fmt.Errorf("storage: seats of user: %w", err)
	}
	prefix := append([]byte(user), 0)
	var out []storage.Seating
	var err error
	err = s.view(ctx, func(tx *bolt.Tx) error {
		if bucket(tx, bktUserSeats) == nil {
			// a file of layout 3 or older, opened read-only: the
			// entries its games would make
			out, err = s.seatsFromGames(tx, user)
			return err
		}
		c := bucket(tx, bktUserSeats).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			if len(k) != len(prefix)+8 {
				return fmt.Errorf("%w: seat index key %x", storage.ErrCorrupt, k)
			}
			st, err := s.codec.DecodeSeating(fmt.Sprintf("%s/%d", user, beUint64(k[len(prefix):])), v)
			if err != nil {
				return err
			}
			if st.User != user || st.Game != beUint64(k[len(prefix):]) {
				return fmt.Errorf("%w: seat index entry %x is another user's or game's", storage.ErrCorrupt, k)
			}
			out = append(out, st)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: seats of user %s: %w", user, err)
	}
	return out, nil
}

// seatsFromGames makes user's seat index entries from the games the
// user-active index lists.
func (s *Store) seatsFromGames(tx *bolt.Tx, user string) ([]storage.Seating, error) {
	var out []storage.Seating
	prefix := append([]byte(user), 0)
	c := bucket(tx, bktUserActive).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) != len(prefix)+8 {
			return nil, fmt.Errorf("%w: index key %x", storage.ErrCorrupt, k)
		}
		g, err := s.readGame(tx, beUint64(k[len(prefix):]), false)
		if err != nil {
			return nil, err
		}
		for _, st := range storage.Seatings(g) {
			if st.User == user {
				out = append(out, st)
			}
		}
	}
	return out, nil
}

// fillSeats brings the games of a file from before the seat index (layout
// 3 and older) up to it, inside tx: each running game is given the waits
// its state prompts, as begun at its last change, and every active game's
// seat index entries are written.
func (s *Store) fillSeats(tx *bolt.Tx) error {
	var ids []uint64
	err := bucket(tx, bktActive).ForEach(func(_, v []byte) error {
		if len(v) < 8 {
			return fmt.Errorf("%w: active index entry %x", storage.ErrCorrupt, v)
		}
		ids = append(ids, beUint64(v))
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		g, err := s.readGame(tx, id, false)
		if err != nil {
			return fmt.Errorf("game %d: %w", id, err)
		}
		if g.Status == storage.StatusRunning && g.Waits == nil {
			snap, err := s.codec.DecodeSnapshot(idString(idKey(id)), bucket(tx, bktSnapshots).Get(idKey(id)))
			if err != nil {
				return fmt.Errorf("game %d: %w", id, err)
			}
			state, err := s.rules.Decode(g, snap.State)
			if err != nil {
				return fmt.Errorf("game %d: its state does not decode: %w", id, err)
			}
			g.Waits = storage.WaitsNow(state, g.Updated)
			data, err := s.codec.EncodeGame(g)
			if err != nil {
				return err
			}
			if err := bucket(tx, bktGames).Put(idKey(id), data); err != nil {
				return err
			}
		}
		entries, err := indexEntries(g)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.bucket != bktUserSeats {
				continue
			}
			if err := bucket(tx, bktUserSeats).Put(e.key, e.value); err != nil {
				return err
			}
		}
	}
	return nil
}
