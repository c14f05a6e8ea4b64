package bot

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/internal/pgtest"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
)

// racingStore is a process's store that counts its commits and, once,
// lets another process act just before its next Commit.
type racingStore struct {
	gameStore
	commits int
	first   func()
}

func (s *racingStore) Commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error) {
	s.commits++
	if f := s.first; f != nil {
		s.first = nil
		f()
	}
	return s.gameStore.Commit(ctx, channel, at, o)
}

// TestTwoProcessesRaceOnPostgreSQL runs two referees on one PostgreSQL
// database, each with its own connections and locks as two processes have.
// Each interaction is one commit; when the second process moves the game
// on between the first's read and its commit, the first stores nothing and
// fails with ErrStale, which the player is told.
func TestTwoProcessesRaceOnPostgreSQL(t *testing.T) {
	t.Parallel()
	var server pgtest.Server
	t.Cleanup(func() {
		if err := server.Stop(); err != nil {
			t.Error(err)
		}
	})
	dsn := server.Database(t)
	reg := tinyRegistry()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	process := func() (*table.Referee, *racingStore) {
		pg, err := postgres.Open(dsn, reg, postgres.Options{Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pg.Close() })
		s := &racingStore{gameStore: pg}
		return table.NewReferee(table.Config{Store: s, Games: reg, Locks: table.NewLocks(), Now: clock}), s
	}
	a, aStore := process()
	b, _ := process()

	lobby := &storage.Game{
		Kind: "tiny", Guild: testGuild, Channel: chTiny, Creator: alice.ID, Status: storage.StatusLobby,
		Setup:  engine.Setup{Players: 2, Seed: 1, Options: map[string]string{"rounds": "2"}},
		Seats:  []storage.Seat{{User: alice.ID, Name: "alice"}, {Computer: "random", Name: "Computer 1 (random)"}},
		Timing: storage.Timing{TurnDeadline: 10 * time.Hour},
	}
	if err := aStore.Create(context.Background(), lobby); err != nil {
		t.Fatal(err)
	}
	lobby, err := aStore.Get(context.Background(), chTiny)
	if err != nil {
		t.Fatal(err)
	}
	// the start, the computer's first pick and alice's deadline: one commit
	if _, err := a.Start(context.Background(), lobby, nil); err != nil || aStore.commits != 1 {
		t.Fatalf("the start: %d commits, %v", aStore.commits, err)
	}
	now = now.Add(time.Hour)
	out, err := a.Play(context.Background(), table.Request{Channel: chTiny, User: alice.ID, Text: "pick 1"})
	if err != nil || aStore.commits != 2 || out.Game.Version != 2 {
		t.Fatalf("alice's pick: %d commits, version %v, %v", aStore.commits, out, err)
	}

	// alice's move 1 in process a; just before a commits, process b applies
	// her move 2 (a second click, arriving at the other process)
	now = now.Add(time.Hour)
	var won *table.Outcome
	aStore.first = func() {
		if won, err = b.Play(context.Background(), table.Request{Channel: chTiny, User: alice.ID, Text: "move 2"}); err != nil {
			t.Errorf("process b: %v", err)
		}
	}
	lost, err := a.Play(context.Background(), table.Request{Channel: chTiny, User: alice.ID, Text: "move 1"})
	if lost != nil || !errors.Is(err, storage.ErrStale) {
		t.Fatalf("process a after b moved the game on: %v, %v", lost, err)
	}
	if text, unexpected := userMessage(englishWords(t), err); unexpected || text == failureText {
		t.Errorf("alice is told %q (unexpected %v)", text, unexpected)
	}
	stored, _, err := aStore.Load(context.Background(), chTiny)
	if err != nil {
		t.Fatal(err)
	}
	if won == nil || stored.Version != won.Game.Version || stored.Log[2].Action != "move 2" || !stored.Deadline.Equal(won.Game.Deadline) || !stored.Deadline.Equal(now.Add(10*time.Hour)) {
		t.Fatalf("stored: version %d log %+v deadline %v; process b's outcome %+v", stored.Version, stored.Log, stored.Deadline, won)
	}
	for _, e := range stored.Log {
		if e.Action == "move 1" {
			t.Fatalf("process a's refused move was stored: %+v", stored.Log)
		}
	}
}
