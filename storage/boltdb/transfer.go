package boltdb

import (
	"context"
	"fmt"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

// GameIDs returns the ids of the games, active and archived, above after,
// in ascending order, at most limit of them (0: all). Moving a database
// to another store pages through it with this and GetByID.
func (s *Store) GameIDs(ctx context.Context, after uint64, limit int) ([]uint64, error) {
	var out []uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := bucket(tx, bktGames).Cursor()
		for k, _ := c.Seek(idKey(after + 1)); k != nil && (limit <= 0 || len(out) < limit); k, _ = c.Next() {
			if len(k) != 8 {
				return fmt.Errorf("%w: game key %x", storage.ErrCorrupt, k)
			}
			if id := beUint64(k); id > after {
				out = append(out, id)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: list game ids: %w", err)
	}
	return out, nil
}

// Restore stores a game exactly as another store kept it (see GetByID):
// its ID, status, times, log, snapshot and result. An archived game counts
// in its users' statistics as when it finished. It refuses a game whose
// ID is taken (ErrInvalid) or, for an active game, whose channel is busy
// (ErrChannelBusy). Games created later get IDs above every restored one.
func (s *Store) Restore(ctx context.Context, g *storage.Game) error {
	if err := storage.CheckRestore(g); err != nil {
		return fmt.Errorf("storage: restore game %d: %w", g.ID, err)
	}
	rec := g.Clone()
	err := s.update(ctx, func(tx *bolt.Tx) error {
		games := bucket(tx, bktGames)
		if games.Get(idKey(rec.ID)) != nil {
			return refuse(fmt.Errorf("%w: game %d already exists", storage.ErrInvalid, rec.ID))
		}
		if rec.Status.Active() && bucket(tx, bktActive).Get([]byte(rec.Channel)) != nil {
			return refuse(storage.ErrChannelBusy)
		}
		if rec.ID > games.Sequence() {
			if err := games.SetSequence(rec.ID); err != nil {
				return err
			}
		}
		if meta := bucket(tx, bktMeta); rec.Revision > meta.Sequence() {
			if err := meta.SetSequence(rec.Revision); err != nil {
				return err
			}
		}
		for i, e := range rec.Log {
			if err := bucket(tx, bktLog).Put(logKey(rec.ID, i), s.codec.EncodeEntry(e)); err != nil {
				return err
			}
		}
		if rec.Snapshot != nil {
			if err := bucket(tx, bktSnapshots).Put(idKey(rec.ID), s.codec.EncodeSnapshot(storage.NewSnapshot(rec.Version, rec.Revision, rec.Snapshot))); err != nil {
				return err
			}
		}
		if !rec.Status.Active() {
			if err := s.addStats(tx, rec); err != nil {
				return err
			}
		}
		return s.putGame(tx, nil, rec)
	})
	if err != nil {
		return fmt.Errorf("storage: restore game %d: %w", g.ID, err)
	}
	return nil
}

// SavedSettings returns every guild's saved settings and every user's
// saved preferences, by guild and user id.
func (s *Store) SavedSettings(ctx context.Context) (map[string]storage.GuildSettings, map[string]storage.UserPrefs, error) {
	guilds, users := map[string]storage.GuildSettings{}, map[string]storage.UserPrefs{}
	err := s.view(ctx, func(tx *bolt.Tx) error {
		err := bucket(tx, bktGuilds).ForEach(func(k, v []byte) error {
			gs := storage.DefaultGuildSettings()
			err := s.codec.Keyed(string(k)).OpenJSON(storage.RecGuild, string(k), v, &gs)
			guilds[string(k)] = gs
			return err
		})
		if err != nil {
			return err
		}
		return bucket(tx, bktUsers).ForEach(func(k, v []byte) error {
			p := storage.DefaultUserPrefs()
			err := s.codec.Keyed(string(k)).OpenJSON(storage.RecUser, string(k), v, &p)
			users[string(k)] = p
			return err
		})
	})
	if err != nil {
		return nil, nil, fmt.Errorf("storage: saved settings: %w", err)
	}
	return guilds, users, nil
}
