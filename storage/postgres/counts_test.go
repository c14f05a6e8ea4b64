package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
	"github.com/meeplegames/meeple/storage/storetest"
)

// countsOf is s's GameCounts as text.
func countsOf(t *testing.T, s *postgres.Store) string {
	t.Helper()
	counts, err := s.GameCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, c := range counts {
		parts = append(parts, fmt.Sprintf("%s %s %d", c.Kind, c.Status, c.Games))
	}
	return strings.Join(parts, ", ")
}

// A database of schema 4 (before game_counts) gets its games counted by
// the step that adds the table; counts that disagree with the games are
// damage Verify names.
func TestGameCountsAreFilledAndVerified(t *testing.T) {
	dsn, s := filled(t)
	const want = "race abandoned 1, race finished 1, race lobby 1, race running 2"
	if got := countsOf(t, s); got != want {
		t.Fatalf("GameCounts = %q, want %q", got, want)
	}
	s.Close()
	conn := connect(t, dsn)
	exec(t, conn, undoStep5)
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{Verify: true})
	if err != nil {
		t.Fatalf("open of schema 4: %v", err)
	}
	if got := countsOf(t, s); got != want {
		t.Errorf("after the step: GameCounts = %q, want %q", got, want)
	}
	for _, c := range []struct{ damage, repair, says string }{
		{"UPDATE game_counts SET games = 3 WHERE status = 'running'", "UPDATE game_counts SET games = 2 WHERE status = 'running'",
			"counts 3 running games of race, the records 2"},
		{"UPDATE game_counts SET games = 0 WHERE status = 'lobby'", "UPDATE game_counts SET games = 1 WHERE status = 'lobby'",
			"counts no lobby games of race, the records 1"},
	} {
		exec(t, conn, c.damage)
		if err := s.Verify(); !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Verify after %q: %v, want ErrCorrupt saying %q", c.damage, err, c.says)
		}
		exec(t, conn, c.repair)
	}
	if err := s.Verify(); err != nil {
		t.Errorf("Verify after the repairs: %v", err)
	}
	s.Close()
}
