package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// verifyTimeout bounds Verify, which reads the whole database.
const verifyTimeout = 10 * time.Minute

// Verify checks every row of the database against its checksum and the
// rows against each other, in one read-only snapshot of the database,
// changing nothing: every game reads whole (its record, each log entry,
// its columns agreeing with its record, a running game's snapshot intact
// and of its log's length), every game's players are listed under it
// alone, with the seat index entries the game makes, the statistics are those the archived games count, game_counts
// holds the games' kinds and statuses, every pending reply reads
// under its own interaction's id, and every guild's settings and user's
// preferences read. The first damage found is
// a storage.ErrCorrupt that names the game and the entry (or the record).
func (s *Store) Verify() error {
	if err := s.verify(); err != nil {
		return fmt.Errorf("postgres: verify %s: %w", s.dsn, err)
	}
	return nil
}

// verify is Verify without the database's name in its errors.
func (s *Store) verify() error {
	if s.closed.Load() {
		return storage.ErrClosed
	}
	ctx, cancel := context.WithTimeout(context.Background(), verifyTimeout)
	defer cancel()
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
		func(tx pgx.Tx) error { return verify(ctx, tx) })
}

func verify(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, "SELECT id FROM games ORDER BY id")
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return err
	}
	users, err := gameUsers(ctx, tx)
	if err != nil {
		return err
	}
	stats := map[[2]string]*storage.Stats{}
	counts := map[countKey]int{}
	for _, id := range ids {
		g, snap, err := readFull(ctx, tx, "g.id = $1", id)
		if err != nil {
			return err
		}
		if err := verifyGame(g, snap, users[id]); err != nil {
			return fmt.Errorf("%w: game %d: %s", storage.ErrCorrupt, id, err)
		}
		delete(users, id)
		counts[countKey{g.Kind, g.Status}]++
		if !g.Status.Active() {
			for _, user := range storage.StatsUsers(g) {
				key := [2]string{user, g.Kind}
				if stats[key] == nil {
					stats[key] = &storage.Stats{User: user, Kind: g.Kind}
				}
				stats[key].Count(g)
			}
		}
	}
	if err := verifyStats(ctx, tx, stats); err != nil {
		return err
	}
	if err := verifyCounts(ctx, tx, counts); err != nil {
		return err
	}
	if err := verifyPending(ctx, tx); err != nil {
		return err
	}
	for _, table := range []struct{ sql, kind string }{
		{"SELECT guild, settings, sum FROM guild_settings", storage.RecGuild},
		{"SELECT user_id, prefs, sum FROM user_prefs", storage.RecUser},
	} {
		rows, err := tx.Query(ctx, table.sql)
		if err != nil {
			return err
		}
		var (
			key  string
			data []byte
			sum  int64
		)
		_, err = pgx.ForEachRow(rows, []any{&key, &data, &sum}, func() error {
			var v map[string]any
			return decodeRecord(table.kind, key, data, sum, &v)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// listed is a game's rows in game_users: its users, sorted, and whether
// each row says the game is active.
type listed struct {
	users   []string
	active  []bool
	seating [][]byte
}

// gameUsers reads game_users by game.
func gameUsers(ctx context.Context, tx pgx.Tx) (map[int64]*listed, error) {
	rows, err := tx.Query(ctx, "SELECT game_id, user_id, active, seating FROM game_users ORDER BY game_id, user_id")
	if err != nil {
		return nil, err
	}
	out := map[int64]*listed{}
	var (
		id      int64
		user    string
		active  bool
		seating []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &user, &active, &seating}, func() error {
		if out[id] == nil {
			out[id] = &listed{}
		}
		l := out[id]
		l.users, l.active, l.seating = append(l.users, user), append(l.active, active), append(l.seating, seating)
		return nil
	})
	return out, err
}

// verifyGame checks what readFull does not: the snapshot of a running
// game, and the game's listing under its users.
func verifyGame(g *storage.Game, snap snapshotInfo, l *listed) error {
	switch {
	case g.Status != storage.StatusRunning:
	case snap.damaged != "":
		return errors.New("its snapshot does not match its checksum: the column is damaged")
	case g.Snapshot == nil:
		return errors.New("the running game has no snapshot")
	case snap.version != g.Version:
		return fmt.Errorf("its snapshot is of version %d, its log of %d", snap.version, g.Version)
	}
	want := g.Users()
	slices.Sort(want)
	if l == nil {
		l = &listed{}
	}
	if !slices.Equal(l.users, want) {
		return fmt.Errorf("it is listed under users %v, its seats hold %v: the game_users rows are damaged", l.users, want)
	}
	for _, a := range l.active {
		if a != g.Status.Active() {
			return errors.New("a game_users row says the wrong status: the row is damaged")
		}
	}
	recs, err := storage.EncodeSeatings(g)
	if err != nil {
		return err
	}
	for i, u := range l.users {
		if data := l.seating[i]; !bytes.Equal(data, recs[u]) {
			if _, err := storage.DecodeSeating(u, data); data != nil && err != nil {
				return fmt.Errorf("its seat index entry of user %s does not read: %w", u, err)
			}
			return fmt.Errorf("its seat index entry of user %s is not what the game makes: the row is damaged", u)
		}
	}
	return nil
}

// verifyStats checks every statistics row's checksum, and that the rows
// are what the archived games count.
func verifyStats(ctx context.Context, tx pgx.Tx, want map[[2]string]*storage.Stats) error {
	rows, err := tx.Query(ctx, "SELECT user_id, kind, played, won, abandoned, score_sum, best, sum FROM stats")
	if err != nil {
		return err
	}
	var (
		st  storage.Stats
		sum int64
	)
	found := 0
	_, err = pgx.ForEachRow(rows, []any{&st.User, &st.Kind, &st.Played, &st.Won, &st.Abandoned, &st.ScoreSum, &st.Best, &sum}, func() error {
		if err := checkStats(st, sum); err != nil {
			return err
		}
		w := want[[2]string{st.User, st.Kind}]
		if w == nil && st == (storage.Stats{User: st.User, Kind: st.Kind}) {
			return nil // a row begun in a transaction that counted nothing
		}
		if w == nil || *w != st {
			return fmt.Errorf("%w: stats record %s/%s is not what the archived games count (%+v, the games: %+v)", storage.ErrCorrupt, st.User, st.Kind, st, w)
		}
		found++
		return nil
	})
	if err != nil {
		return err
	}
	if found != len(want) {
		return fmt.Errorf("%w: %d users' statistics of archived games are missing", storage.ErrCorrupt, len(want)-found)
	}
	return nil
}

// Check connects to the database at dsn and, when its schema is this
// build's, verifies every row as Verify does, changing nothing (a schema
// Open would upgrade is only read: its rows gain their checksums at the
// upgrade). Errors name the database without its password.
func Check(dsn string, games *engine.Registry, timeout time.Duration) (Status, error) {
	st, err := Inspect(dsn, timeout)
	if err != nil || st.Schema < st.Current {
		return st, err
	}
	s, err := open(dsn, games, Options{Timeout: timeout, MaxConns: 2}, false)
	if err != nil {
		return st, fmt.Errorf("storage/postgres: check %s: %w", Redact(dsn), scrub(err, dsn))
	}
	defer s.Close()
	return st, s.Verify()
}
