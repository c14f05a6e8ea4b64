package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/internal/pgtest"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
	"github.com/meeplegames/meeple/storage/storetest"
)

// TestLostAnswersNeverApplyTwice commits actions with their interactions'
// keys from several goroutines while the server is stopped at once (as
// `pg_ctl stop -m immediate` does) and started again at random moments. A
// commit whose answer is lost is retried with its key until the store
// answers: kept now, kept before (ErrApplied) or refused. Then every log
// holds each action once (0 applied twice), every action reported kept is
// there and none reported refused is (0 recorded but reported failed).
// MEEPLE_LOSTANSWER_CRASHES sets how many crashes (default 3).
func TestLostAnswersNeverApplyTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("stops and starts a PostgreSQL server")
	}
	srv, s, crashes := crashable(t, 3)
	const games, actions = 6, 40
	for i := range games {
		storetest.NewRace(t, s, "g1", fmt.Sprintf("c%d", i), 2, "1000000")
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var (
		mu      sync.Mutex
		kept    = map[int64]bool{} // by the action's time, unique per interaction
		refused = map[int64]bool{}
		lost    int // commits whose first answer was lost
	)
	stop := make(chan struct{})
	var crasher sync.WaitGroup
	crasher.Go(func() {
		for range crashes {
			select {
			case <-stop:
				return
			case <-time.After(time.Duration(100+rand.IntN(400)) * time.Millisecond):
			}
			if err := srv.Crash(); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
			if err := srv.Restart(); err != nil {
				t.Error(err)
				return
			}
		}
	})
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() {
			ch := fmt.Sprintf("c%d", i)
			for n := 0; n < actions; {
				g, state, err := s.Load(context.Background(), ch)
				if err != nil {
					time.Sleep(50 * time.Millisecond) // the server is down
					continue
				}
				at := base.Add(time.Duration(i*actions+n) * time.Microsecond)
				p := state.Prompts()[0]
				action := storetest.NextAction(g.Version)
				if _, err := state.Apply(p.Seat, action); err != nil {
					t.Error(err)
					return
				}
				snap, _ := state.Encode()
				o := storage.Outcome{Key: fmt.Sprintf("%d-%d", i, n), Entries: []storage.Entry{{Seat: p.Seat, Action: action, At: at}}, Snapshot: snap}
				_, err = s.Commit(context.Background(), ch, g.Guard(), o)
				first := err
				for tries := 0; err != nil && !errors.Is(err, storage.ErrApplied) && !errors.Is(err, storage.ErrStale) && tries < 200; tries++ {
					time.Sleep(50 * time.Millisecond)
					_, err = s.Commit(context.Background(), ch, g.Guard(), o)
				}
				mu.Lock()
				if errors.Is(first, storage.ErrUnknownOutcome) {
					lost++
				}
				switch {
				case err == nil || errors.Is(err, storage.ErrApplied):
					kept[at.UnixNano()] = true
					n++
				case errors.Is(err, storage.ErrStale):
					refused[at.UnixNano()] = true
				default:
					t.Errorf("game %d: commit %d never answered: %v", i, n, err)
					mu.Unlock()
					return
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(stop)
	crasher.Wait()

	twice, missing, reportedFailed := 0, 0, 0
	seen := map[int64]bool{}
	for i := range games {
		g, err := s.Get(context.Background(), fmt.Sprintf("c%d", i))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range g.Log {
			at := e.At.UnixNano()
			if seen[at] {
				twice++
			}
			seen[at] = true
			if refused[at] {
				reportedFailed++
			}
		}
		if !bytes.Equal(g.Snapshot, storetest.Replayed(t, g)) {
			t.Errorf("game %d: its snapshot is not its log replayed", i)
		}
	}
	for at := range kept {
		if !seen[at] {
			missing++
		}
	}
	t.Logf("%d crashes, %d commits kept, %d refused as stale, %d answers lost", crashes, len(kept), len(refused), lost)
	if twice > 0 || missing > 0 || reportedFailed > 0 {
		t.Fatalf("%d applied twice, %d reported kept but missing, %d recorded but reported failed", twice, missing, reportedFailed)
	}
}

// TestAServerRestartFailsNoCall: after the server crashed and came back,
// every pooled connection is dead, and the pool hands out one used within
// the last second without checking it. Reads and commits made at once
// still succeed at the first call, on several connections at a time.
func TestAServerRestartFailsNoCall(t *testing.T) {
	if testing.Short() {
		t.Skip("stops and starts a PostgreSQL server")
	}
	srv, _, s := ownServer(t, 5*time.Second)
	const games = 4
	for i := range games {
		storetest.NewRace(t, s, "g1", fmt.Sprintf("c%d", i), 2, "1000000")
	}
	readAll := func(when string) {
		var wg sync.WaitGroup
		for i := range games {
			wg.Go(func() {
				if _, err := s.Get(context.Background(), fmt.Sprintf("c%d", i)); err != nil {
					t.Errorf("%s: %v", when, err)
				}
			})
		}
		wg.Wait()
	}
	readAll("before the crash") // the pool now holds live connections
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	readAll("after the restart")
	g, state, err := s.Load(context.Background(), "c0")
	if err != nil {
		t.Fatal(err)
	}
	p := state.Prompts()[0]
	action := storetest.NextAction(g.Version)
	if _, err := state.Apply(p.Seat, action); err != nil {
		t.Fatal(err)
	}
	snap, _ := state.Encode()
	o := storage.Outcome{Key: "after-restart", Entries: []storage.Entry{{Seat: p.Seat, Action: action, At: time.Now()}}, Snapshot: snap}
	if _, err := s.Commit(context.Background(), "c0", g.Guard(), o); err != nil {
		t.Fatalf("the first commit after the restart: %v", err)
	}
}

// TestADefiniteFailureWasNeverKept commits, undoes, updates and creates
// games without interaction keys from several goroutines while the
// server is stopped at once (as `pg_ctl stop -m immediate` does) in the
// middle of their COMMITs, and started again. Whenever a write fails with
// an error other than storage.ErrUnknownOutcome, the database, once back,
// must not hold it: 0 writes kept but reported failed. (pgx can lose the
// answer to a COMMIT and call the next read's error safe to retry; a retry
// then meets the restarting server, or the write it repeats, and its
// definite refusal would hide that the first attempt was kept.)
// MEEPLE_LOSTANSWER_CRASHES sets how many crashes (default 4).
func TestADefiniteFailureWasNeverKept(t *testing.T) {
	if testing.Short() {
		t.Skip("stops and starts a PostgreSQL server")
	}
	srv, s, crashes := crashable(t, 4)
	const writers = 6
	for i := range writers {
		storetest.NewRace(t, s, "g1", fmt.Sprintf("c%d", i), 2, "1000000")
	}
	// reread retries a read until the server answers.
	reread := func(channel string) (*storage.Game, error) {
		for {
			g, err := s.Get(context.Background(), channel)
			if err == nil || errors.Is(err, storage.ErrNotFound) {
				return g, err
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var (
		mu                      sync.Mutex
		writes, unknown, failed int
		keptButFailed           []string
	)
	note := func(kind string, n int, err error, kept bool) {
		mu.Lock()
		defer mu.Unlock()
		writes++
		switch {
		case errors.Is(err, storage.ErrUnknownOutcome):
			unknown++
		case err != nil:
			failed++
			if kept {
				keptButFailed = append(keptButFailed, fmt.Sprintf("%s %d: %v", kind, n, err))
			}
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			ch := fmt.Sprintf("c%d", i)
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				g, state, err := s.Load(context.Background(), ch)
				if err != nil {
					time.Sleep(20 * time.Millisecond) // the server is down
					continue
				}
				switch {
				case i%3 == 0: // updates
					mark := base.Add(time.Duration(i*100000+n) * time.Second)
					_, err := s.Update(context.Background(), ch, g.ID, func(r *storage.Game) error { r.Deadline = mark; return nil })
					if err != nil && !errors.Is(err, storage.ErrUnknownOutcome) {
						now, rerr := reread(ch)
						note("update", n, err, rerr == nil && now.Deadline.Equal(mark))
						continue
					}
					note("update", n, err, false)
				case i%3 == 1 && n%3 == 2 && g.Version > 0: // an undo now and then
					_, _, err := s.Undo(context.Background(), ch, g.Guard(), 1)
					if err != nil && !errors.Is(err, storage.ErrUnknownOutcome) {
						now, rerr := reread(ch)
						note("undo", n, err, rerr == nil && now.Version != g.Version)
						continue
					}
					note("undo", n, err, false)
				case i%3 == 1: // commits without a key
					p := state.Prompts()[0]
					action := storetest.NextAction(g.Version)
					if _, err := state.Apply(p.Seat, action); err != nil {
						t.Error(err)
						return
					}
					snap, _ := state.Encode()
					at := base.Add(time.Duration(i*100000+n) * time.Microsecond)
					_, err := s.Commit(context.Background(), ch, g.Guard(), storage.Outcome{Entries: []storage.Entry{{Seat: p.Seat, Action: action, At: at}}, Snapshot: snap})
					if err != nil && !errors.Is(err, storage.ErrUnknownOutcome) {
						now, rerr := reread(ch)
						kept := false
						if rerr == nil {
							if full, ferr := s.GetByID(context.Background(), now.ID); ferr == nil {
								for _, e := range full.Log {
									kept = kept || e.At.Equal(at)
								}
							}
						}
						note("commit", n, err, kept)
						continue
					}
					note("commit", n, err, false)
				default: // creates, each in a channel of its own
					fresh := fmt.Sprintf("c%d-%d", i, n)
					lobby := &storage.Game{Kind: "race", Guild: "g1", Channel: fresh, Creator: "u1", Status: storage.StatusLobby,
						Setup: storetest.RaceSetup(2), Seats: []storage.Seat{{User: "u1"}, {User: "u2"}}}
					err := s.Create(context.Background(), lobby)
					if err != nil && !errors.Is(err, storage.ErrUnknownOutcome) {
						_, rerr := reread(fresh)
						note("create", n, err, rerr == nil)
						continue
					}
					note("create", n, err, false)
				}
			}
		})
	}
	for range crashes {
		time.Sleep(time.Duration(150+rand.IntN(250)) * time.Millisecond)
		if err := srv.Crash(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.IntN(200)) * time.Millisecond)
		if err := srv.Restart(); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(200 * time.Millisecond)
	close(stop)
	wg.Wait()
	t.Logf("%d crashes, %d writes: %d of unknown outcome, %d failed", crashes, writes, unknown, failed)
	if len(keptButFailed) > 0 {
		t.Fatalf("%d writes were kept but reported failed: %v", len(keptButFailed), keptButFailed)
	}
}

// crashable starts a server of the test's own (to be crashed), opens a
// store on a database in it, and returns them with how many crashes to
// make: MEEPLE_LOSTANSWER_CRASHES, or crashes.
func crashable(t *testing.T, crashes int) (*pgtest.Server, *postgres.Store, int) {
	if n, err := strconv.Atoi(os.Getenv("MEEPLE_LOSTANSWER_CRASHES")); err == nil {
		crashes = n
	}
	srv, _, s := ownServer(t, 3*time.Second)
	return srv, s, crashes
}

// ownServer starts a server of the test's own (to be crashed), and returns
// it with a database in it and a store on that database whose calls time
// out after timeout.
func ownServer(t *testing.T, timeout time.Duration) (*pgtest.Server, string, *postgres.Store) {
	srv := &pgtest.Server{}
	t.Cleanup(func() { srv.Stop() })
	dsn := srv.Database(t)
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return srv, dsn, s
}

// TestACrashBeforeCommitIsUnavailable: a server that crashes while a
// commit's transaction waits on a statement, before COMMIT is sent, has
// kept nothing of it. The commit fails with storage.ErrUnavailable (try
// again), not with the driver's bare "unexpected EOF", which a caller
// cannot tell from the store's refusal, nor with
// storage.ErrUnknownOutcome.
func TestACrashBeforeCommitIsUnavailable(t *testing.T) {
	if testing.Short() {
		t.Skip("stops and starts a PostgreSQL server")
	}
	srv, dsn, s := ownServer(t, 10*time.Second)
	g := storetest.NewRace(t, s, "g1", "c0", 2, "1000000")

	// Another session locks the game's row, so the commit's first
	// statement is sent and waits for its answer when the server dies.
	ctx := context.Background()
	blocker, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer blocker.Close(ctx)
	if _, err := blocker.Exec(ctx, "BEGIN; SELECT id FROM games WHERE channel = 'c0' FOR UPDATE"); err != nil {
		t.Fatal(err)
	}
	failed := make(chan error, 1)
	go func() {
		_, err := s.Commit(ctx, "c0", g.Guard(), storage.Outcome{Key: "cut", Edit: func(r *storage.Game) error {
			r.Deadline = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
			return nil
		}})
		failed <- err
	}()
	for waiting := 0; waiting == 0; {
		if err := blocker.QueryRow(ctx, "SELECT count(*) FROM pg_locks WHERE NOT granted").Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	err = <-failed
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(err, storage.ErrUnavailable) || errors.Is(err, storage.ErrUnknownOutcome) {
		t.Fatalf("a commit cut before COMMIT failed with %v, want storage.ErrUnavailable", err)
	}
	for {
		now, err := s.Get(ctx, "c0")
		if err != nil {
			time.Sleep(20 * time.Millisecond) // the server is recovering
			continue
		}
		if !now.Deadline.IsZero() || now.Revision != g.Revision {
			t.Fatalf("the cut commit was kept: revision %d -> %d, deadline %v", g.Revision, now.Revision, now.Deadline)
		}
		return
	}
}
