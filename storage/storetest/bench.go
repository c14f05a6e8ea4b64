package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/storage"
)

// The benchmarks below measure a store through the contract, so that both
// stores' figures come from the same code: each store's package calls them
// from benchmarks of the same names.

// SnapshotSizes are the state sizes the benchmarks store: 20 KB, the
// performance baseline's stand-in for a Crystal Palace state, and 3 KB,
// the size of the real Crystal Palace state of five players.
func SnapshotSizes() []int { return []int{20 << 10, 3 << 10} }

// FakeSnapshot returns state bytes of the given size that differ per
// version. Append stores what it is given, so the benchmarks need no game.
func FakeSnapshot(size, version int) []byte {
	b := make([]byte, size)
	for i := range b {
		b[i] = byte('a' + (i*7+version)%26)
	}
	return b
}

// reportLatency adds the median and 99th percentile of durations.
func reportLatency(b *testing.B, durations []time.Duration) {
	if len(durations) == 0 {
		return
	}
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(durations[len(durations)*99/100].Microseconds())/1000, "p99-ms")
}

// openBench opens a fresh database for b and closes it when b ends.
func openBench(b *testing.B, newDB NewDatabase, games *engine.Registry) Store {
	s, err := newDB(b, games)()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchAppend appends one action with its state to one game, one append
// at a time, durable when it returns.
func BenchAppend(b *testing.B, newDB NewDatabase) {
	for _, size := range SnapshotSizes() {
		b.Run(fmt.Sprintf("state=%dKB", size>>10), func(b *testing.B) {
			s := openBench(b, newDB, Games())
			at := NewRace(b, s, "g1", "c1", 4, "1000000").Guard()
			snaps := [][]byte{FakeSnapshot(size, 0), FakeSnapshot(size, 1)}
			var durations []time.Duration
			v := 0
			for b.Loop() {
				start := time.Now()
				var err error
				if at, err = s.Append(context.Background(), "c1", at, storage.Entry{Seat: 0, Action: "roll"}, snaps[v%2]); err != nil {
					b.Fatal(err)
				}
				v++
				durations = append(durations, time.Since(start))
			}
			reportLatency(b, durations)
		})
	}
}

// BenchAppendGames appends from one goroutine per game, games at once.
func BenchAppendGames(b *testing.B, newDB NewDatabase, games int) {
	for _, size := range SnapshotSizes() {
		b.Run(fmt.Sprintf("state=%dKB", size>>10), func(b *testing.B) { appendGames(b, openBench(b, newDB, Games()), games, size) })
	}
}

func appendGames(b *testing.B, s Store, games, size int) {
	guards := make([]storage.Guard, games)
	for i := 0; i < games; i++ {
		guards[i] = NewRace(b, s, "g1", fmt.Sprintf("c%d", i), 4, "1000000").Guard()
	}
	snaps := [][]byte{FakeSnapshot(size, 0), FakeSnapshot(size, 1)}
	var (
		next      atomic.Int64
		mu        sync.Mutex
		durations []time.Duration
	)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < games; i++ {
		wg.Add(1)
		go func(ch string, at storage.Guard) {
			defer wg.Done()
			var mine []time.Duration
			for v := 0; next.Add(1) <= int64(b.N); v++ {
				t0 := time.Now()
				var err error
				if at, err = s.Append(context.Background(), ch, at, storage.Entry{Seat: 0, Action: "roll"}, snaps[v%2]); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			durations = append(durations, mine...)
			mu.Unlock()
		}(fmt.Sprintf("c%d", i), guards[i])
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "appends/s")
	reportLatency(b, durations)
}

// RealGames is a registry of the real games with their embedded content.
func RealGames(tb testing.TB) *engine.Registry {
	tb.Helper()
	cp, err := crystalpalace.DefaultContent()
	if err != nil {
		tb.Fatal(err)
	}
	eighty, err := eightydays.DefaultContent()
	if err != nil {
		tb.Fatal(err)
	}
	return engine.NewRegistry(crystalpalace.NewRules(cp), eightydays.NewRules(eighty))
}

// BenchLoad loads a Crystal Palace game of five players 150 actions in:
// its log, its snapshot (and the bbolt store's checksum check) and the
// rules' Decode.
func BenchLoad(b *testing.B, newDB NewDatabase) {
	reg := RealGames(b)
	rules, _ := reg.Lookup("crystalpalace")
	setup := engine.Setup{Players: 5, Seed: 9}
	state, err := rules.New(setup)
	if err != nil {
		b.Fatal(err)
	}
	rng := engine.NewRNG(1)
	players := []engine.Player{ai.Random{}, ai.Random{}, ai.Random{}, ai.Random{}, ai.Random{}}
	played, err := ai.PlayOut(state, players, &rng, 150)
	if err != nil {
		b.Fatal(err)
	}
	s := openBench(b, newDB, reg)
	g := &storage.Game{Kind: "crystalpalace", Channel: "c1", Status: storage.StatusRunning, Setup: setup, Seats: make([]storage.Seat, 5)}
	for i := range g.Seats {
		g.Seats[i].Computer = "random"
	}
	for _, m := range played.Moves {
		g.Log = append(g.Log, storage.Entry{Seat: m.Seat, Action: m.Action})
	}
	if err := s.Create(context.Background(), g); err != nil {
		b.Fatal(err)
	}
	var durations []time.Duration
	for b.Loop() {
		start := time.Now()
		if _, _, err := s.Load(context.Background(), "c1"); err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
	}
	b.ReportMetric(float64(len(g.Snapshot)), "state-bytes")
	reportLatency(b, durations)
}

// interactionActions is how many actions one benchmarked interaction
// stores: a player's, then two computer moves it sets off.
const interactionActions = 3

// BenchInteraction stores interactions on games games at once, each three
// actions (a 3 KB state) and a new deadline: "steps" as the bot stores
// them today (three Appends, then an Update: four commits), "commit" as
// one Commit. With every > 0, interactions start every that often (100 a
// second is 10ms) instead of as fast as the store takes them.
func BenchInteraction(b *testing.B, newDB NewDatabase, games int, every time.Duration) {
	for _, whole := range []bool{false, true} {
		name := "steps"
		if whole {
			name = "commit"
		}
		b.Run(name, func(b *testing.B) {
			s := openBench(b, newDB, Games())
			guards := make([]storage.Guard, games)
			for i := 0; i < games; i++ {
				guards[i] = NewRace(b, s, "g1", fmt.Sprintf("c%d", i), 4, "1000000").Guard()
			}
			interact := func(ch string, at storage.Guard, v int) (storage.Guard, error) { return interactInSteps(s, ch, at, v) }
			if whole {
				interact = func(ch string, at storage.Guard, v int) (storage.Guard, error) { return interactAtOnce(s, ch, at, v) }
			}
			runInteractions(b, guards, every, interact)
		})
	}
}

// runInteractions runs b.N interactions spread over the games of guards
// (in channels c0, c1, …), one goroutine per game, and reports their rate
// and latency. interact gets the game's guard and how many interactions
// it had before.
func runInteractions(b *testing.B, guards []storage.Guard, every time.Duration, interact func(ch string, at storage.Guard, v int) (storage.Guard, error)) {
	games := len(guards)
	work := make([]chan time.Time, games)
	var (
		mu        sync.Mutex
		durations []time.Duration
		wg        sync.WaitGroup
	)
	for i := range work {
		work[i] = make(chan time.Time, 1024)
		wg.Add(1)
		go func(ch string, at storage.Guard, queue <-chan time.Time) {
			defer wg.Done()
			var mine []time.Duration
			v := 0
			for started := range queue {
				var err error
				if at, err = interact(ch, at, v); err != nil {
					b.Error(err)
					return
				}
				v++
				mine = append(mine, time.Since(started))
			}
			mu.Lock()
			durations = append(durations, mine...)
			mu.Unlock()
		}(fmt.Sprintf("c%d", i), guards[i], work[i])
	}
	b.ResetTimer()
	start := time.Now()
	for n := 0; n < b.N; n++ {
		if every > 0 {
			time.Sleep(time.Until(start.Add(time.Duration(n) * every)))
		}
		work[n%games] <- time.Now()
	}
	for _, q := range work {
		close(q)
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "interactions/s")
	reportLatency(b, durations)
}

// interactInSteps stores the v-th interaction on a game at guard at as
// separate writes.
func interactInSteps(s Store, ch string, at storage.Guard, v int) (storage.Guard, error) {
	snap := FakeSnapshot(3<<10, v)
	for i := 0; i < interactionActions; i++ {
		var err error
		if at, err = s.Append(context.Background(), ch, at, storage.Entry{Seat: 0, Action: "roll"}, snap); err != nil {
			return at, err
		}
	}
	_, err := s.Update(context.Background(), ch, at.Game, func(g *storage.Game) error { g.Deadline = time.Now().Add(time.Hour); return nil })
	return at, err
}

// interactAtOnce stores the v-th interaction on a game at guard at with
// one Commit.
func interactAtOnce(s Store, ch string, at storage.Guard, v int) (storage.Guard, error) {
	o := storage.Outcome{Snapshot: FakeSnapshot(3<<10, v), Edit: func(g *storage.Game) error { g.Deadline = time.Now().Add(time.Hour); return nil }}
	for i := 0; i < interactionActions; i++ {
		o.Entries = append(o.Entries, storage.Entry{Seat: 0, Action: "roll"})
	}
	g, err := s.Commit(context.Background(), ch, at, o)
	if err != nil {
		return at, err
	}
	return g.Guard(), nil
}

// BenchSeatings reads the seat index of a user seated in games games
// (a quarter of them waiting on them), in a store that also holds four
// times as many games of other players: one indexed read, whose time
// follows the user's games, not the store's. /inbox makes this read
// first.
func BenchSeatings(b *testing.B, newDB NewDatabase, games int) {
	s := openBench(b, newDB, Games())
	for i := range games * 5 {
		g := &storage.Game{Kind: "race", Guild: fmt.Sprintf("g%d", i%7), Channel: fmt.Sprintf("c%d", i), Creator: "u1",
			Status: storage.StatusRunning, Setup: RaceSetup(4), Messages: map[string]string{storage.BoardMessage: fmt.Sprintf("m%d", i)}}
		for seat := range 4 {
			g.Seats = append(g.Seats, storage.Seat{User: fmt.Sprintf("p%d-%d", i, seat)})
		}
		if i < games {
			g.Seats[i%4].User = "u1" // the race waits on seat 1
		}
		if err := s.Create(context.Background(), g); err != nil {
			b.Fatal(err)
		}
	}
	var durations []time.Duration
	for b.Loop() {
		start := time.Now()
		seats, err := s.Seatings(context.Background(), "u1")
		if err != nil || len(seats) != games {
			b.Fatalf("%d entries, %v; want %d", len(seats), err, games)
		}
		durations = append(durations, time.Since(start))
	}
	reportLatency(b, durations)
}
