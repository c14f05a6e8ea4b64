package bot

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/bot/shard"
	"github.com/meeplegames/meeple/storage"
)

// dyingStore is the store of a process killed in the middle of a move:
// its first Commit never returns to the bot, after keeping the move (the
// kill came after the commit) or not (before it). reached is closed when
// the commit is under way.
type dyingStore struct {
	Store
	keep    bool
	reached chan struct{}
	never   chan struct{}
}

func (d *dyingStore) Commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error) {
	if d.keep {
		if _, err := d.Store.Commit(ctx, channel, at, o); err != nil {
			return nil, err
		}
	}
	close(d.reached)
	<-d.never
	return nil, errors.New("the process was killed")
}

// moveKilledAfterDefer sends alice's /play move 1 on the tiny table to a
// second process on the harness's file, in language lang, which defers
// its answer ("thinking…") and is killed while storing the move, after
// keeping it or not; then it restarts the harness's bot, as a new
// process on the same file. It returns the move's interaction token and
// the game's version before it.
func moveKilledAfterDefer(t *testing.T, h *harness, lang string, keep bool) (token string, before int) {
	t.Helper()
	openTinyTable(t, h, chTiny, alice, bob)
	h.play(alice, chTiny, "pick 1")
	h.play(bob, chTiny, "pick 1")
	before = h.game(chTiny).Version
	dying := &dyingStore{Store: h.store, keep: keep, reached: make(chan struct{}), never: make(chan struct{})}
	cfg := h.cfg
	cfg.AppID, cfg.Now, cfg.AfterFunc, cfg.Logger = testApp, h.clock.Now, h.clock.AfterFunc, slog.New(slog.DiscardHandler)
	doomed, err := New(Parts{Session: h.fake.NewSession(), Store: dying, Games: h.reg}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	i, token := h.interaction(map[string]any{
		"type": 2, "guild_id": h.guildID(), "channel_id": chTiny, "member": alice.member(), "locale": lang,
		"data": map[string]any{"id": "1", "name": cmdPlay, "type": 1, "options": optionList(map[string]any{optAction: "move 1"}, false, "")},
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		doomed.HandleInteraction(context.Background(), i)
	}()
	<-dying.reached
	// the process is dead: it answers nothing more (its goroutine is let
	// go only once the test is over, to end)
	t.Cleanup(func() {
		close(dying.never)
		<-done
	})
	deferred := false
	for _, q := range h.fake.Requests() {
		deferred = deferred || q.Token == token && q.Kind == discordtest.Callback
	}
	if !deferred {
		t.Fatal("the move was not deferred before its commit")
	}
	h.restart()
	return token, before
}

// originalEdits are the edits of token's first response since mark.
func originalEdits(h *harness, mark int, token string) []discordtest.Request {
	var out []discordtest.Request
	for _, q := range h.fake.Requests()[mark:] {
		if q.Token == token && q.Kind == discordtest.OriginalEdit {
			out = append(out, q)
		}
	}
	return out
}

// startUpSays runs a start-up's pass over the moves left deferred and
// checks that it edited token's deferred answer once, into message id in
// language lang.
func startUpSays(t *testing.T, h *harness, token, lang, id string) {
	t.Helper()
	mark := h.mark()
	h.bot.answerPending()
	edits := originalEdits(h, mark, token)
	if want := testWords(t).For(lang).T(id); len(edits) != 1 || edits[0].Text() != want {
		t.Fatalf("the start-up made %d edits of the deferred answer (%v), want one saying %q", len(edits), edits, want)
	}
}

// A process killed after it deferred a move and after it stored it
// leaves the player's "thinking…" unanswered; the next process, at its
// start, edits it into "your move was recorded", in the player's
// language, once.
func TestARestartTellsAMoveLeftDeferredWasRecorded(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	token, before := moveKilledAfterDefer(t, h, "de", true)
	if h.game(chTiny).Version == before {
		t.Fatal("the move was not stored")
	}
	startUpSays(t, h, token, "de", "play.restarted_recorded")
	mark := h.mark()
	h.restart()
	h.bot.answerPending()
	if n := len(h.fake.Requests()) - mark; n != 0 {
		t.Errorf("a second start-up made %d requests, want none", n)
	}
}

// Killed before the move was stored, the restarted process says it was
// not recorded and asks to play it again, in the player's language.
func TestARestartTellsAMoveLeftDeferredWasNotRecorded(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	token, before := moveKilledAfterDefer(t, h, "fr", false)
	if h.game(chTiny).Version != before {
		t.Fatal("the move was stored")
	}
	startUpSays(t, h, token, "fr", "play.restarted_lost")
}

// Over the gateway, a start-up fills the deferred answer in.
func TestRunFillsInAMoveLeftDeferred(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	token, _ := moveKilledAfterDefer(t, h, "en-US", true)
	mark := h.mark()
	serveOverGateway(t, h)
	waitUntil(t, "the deferred answer's edit", func() bool { return len(originalEdits(h, mark, token)) > 0 })
	if edits := originalEdits(h, mark, token); len(edits) != 1 || !h.says(edits[0].Text(), "play.restarted_recorded") {
		t.Fatalf("edits of the deferred answer: %v", edits)
	}
}

// A move left deferred longer than its token lasts (15 minutes) is
// forgotten at the restart without a call to Discord.
func TestAnExpiredMoveLeftDeferredCostsNoCall(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	moveKilledAfterDefer(t, h, "en-US", true)
	h.clock.Advance(storage.PendingLife)
	mark := h.mark()
	h.bot.answerPending()
	if n := len(h.fake.Requests()) - mark; n != 0 {
		t.Fatalf("a record past its token's life made %d requests, want none", n)
	}
	if left, err := h.store.TakePending(context.Background(), func(storage.Pending) bool { return true }); err != nil || len(left) != 0 {
		t.Fatalf("the expired record is still kept (%d, %v)", len(left), err)
	}
}

// A move answered as usual leaves nothing pending, though its answer was
// deferred and its record kept meanwhile; so does one answered after the
// automatic defer.
func TestAnAnsweredMoveLeavesNothingPending(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	kept := 0
	h.wrap = func(s Store) Store { return &countingKeeps{Store: s, n: &kept} }
	h.restart()
	if told := h.play(alice, chTiny, "pick 1"); !h.says(told, "play.played", "Action", "pick 1") {
		t.Fatalf("alice's pick: %s", told)
	}
	if kept != 1 {
		t.Fatalf("%d records kept for the deferred move, want 1", kept)
	}
	if left, err := h.store.TakePending(context.Background(), func(storage.Pending) bool { return true }); err != nil || len(left) != 0 {
		t.Fatalf("after the answer %d records are pending (%v), want none", len(left), err)
	}
	mark := h.mark()
	h.restart()
	h.bot.answerPending()
	if n := len(h.fake.Requests()) - mark; n != 0 {
		t.Errorf("a start-up after answered moves made %d requests, want none", n)
	}
}

// countingKeeps counts the pending records kept.
type countingKeeps struct {
	Store
	n *int
}

func (c *countingKeeps) KeepPending(ctx context.Context, p storage.Pending) error {
	*c.n++
	return c.Store.KeepPending(ctx, p)
}

// With processes sharing the store (shards), a move another process
// deferred is left to it for liveGrace, since that process may still be
// answering it; past the grace, a pass the start-up scheduled fills it in.
func TestASharedStoreLeavesAnothersMoveForItsGrace(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{Shards: shard.Set{IDs: []int{0}, Count: 2}}, nil, nil)
	token, _ := moveKilledAfterDefer(t, h, "en-US", false)
	mark := h.mark()
	h.bot.answerPending()
	if edits := originalEdits(h, mark, token); len(edits) != 0 {
		t.Fatalf("another process's move was filled in at once: %v", edits)
	}
	h.clock.Advance(liveGrace)
	waitUntil(t, "the deferred answer's edit", func() bool { return len(originalEdits(h, mark, token)) > 0 })
	if edits := originalEdits(h, mark, token); len(edits) != 1 || !h.says(edits[0].Text(), "play.restarted_lost") {
		t.Fatalf("edits of the deferred answer past the grace: %v", edits)
	}
}
