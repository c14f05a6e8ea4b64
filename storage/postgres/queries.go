package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/storage"
)

// ListActive returns guild's active games, oldest first, without their
// logs and snapshots.
func (s *Store) ListActive(ctx context.Context, guild string) ([]*storage.Game, error) {
	games, err := s.list(ctx, guild, "SELECT "+headCols+" FROM games g WHERE g.guild = $1 AND g.active ORDER BY g.id")
	if err != nil {
		return nil, fmt.Errorf("postgres: list active games of guild %s: %w", guild, err)
	}
	return games, nil
}

// ActiveForUser returns the active games user is seated in, oldest first,
// without their logs and snapshots.
func (s *Store) ActiveForUser(ctx context.Context, user string) ([]*storage.Game, error) {
	games, err := s.list(ctx, user, "SELECT "+headCols+` FROM game_users u JOIN games g ON g.id = u.game_id
		WHERE u.user_id = $1 AND u.active ORDER BY g.id`)
	if err != nil {
		return nil, fmt.Errorf("postgres: list active games of user %s: %w", user, err)
	}
	return games, nil
}

// ArchiveForGuild returns up to limit (0: all) of guild's finished and
// abandoned games, newest first, below the ID before when it is not 0.
func (s *Store) ArchiveForGuild(ctx context.Context, guild string, before uint64, limit int) ([]*storage.Game, error) {
	games, err := s.list(ctx, guild, "SELECT "+headCols+` FROM games g
		WHERE g.guild = $1 AND NOT g.active AND g.id < $2 ORDER BY g.id DESC LIMIT $3`, page(before, limit)...)
	if err != nil {
		return nil, fmt.Errorf("postgres: archive of guild %s: %w", guild, err)
	}
	return games, nil
}

// ArchiveForUser is ArchiveForGuild for the games user was seated in.
func (s *Store) ArchiveForUser(ctx context.Context, user string, before uint64, limit int) ([]*storage.Game, error) {
	games, err := s.list(ctx, user, "SELECT "+headCols+` FROM game_users u JOIN games g ON g.id = u.game_id
		WHERE u.user_id = $1 AND NOT u.active AND g.id < $2 ORDER BY g.id DESC LIMIT $3`, page(before, limit)...)
	if err != nil {
		return nil, fmt.Errorf("postgres: archive of user %s: %w", user, err)
	}
	return games, nil
}

// Archive returns up to limit (0: all) finished and abandoned games of
// every guild with an ID above after, lowest first, as
// storage.Store.Archive.
func (s *Store) Archive(ctx context.Context, after uint64, limit int) ([]*storage.Game, error) {
	var most *int
	if limit > 0 {
		most = &limit
	}
	games, err := s.query(ctx, "SELECT "+headCols+" FROM games g WHERE NOT g.active AND g.id > $1 ORDER BY g.id LIMIT $2",
		int64(min(after, 1<<63-1)), most)
	if err != nil {
		return nil, fmt.Errorf("postgres: archive after game %d: %w", after, err)
	}
	return games, nil
}

// page is the arguments of an archive page: below before (0: no bound),
// at most limit rows (0 or less: no limit).
func page(before uint64, limit int) []any {
	below := int64(1<<63 - 1)
	if before != 0 && before < 1<<63 {
		below = int64(before)
	}
	var max *int
	if limit > 0 {
		max = &limit
	}
	return []any{below, max}
}

// list runs a query of games (selecting headCols) for owner, a Discord id.
func (s *Store) list(ctx context.Context, owner, sql string, args ...any) ([]*storage.Game, error) {
	if err := storage.CheckID("owner", owner); err != nil {
		return nil, err
	}
	return s.query(ctx, sql, append([]any{owner}, args...)...)
}

// query runs a query of games (selecting headCols).
func (s *Store) query(ctx context.Context, sql string, args ...any) ([]*storage.Game, error) {
	var out []*storage.Game
	err := s.call(ctx, func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var h head
			if err := rows.Scan(h.dest()...); err != nil {
				return err
			}
			g, err := h.decode()
			if err != nil {
				return err
			}
			out = append(out, g)
		}
		return rows.Err()
	})
	return out, err
}

// Due returns the deadlines and reminders of active games at or before
// now, earliest first (then by game, deadline before reminder), as
// storage.Store.Due.
func (s *Store) Due(ctx context.Context, now time.Time) ([]storage.Due, error) {
	var out []storage.Due
	err := s.call(ctx, func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, `SELECT at, id, kind, channel FROM (
				SELECT deadline AS at, id, 'd' AS kind, channel FROM games WHERE active AND deadline <= $1
				UNION ALL
				SELECT remind_at, id, 'r', channel FROM games WHERE active AND remind_at <= $1) t
			ORDER BY at, id, kind`, max(now.UnixNano(), 0))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				at, id  int64
				kind    string
				channel string
			)
			if err := rows.Scan(&at, &id, &kind, &channel); err != nil {
				return err
			}
			out = append(out, storage.Due{Kind: storage.DueKind(kind[0]), At: time.Unix(0, at).UTC(), GameID: uint64(id), Channel: channel})
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: due timers: %w", err)
	}
	return out, nil
}

// Stats returns user's statistics, one per kind of game played, by kind.
func (s *Store) Stats(ctx context.Context, user string) ([]storage.Stats, error) {
	if err := storage.CheckID("user", user); err != nil {
		return nil, fmt.Errorf("postgres: stats: %w", err)
	}
	var out []storage.Stats
	err := s.call(ctx, func(ctx context.Context) error {
		rows, err := s.pool.Query(ctx, `SELECT kind, played, won, abandoned, score_sum, best, sum FROM stats
			WHERE user_id = $1 ORDER BY kind COLLATE "C"`, user)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			st := storage.Stats{User: user}
			var sum int64
			if err := rows.Scan(&st.Kind, &st.Played, &st.Won, &st.Abandoned, &st.ScoreSum, &st.Best, &sum); err != nil {
				return err
			}
			if err := checkStats(st, sum); err != nil {
				return err
			}
			out = append(out, st)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: stats of user %s: %w", user, err)
	}
	return out, nil
}

// addStats counts archived game g in its users' statistics, inside tx.
// Users are taken in order, so that two games finishing at once lock their
// shared users' rows in the same order rather than deadlock.
func addStats(ctx context.Context, tx pgx.Tx, g *storage.Game) error {
	users := storage.StatsUsers(g)
	slices.Sort(users)
	for _, user := range users {
		empty := storage.Stats{User: user, Kind: g.Kind}
		if _, err := tx.Exec(ctx, "INSERT INTO stats (user_id, kind, sum) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", user, g.Kind, statsSum(empty)); err != nil {
			return err
		}
		st := storage.Stats{User: user, Kind: g.Kind}
		var sum int64
		if err := tx.QueryRow(ctx, `SELECT played, won, abandoned, score_sum, best, sum FROM stats
			WHERE user_id = $1 AND kind = $2 FOR UPDATE`, user, g.Kind).Scan(&st.Played, &st.Won, &st.Abandoned, &st.ScoreSum, &st.Best, &sum); err != nil {
			return err
		}
		if err := checkStats(st, sum); err != nil {
			return err // a damaged count is not added to
		}
		st.Count(g)
		if _, err := tx.Exec(ctx, `UPDATE stats SET played = $3, won = $4, abandoned = $5, score_sum = $6, best = $7, sum = $8
			WHERE user_id = $1 AND kind = $2`, user, g.Kind, st.Played, st.Won, st.Abandoned, st.ScoreSum, st.Best, statsSum(st)); err != nil {
			return err
		}
	}
	return nil
}

// checkStats refuses a statistics row whose checksum is not sum.
func checkStats(st storage.Stats, sum int64) error {
	if statsSum(st) != sum {
		return fmt.Errorf("%w: stats record %s/%s: checksum mismatch, the row is damaged", storage.ErrCorrupt, st.User, st.Kind)
	}
	return nil
}

// GuildSettings returns guild's settings, or storage.DefaultGuildSettings
// when it has saved none.
func (s *Store) GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error) {
	out := storage.DefaultGuildSettings()
	found, err := s.getRecord(ctx, "SELECT settings, sum FROM guild_settings WHERE guild = $1", storage.RecGuild, guild, &out)
	if err != nil {
		return storage.GuildSettings{}, fmt.Errorf("postgres: settings of guild %s: %w", guild, err)
	}
	return storage.ReadGuildSettings(out, found), nil
}

// PutGuildSettings saves guild's settings.
func (s *Store) PutGuildSettings(ctx context.Context, guild string, settings storage.GuildSettings) error {
	err := storage.CheckGuildSettings(settings)
	if err == nil {
		err = s.putRecord(ctx, `INSERT INTO guild_settings (guild, settings, sum) VALUES ($1, $2, $3)
			ON CONFLICT (guild) DO UPDATE SET settings = EXCLUDED.settings, sum = EXCLUDED.sum`, storage.RecGuild, guild, settings)
	}
	if err != nil {
		return fmt.Errorf("postgres: settings of guild %s: %w", guild, err)
	}
	return nil
}

// UserPrefs returns user's preferences, or storage.DefaultUserPrefs when
// they have saved none.
func (s *Store) UserPrefs(ctx context.Context, user string) (storage.UserPrefs, error) {
	out := storage.DefaultUserPrefs()
	if _, err := s.getRecord(ctx, "SELECT prefs, sum FROM user_prefs WHERE user_id = $1", storage.RecUser, user, &out); err != nil {
		return storage.UserPrefs{}, fmt.Errorf("postgres: preferences of user %s: %w", user, err)
	}
	return out, nil
}

// PutUserPrefs saves user's preferences.
func (s *Store) PutUserPrefs(ctx context.Context, user string, prefs storage.UserPrefs) error {
	err := storage.CheckUserPrefs(prefs)
	if err == nil {
		err = s.putRecord(ctx, `INSERT INTO user_prefs (user_id, prefs, sum) VALUES ($1, $2, $3)
			ON CONFLICT (user_id) DO UPDATE SET prefs = EXCLUDED.prefs, sum = EXCLUDED.sum`, storage.RecUser, user, prefs)
	}
	if err != nil {
		return fmt.Errorf("postgres: preferences of user %s: %w", user, err)
	}
	return nil
}

// UpdateUserPrefs changes user's preferences with fn in one transaction,
// holding their row (or, before they have one, the row's key) meanwhile.
func (s *Store) UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error) {
	var out storage.UserPrefs
	err := storage.CheckID(storage.RecUser, user)
	if err == nil {
		err = s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
			out = storage.DefaultUserPrefs()
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext('user_prefs:' || $1))", user); err != nil {
				return err
			}
			var (
				data []byte
				sum  int64
			)
			err := tx.QueryRow(ctx, "SELECT prefs, sum FROM user_prefs WHERE user_id = $1 FOR UPDATE", user).Scan(&data, &sum)
			switch {
			case err == nil:
				if err := decodeRecord(storage.RecUser, user, data, sum, &out); err != nil {
					return err
				}
			case !errors.Is(err, pgx.ErrNoRows):
				return err
			}
			if err := fn(&out); err != nil {
				return err
			}
			if err := storage.CheckUserPrefs(out); err != nil {
				return err
			}
			if data, err = json.Marshal(out); err != nil {
				return err
			}
			_, err = tx.Exec(ctx, `INSERT INTO user_prefs (user_id, prefs, sum) VALUES ($1, $2, $3)
				ON CONFLICT (user_id) DO UPDATE SET prefs = EXCLUDED.prefs, sum = EXCLUDED.sum`, user, data, recordSum(user, data))
			return err
		})
	}
	if err != nil {
		return storage.UserPrefs{}, fmt.Errorf("postgres: preferences of user %s: %w", user, err)
	}
	return out, nil
}

// getRecord decodes the JSON record the query finds under key (selecting
// the record and its checksum) into v, leaving v as it is when there is
// none; found tells which. A record that fails its checksum is
// storage.ErrCorrupt.
func (s *Store) getRecord(ctx context.Context, sql, kind, key string, v any) (found bool, err error) {
	if err := storage.CheckID(kind, key); err != nil {
		return false, err
	}
	err = s.call(ctx, func(ctx context.Context) error {
		var (
			data []byte
			sum  int64
		)
		err := s.pool.QueryRow(ctx, sql, key).Scan(&data, &sum)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		return decodeRecord(kind, key, data, sum, v)
	})
	return found, err
}

// decodeRecord decodes a guild's settings or a user's preferences kept
// under key, after checking its checksum.
func decodeRecord(kind, key string, data []byte, sum int64, v any) error {
	if recordSum(key, data) != sum {
		return fmt.Errorf("%w: %s record %s: checksum mismatch, the row is damaged", storage.ErrCorrupt, kind, key)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%w: %s record %s: %v", storage.ErrCorrupt, kind, key, err)
	}
	return nil
}

// putRecord stores v as JSON under key, with its checksum.
func (s *Store) putRecord(ctx context.Context, sql, kind, key string, v any) error {
	if err := storage.CheckID(kind, key); err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.call(ctx, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, sql, key, data, recordSum(key, data))
		return committed(err) // the statement commits itself
	})
}

// Counts returns how many games the database holds: the active ones, and
// all of them.
func (s *Store) Counts(ctx context.Context) (active, total int, err error) {
	err = s.call(ctx, func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, "SELECT count(*) FILTER (WHERE active), count(*) FROM games").Scan(&active, &total)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("postgres: count games: %w", err)
	}
	return active, total, nil
}
