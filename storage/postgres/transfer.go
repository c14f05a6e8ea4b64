package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/storage"
)

// GameIDs returns the ids of the games, active and archived, above after,
// ascending, at most limit of them (0: all), as storage.Store.GameIDs.
func (s *Store) GameIDs(ctx context.Context, after uint64, limit int) ([]uint64, error) {
	var out []uint64
	err := s.call(ctx, func(ctx context.Context) error {
		var most *int
		if limit > 0 {
			most = &limit
		}
		rows, err := s.pool.Query(ctx, "SELECT id FROM games WHERE id > $1 ORDER BY id LIMIT $2", int64(min(after, 1<<63-1)), most)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		for _, id := range ids {
			out = append(out, uint64(id))
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: list game ids: %w", err)
	}
	return out, nil
}

// Restore stores a game exactly as another store kept it, as
// storage.Store.Restore.
func (s *Store) Restore(ctx context.Context, g *storage.Game) error {
	err := storage.CheckRestore(g)
	if err == nil {
		rec := g.Clone()
		err = s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
			var taken, busy bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE id = $1),
				EXISTS (SELECT 1 FROM games WHERE channel = $2 AND active)`, int64(rec.ID), rec.Channel).Scan(&taken, &busy); err != nil {
				return err
			}
			switch {
			case taken:
				return fmt.Errorf("%w: game %d already exists", storage.ErrInvalid, rec.ID)
			case busy && rec.Status.Active():
				return storage.ErrChannelBusy
			}
			if err := s.insertGame(ctx, tx, rec); err != nil {
				return err
			}
			if !rec.Status.Active() {
				if err := addStats(ctx, tx, rec); err != nil {
					return err
				}
			}
			// Games created later get ids above this one.
			if _, err := tx.Exec(ctx, "SELECT setval('game_ids', greatest($1, (SELECT last_value FROM game_ids)))", int64(rec.ID)); err != nil {
				return err
			}
			// and revisions above its own, so that none is given twice.
			_, err := tx.Exec(ctx, "SELECT setval('game_revisions', greatest($1, (SELECT last_value FROM game_revisions)))", int64(rec.Revision))
			return err
		})
	}
	if err != nil {
		return fmt.Errorf("postgres: restore game %d: %w", g.ID, err)
	}
	return nil
}

// SavedSettings returns every guild's saved settings and every user's
// saved preferences, as storage.Store.SavedSettings.
func (s *Store) SavedSettings(ctx context.Context) (map[string]storage.GuildSettings, map[string]storage.UserPrefs, error) {
	guilds, users := map[string]storage.GuildSettings{}, map[string]storage.UserPrefs{}
	err := s.call(ctx, func(ctx context.Context) error {
		if err := collect(ctx, s, "SELECT guild, settings, sum FROM guild_settings", storage.RecGuild, guilds, storage.DefaultGuildSettings); err != nil {
			return err
		}
		return collect(ctx, s, "SELECT user_id, prefs, sum FROM user_prefs", storage.RecUser, users, storage.DefaultUserPrefs)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: saved settings: %w", err)
	}
	return guilds, users, nil
}

// collect reads id → JSON rows of kind, with their checksums, into out,
// each decoded over its default.
func collect[T any](ctx context.Context, s *Store, sql, kind string, out map[string]T, def func() T) error {
	rows, err := s.pool.Query(ctx, sql)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id   string
			data []byte
			sum  int64
		)
		if err := rows.Scan(&id, &data, &sum); err != nil {
			return err
		}
		v := def()
		if err := decodeRecord(kind, id, data, sum, &v); err != nil {
			return err
		}
		out[id] = v
	}
	return rows.Err()
}
