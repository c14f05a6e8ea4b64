package boltdb_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/storetest"
)

// bboltDB is the contract suite's database: a new file in a temporary folder.
func bboltDB(t testing.TB, games *engine.Registry) storetest.Opener {
	path := filepath.Join(t.TempDir(), "meeple.db")
	return func() (storetest.Store, error) { return boltdb.Open(path, games, boltdb.Options{}) }
}

// BenchmarkAppend appends one action with its state to one game, one
// append at a time, fsync on (target: median at most 0.5 ms).
func BenchmarkAppend(b *testing.B) { storetest.BenchAppend(b, bboltDB) }

// BenchmarkAppend100Games appends from 100 goroutines, one per game
// (target: at least 10,000 appends per second).
func BenchmarkAppend100Games(b *testing.B) { storetest.BenchAppendGames(b, bboltDB, 100) }

// BenchmarkSeatings500Games reads the seat index of a user in 500 games
// of a file of 2,500 (what /inbox reads first).
func BenchmarkSeatings500Games(b *testing.B) { storetest.BenchSeatings(b, bboltDB, 500) }

// BenchmarkLoad loads a Crystal Palace game of five players 150 actions in.
func BenchmarkLoad(b *testing.B) { storetest.BenchLoad(b, bboltDB) }

// BenchmarkInteraction100Games stores interactions (three actions and a
// deadline) on 100 games as fast as they go, in steps and in one Commit.
func BenchmarkInteraction100Games(b *testing.B) { storetest.BenchInteraction(b, bboltDB, 100, 0) }

// BenchmarkInteraction100PerSecond starts 100 interactions a second.
func BenchmarkInteraction100PerSecond(b *testing.B) {
	storetest.BenchInteraction(b, bboltDB, 100, 10*time.Millisecond)
}

// BenchmarkOpen10000Games opens and closes a file holding 10,000 games of
// 300 actions and a 20 KB snapshot each, a 300 MB file (target: under 1
// second, without reading the games), and with Options.Verify, which walks
// every page.
func BenchmarkOpen10000Games(b *testing.B) {
	path := buildLargeStore(b, 10000, 300, true)
	for _, verify := range []bool{false, true} {
		b.Run(fmt.Sprintf("verify=%v", verify), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := boltdb.Open(path, registry(), boltdb.Options{Verify: verify})
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// buildLargeStore writes games games with actions real actions each,
// creating them already played (as an import does) from 50 goroutines.
// With bigState each then gets one more action with a 20 KB snapshot, the
// size of a real game's state.
func buildLargeStore(tb testing.TB, games, actions int, bigState bool) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "large.db")
	s, err := boltdb.Open(path, registry(), boltdb.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	log := make([]storage.Entry, actions)
	for v := range log {
		log[v] = storage.Entry{Seat: engine.Seat(v % 2), Action: nextAction(v)}
	}
	state := storetest.FakeSnapshot(storetest.SnapshotSizes()[0], 0)
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < 50; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(games); i = next.Add(1) {
				g := &storage.Game{
					Kind: "race", Guild: fmt.Sprintf("g%d", i%20), Channel: fmt.Sprintf("c%d", i), Status: storage.StatusRunning,
					Setup: raceSetup(2), Seats: []storage.Seat{{User: fmt.Sprintf("u%d", i)}, {User: fmt.Sprintf("u%d", i+1)}}, Log: log,
				}
				if err := s.Create(context.Background(), g); err != nil {
					tb.Error(err)
					return
				}
				if !bigState {
					continue
				}
				if _, err := s.Append(context.Background(), g.Channel, storetest.GuardAt(tb, s, g.Channel, actions), storage.Entry{Seat: engine.Seat(actions % 2), Action: "roll"}, state); err != nil {
					tb.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestOpenDoesNotReadGames checks that opening a file allocates about the
// same whether it holds 10 games or 3,000: Open must not load them.
func TestOpenDoesNotReadGames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a large file")
	}
	allocs := func(path string) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s, err := boltdb.Open(path, registry(), boltdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		s.Close()
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocs(buildLargeStore(t, 10, 20, false)), allocs(buildLargeStore(t, 3000, 20, false))
	if large > 2*small+64<<10 {
		t.Fatalf("opening 3,000 games allocated %d bytes, 10 games %d: Open reads the games", large, small)
	}
	t.Logf("open allocates %d bytes with 10 games, %d with 3,000", small, large)
}

// BenchmarkArchive reads a whole archive of 1,000 finished games of 20
// actions, a page of 500 at a time, as ratings do for every leaderboard.
func BenchmarkArchive(b *testing.B) {
	path := buildLargeStore(b, 1000, 20, false)
	s := openStore(b, path, boltdb.Options{})
	for i := 1; i <= 1000; i++ {
		ch := "c" + strconv.Itoa(i)
		if _, err := s.Finish(context.Background(), ch, storetest.GuardAt(b, s, ch, 20), storage.StatusFinished, &engine.Result{Over: true, Scores: []int{1, 2}, Winners: []engine.Seat{1}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for after := uint64(0); ; {
			page, err := s.Archive(context.Background(), after, 500)
			if err != nil {
				b.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			n += len(page)
			after = page[len(page)-1].ID
		}
		if n != 1000 {
			b.Fatalf("%d games", n)
		}
	}
}
