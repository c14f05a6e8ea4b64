package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/storage"
)

// dueCond is true for a timer column due at $1 and not claimed at $1.
func dueCond(at, claim string) string {
	return "COALESCE(" + at + " <= $1 AND (" + claim + " IS NULL OR " + claim + " <= $1), false)"
}

// dueSelect finds the games with a timer due and unclaimed at $1 (Unix
// ns), locking them; rows another process is claiming at the same moment
// are skipped (it gets them), so each timer goes to one caller.
func dueSelect() string {
	d, r := dueCond("deadline", "deadline_claim"), dueCond("remind_at", "remind_claim")
	return `SELECT id, guild, channel, ` + d + ` AS d, deadline, ` + r + ` AS r, remind_at
		FROM games WHERE active AND (` + d + ` OR ` + r + `)
		FOR UPDATE SKIP LOCKED`
}

// claimSQL claims the timers of the games listed, until $1: $2 the games
// whose deadline, $3 those whose reminder is claimed.
const claimSQL = `UPDATE games SET
		deadline_claim = CASE WHEN id = ANY ($2) THEN $1 ELSE deadline_claim END,
		remind_claim = CASE WHEN id = ANY ($3) THEN $1 ELSE remind_claim END
	WHERE id = ANY ($2) OR id = ANY ($3)`

// ClaimDue returns the deadlines and reminders due at now that no process
// has claimed within the last hold, and claims them until now+hold, as
// storage.Store.ClaimDue: across every process on the database, each
// timer is handed out once, and again only after its claim runs out (its
// handler died). owns, when not nil, limits the claim to games of the
// guilds it accepts. Claims compare the callers' clocks.
func (s *Store) ClaimDue(ctx context.Context, now time.Time, hold time.Duration, owns func(guild string) bool) ([]storage.Due, error) {
	var out []storage.Due
	at := max(now.UnixNano(), 0)
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		out = out[:0]
		rows, err := tx.Query(ctx, dueSelect(), at)
		if err != nil {
			return err
		}
		var deadlines, reminders []int64
		for rows.Next() {
			var (
				id                 int64
				guild, channel     string
				d, r               bool
				deadline, remindAt *int64
			)
			if err := rows.Scan(&id, &guild, &channel, &d, &deadline, &r, &remindAt); err != nil {
				rows.Close()
				return err
			}
			if owns != nil && !owns(guild) {
				continue
			}
			if d {
				deadlines = append(deadlines, id)
				out = append(out, storage.Due{Kind: storage.DueDeadline, At: time.Unix(0, *deadline).UTC(), GameID: uint64(id), Channel: channel})
			}
			if r {
				reminders = append(reminders, id)
				out = append(out, storage.Due{Kind: storage.DueReminder, At: time.Unix(0, *remindAt).UTC(), GameID: uint64(id), Channel: channel})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil || len(out) == 0 {
			return err
		}
		_, err = tx.Exec(ctx, claimSQL, at+int64(hold), deadlines, reminders)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: claim due timers: %w", err)
	}
	slices.SortFunc(out, func(a, b storage.Due) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.GameID, b.GameID), cmp.Compare(a.Kind, b.Kind))
	})
	return out, nil
}
