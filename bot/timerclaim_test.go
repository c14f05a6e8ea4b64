package bot

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/internal/pgtest"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
)

// stallAfterLoad is a process's store whose next Load, once armed, reads
// the game and then waits for release: a process that falls behind after
// it claimed a timer, until its claim has run out.
type stallAfterLoad struct {
	Store
	mu      sync.Mutex
	loaded  chan struct{} // closed after the armed Load read the game
	release chan struct{}
}

func (s *stallAfterLoad) arm() (loaded, release chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loaded, s.release = make(chan struct{}), make(chan struct{})
	return s.loaded, s.release
}

func (s *stallAfterLoad) Load(ctx context.Context, channel string) (*storage.Game, engine.State, error) {
	g, st, err := s.Store.Load(ctx, channel)
	s.mu.Lock()
	loaded, release := s.loaded, s.release
	s.loaded = nil
	s.mu.Unlock()
	if loaded != nil {
		close(loaded)
		<-release
	}
	return g, st, err
}

// TestATimerOutlivingItsClaimIsHandledOnce runs two processes (two stores
// on one PostgreSQL database, two bots): the first claims a passed timer,
// reads the game and stalls past its claim's hold; the second then claims
// the same timer and handles it; the first, resuming, must not remind or
// pause a second time.
func TestATimerOutlivingItsClaimIsHandledOnce(t *testing.T) {
	t.Parallel()
	var server pgtest.Server
	t.Cleanup(func() { server.Stop() })
	for _, c := range []struct {
		kind   storage.DueKind
		policy string
		said   string
	}{
		{storage.DueReminder, onDeadlinePause, "Reminder, game #"},
		{storage.DueDeadline, onDeadlinePause, "is paused until"},
		{storage.DueDeadline, onDeadlineComputer, "a computer player ("},
	} {
		t.Run(c.kind.String()+" "+c.policy, func(t *testing.T) {
			dsn := server.Database(t)
			reg := tinyRegistry()
			fake := discordtest.NewServer(discordtest.Options{})
			t.Cleanup(fake.Close)
			now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
			clock := func() time.Time { return now }
			var stores []*postgres.Store
			for range 2 {
				s, err := postgres.Open(dsn, reg, postgres.Options{Now: clock})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				stores = append(stores, s)
			}
			g := &storage.Game{Kind: "tiny", Guild: testGuild, Channel: chTiny, Creator: alice.ID, Status: storage.StatusRunning,
				Setup:  engine.Setup{Players: 2, Seed: 7, Options: map[string]string{"rounds": "2"}},
				Seats:  []storage.Seat{{User: alice.ID}, {User: bob.ID}},
				Timing: storage.Timing{TurnDeadline: 10 * time.Hour, ReminderEvery: time.Hour, OnDeadline: c.policy}}
			if err := stores[0].Create(context.Background(), g); err != nil {
				t.Fatal(err)
			}
			if _, err := stores[0].Update(context.Background(), chTiny, g.ID, func(g *storage.Game) error {
				g.Deadline, g.RemindAt = now.Add(time.Hour), now.Add(-time.Minute)
				if c.kind == storage.DueDeadline {
					g.Deadline, g.RemindAt = now.Add(-time.Minute), time.Time{}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}

			logs := &strings.Builder{}
			cfg := Config{AppID: testApp, Now: clock, Logger: slog.New(slog.NewTextHandler(lockedWriter{&sync.Mutex{}, logs}, nil))}
			slow := &stallAfterLoad{Store: stores[0]}
			var bots []*Bot
			for _, s := range []Store{slow, stores[1]} {
				b, err := New(Parts{Session: fake.NewSession(), Store: s, Games: reg}, cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { b.Close() })
				bots = append(bots, b)
			}

			loaded, release := slow.arm()
			first := make(chan struct{})
			go func() { bots[0].CheckDeadlines(now); close(first) }()
			<-loaded // the first process read the game
			// the first process's claim (two minutes) has run out
			bots[1].CheckDeadlines(now.Add(5 * time.Minute))
			bots[1].Wait()
			close(release)
			<-first
			bots[0].Wait()

			said := 0
			for _, q := range fake.Requests() {
				if q.Msg != nil && strings.Contains(q.Msg.Content, c.said) {
					said++
				}
			}
			if said != 1 {
				t.Fatalf("%q was said %d times, want once", c.said, said)
			}
			if logged := logs.String(); strings.Contains(logged, "failed") || !strings.Contains(logged, "another process handled it") {
				t.Errorf("the late process logged:\n%s", logged)
			}
		})
	}
}
