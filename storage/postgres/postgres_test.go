package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
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

// processes opens n stores on one new database, as n Meeple processes
// sharing it would; they are closed when the test ends.
func processes(t *testing.T, n int) []storetest.Store {
	open := database(t, storetest.Games())
	stores := make([]storetest.Store, n)
	for i := range stores {
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	return stores
}

// TestContract runs the store contract's suite on PostgreSQL.
func TestContract(t *testing.T) { storetest.Run(t, database) }

// The benchmarks of the bbolt store's names, on PostgreSQL.

func BenchmarkAppend(b *testing.B)         { storetest.BenchAppend(b, database) }
func BenchmarkAppend100Games(b *testing.B) { storetest.BenchAppendGames(b, database, 100) }
func BenchmarkLoad(b *testing.B)           { storetest.BenchLoad(b, database) }
func BenchmarkSeatings500Games(b *testing.B) {
	storetest.BenchSeatings(b, database, 500)
}
func BenchmarkInteraction100Games(b *testing.B) {
	storetest.BenchInteraction(b, database, 100, 0)
}
func BenchmarkInteraction100PerSecond(b *testing.B) {
	storetest.BenchInteraction(b, database, 100, 10*time.Millisecond)
}

// connect opens a connection of its own to dsn for t.
func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// exec runs SQL statements on conn.
func exec(t *testing.T, conn *pgx.Conn, sql string) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), sql); err != nil {
		t.Fatal(err)
	}
}

// A database migrated by a newer Meeple is refused with ErrNewerSchema
// and a message that says to upgrade; the current one opens again.
func TestNewerSchemaIsRefused(t *testing.T) {
	dsn := server.Database(t)
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	conn := connect(t, dsn)
	exec(t, conn, "UPDATE meeple_schema SET version = version + 1")
	_, err = postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if !errors.Is(err, storage.ErrNewerSchema) || !strings.Contains(err.Error(), "upgrade Meeple") {
		t.Fatalf("open of a newer schema: %v, want ErrNewerSchema saying to upgrade", err)
	}
	exec(t, conn, "UPDATE meeple_schema SET version = version - 1")
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

// Two processes (two stores on one database) commit to one game from the
// versions they read: each version is acknowledged to exactly one of them,
// and the game ends as its log replayed.
func TestTwoProcessesApplyEachVersionOnce(t *testing.T) {
	stores := processes(t, 2)
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
				g, state, err := s.Load(context.Background(), "c1")
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
				done, err := s.Commit(context.Background(), "c1", storetest.GuardAt(t, s, "c1", g.Version), storage.Outcome{Entries: []storage.Entry{{Seat: p.Seat, Action: action}}, Snapshot: snap})
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
	g, err := stores[1].Get(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if g.Version != target || len(won) != target || !bytes.Equal(g.Snapshot, storetest.Replayed(t, g)) {
		t.Fatalf("version %d, %d acknowledged; snapshot equal to the replay: %v", g.Version, len(won), bytes.Equal(g.Snapshot, storetest.Replayed(t, g)))
	}
}

// Processes claiming timers at once get each timer exactly once.
func TestTimersAreClaimedOnceAcrossProcesses(t *testing.T) {
	stores := processes(t, 3)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const games = 40
	for i := 0; i < games; i++ {
		ch := fmt.Sprintf("c%d", i)
		storetest.NewRace(t, stores[0], "g1", ch, 2, "50")
		if _, err := stores[0].Update(context.Background(), ch, storetest.GameIn(t, stores[0], ch), func(g *storage.Game) error {
			g.Deadline, g.RemindAt = now.Add(-time.Duration(i)*time.Minute), now.Add(-time.Hour)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		seen = map[string]int{}
	)
	for w := 0; w < 9; w++ {
		wg.Add(1)
		go func(s storetest.Store) {
			defer wg.Done()
			for range 5 {
				claimed, err := s.ClaimDue(context.Background(), now, time.Hour, nil)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, d := range claimed {
					seen[fmt.Sprintf("%s %s", d.Channel, d.Kind)]++
				}
				mu.Unlock()
			}
		}(stores[w%3])
	}
	wg.Wait()
	if len(seen) != 2*games {
		t.Fatalf("%d timers claimed, want %d", len(seen), 2*games)
	}
	for timer, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times", timer, n)
		}
	}
}

// A database of schema 1 (before timer claims) is brought up to date at
// start, its games intact.
func TestOlderSchemaIsMigrated(t *testing.T) {
	dsn := server.Database(t)
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	storetest.NewRace(t, s, "g1", "c1", 2, "50")
	storetest.Play(t, s, "c1")
	s.Close()
	conn := connect(t, dsn)
	exec(t, conn, undoStep4+`DROP TABLE commits; DROP SEQUENCE game_revisions;
		ALTER TABLE games DROP COLUMN deadline_claim, DROP COLUMN remind_claim, DROP COLUMN revision; UPDATE meeple_schema SET version = 1`)
	s, err = postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if err != nil {
		t.Fatalf("open of schema 1: %v", err)
	}
	defer s.Close()
	var version int
	if err := conn.QueryRow(context.Background(), "SELECT version FROM meeple_schema").Scan(&version); err != nil || version != 10 {
		t.Fatalf("schema version %d, %v; want 10", version, err)
	}
	if v := storetest.Play(t, s, "c1"); v != 2 {
		t.Fatalf("append after the migration gave version %d", v)
	}
	if _, err := s.ClaimDue(context.Background(), time.Now(), time.Minute, nil); err != nil {
		t.Fatalf("claims after the migration: %v", err)
	}
}

// Damage written into the tables is reported as storage.ErrCorrupt, and a
// snapshot that is wrong or missing is rebuilt from the log by Load.
func TestDamageIsReportedAndSnapshotsRepaired(t *testing.T) {
	dsn := server.Database(t)
	var logs strings.Builder
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, ch := range []string{"c1", "c2", "c3", "c4"} {
		storetest.NewRace(t, s, "g1", ch, 2, "1000")
		for range 5 {
			storetest.Play(t, s, ch)
		}
	}
	want, _ := s.Get(context.Background(), "c1")
	conn := connect(t, dsn)
	exec(t, conn, `UPDATE games SET snapshot = 'garbage' WHERE channel = 'c1';
		UPDATE games SET snapshot_version = 2 WHERE channel = 'c2';
		UPDATE games SET record = '\x00ff' WHERE channel = 'c3';
		DELETE FROM game_log WHERE idx = 2 AND game_id = (SELECT id FROM games WHERE channel = 'c4');
		INSERT INTO game_log SELECT game_id, 7, seat, at, action, sum FROM game_log WHERE idx = 1 AND game_id = (SELECT id FROM games WHERE channel = 'c4')`)
	for _, ch := range []string{"c1", "c2"} {
		g, state, err := s.Load(context.Background(), ch)
		if err != nil {
			t.Fatalf("load of %s with a bad snapshot: %v", ch, err)
		}
		if data, _ := state.Encode(); !bytes.Equal(data, storetest.Replayed(t, g)) {
			t.Fatalf("%s: the repaired state is not the replay of the log", ch)
		}
		if ok, err := s.Verified(context.Background(), ch); !ok || err != nil {
			t.Fatalf("%s after the repair: Verified = %v, %v", ch, ok, err)
		}
	}
	if got, _ := s.Get(context.Background(), "c1"); !bytes.Equal(got.Snapshot, want.Snapshot) {
		t.Fatal("the repaired snapshot differs from the one first stored")
	}
	if n := strings.Count(logs.String(), "repaired a game's snapshot"); n != 2 {
		t.Fatalf("%d repairs logged, want 2:\n%s", n, logs.String())
	}
	for _, ch := range []string{"c3", "c4"} {
		if _, _, err := s.Load(context.Background(), ch); !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("load of damaged %s: %v, want ErrCorrupt", ch, err)
		}
	}
	if _, err := s.ListActive(context.Background(), "g1"); !errors.Is(err, storage.ErrCorrupt) {
		t.Fatalf("listing with a damaged record: %v, want ErrCorrupt", err)
	}
}

// Games sharing players finish at once in two processes: every one counts
// in both players' statistics, and none fails.
func TestConcurrentFinishesCountEveryGame(t *testing.T) {
	stores := processes(t, 2)
	const games = 20
	for i := 0; i < games; i++ {
		seats := []storage.Seat{{User: "a"}, {User: "b"}}
		if i%2 == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		g := &storage.Game{Kind: "race", Guild: "g1", Channel: fmt.Sprintf("c%d", i), Status: storage.StatusRunning, Setup: storetest.RaceSetup(2), Seats: seats}
		if err := stores[0].Create(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < games; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := &engine.Result{Over: true, Scores: []int{2, 1}, Winners: []engine.Seat{0}}
			if _, err := stores[i%2].Finish(context.Background(), fmt.Sprintf("c%d", i), storetest.GuardAt(t, stores[i%2], fmt.Sprintf("c%d", i), 0), storage.StatusFinished, res); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, user := range []string{"a", "b"} {
		st, err := stores[1].Stats(context.Background(), user)
		if err != nil || len(st) != 1 || st[0].Played != games || st[0].Won != games/2 {
			t.Fatalf("%s's stats: %+v, %v; want %d played, %d won", user, st, err, games, games/2)
		}
	}
}

// Three processes on one database, each delivered the same interactions
// at once from several goroutines, take each one once.
func TestProcessesShareTheDeliveries(t *testing.T) {
	storetest.DeliveredOnce(t, processes(t, 3), 4, 30)
}
