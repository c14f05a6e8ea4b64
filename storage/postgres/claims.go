package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/meeplegames/meeple/storage"
)

// claimSQL claims the timers due at $1 that are not claimed at $1, until
// $2 (both Unix ns), in one statement. Rows another process is claiming
// at the same moment are skipped (it gets them), so each timer goes to one
// caller.
const claimSQL = `WITH c AS (
		SELECT id,
			COALESCE(deadline <= $1 AND (deadline_claim IS NULL OR deadline_claim <= $1), false) AS d,
			COALESCE(remind_at <= $1 AND (remind_claim IS NULL OR remind_claim <= $1), false) AS r
		FROM games
		WHERE active AND ((deadline <= $1 AND (deadline_claim IS NULL OR deadline_claim <= $1))
			OR (remind_at <= $1 AND (remind_claim IS NULL OR remind_claim <= $1)))
		FOR UPDATE SKIP LOCKED)
	UPDATE games g SET
		deadline_claim = CASE WHEN c.d THEN $2 ELSE g.deadline_claim END,
		remind_claim = CASE WHEN c.r THEN $2 ELSE g.remind_claim END
	FROM c WHERE g.id = c.id
	RETURNING g.id, g.channel, c.d, g.deadline, c.r, g.remind_at`

// ClaimDue returns the deadlines and reminders due at now that no process
// has claimed within the last hold, and claims them until now+hold, as
// storage.Store.ClaimDue: across every process on the database, each
// timer is handed out once, and again only after its claim runs out (its
// handler died). Claims compare the callers' clocks.
func (s *Store) ClaimDue(now time.Time, hold time.Duration) ([]storage.Due, error) {
	var out []storage.Due
	err := s.call(func(ctx context.Context) error {
		at := max(now.UnixNano(), 0)
		rows, err := s.pool.Query(ctx, claimSQL, at, at+int64(hold))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				id                 int64
				channel            string
				d, r               bool
				deadline, remindAt *int64
			)
			if err := rows.Scan(&id, &channel, &d, &deadline, &r, &remindAt); err != nil {
				return err
			}
			if d {
				out = append(out, storage.Due{Kind: storage.DueDeadline, At: time.Unix(0, *deadline).UTC(), GameID: uint64(id), Channel: channel})
			}
			if r {
				out = append(out, storage.Due{Kind: storage.DueReminder, At: time.Unix(0, *remindAt).UTC(), GameID: uint64(id), Channel: channel})
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: claim due timers: %w", err)
	}
	slices.SortFunc(out, func(a, b storage.Due) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.GameID, b.GameID), cmp.Compare(a.Kind, b.Kind))
	})
	return out, nil
}
