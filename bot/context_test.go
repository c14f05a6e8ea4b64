package bot

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// requestKey marks the context the harness hands the bot with each
// interaction and DM (harness.requestContext).
type requestKey struct{}

// requestContext is the context of an interaction or DM the harness
// feeds the bot.
func requestContext() context.Context {
	return context.WithValue(context.Background(), requestKey{}, true)
}

// contextStore counts the store calls made under a context that is
// neither a request's (it carries requestKey) nor one that can end (the
// bot's lifetime and what derives from it): context.Background() where a
// context was at hand.
type contextStore struct {
	Store
	calls, bare atomic.Int64
	t           testing.TB
}

func (s *contextStore) check(ctx context.Context, op string) {
	s.calls.Add(1)
	if ctx.Value(requestKey{}) == nil && ctx.Done() == nil {
		s.bare.Add(1)
		s.t.Logf("%s ran under a context that is neither the request's nor the bot's", op)
	}
}

func (s *contextStore) Create(ctx context.Context, g *storage.Game) error {
	s.check(ctx, "Create")
	return s.Store.Create(ctx, g)
}

func (s *contextStore) Get(ctx context.Context, channel string) (*storage.Game, error) {
	s.check(ctx, "Get")
	return s.Store.Get(ctx, channel)
}

func (s *contextStore) GetByID(ctx context.Context, id uint64) (*storage.Game, error) {
	s.check(ctx, "GetByID")
	return s.Store.GetByID(ctx, id)
}

func (s *contextStore) Update(ctx context.Context, channel string, game uint64, fn func(g *storage.Game) error) (*storage.Game, error) {
	s.check(ctx, "Update")
	return s.Store.Update(ctx, channel, game, fn)
}

func (s *contextStore) Commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error) {
	s.check(ctx, "Commit")
	return s.Store.Commit(ctx, channel, at, o)
}

func (s *contextStore) Load(ctx context.Context, channel string) (*storage.Game, engine.State, error) {
	s.check(ctx, "Load")
	return s.Store.Load(ctx, channel)
}

func (s *contextStore) ListActive(ctx context.Context, guild string) ([]*storage.Game, error) {
	s.check(ctx, "ListActive")
	return s.Store.ListActive(ctx, guild)
}

func (s *contextStore) GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error) {
	s.check(ctx, "GuildSettings")
	return s.Store.GuildSettings(ctx, guild)
}

func (s *contextStore) PutGuildSettings(ctx context.Context, guild string, gs storage.GuildSettings) error {
	s.check(ctx, "PutGuildSettings")
	return s.Store.PutGuildSettings(ctx, guild, gs)
}

func (s *contextStore) UserPrefs(ctx context.Context, user string) (storage.UserPrefs, error) {
	s.check(ctx, "UserPrefs")
	return s.Store.UserPrefs(ctx, user)
}

func (s *contextStore) UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error) {
	s.check(ctx, "UpdateUserPrefs")
	return s.Store.UpdateUserPrefs(ctx, user, fn)
}

func (s *contextStore) Seatings(ctx context.Context, user string) ([]storage.Seating, error) {
	s.check(ctx, "Seatings")
	return s.Store.Seatings(ctx, user)
}

func (s *contextStore) KeepPending(ctx context.Context, p storage.Pending) error {
	s.check(ctx, "KeepPending")
	return s.Store.KeepPending(ctx, p)
}

func (s *contextStore) DropPending(ctx context.Context, id string) error {
	s.check(ctx, "DropPending")
	return s.Store.DropPending(ctx, id)
}

// Every store call the bot makes runs under a context that can carry a
// deadline: a handler's (lobby, moves, views, settings, absences,
// autocompletion, DMs) is its interaction's, and the bot's own work (the
// publisher, the deadlines and digests, the thinker) runs under the bot's
// lifetime, which Close ends. None runs under context.Background().
func TestStoreCallsRunUnderARequestsOrTheBotsContext(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: time.Hour}, nil, nil)
	s := &contextStore{t: t}
	h.wrap = func(st Store) Store { s.Store = st; return s }
	h.restart()
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	openTinyTable(t, h, chTiny, alice, bob, carol)
	h.autocomplete(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pi"}, optAction)
	h.command(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pick 1"})
	h.dm(carol, "1")
	h.command(alice, chTiny, cmdGame, subBoard, nil)
	h.command(alice, chTiny, cmdGame, subLog, nil)
	h.command(alice, chTiny, cmdGame, subStats, nil)
	h.command(alice, chTiny, cmdAway, "", map[string]any{optUntil: h.clock.Now().Add(48 * time.Hour).Format(awayDateLayout)})
	h.command(alice, chTiny, cmdAway, "", nil)
	h.command(bob, chTiny, cmdLobby, subList, nil)
	h.command(bob, chTiny, cmdInbox, "", nil)
	h.bot.CheckDeadlines(h.clock.Now().Add(72 * time.Hour)) // reminders, deadlines, stand-ins, digests
	h.bot.Wait()
	h.command(bob, chTiny, cmdLobby, subAbandon, nil)
	if s.calls.Load() < 20 {
		t.Fatalf("only %d store calls seen", s.calls.Load())
	}
	if n := s.bare.Load(); n > 0 {
		t.Errorf("%d of %d store calls ran under context.Background()", n, s.calls.Load())
	}
}
