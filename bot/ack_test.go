package bot

import (
	"fmt"
	"log/slog"
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
// from the global limit at Discord and must not wait: here the wait (4 s)
// is longer than the 3 s an interaction has for its first answer.
func TestAGlobalLimitDoesNotDelayInteractionAnswers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	const noticeChannel = "7777"
	h.fake.Fail(func(q discordtest.Request) bool {
		return q.Kind == discordtest.ChannelSend && q.Channel == noticeChannel
	}, discordtest.GloballyRateLimited(4*time.Second, 1))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.bot.pub.post(noticeChannel, msg{Content: "a notice"}, 0)
	}()
	defer wg.Wait()
	var limitedAt time.Time
	waitUntil(t, "the global 429", func() bool {
		for _, q := range h.fake.Requests() {
			if q.Status == http.StatusTooManyRequests {
				limitedAt = q.At
				return true
			}
		}
		return false
	})

	res := h.command(alice, chTiny, cmdGame, subRules, nil)
	first := res.Requests[0]
	if first.Kind != discordtest.Callback || first.Status >= 300 {
		t.Fatalf("the answer's first request: %s %s answered %d", first.Method, first.Path, first.Status)
	}
	if waited := first.At.Sub(limitedAt); waited >= discordtest.ResponseWindow {
		t.Errorf("the answer waited %v for the global limit", waited)
	}
	wg.Wait()
	posted := false
	for _, q := range h.fake.Requests() {
		posted = posted || q.Kind == discordtest.ChannelSend && q.Channel == noticeChannel && q.Status == http.StatusOK
	}
	if !posted {
		t.Error("the rate-limited notice was not sent again after the wait")
	}
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
	h.clock.Advance(handleLife)
	caught, release := h.fake.Hold(botTokenCall)
	defer release()

	// a /free keeps the game's publisher busy with a board edit that hangs
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.command(other, chTiny, cmdFree, "", map[string]any{optAction: "cheer"})
	}()
	select {
	case <-caught:
	case <-time.After(10 * time.Second):
		t.Fatal("no bot-token call was held")
	}
	// the move clicked on the board (its buttons as the held edit would
	// leave them) waits behind it
	id, err := parseCustomID(mustComponent(t, board, move))
	if err != nil {
		t.Fatal(err)
	}
	id.Revision = h.game(chTiny).Revision
	moveID, _ := id.encode()
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
	select {
	case q := <-acked:
		if q.Status >= 300 || q.Type != discordgo.InteractionResponseDeferredMessageUpdate {
			t.Errorf("the acknowledgement: type %v, status %d: %s", q.Type, q.Status, q.Text())
		}
	case <-time.After(discordtest.ResponseWindow + time.Second):
		t.Fatal("the click was not acknowledged while bot-token calls hung")
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
		rl := h.bot.send.s.Ratelimiter
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

// The automatic defer runs on a timer's goroutine, outside the handler's
// recover: a panic there is logged, and the process goes on.
func TestAPanicInTheAutomaticDeferIsRecovered(t *testing.T) {
	t.Parallel()
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	// no session: sending the defer panics
	r := newReply(nil, &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, ChannelID: "1"}, log)
	r.done()
	r.autoDefer()
	if !strings.Contains(logged.String(), "recovered from a panic in an automatic defer") || !strings.Contains(logged.String(), "goroutine") {
		t.Errorf("the panic was not logged with its stack:\n%s", logged.String())
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
