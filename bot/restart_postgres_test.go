package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/internal/pgtest"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
)

// TestMovesThroughServerRestartsAreToldTheTruth plays moves, each with its
// interaction's key, while the PostgreSQL server is stopped at once (as
// `pg_ctl stop -m immediate` does) and started again at random moments.
// Every move the player would be told was recorded is in the log, and
// none they would be told was not recorded (or failed) is: 0 moves stored
// but reported failed.
func TestMovesThroughServerRestartsAreToldTheTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("stops and starts a PostgreSQL server")
	}
	var server pgtest.Server
	t.Cleanup(func() { server.Stop() })
	dsn := server.Database(t)
	reg := tinyRegistry()
	var mu sync.Mutex
	now := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	pg, err := postgres.Open(dsn, reg, postgres.Options{Now: clock, Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	locks := table.NewLocks()
	ref := table.NewReferee(table.Config{Store: pg, Games: reg, Locks: locks, Now: clock})
	const tables = 4
	channels := make([]string, tables)
	for i := range channels {
		channels[i] = fmt.Sprintf("8000000000000000%02d", i)
		lobby := &storage.Game{
			Kind: "tiny", Guild: testGuild, Channel: channels[i], Creator: alice.ID, Status: storage.StatusLobby,
			Setup: engine.Setup{Players: 2, Seed: 1, Options: map[string]string{"rounds": "2"}},
			Seats: []storage.Seat{{User: alice.ID, Name: "alice"}, {Computer: "random", Name: "Computer 1 (random)"}},
		}
		if err := pg.Create(context.Background(), lobby); err != nil {
			t.Fatal(err)
		}
		if lobby, err = pg.Get(context.Background(), channels[i]); err != nil {
			t.Fatal(err)
		}
		if _, err := ref.Start(context.Background(), lobby, nil); err != nil {
			t.Fatal(err)
		}
	}
	const crashes = 3
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range crashes {
			time.Sleep(time.Duration(200+rand.IntN(300)) * time.Millisecond)
			if err := server.Crash(); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
			if err := server.Restart(); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var (
		toldMu sync.Mutex
		told   = map[time.Time]string{} // by the move's time, unique across the tables
		wg     sync.WaitGroup
	)
	for i, ch := range channels {
		wg.Go(func() {
			// a referee of the table's own, whose clock gives its moves
			// times no other table's move has
			at := now.Add(time.Duration(i) * 1000 * time.Hour)
			own := table.NewReferee(table.Config{Store: pg, Games: reg, Locks: locks, Now: func() time.Time { return at }})
			running := true
			for n := 0; running || n < 20; n++ {
				select {
				case <-done:
					running = false
				default:
				}
				at = at.Add(time.Second)
				_, err := own.Play(context.Background(), table.Request{Channel: ch, User: alice.ID, Text: "cheer", Key: fmt.Sprintf("cheer-%d-%d", i, n)})
				what := "recorded"
				switch {
				case errors.Is(err, table.ErrUnknownOutcome):
					what = "not known yet"
				case err != nil:
					what = "not recorded: " + err.Error()
					time.Sleep(20 * time.Millisecond) // the server is down: a player tries again later
				}
				toldMu.Lock()
				told[at] = what
				toldMu.Unlock()
			}
		})
	}
	wg.Wait()
	stored := map[time.Time]bool{}
	for _, ch := range channels {
		var g *storage.Game
		for {
			if g, err = pg.Get(context.Background(), ch); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond) // the server is coming back
		}
		for _, e := range g.Log {
			stored[e.At] = true
		}
	}
	counts := map[string]int{}
	for at, what := range told {
		kind := what
		if len(kind) > 12 {
			kind = kind[:12]
		}
		counts[kind]++
		switch {
		case what == "recorded" && !stored[at]:
			t.Errorf("the move at %v was told recorded and is not stored", at)
		case kind == "not recorded" && stored[at]:
			t.Errorf("the move at %v is stored, and was told: %s", at, what)
		}
	}
	t.Logf("%d crashes, %d moves: %v", crashes, len(told), counts)
	for _, what := range told {
		if len(what) > 12 {
			t.Logf("e.g. %s", what)
			break
		}
	}
}
