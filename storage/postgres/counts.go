package postgres

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/storage"
)

// game_counts (schema step 5) counts the games by kind and status, so that
// GameCounts reads a handful of rows however many games the archive
// holds. The writes that create a game or change its status move its
// count in the same transaction (countNew, countMove); the step fills it
// from the games there. Its rows are derived from the game records, so
// they carry no checksum: Verify recounts them.

// countKey is a game's kind and status, a row of game_counts.
type countKey struct {
	kind   string
	status storage.Status
}

// countNew counts a new game.
func countNew(ctx context.Context, tx pgx.Tx, g *storage.Game) error {
	_, err := tx.Exec(ctx, countUp, g.Kind, string(g.Status))
	return err
}

// countUp adds one game to a count, making its row when there is none.
const countUp = `INSERT INTO game_counts (kind, status, games) VALUES ($1, $2, 1)
	ON CONFLICT (kind, status) DO UPDATE SET games = game_counts.games + 1`

// countMove queues on b the move of a game's count from old's kind and
// status to g's, when they differ. A count already at 0 (damage, which
// Verify reports) stays there rather than fail the game's write.
func countMove(b *pgx.Batch, old, g *storage.Game) {
	if old.Kind == g.Kind && old.Status == g.Status {
		return
	}
	b.Queue("UPDATE game_counts SET games = greatest(games - 1, 0) WHERE kind = $1 AND status = $2", old.Kind, string(old.Status))
	b.Queue(countUp, g.Kind, string(g.Status))
}

// GameCounts returns how many games the database holds of each kind and
// status, as storage.Store.GameCounts: it reads game_counts.
func (s *Store) GameCounts(ctx context.Context) ([]storage.GameCount, error) {
	var out []storage.GameCount
	err := s.call(ctx, func(ctx context.Context) error {
		counts, err := readCounts(ctx, s.pool)
		if err != nil {
			return err
		}
		out = make([]storage.GameCount, 0, len(counts))
		for _, k := range sortedCounts(counts) {
			out = append(out, storage.GameCount{Kind: k.kind, Status: k.status, Games: counts[k]})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: count games by kind: %w", err)
	}
	return out, nil
}

// readCounts reads game_counts' rows above 0.
func readCounts(ctx context.Context, q querier) (map[countKey]int, error) {
	rows, err := q.Query(ctx, "SELECT kind, status, games FROM game_counts WHERE games > 0")
	if err != nil {
		return nil, err
	}
	counts := map[countKey]int{}
	var (
		kind, status string
		games        int64
	)
	_, err = pgx.ForEachRow(rows, []any{&kind, &status, &games}, func() error {
		counts[countKey{kind, storage.Status(status)}] = int(games)
		return nil
	})
	return counts, err
}

// sortedCounts lists counts' keys by kind, then status.
func sortedCounts(counts map[countKey]int) []countKey {
	return slices.SortedFunc(maps.Keys(counts), func(a, b countKey) int {
		return cmp.Or(strings.Compare(a.kind, b.kind), strings.Compare(string(a.status), string(b.status)))
	})
}

// fillCounts counts the games already in the database into game_counts,
// for schema step 5, inside the migration's transaction.
func fillCounts(ctx context.Context, tx pgx.Tx, _ time.Time) error {
	counts, err := countRecords(ctx, tx)
	if err != nil {
		return err
	}
	for _, k := range sortedCounts(counts) {
		if _, err := tx.Exec(ctx, "INSERT INTO game_counts (kind, status, games) VALUES ($1, $2, $3)", k.kind, string(k.status), counts[k]); err != nil {
			return err
		}
	}
	return nil
}

// countRecords counts the games by kind and status from their records.
func countRecords(ctx context.Context, tx pgx.Tx) (map[countKey]int, error) {
	rows, err := tx.Query(ctx, "SELECT id, record FROM games")
	if err != nil {
		return nil, err
	}
	counts := map[countKey]int{}
	var (
		id     int64
		record []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &record}, func() error {
		g, err := storage.DecodeGame(idKey(uint64(id)), record)
		if err != nil {
			return fmt.Errorf("game %d: %w", id, err)
		}
		counts[countKey{g.Kind, g.Status}]++
		return nil
	})
	return counts, err
}

// verifyCounts checks that game_counts holds what counted, the games'
// kinds and statuses as their records say.
func verifyCounts(ctx context.Context, tx pgx.Tx, counted map[countKey]int) error {
	kept, err := readCounts(ctx, tx)
	if err != nil {
		return err
	}
	for _, k := range sortedCounts(kept) {
		if kept[k] != counted[k] {
			return fmt.Errorf("%w: game_counts counts %d %s games of %s, the records %d", storage.ErrCorrupt, kept[k], k.status, k.kind, counted[k])
		}
	}
	for _, k := range sortedCounts(counted) {
		if _, ok := kept[k]; !ok {
			return fmt.Errorf("%w: game_counts counts no %s games of %s, the records %d", storage.ErrCorrupt, k.status, k.kind, counted[k])
		}
	}
	return nil
}
