package bot

import (
	"context"
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

func TestClosedDMsAreRememberedAndToldOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(bob, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	h.fake.RefuseDMs(bob.ID)
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2"})
	h.command(bob, chTiny, cmdLobby, subJoin, nil)
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	// two rounds: picks, then moves
	for round := 1; round <= 2; round++ {
		pickAll(t, h, chTiny, alice, bob)
		for _, u := range []tester{alice, bob} {
			board := h.board(chTiny)
			h.click(u, chTiny, board.ID, mustComponent(t, board, "move 1"))
		}
	}
	h.bot.Wait()
	tries, notices := 0, 0
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.DirectMessage && q.User == bob.ID {
			tries++
		}
		if h.says(q.Text(), "dm.closed") {
			notices++
		}
	}
	if tries != 1 || notices != 1 {
		t.Errorf("DMs tried %d times and the player told %d times; want once each", tries, notices)
	}
	prefs, err := h.store.UserPrefs(context.Background(), bob.ID)
	if err != nil || prefs.Secrets != storage.SecretsEphemeral {
		t.Errorf("bob's preference after the refusal: %+v %v", prefs, err)
	}
	if !strings.Contains(h.log(), "Discord refused a request") || !strings.Contains(h.log(), "status=403") {
		t.Errorf("the refused DM was not counted:\n%s", h.log())
	}
}

func TestInvalidResponsesAreCountedAndHeldBackBeforeTheLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.bot.send.Limiter().HoldBackAt(5)
	openTinyTable(t, h, chTiny, alice, bob)
	// every channel post is refused: a missing permission (403)
	h.fake.Fail(func(q discordtest.Request) bool { return q.Kind == discordtest.ChannelSend },
		discordtest.Failure{Status: http.StatusForbidden, Code: 50013, Message: "Missing Permissions"})
	sent := func() int {
		n := 0
		for _, q := range h.fake.Requests() {
			if q.Kind == discordtest.ChannelSend {
				n++
			}
		}
		return n
	}
	before := sent()
	// each notice to a channel of its own: the transport's count is the bot's,
	// and no channel's bucket (5 posts in 5 s) makes the test wait
	for n := 0; n < 8; n++ {
		h.command(alice, chTiny, cmdGame, subAbandon, nil) // private, always answered
		h.bot.pub.post(fmt.Sprint(7100+n), transport.Message{Content: "a notice"}, 0)
	}
	if got := sent() - before; got != 5 {
		t.Errorf("%d refused posts reached Discord; the transport should hold back after 5", got)
	}
	if n := h.bot.send.Limiter().InvalidCount(); n != 5 {
		t.Errorf("counted %d invalid responses, want 5", n)
	}
	if !strings.Contains(h.log(), "holding_back=true") {
		t.Errorf("holding back was not logged:\n%s", h.log())
	}
	// interaction answers still go out while holding back
	if res := h.command(alice, chTiny, cmdGame, subScores, nil); !res.private() || !h.says(res.text(), "board.scores") {
		t.Errorf("an interaction while holding back: %s", res.text())
	}
	// ten minutes later the count has expired and posts go out again
	h.clock.Advance(11 * time.Minute)
	h.fake.ClearFailures()
	h.bot.pub.post("7199", transport.Message{Content: "a notice"}, 0)
	if got := sent() - before; got != 6 {
		t.Errorf("after ten minutes: %d posts sent, want 6", got)
	}
	if strings.Contains(h.log(), "fake-token") || strings.Contains(h.log(), "/tok") {
		t.Errorf("a token reached the log:\n%s", h.log())
	}
}

func TestStaleDMMenusAreRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2"})
	h.command(carol, chTiny, cmdLobby, subJoin, nil)
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	prompt := func() discordtest.Request {
		h.bot.Wait()
		var last discordtest.Request
		for _, q := range h.fake.Requests() {
			if q.Kind == discordtest.DirectMessage && q.User == carol.ID && len(q.CustomIDs()) == 1 {
				last = q
			}
		}
		if last.Message == "" {
			t.Fatal("no DM prompt")
		}
		return last
	}
	round1 := prompt()
	pickAll(t, h, chTiny, alice, carol)
	for _, u := range []tester{alice, carol} {
		board := h.board(chTiny)
		h.click(u, chTiny, board.ID, mustComponent(t, board, "move 1"))
	}
	if round2 := prompt(); round2.Message == round1.Message {
		t.Fatal("no new prompt in round 2")
	}
	v := h.game(chTiny).Version
	res := h.click(carol, "", round1.Message, round1.CustomIDs()[0], "pick 3")
	if !h.says(res.text(), "dm.moved_on") || h.game(chTiny).Version != v {
		t.Errorf("round 1's menu in round 2: %s", res.text())
	}
	// the current menu works, also after another player's choice
	pickAll(t, h, chTiny, alice)
	round2 := prompt()
	if res := h.click(carol, "", round2.Message, round2.CustomIDs()[0], "pick 3"); !h.says(res.text(), "play.played", "Action", "pick 3") {
		t.Errorf("round 2's menu: %s", res.text())
	}
}

func TestForgedCustomIDsEditNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	openTinyTable(t, h, chTiny, alice, carol)
	g := h.game(chTiny)
	board := h.board(chTiny)
	var dmPrompt discordtest.Request
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.DirectMessage && q.User == carol.ID {
			dmPrompt = q
		}
	}
	id := func(v verb, arg string) string {
		s := componentID(g.Guard(), v, arg)
		return s
	}
	which := componentID(storage.Guard{}, verbWhich, "")
	dmBefore, _ := h.fake.Message(dmPrompt.Message)
	dmText := discordtest.MessageText(dmBefore)
	// a which-game menu on the DM prompt
	res := h.click(carol, "", dmPrompt.Message, which, "1")
	if after, _ := h.fake.Message(dmPrompt.Message); discordtest.MessageText(after) != dmText || res.callbackType() == 7 {
		t.Errorf("a forged which-game menu edited the DM prompt: %s", res.text())
	}
	// lobby, log and abandon buttons on the board
	boardText := discordtest.MessageText(board)
	for _, c := range []string{id(verbJoin, ""), id(verbLogPage, "1"), id(verbConfirm, "")} {
		res := h.click(alice, chTiny, board.ID, c)
		if res.callbackType() == 7 {
			t.Errorf("%s updated the board: %s", c, res.text())
		}
	}
	if after, _ := h.fake.Message(board.ID); discordtest.MessageText(after) != boardText {
		t.Errorf("forged components changed the board:\n%s", discordtest.MessageText(after))
	}
	if g2, err := h.store.Get(context.Background(), chTiny); err != nil || g2.ID != g.ID || len(g2.Seats) != len(g.Seats) {
		t.Errorf("forged lobby or confirmation buttons changed the game: %v", err)
	}
}

func TestBotTokenCallsStayUnderTheGlobalLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	var wg sync.WaitGroup
	for n := range 120 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.bot.pub.post(fmt.Sprint(7000+n), transport.Message{Content: "a notice"}, 0)
		}()
	}
	wg.Wait()
	ok := 0
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.ChannelSend && q.Status == http.StatusOK {
			ok++
		}
	}
	if _, tooMany := h.bot.send.Limiter().Totals(); ok != 120 || tooMany != 0 {
		t.Errorf("%d of 120 posts went out, %d answered 429", ok, tooMany)
	}
	// the harness fails the test on any request Discord would refuse,
	// a global 429 included
}

func TestTheSecretFormUpdatesTheBoardInItsAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	board := h.board(chTiny)
	res := h.click(alice, chTiny, board.ID, mustComponent(t, board, "Choose secretly"))
	mark := h.mark()
	res = h.submit(alice, chTiny, res.Requests[0].CustomID, "2")
	if res.callbackType() != discordgo.InteractionResponseDeferredMessageUpdate || !res.privatelySays(h, "play.played", "Action", "pick 2") {
		t.Errorf("the form's answer: type %v, %s", res.callbackType(), res.text())
	}
	edited := false // the board, edited as the form's original message
	for _, q := range res.Requests {
		edited = edited || q.Kind == discordtest.OriginalEdit && strings.Contains(q.Text(), fmt.Sprintf("version %d ", h.game(chTiny).Version))
	}
	if !edited {
		t.Errorf("the form's interaction did not bring the board up to date: %+v", res.Requests)
	}
	if after := h.board(chTiny); !strings.Contains(discordtest.MessageText(after), fmt.Sprintf("version %d ", h.game(chTiny).Version)) {
		t.Errorf("the board was not brought up to date:\n%s", discordtest.MessageText(after))
	}
	for _, q := range h.fake.Requests()[mark:] {
		if botTokenCall(q) {
			t.Errorf("a bot-token call for a secret choice made in the form: %s %s", q.Method, q.Path)
		}
	}
}
