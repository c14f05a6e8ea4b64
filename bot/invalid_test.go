package bot

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

func TestClosedDMsAreRememberedAndToldOnce(t *testing.T) {
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
		if strings.Contains(q.Text(), "I could not send you a DM") {
			notices++
		}
	}
	if tries != 1 || notices != 1 {
		t.Errorf("DMs tried %d times and the player told %d times; want once each", tries, notices)
	}
	prefs, err := h.store.UserPrefs(bob.ID)
	if err != nil || prefs.Secrets != storage.SecretsEphemeral {
		t.Errorf("bob's preference after the refusal: %+v %v", prefs, err)
	}
	if !strings.Contains(h.log(), "Discord refused a request") || !strings.Contains(h.log(), "status=403") {
		t.Errorf("the refused DM was not counted:\n%s", h.log())
	}
}

func TestInvalidResponsesAreCountedAndHeldBackBeforeTheLimit(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.bot.send.guard.limit = 5
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
	for n := 0; n < 8; n++ {
		h.command(alice, chTiny, cmdGame, subAbandon, nil) // private, always answered
		h.bot.pub.post(chTiny, msg{Content: "a notice"}, 0)
	}
	if got := sent() - before; got != 5 {
		t.Errorf("%d refused posts reached Discord; the guard should hold back after 5", got)
	}
	if n := h.bot.send.guard.invalidCount(); n != 5 {
		t.Errorf("counted %d invalid responses, want 5", n)
	}
	if !strings.Contains(h.log(), "holding_back=true") {
		t.Errorf("holding back was not logged:\n%s", h.log())
	}
	// interaction answers still go out while holding back
	if res := h.command(alice, chTiny, cmdGame, subScores, nil); !res.private() || !strings.Contains(res.text(), "Scores") {
		t.Errorf("an interaction while holding back: %s", res.text())
	}
	// ten minutes later the count has expired and posts go out again
	h.clock.Advance(11 * time.Minute)
	h.fake.ClearFailures()
	h.bot.pub.post(chTiny, msg{Content: "a notice"}, 0)
	if got := sent() - before; got != 6 {
		t.Errorf("after ten minutes: %d posts sent, want 6", got)
	}
	if strings.Contains(h.log(), "fake-token") || strings.Contains(h.log(), "/tok") {
		t.Errorf("a token reached the log:\n%s", h.log())
	}
}
