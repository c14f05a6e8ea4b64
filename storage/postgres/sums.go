package postgres

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/storage"
)

// Every row the store keeps carries the CRC-32C of its data (schema step
// 4): a log row of its game, index, seat, time and action; a game's
// snapshot column of the game and the state's bytes; a statistics row of
// its user, kind and counts; a guild's settings and a user's preferences
// of their key and record. The key is inside the sum, so a row moved to
// another game, index or user fails its check as surely as a changed byte.
// The sums are computed here, never by the server, so that a row changed
// behind the store's back (a bad disk, a mistaken UPDATE) is found on the
// next read. A game's own fields are checksummed inside their record
// (storage's Codec); the columns that index them are checked against it.

// sum is a checksum as stored: CRC-32C in a bigint.
func sum(parts ...[]byte) int64 {
	var b []byte
	for _, p := range parts {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
	}
	return int64(storage.Checksum(b))
}

// ints is the big-endian encoding of vs, for sum.
func ints(vs ...int64) []byte {
	out := make([]byte, 0, 8*len(vs))
	for _, v := range vs {
		out = binary.BigEndian.AppendUint64(out, uint64(v))
	}
	return out
}

// entrySum is the checksum of the log row idx of game id.
func entrySum(id uint64, idx int, seat int32, at int64, action string) int64 {
	return sum(ints(int64(id), int64(idx), int64(seat), at), []byte(action))
}

// snapshotSum is the checksum of game id's snapshot column, nil without a
// snapshot.
func snapshotSum(id uint64, snapshot []byte) *int64 {
	if snapshot == nil {
		return nil
	}
	s := sum(ints(int64(id)), snapshot)
	return &s
}

// statsSum is the checksum of a statistics row.
func statsSum(st storage.Stats) int64 {
	return sum([]byte(st.User), []byte(st.Kind), ints(int64(st.Played), int64(st.Won), int64(st.Abandoned), st.ScoreSum, int64(st.Best)))
}

// recordSum is the checksum of a guild's settings or a user's preferences
// kept under key.
func recordSum(key string, data []byte) int64 { return sum([]byte(key), data) }

// sumRows gives every row already in the database its checksum, for
// schema step 4, inside the migration's transaction: what the rows hold
// when the step runs is what the sums vouch for from then on. Interaction
// keys kept before the step count as kept at now.
func sumRows(ctx context.Context, tx pgx.Tx, now time.Time) error {
	var (
		games, idxs, sums []int64
	)
	rows, err := tx.Query(ctx, "SELECT game_id, idx, seat, at, action FROM game_log")
	if err != nil {
		return err
	}
	for rows.Next() {
		var (
			id, at int64
			idx    int32
			seat   int32
			action string
		)
		if err := rows.Scan(&id, &idx, &seat, &at, &action); err != nil {
			rows.Close()
			return err
		}
		games, idxs, sums = append(games, id), append(idxs, int64(idx)), append(sums, entrySum(uint64(id), int(idx), seat, at, action))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	b := &pgx.Batch{}
	b.Queue(`UPDATE game_log l SET sum = v.sum FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS v(game_id, idx, sum)
		WHERE l.game_id = v.game_id AND l.idx = v.idx`, games, idxs, sums)
	if err := sumEach(ctx, tx, b, "SELECT id, snapshot FROM games WHERE snapshot IS NOT NULL", "UPDATE games SET snapshot_sum = $2 WHERE id = $1",
		func(id int64, snapshot []byte) any { return *snapshotSum(uint64(id), snapshot) }); err != nil {
		return err
	}
	if err := sumEach(ctx, tx, b, "SELECT guild, settings FROM guild_settings", "UPDATE guild_settings SET sum = $2 WHERE guild = $1",
		func(key string, data []byte) any { return recordSum(key, data) }); err != nil {
		return err
	}
	if err := sumEach(ctx, tx, b, "SELECT user_id, prefs FROM user_prefs", "UPDATE user_prefs SET sum = $2 WHERE user_id = $1",
		func(key string, data []byte) any { return recordSum(key, data) }); err != nil {
		return err
	}
	stats, err := tx.Query(ctx, "SELECT user_id, kind, played, won, abandoned, score_sum, best FROM stats")
	if err != nil {
		return err
	}
	for stats.Next() {
		var st storage.Stats
		if err := stats.Scan(&st.User, &st.Kind, &st.Played, &st.Won, &st.Abandoned, &st.ScoreSum, &st.Best); err != nil {
			stats.Close()
			return err
		}
		b.Queue("UPDATE stats SET sum = $3 WHERE user_id = $1 AND kind = $2", st.User, st.Kind, statsSum(st))
	}
	stats.Close()
	if err := stats.Err(); err != nil {
		return err
	}
	b.Queue("UPDATE commits SET at = $1", now.UnixNano())
	for _, table := range []string{"game_log", "stats", "guild_settings", "user_prefs"} {
		b.Queue("ALTER TABLE " + table + " ALTER COLUMN sum SET NOT NULL")
	}
	b.Queue("ALTER TABLE commits ALTER COLUMN at SET NOT NULL")
	return tx.SendBatch(ctx, b).Close()
}

// sumEach queues, for each (key, data) row query finds, update with the
// key and the checksum sum makes of the row.
func sumEach[K any](ctx context.Context, tx pgx.Tx, b *pgx.Batch, query, update string, sum func(K, []byte) any) error {
	rows, err := tx.Query(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			key  K
			data []byte
		)
		if err := rows.Scan(&key, &data); err != nil {
			return err
		}
		b.Queue(update, key, sum(key, data))
	}
	return rows.Err()
}
