package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/storage"
)

// KeepPending keeps p in pending_replies, as storage.PendingReplies: the
// record is storage.EncodePending's, with its checksum.
func (s *Store) KeepPending(ctx context.Context, p storage.Pending) error {
	if err := storage.CheckPending(p); err != nil {
		return fmt.Errorf("postgres: keep %w", err)
	}
	rec, err := storage.EncodePending(p)
	if err != nil {
		return err
	}
	err = s.call(ctx, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, `INSERT INTO pending_replies (id, received, record) VALUES ($1, $2, $3)
			ON CONFLICT (id) DO UPDATE SET received = EXCLUDED.received, record = EXCLUDED.record`, p.ID, p.Received.UnixNano(), rec)
		return committed(err) // the statement commits itself; running it again keeps the same row
	})
	if err != nil {
		return fmt.Errorf("postgres: keep pending reply of interaction %.40s: %w", p.ID, err)
	}
	return nil
}

// DropPending forgets the pending reply of interaction id, if any.
func (s *Store) DropPending(ctx context.Context, id string) error {
	err := s.call(ctx, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, "DELETE FROM pending_replies WHERE id = $1", id)
		return committed(err)
	})
	if err != nil {
		return fmt.Errorf("postgres: drop pending reply of interaction %.40s: %w", id, err)
	}
	return nil
}

// TakePending forgets the pending replies take accepts and returns them,
// in one transaction, as storage.PendingReplies: their rows are locked,
// so a process taking at the same time finds them gone. A damaged record
// stays (meeple check names it) and is reported beside the replies taken.
func (s *Store) TakePending(ctx context.Context, take func(p storage.Pending) bool) ([]storage.Pending, error) {
	var taken []storage.Pending
	var damaged error
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		taken, damaged = nil, nil // a retried transaction starts again
		rows, err := tx.Query(ctx, "SELECT id, record FROM pending_replies ORDER BY received FOR UPDATE")
		if err != nil {
			return err
		}
		var (
			id   string
			data []byte
			ids  []string
		)
		_, err = pgx.ForEachRow(rows, []any{&id, &data}, func() error {
			p, err := storage.DecodePending(id, data)
			switch {
			case err != nil:
				damaged = errors.Join(damaged, err)
			case take(p):
				taken, ids = append(taken, p), append(ids, p.ID)
			}
			return nil
		})
		if err != nil || len(ids) == 0 {
			return err
		}
		_, err = tx.Exec(ctx, "DELETE FROM pending_replies WHERE id = ANY($1)", ids)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: take pending replies: %w", err)
	}
	if damaged != nil {
		damaged = fmt.Errorf("postgres: take pending replies: %w", damaged)
	}
	return taken, damaged
}

// verifyPending checks that every pending reply reads, under its own
// interaction's id.
func verifyPending(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, "SELECT id, record FROM pending_replies")
	if err != nil {
		return err
	}
	var (
		id   string
		data []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &data}, func() error {
		_, err := storage.DecodePending(id, data)
		return err
	})
	return err
}
