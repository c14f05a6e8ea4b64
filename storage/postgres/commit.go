package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/storage"
)

// Commit keeps an interaction's whole outcome on channel's running game in
// one transaction, as storage.Store.Commit: the game's row is locked, so
// of two processes committing from the same version one succeeds and the
// other gets a *storage.VersionError. With o.Start it starts a game in
// the lobby in the same transaction.
func (s *Store) Commit(channel string, expectVersion int, o storage.Outcome) (*storage.Game, error) {
	entries, err := s.contract.OutcomeEntries(o)
	if err != nil {
		return nil, fmt.Errorf("postgres: commit to channel %s: %w", channel, err)
	}
	var out *storage.Game
	err = s.inTx(func(ctx context.Context, tx pgx.Tx) error {
		old, err := readHead(ctx, tx, activeWhere, true, channel)
		if err != nil {
			return err
		}
		g, err := s.contract.Outcome(old, expectVersion, entries, o)
		if err != nil {
			return err
		}
		if len(entries) > 0 {
			if err := insertLog(ctx, tx, g.ID, old.Version, entries); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "UPDATE games SET version = $2, snapshot = $3, snapshot_version = $2, last_action = $4 WHERE id = $1",
				int64(g.ID), g.Version, o.Snapshot, nanos(entries[len(entries)-1].At)); err != nil {
				return err
			}
		} else if o.Start {
			if _, err := tx.Exec(ctx, "UPDATE games SET snapshot = $2, snapshot_version = 0 WHERE id = $1", int64(g.ID), g.Snapshot); err != nil {
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
	if err != nil {
		return nil, fmt.Errorf("postgres: commit to channel %s: %w", channel, err)
	}
	return out, nil
}
