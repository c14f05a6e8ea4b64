package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// Seatings returns user's entries in the seat index, one per active game
// they hold a seat in, by game id: one read of game_users by its primary
// key, whatever the number of games.
func (s *Store) Seatings(ctx context.Context, user string) ([]storage.Seating, error) {
	if err := storage.CheckID("user", user); err != nil {
		return nil, fmt.Errorf("postgres: seats of user: %w", err)
	}
	var out []storage.Seating
	err := s.call(ctx, func(ctx context.Context) error {
		out = out[:0]
		rows, err := s.pool.Query(ctx, "SELECT game_id, seating FROM game_users WHERE user_id = $1 AND active ORDER BY game_id", user)
		if err != nil {
			return err
		}
		var (
			id   int64
			data []byte
		)
		_, err = pgx.ForEachRow(rows, []any{&id, &data}, func() error {
			st, err := storage.DecodeSeating(fmt.Sprintf("%s/%d", user, id), data)
			if err != nil {
				return err
			}
			if st.User != user || st.Game != uint64(id) {
				return fmt.Errorf("%w: the seat index entry of user %s in game %d is another's", storage.ErrCorrupt, user, id)
			}
			out = append(out, st)
			return nil
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: seats of user %s: %w", user, err)
	}
	return out, nil
}

// fillSeats is the fill of the seat index's schema step: it gives each
// running game the waits its state prompts (begun at its last change) and
// writes every active game's seat index entries.
func fillSeats(games *engine.Registry) func(ctx context.Context, tx pgx.Tx, now time.Time) error {
	return func(ctx context.Context, tx pgx.Tx, now time.Time) error {
		rows, err := tx.Query(ctx, "SELECT "+headCols+", g.snapshot FROM games g WHERE g.active ORDER BY g.id")
		if err != nil {
			return err
		}
		type active struct {
			g    *storage.Game
			snap []byte
		}
		var found []active
		for rows.Next() {
			var h head
			var snap []byte
			if err := rows.Scan(append(h.dest(), &snap)...); err != nil {
				rows.Close()
				return err
			}
			g, err := h.decode()
			if err != nil {
				rows.Close()
				return err
			}
			found = append(found, active{g, snap})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		contract := storage.NewContract(games, func() time.Time { return now })
		for _, a := range found {
			g := a.g
			if g.Status == storage.StatusRunning && g.Waits == nil {
				state, err := contract.Decode(g, a.snap)
				if err != nil {
					return fmt.Errorf("game %d: its state does not decode: %w", g.ID, err)
				}
				g.Waits = storage.WaitsNow(state, g.Updated)
				data, err := storage.EncodeGame(g)
				if err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, "UPDATE games SET record = $2 WHERE id = $1", int64(g.ID), data); err != nil {
					return err
				}
			}
			users, seats, err := seatRows(g)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE game_users SET seating = x.r FROM unnest($2::text[], $3::bytea[]) AS x(u, r)
				WHERE game_id = $1 AND user_id = x.u`, int64(g.ID), users, seats); err != nil {
				return err
			}
		}
		return nil
	}
}
