package boltdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

func beUint64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
func beUint32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }

// ListActive returns guild's active games (lobby and running), oldest
// first, without their logs and snapshots.
func (s *Store) ListActive(ctx context.Context, guild string) ([]*storage.Game, error) {
	games, err := s.indexed(ctx, bktGuildActive, guild, 0, 0, false)
	if err != nil {
		return nil, fmt.Errorf("storage: list active games of guild %s: %w", guild, err)
	}
	return games, nil
}

// ActiveForUser returns the active games user is seated in, in every
// guild, oldest first, without their logs and snapshots.
func (s *Store) ActiveForUser(ctx context.Context, user string) ([]*storage.Game, error) {
	games, err := s.indexed(ctx, bktUserActive, user, 0, 0, false)
	if err != nil {
		return nil, fmt.Errorf("storage: list active games of user %s: %w", user, err)
	}
	return games, nil
}

// ArchiveForGuild returns up to limit of guild's finished and abandoned
// games, newest first, without logs and snapshots. before, when not 0,
// returns only games with a smaller ID (the last ID of the previous page).
func (s *Store) ArchiveForGuild(ctx context.Context, guild string, before uint64, limit int) ([]*storage.Game, error) {
	games, err := s.indexed(ctx, bktGuildArchive, guild, before, limit, true)
	if err != nil {
		return nil, fmt.Errorf("storage: archive of guild %s: %w", guild, err)
	}
	return games, nil
}

// ArchiveForUser is ArchiveForGuild for the games user was seated in.
func (s *Store) ArchiveForUser(ctx context.Context, user string, before uint64, limit int) ([]*storage.Game, error) {
	games, err := s.indexed(ctx, bktUserArchive, user, before, limit, true)
	if err != nil {
		return nil, fmt.Errorf("storage: archive of user %s: %w", user, err)
	}
	return games, nil
}

// Archive returns up to limit (0: no limit) finished and abandoned games of
// every guild with an ID above after, lowest ID first, without logs and
// snapshots: pages through the whole archive, for example to recompute
// ratings.
func (s *Store) Archive(ctx context.Context, after uint64, limit int) ([]*storage.Game, error) {
	var out []*storage.Game
	if after == math.MaxUint64 {
		return nil, nil
	}
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := bucket(tx, bktGames).Cursor()
		for k, _ := c.Seek(idKey(after + 1)); k != nil && (limit <= 0 || len(out) < limit); k, _ = c.Next() {
			if len(k) != 8 {
				return fmt.Errorf("%w: game key %x", storage.ErrCorrupt, k)
			}
			g, err := s.readGame(tx, beUint64(k), false)
			if err != nil {
				return err
			}
			if !g.Status.Active() {
				out = append(out, g)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: archive after game %d: %w", after, err)
	}
	return out, nil
}

// indexed reads the games an index lists under owner: all of them oldest
// first, or up to limit (0: no limit) newest first below before.
func (s *Store) indexed(ctx context.Context, index string, owner string, before uint64, limit int, newest bool) ([]*storage.Game, error) {
	if err := storage.CheckID("owner", owner); err != nil {
		return nil, err
	}
	prefix := append([]byte(owner), 0)
	var out []*storage.Game
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := bucket(tx, index).Cursor()
		var k []byte
		next := c.Next
		if newest {
			next = c.Prev
			if before == 0 {
				before = math.MaxUint64
			}
			k, _ = c.Seek(prefixKey(owner, before))
			if k == nil {
				k, _ = c.Last()
			}
			if k != nil && bytes.Compare(k, prefixKey(owner, before)) >= 0 {
				k, _ = c.Prev()
			}
		} else {
			k, _ = c.Seek(prefix)
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && (limit <= 0 || len(out) < limit); k, _ = next() {
			if len(k) != len(prefix)+8 {
				return fmt.Errorf("%w: index key %x", storage.ErrCorrupt, k)
			}
			id := beUint64(k[len(prefix):])
			g, err := s.readGame(tx, id, false)
			if errors.Is(err, storage.ErrNotFound) {
				return fmt.Errorf("%w: index %q lists game %d, which is not in the file", storage.ErrCorrupt, index, id)
			}
			if err != nil {
				return err
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// Due returns the deadlines and reminders of active games whose time is at
// or before now, earliest first. It reads only the timer index, not the
// games. A timer stays due until the game's Deadline or RemindAt is changed
// (Store.Update) or the game ends.
func (s *Store) Due(ctx context.Context, now time.Time) ([]storage.Due, error) {
	end := binary.BigEndian.AppendUint64(nil, unixNano(now))
	var out []storage.Due
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := bucket(tx, bktDue).Cursor()
		for k, v := c.First(); k != nil && bytes.Compare(k[:min(8, len(k))], end) <= 0; k, v = c.Next() {
			if len(k) != 17 {
				return fmt.Errorf("%w: timer key %x", storage.ErrCorrupt, k)
			}
			out = append(out, storage.Due{
				Kind: storage.DueKind(k[16]), At: time.Unix(0, int64(beUint64(k))).UTC(),
				GameID: beUint64(k[8:]), Channel: string(v),
			})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: due timers: %w", err)
	}
	return out, nil
}

// Stats returns user's statistics, one per kind of game played, by kind.
func (s *Store) Stats(ctx context.Context, user string) ([]storage.Stats, error) {
	if err := storage.CheckID("user", user); err != nil {
		return nil, fmt.Errorf("storage: stats: %w", err)
	}
	prefix := append([]byte(user), 0)
	var out []storage.Stats
	err := s.view(ctx, func(tx *bolt.Tx) error {
		c := bucket(tx, bktStats).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var st storage.Stats
			if err := s.codec.OpenJSON(storage.RecStats, string(k), v, &st); err != nil {
				return err
			}
			out = append(out, st)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: stats of user %s: %w", user, err)
	}
	return out, nil
}

// addStats counts archived game g in its users' statistics.
func (s *Store) addStats(tx *bolt.Tx, g *storage.Game) error {
	b := bucket(tx, bktStats)
	for _, user := range storage.StatsUsers(g) {
		key := append(append([]byte(user), 0), g.Kind...)
		st := storage.Stats{User: user, Kind: g.Kind}
		if data := b.Get(key); data != nil {
			if err := s.codec.OpenJSON(storage.RecStats, string(key), data, &st); err != nil {
				return err
			}
		}
		st.Count(g)
		data, err := s.codec.SealJSON(storage.RecStats, st)
		if err != nil {
			return err
		}
		if err := b.Put(key, data); err != nil {
			return err
		}
	}
	return nil
}

// GuildSettings returns guild's settings with Saved set, or
// DefaultGuildSettings when it has saved none.
func (s *Store) GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error) {
	out := storage.DefaultGuildSettings()
	found, err := s.getRecord(ctx, bktGuilds, storage.RecGuild, guild, &out)
	if err != nil {
		return storage.GuildSettings{}, fmt.Errorf("storage: settings of guild %s: %w", guild, err)
	}
	return storage.ReadGuildSettings(out, found), nil
}

// PutGuildSettings saves guild's settings.
func (s *Store) PutGuildSettings(ctx context.Context, guild string, settings storage.GuildSettings) error {
	if err := storage.CheckGuildSettings(settings); err != nil {
		return fmt.Errorf("storage: settings of guild %s: %w", guild, err)
	}
	if err := s.putRecord(ctx, bktGuilds, storage.RecGuild, guild, settings); err != nil {
		return fmt.Errorf("storage: settings of guild %s: %w", guild, err)
	}
	return nil
}

// UserPrefs returns user's preferences, or DefaultUserPrefs when they have
// saved none.
func (s *Store) UserPrefs(ctx context.Context, user string) (storage.UserPrefs, error) {
	out := storage.DefaultUserPrefs()
	if _, err := s.getRecord(ctx, bktUsers, storage.RecUser, user, &out); err != nil {
		return storage.UserPrefs{}, fmt.Errorf("storage: preferences of user %s: %w", user, err)
	}
	return out, nil
}

// PutUserPrefs saves user's preferences.
func (s *Store) PutUserPrefs(ctx context.Context, user string, prefs storage.UserPrefs) error {
	if err := storage.CheckUserPrefs(prefs); err != nil {
		return fmt.Errorf("storage: preferences of user %s: %w", user, err)
	}
	if err := s.putRecord(ctx, bktUsers, storage.RecUser, user, prefs); err != nil {
		return fmt.Errorf("storage: preferences of user %s: %w", user, err)
	}
	return nil
}

// UpdateUserPrefs changes user's preferences with fn in one transaction.
func (s *Store) UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error) {
	out := storage.DefaultUserPrefs()
	if err := storage.CheckID(storage.RecUser, user); err != nil {
		return out, err
	}
	codec := s.codec.Keyed(user)
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := bucket(tx, bktUsers)
		if data := b.Get([]byte(user)); data != nil {
			if err := codec.OpenJSON(storage.RecUser, user, data, &out); err != nil {
				return refuse(err)
			}
		}
		if err := fn(&out); err != nil {
			return refuse(err)
		}
		if err := storage.CheckUserPrefs(out); err != nil {
			return refuse(err)
		}
		data, err := codec.SealJSON(storage.RecUser, out)
		if err != nil {
			return refuse(err)
		}
		return b.Put([]byte(user), data)
	})
	if err != nil {
		return storage.UserPrefs{}, fmt.Errorf("storage: preferences of user %s: %w", user, err)
	}
	return out, nil
}

// getRecord decodes the JSON record under key into v, leaving v as it is
// when there is none; found tells which.
func (s *Store) getRecord(ctx context.Context, name string, kind, key string, v any) (found bool, err error) {
	if err := storage.CheckID(kind, key); err != nil {
		return false, err
	}
	err = s.view(ctx, func(tx *bolt.Tx) error {
		data := bucket(tx, name).Get([]byte(key))
		if data == nil {
			return nil
		}
		found = true
		return s.codec.Keyed(key).OpenJSON(kind, key, data, v)
	})
	return found, err
}

// putRecord stores v as a JSON record under key.
func (s *Store) putRecord(ctx context.Context, name string, kind, key string, v any) error {
	if err := storage.CheckID(kind, key); err != nil {
		return err
	}
	data, err := s.codec.Keyed(key).SealJSON(kind, v)
	if err != nil {
		return err
	}
	return s.update(ctx, func(tx *bolt.Tx) error {
		if err := s.codec.NotNewer(kind, func() string { return key }, bucket(tx, name).Get([]byte(key))); err != nil {
			return refuse(err)
		}
		return bucket(tx, name).Put([]byte(key), data)
	})
}

// Counts returns how many games the file holds: the active ones, and all
// of them (active and archived). It walks two buckets' pages.
func (s *Store) Counts(ctx context.Context) (active, total int, err error) {
	err = s.view(ctx, func(tx *bolt.Tx) error {
		active = bucket(tx, bktActive).Stats().KeyN
		total = bucket(tx, bktGames).Stats().KeyN
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("storage: count games: %w", err)
	}
	return active, total, nil
}
