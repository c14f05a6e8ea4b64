package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/storage"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/internal/pgtest"
	"github.com/meeplegames/meeple/storage/postgres"
	"github.com/meeplegames/meeple/storage/storetest"
)

// server is the package's throwaway PostgreSQL server, started by the
// first test that asks for a database.
var server pgtest.Server

func TestMain(m *testing.M) { os.Exit(server.Run(m)) }

// database is the contract suite's database: a new one on the server.
func database(t testing.TB, games *engine.Registry) storetest.Opener {
	dsn := server.Database(t)
	return func() (storetest.Store, error) { return postgres.Open(dsn, games, postgres.Options{}) }
}

// TestContract runs the store contract's suite on PostgreSQL.
func TestContract(t *testing.T) { storetest.Run(t, database) }

// The benchmarks of the bbolt store's names, on PostgreSQL.

func BenchmarkAppend(b *testing.B)         { storetest.BenchAppend(b, database) }
func BenchmarkAppend100Games(b *testing.B) { storetest.BenchAppendGames(b, database, 100) }
func BenchmarkLoad(b *testing.B)           { storetest.BenchLoad(b, database) }

// A database migrated by a newer Meeple is refused with ErrNewerSchema
// and a message that says to upgrade; the current one opens again.
func TestNewerSchemaIsRefused(t *testing.T) {
	dsn := server.Database(t)
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "UPDATE meeple_schema SET version = version + 1"); err != nil {
		t.Fatal(err)
	}
	_, err = postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if !errors.Is(err, storage.ErrNewerSchema) || !strings.Contains(err.Error(), "upgrade Meeple") {
		t.Fatalf("open of a newer schema: %v, want ErrNewerSchema saying to upgrade", err)
	}
	if _, err := conn.Exec(ctx, "UPDATE meeple_schema SET version = version - 1"); err != nil {
		t.Fatal(err)
	}
	s, err = postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if err != nil {
		t.Fatalf("open of the current schema: %v", err)
	}
	s.Close()
}

// A password in the connection string never reaches an error message.
func TestErrorsHideThePassword(t *testing.T) {
	dsn := server.Database(t)
	for _, bad := range []string{
		"postgres://meeple:hunter2secret@127.0.0.1:1/nowhere?connect_timeout=2",
		"postgres://meeple@127.0.0.1:1/nowhere?password=hunter2secret&connect_timeout=2",
		"host=127.0.0.1 port=1 user=meeple password=hunter2secret connect_timeout=2",
		"host=127.0.0.1 port=1 user=meeple password='hunter2secret' connect_timeout=2",
		"postgres://meeple:hunter2secret@[::1/",
		"host=127.0.0.1 password=hunter2secret port=notanumber",
	} {
		_, err := postgres.Open(bad, storetest.Games(), postgres.Options{Timeout: 5 * time.Second})
		if err == nil {
			t.Fatalf("open of %s succeeded", postgres.Redact(bad))
		}
		if strings.Contains(err.Error(), "hunter2secret") {
			t.Errorf("error shows the password: %v", err)
		}
		if r := postgres.Redact(bad); strings.Contains(r, "hunter2secret") {
			t.Errorf("Redact kept the password: %s", r)
		}
	}
	// The server's own refusals (a wrong password) name no password either.
	withPassword := dsn + "&password=hunter2secret"
	s, err := postgres.Open(withPassword, storetest.Games(), postgres.Options{})
	if err != nil {
		if strings.Contains(err.Error(), "hunter2secret") {
			t.Fatalf("error shows the password: %v", err)
		}
	} else {
		if strings.Contains(s.String(), "hunter2secret") {
			t.Fatalf("String shows the password: %s", s)
		}
		s.Close()
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://meeple:pw@db:5432/meeple":             "postgres://meeple:xxxxx@db:5432/meeple",
		"postgresql://db/meeple?password=pw&sslmode=full": "postgresql://db/meeple?password=xxxxx&sslmode=full",
		"postgres://db/meeple":                            "postgres://db/meeple",
		"host=db password='p w\\'x' dbname=meeple":        "host=db password=xxxxx dbname=meeple",
		"host=db PASSWORD = pw dbname=meeple":             "host=db PASSWORD = xxxxx dbname=meeple",
	} {
		if got := postgres.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// Two processes (two stores on one database) commit to one game from the
// versions they read: each version is acknowledged to exactly one of them,
// and the game ends as its log replayed.
func TestTwoProcessesApplyEachVersionOnce(t *testing.T) {
	open := database(t, storetest.Games())
	var stores [2]storetest.Store
	for i := range stores {
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores[i] = s
	}
	storetest.NewRace(t, stores[0], "g1", "c1", 2, "1000000")
	const writers, target = 8, 60
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		won = map[int]int{}
	)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(s storetest.Store) {
			defer wg.Done()
			for {
				g, state, err := s.Load("c1")
				if err != nil || g.Version >= target {
					if err != nil {
						t.Error(err)
					}
					return
				}
				p := state.Prompts()[0]
				action := storetest.NextAction(g.Version)
				if _, err := state.Apply(p.Seat, action); err != nil {
					t.Error(err)
					return
				}
				snap, _ := state.Encode()
				done, err := s.Commit("c1", g.Version, storage.Outcome{Entries: []storage.Entry{{Seat: p.Seat, Action: action}}, Snapshot: snap})
				if errors.Is(err, storage.ErrStale) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if prev, dup := won[done.Version]; dup {
					t.Errorf("version %d acknowledged to writers %d and %d", done.Version, prev, w)
				}
				won[done.Version] = w
				mu.Unlock()
			}
		}(stores[w%2])
	}
	wg.Wait()
	g, err := stores[1].Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	if g.Version != target || len(won) != target || !bytes.Equal(g.Snapshot, storetest.Replayed(t, g)) {
		t.Fatalf("version %d, %d acknowledged; snapshot equal to the replay: %v", g.Version, len(won), bytes.Equal(g.Snapshot, storetest.Replayed(t, g)))
	}
}
