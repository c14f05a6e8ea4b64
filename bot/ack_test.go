package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
)

// A global 429 on a bot-token call makes discordgo hold back every request
// of its session until the limit resets. Interaction answers are exempt
// from the global limit at Discord and must not wait: here the transport's
// clock stands still until the test ends the limit, so that the answer
// goes out while the limit holds back the notice that met the 429, and
// the notice once it is over. (discordgo itself sleeps the 429's
// retry_after in real time before it retries, so that is kept short.)
func TestAGlobalLimitDoesNotDelayInteractionAnswers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	over := make(chan struct{})
	h.bot.send.Limiter().SetWall(heldWall{at: time.Now(), over: over}) // before any request
	const noticeChannel = "7777"
	h.fake.Fail(func(q discordtest.Request) bool {
		return q.Kind == discordtest.ChannelSend && q.Channel == noticeChannel
	}, discordtest.GloballyRateLimited(50*time.Millisecond, 1))
	limited := make(chan struct{}, 1)
	h.fake.Watch(func(q discordtest.Request) {
		if q.Status == http.StatusTooManyRequests {
			select {
			case limited <- struct{}{}:
			default:
			}
		}
	})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.bot.pub.post(noticeChannel, transport.Message{Content: "a notice"}, 0)
	}()
	defer wg.Wait()
	<-limited

	res := h.command(alice, chTiny, cmdGame, subRules, nil) // returns once answered
	first := res.Requests[0]
	if first.Kind != discordtest.Callback || first.Status >= 300 {
		t.Fatalf("the answer's first request: %s %s answered %d", first.Method, first.Path, first.Status)
	}
	posted := func() bool {
		for _, q := range h.fake.Requests() {
			if q.Kind == discordtest.ChannelSend && q.Channel == noticeChannel && q.Status == http.StatusOK {
				return true
			}
		}
		return false
	}
	if posted() {
		t.Fatal("the notice went out before its global limit was over")
	}
	close(over)
	wg.Wait()
	if !posted() {
		t.Errorf("the rate-limited notice was not sent again after the wait:\n%s", h.log())
	}
}

// A global 429 that carries X-RateLimit-Reset-After (some of Discord's
// do) would make discordgo hold every call of its session until the
// reset, interaction answers too: the transport keeps that limit itself, for
// bot-token calls, and discordgo's own limiter never hears of it.
func TestAGlobal429LeavesDiscordgosLimiterOpen(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	over := make(chan struct{})
	defer close(over)
	h.bot.send.Limiter().SetWall(heldWall{at: time.Now(), over: over})
	const dmChannel = "7778"
	h.fake.Fail(func(q discordtest.Request) bool { return q.Channel == dmChannel }, discordtest.GloballyRateLimited(30*time.Second, 1))
	s := h.bot.send.Session()
	if _, err := s.ChannelMessageSend(dmChannel, "a ping", discordgo.WithRetryOnRatelimit(false)); err == nil {
		t.Fatal("the global 429 did not reach the bot")
	}
	webhook := s.Ratelimiter.GetBucket(discordgo.EndpointWebhookToken(testApp, "tok1"))
	if wait := s.Ratelimiter.GetWaitTime(webhook, 1); wait > 0 {
		t.Errorf("discordgo holds an interaction's webhook %v behind the global 429", wait)
	}
	if res := h.command(alice, chTiny, cmdGame, subRules, nil); res.Requests[0].Kind != discordtest.Callback {
		t.Errorf("the answer's first request: %s", res.Requests[0].Path)
	}
}

// The session's HTTP timeout bounds each exchange with Discord from when
// the transport lets it go, never the wait for its turn: a call held back by
// a global 429 for many times the timeout still goes out, and a call that
// Discord leaves unanswered still fails once its exchange has taken the
// timeout.
func TestWaitingForATurnDoesNotCountAgainstTheTimeout(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	g := h.bot.send.Limiter()
	if g.Exchange() != 10*time.Second || h.bot.send.Session().Client.Timeout != 0 {
		t.Fatalf("the transport bounds exchanges by %v and the client by %v; want the fake's 10s, taken over by the transport",
			g.Exchange(), h.bot.send.Session().Client.Timeout)
	}
	// The bound is generous enough that no exchange with the in-process
	// fake reaches it on a loaded machine under the race detector; the
	// hold below outlasts it twice over.
	const timeout = time.Second
	g.SetExchange(timeout)
	over := make(chan struct{})
	g.SetWall(heldWall{at: time.Now(), over: over})
	const held, stalled = "7001", "7002"
	h.fake.Fail(func(q discordtest.Request) bool {
		return q.Kind == discordtest.ChannelSend && q.Channel == held
	}, discordtest.GloballyRateLimited(50*time.Millisecond, 1))
	sent := make(chan error, 1)
	go func() {
		_, err := h.bot.send.Post(held, transport.Message{Content: "held back"})
		sent <- err
	}()
	select {
	case err := <-sent:
		t.Fatalf("the call ended while the global limit held: %v", err)
	case <-time.After(2 * timeout):
	}
	close(over)
	if err := <-sent; err != nil {
		t.Fatalf("the call held back for twice the timeout: %v", err)
	}

	caught, release := h.fake.Hold(func(q discordtest.Request) bool { return q.Channel == stalled })
	defer release()
	start := time.Now()
	_, err := h.bot.send.Post(stalled, transport.Message{Content: "never answered"})
	<-caught
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a call Discord never answers: %v, want a deadline error", err)
	}
	if took := time.Since(start); took > 20*timeout {
		t.Errorf("a call Discord never answers failed after %v, its exchange bound is %v", took, timeout)
	}
}

// heldWall is a clock for the transport that stands at at until over is
// closed, and then runs an hour ahead of the real clock; its waits last
// until over is closed, and after it as long as they say: every limit the
// transport learns while the clock stands holds until then, and has
// passed after. (A clock that stood still after over too would turn a
// wait learned afterwards into a loop that never ends.)
type heldWall struct {
	at   time.Time
	over chan struct{}
}

func (w heldWall) Now() time.Time {
	select {
	case <-w.over:
		return time.Now().Add(time.Hour)
	default:
		return w.at
	}
}

func (w heldWall) Sleep(ctx context.Context, until time.Time) error {
	select {
	case <-w.over:
	case <-ctx.Done():
		return ctx.Err()
	}
	return transport.RealWall{}.Sleep(ctx, until.Add(-time.Hour)) // Now runs an hour ahead
}

// toMoves opens a tiny game for alice and bob and plays both secret picks;
// it returns who is to move and the label of a move on the board.
func toMoves(t *testing.T, h *harness) (tester, string) {
	t.Helper()
	openTinyTable(t, h, chTiny, alice, bob)
	h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 2"})
	h.command(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pick 1"})
	board := h.board(chTiny)
	for _, label := range []string{"move 1", "move 2", "move 3"} {
		if _, ok := componentOn(t, board, label); ok {
			if strings.Contains(discordtest.MessageText(board), "<@"+alice.ID+">") {
				return alice, label
			}
			return bob, label
		}
	}
	t.Fatalf("no move on the board:\n%s", discordtest.MessageText(board))
	return tester{}, ""
}

// While every bot-token call hangs, a click whose board update waits for
// the game's publisher is still acknowledged within Discord's window, and
// nothing goes through its webhook before that acknowledgement.
func TestClicksAreAcknowledgedWhileBotTokenCallsHang(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	mover, move := toMoves(t, h)
	other := alice
	if mover == alice {
		other = bob
	}
	board := h.board(chTiny)
	// the interactions through which the board could be edited have
	// expired, so the /free's board edit is a bot-token call
	h.clock.Advance(transport.HandleLife)
	caught, release := h.fake.Hold(botTokenCall)
	defer release()

	// a /free keeps the game's publisher busy with a board edit that hangs
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.command(other, chTiny, cmdFree, "", map[string]any{optAction: "cheer"})
	}()
	<-caught
	// the move clicked on the board (its buttons as the held edit would
	// leave them) waits behind it
	id, err := parseCustomID(mustComponent(t, board, move))
	if err != nil {
		t.Fatal(err)
	}
	id.Revision = h.game(chTiny).Revision
	moveID := id.encode()
	acked := make(chan discordtest.Request, 1)
	h.fake.Watch(func(q discordtest.Request) {
		if q.Kind == discordtest.Callback { // the /free's went out before the hold caught anything
			select {
			case acked <- q:
			default:
			}
		}
	})
	wg.Add(1)
	var res result
	go func() {
		defer wg.Done()
		res = h.click(mover, chTiny, board.ID, moveID)
	}()
	// acknowledged while every bot-token call still hangs, within
	// Discord's window (the fake checks it on the harness's clock)
	if q := <-acked; q.Status >= 300 || q.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Errorf("the acknowledgement: type %v, status %d: %s", q.Type, q.Status, q.Text())
	}
	release()
	wg.Wait()
	if len(res.Requests) == 0 || res.Requests[0].Kind != discordtest.Callback {
		t.Fatalf("the click's first request is not its initial response: %+v", res.Requests)
	}
	for _, q := range res.Requests {
		if q.Status >= 300 {
			t.Errorf("%s %s answered %d", q.Method, q.Path, q.Status)
		}
	}
	h.bot.Wait()
	if after := h.board(chTiny); !strings.Contains(discordtest.MessageText(after), fmt.Sprintf("version %d ", h.game(chTiny).Version)) {
		t.Errorf("the board does not show the move:\n%s", discordtest.MessageText(after))
	}
}

// An initial response Discord refuses as too late loses the interaction:
// nothing is sent through its webhook afterwards (Discord would refuse a
// follow-up before an initial response), and the turn notice it would have
// carried goes to the channel instead.
func TestNoFollowUpAfterARefusedInitialResponse(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	mover, move := toMoves(t, h)
	mark := h.mark()
	h.fake.Fail(func(q discordtest.Request) bool { return q.Kind == discordtest.Callback },
		discordtest.Failure{Status: http.StatusNotFound, Code: discordgo.ErrCodeUnknownInteraction, Message: "Unknown interaction", Times: 1})
	res := h.command(mover, chTiny, cmdPlay, "", map[string]any{optAction: move})
	h.bot.Wait()
	for _, q := range res.Requests[1:] {
		t.Errorf("sent after the refused initial response: %s %s", q.Method, q.Path)
	}
	pinged := false
	for _, q := range h.fake.Requests()[mark:] {
		pinged = pinged || q.Kind == discordtest.ChannelSend && strings.HasPrefix(q.Content(), "Your move")
	}
	if !pinged {
		t.Errorf("the turn notice was not posted in the channel:\n%s", h.publicSince(mark))
	}
}

// Interactions do not add rate-limit buckets to the session's limiter:
// discordgo keys them by the interaction's token and never frees them.
func TestInteractionsLeaveNoRateLimitBuckets(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	buckets := func() int {
		rl := h.bot.send.Session().Ratelimiter
		rl.Lock()
		defer rl.Unlock()
		return reflect.ValueOf(rl).Elem().FieldByName("buckets").Len()
	}
	before := buckets()
	for range 150 {
		h.command(alice, chTiny, cmdGame, subRules, nil)
		h.autocomplete(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pi"}, optAction)
	}
	h.bot.Wait()
	if after := buckets(); after > before+5 {
		t.Errorf("300 interactions grew the rate limiter from %d to %d buckets", before, after)
	}
}

// A click whose initial response Discord refused cannot update the board
// through its answer: the board is edited by a REST call instead, and
// nothing goes through the lost interaction's webhook.
func TestABoardClickWithARefusedResponseStillUpdatesTheBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	mover, move := toMoves(t, h)
	board := h.board(chTiny)
	h.fake.Fail(func(q discordtest.Request) bool { return q.Kind == discordtest.Callback },
		discordtest.Failure{Status: http.StatusNotFound, Code: discordgo.ErrCodeUnknownInteraction, Message: "Unknown interaction", Times: 1})
	res := h.click(mover, chTiny, board.ID, mustComponent(t, board, move))
	h.bot.Wait()
	for _, q := range res.Requests[1:] {
		t.Errorf("sent after the refused initial response: %s %s", q.Method, q.Path)
	}
	if after := h.board(chTiny); !strings.Contains(discordtest.MessageText(after), fmt.Sprintf("version %d ", h.game(chTiny).Version)) {
		t.Errorf("the board does not show the move:\n%s", discordtest.MessageText(after))
	}
}

// A click, a form and /play are acknowledged as soon as they are routed,
// while the game they act on is still held by another action (before
// their own is loaded or stored); the outcome follows once it is stored:
// the board edited through the click, the player of /play answered
// privately.
func TestInteractionsAreAcknowledgedBeforeTheirActionIsStored(t *testing.T) {
	t.Parallel()
	for _, way := range []string{"board click", "/play"} {
		t.Run(way, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
			mover, move := toMoves(t, h)
			board := h.board(chTiny)
			before := h.game(chTiny).Version
			mark := h.mark()
			unlock := h.bot.timers.locks.Lock(chTiny) // another action holds the game
			acked := make(chan discordtest.Request, 1)
			h.fake.Watch(func(q discordtest.Request) {
				if q.Kind == discordtest.Callback {
					acked <- q
				}
			})
			done := make(chan result)
			go func() {
				if way == "/play" {
					done <- h.command(mover, chTiny, cmdPlay, "", map[string]any{optAction: move})
					return
				}
				done <- h.click(mover, chTiny, board.ID, mustComponent(t, board, move))
			}()
			q := <-acked // while the game is held
			want := discordgo.InteractionResponseDeferredMessageUpdate
			if way == "/play" {
				want = discordgo.InteractionResponseDeferredChannelMessageWithSource
			}
			if q.Type != want || q.Status >= 300 || way == "/play" && !q.Ephemeral() {
				t.Errorf("the acknowledgement: type %v, status %d, ephemeral %v", q.Type, q.Status, q.Ephemeral())
			}
			if v := h.game(chTiny).Version; v != before {
				t.Fatalf("version %d before the game was released, want %d", v, before)
			}
			unlock()
			res := <-done
			shown := fmt.Sprintf("version %d ", h.game(chTiny).Version)
			edited := false // the board, edited as the click's message
			for _, q := range res.Requests {
				edited = edited || q.Kind == discordtest.OriginalEdit && strings.Contains(q.Text(), shown)
			}
			if way == "/play" && !res.privatelySays(h, "play.played", "Action", move) || way == "board click" && !edited {
				t.Errorf("the answer: %s", res.text())
			}
			if after := h.board(chTiny); !strings.Contains(discordtest.MessageText(after), fmt.Sprintf("version %d ", h.game(chTiny).Version)) {
				t.Errorf("the board does not show the move:\n%s", discordtest.MessageText(after))
			}
			if h.says(h.publicSince(mark), "play.played") {
				t.Errorf("the private answer went public:\n%s", h.publicSince(mark))
			}
		})
	}
}

// A click acknowledged at once and then refused is told why in an
// ephemeral follow-up, never in public, and its message stays as it was.
func TestARefusalAfterTheAcknowledgementIsPrivate(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	mover, move := toMoves(t, h)
	other := alice
	if mover == alice {
		other = bob
	}
	board := h.board(chTiny)
	mark := h.mark()
	res := h.click(other, chTiny, board.ID, mustComponent(t, board, move))
	if res.callbackType() != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Fatalf("the acknowledgement: %v", res.callbackType())
	}
	refused := false
	for _, q := range res.Requests {
		switch q.Kind {
		case discordtest.Followup:
			refused = refused || q.Ephemeral() && strings.Contains(q.Text(), "not your turn")
		case discordtest.OriginalEdit:
			t.Errorf("the refused click edited its message: %s", q.Text())
		}
	}
	if !refused || !res.private() {
		t.Errorf("the refusal was not an ephemeral follow-up: %s", res.text())
	}
	if got := h.publicSince(mark); got != "" {
		t.Errorf("public after a refused click:\n%s", got)
	}
}
