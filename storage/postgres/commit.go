package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/storage"
)

// Commit keeps an interaction's whole outcome on channel's running game in
// one transaction, as storage.Store.Commit: the game's row is locked, so
// of two processes committing from the same game and revision one
// succeeds and the other gets a *storage.VersionError. With o.Start it
// starts a game in the lobby in the same transaction. o.Key is kept in
// the commits table in the same transaction, so a retry of a commit whose
// answer was lost finds it (*storage.AppliedError).
func (s *Store) Commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error) {
	entries, err := s.contract.OutcomeEntries(o)
	if err != nil {
		return nil, fmt.Errorf("postgres: commit to channel %s: %w", channel, err)
	}
	var out *storage.Game
	err = s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		old, err := readHead(ctx, tx, activeWhere, true, channel)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		// A retry finds its commit before anything else: the game may have
		// finished by it, or moved on since.
		if err := applied(ctx, tx, o.Key); err != nil {
			return err
		}
		if old == nil {
			return storage.ErrNotFound
		}
		g, err := s.contract.Outcome(old, at, entries, o)
		if err != nil {
			return err
		}
		if err := revise(ctx, tx, old, g); err != nil {
			return err
		}
		if o.Key != "" {
			if _, err := tx.Exec(ctx, "INSERT INTO commits (key, game_id, revision, at) VALUES ($1, $2, $3, $4)",
				o.Key, int64(g.ID), int64(g.Revision), s.now().UnixNano()); err != nil {
				return err
			}
		}
		if len(entries) > 0 {
			if err := insertLog(ctx, tx, g.ID, old.Version, entries); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "UPDATE games SET version = $2, snapshot = $3, snapshot_version = $2, last_action = $4, snapshot_sum = $5 WHERE id = $1",
				int64(g.ID), g.Version, o.Snapshot, nanos(entries[len(entries)-1].At), snapshotSum(g.ID, o.Snapshot)); err != nil {
				return err
			}
		} else if o.Start {
			if _, err := tx.Exec(ctx, "UPDATE games SET snapshot = $2, snapshot_version = 0, snapshot_sum = $3 WHERE id = $1",
				int64(g.ID), g.Snapshot, snapshotSum(g.ID, g.Snapshot)); err != nil {
				return err
			}
		}
		if !g.Status.Active() {
			if err := addStats(ctx, tx, g); err != nil {
				return err
			}
		}
		out = g
		return writeGame(ctx, tx, old, g)
	})
	if uniqueViolation(err) && o.Key != "" {
		// Another process kept the same interaction meanwhile.
		err = s.call(ctx, func(ctx context.Context) error { return applied(ctx, s.pool, o.Key) })
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: commit to channel %s: %w", channel, err)
	}
	s.pruneDue()
	return out, nil
}

// pruneDue forgets the interaction keys older than storage.KeyHorizon
// when this process last did storage.PruneEvery ago or more. A failure
// is logged: the next commit past the interval tries again.
func (s *Store) pruneDue() {
	now := s.now()
	last := s.pruned.Load()
	if now.UnixNano()-last < int64(storage.PruneEvery) || !s.pruned.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	if _, err := s.PruneKeys(context.Background(), now.Add(-storage.KeyHorizon)); err != nil {
		s.pruned.Store(last)
		s.log.Warn("postgres: pruning interaction keys failed", "err", err)
	}
}

// PruneKeys forgets the interaction keys of commits kept before
// keptBefore, as storage.KeyPruner.
func (s *Store) PruneKeys(ctx context.Context, keptBefore time.Time) (int, error) {
	var n int64
	err := s.call(ctx, func(ctx context.Context) error {
		tag, err := s.pool.Exec(ctx, "DELETE FROM commits WHERE at < $1", keptBefore.UnixNano())
		n = tag.RowsAffected()
		if err == nil {
			_, err = s.pool.Exec(ctx, "DELETE FROM deliveries WHERE at < $1", keptBefore.UnixNano())
		}
		if err == nil {
			_, err = s.pool.Exec(ctx, "DELETE FROM pending_replies WHERE received < $1", keptBefore.UnixNano())
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: prune interaction keys: %w", err)
	}
	return int(n), nil
}

// applied refuses a commit whose interaction key was kept before, with a
// *storage.AppliedError that holds the game as stored.
func applied(ctx context.Context, q querier, key string) error {
	if key == "" {
		return nil
	}
	var id int64
	err := q.QueryRow(ctx, "SELECT game_id FROM commits WHERE key = $1", key).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	g, err := readHead(ctx, q, "g.id = $1", false, id)
	if err != nil {
		return err
	}
	return &storage.AppliedError{Key: key, Game: g}
}

// FirstDelivery records interaction id as delivered at at and reports
// whether it is its first delivery, as storage.Deliveries: of several
// processes delivered the same id, the one whose row goes in gets true.
func (s *Store) FirstDelivery(ctx context.Context, id string, at time.Time) (bool, error) {
	if err := storage.CheckID("interaction", id); err != nil {
		return false, fmt.Errorf("postgres: delivery: %w", err)
	}
	var first bool
	err := s.call(ctx, func(ctx context.Context) error {
		tag, err := s.pool.Exec(ctx, "INSERT INTO deliveries (id, at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", id, at.UnixNano())
		if err != nil {
			return committed(err) // the statement commits itself
		}
		first = tag.RowsAffected() == 1
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("postgres: record delivery of interaction %.40s: %w", id, err)
	}
	s.pruneDue()
	return first, nil
}

// Committed reports whether a commit with key was kept (and not yet
// pruned), as storage.PendingReplies.
func (s *Store) Committed(ctx context.Context, key string) (bool, error) {
	var kept bool
	err := s.call(ctx, func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM commits WHERE key = $1)", key).Scan(&kept)
	})
	if err != nil {
		return false, fmt.Errorf("postgres: find commit of interaction %.40s: %w", key, err)
	}
	return kept, nil
}
