package pgtest_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/internal/pgtest"
)

var server pgtest.Server

func TestMain(m *testing.M) { os.Exit(server.Run(m)) }

// Each database is empty and separate from the others.
func TestDatabasesAreSeparate(t *testing.T) {
	ctx := context.Background()
	a, b := server.Database(t), server.Database(t)
	if a == b {
		t.Fatalf("two databases share a DSN: %s", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE t (x int); INSERT INTO t VALUES (7)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 't'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("database b sees a's table")
	}
	var x int
	if err := ca.QueryRow(ctx, "SELECT x FROM t").Scan(&x); err != nil || x != 7 {
		t.Fatalf("read back %d, %v; want 7", x, err)
	}
}

// Without PostgreSQL's binaries a test asking for a database is skipped,
// and says why.
func TestWithoutBinariesTestsSkip(t *testing.T) {
	t.Setenv(pgtest.BinEnv, t.TempDir())
	t.Setenv(pgtest.RequireEnv, "") // as on a developer's machine
	var none pgtest.Server
	defer none.Stop()
	_, err := none.NewDatabase()
	if !errors.Is(err, pgtest.ErrUnavailable) || !strings.Contains(err.Error(), "holds no initdb") {
		t.Fatalf("NewDatabase without binaries: %v, want ErrUnavailable with the reason", err)
	}
	skipped := false
	t.Run("asks for a database", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		none.Database(t)
		t.Error("Database returned without binaries")
	})
	if !skipped {
		t.Fatal("the test was not skipped")
	}
}
