package bot

import (
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

// A change that comes with no interaction on the board (a DM) edits the
// board through the webhook of a recent click on it, outside the REST
// budget; once that click's token is too old, with a REST edit.
func TestBoardEditsGoThroughARecentClick(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	openTinyTable(t, h, chTiny, alice, bob, carol) // bob keeps the round open
	board := h.board(chTiny)
	res := h.click(alice, chTiny, board.ID, mustComponent(t, board, "Choose secretly"))
	form := h.submit(alice, chTiny, res.Requests[0].CustomID, "2")

	editedBy := func(mark int) (webhook, rest int) {
		t.Helper()
		want := fmt.Sprintf("version %d ", h.game(chTiny).Version)
		for _, q := range h.fake.Requests()[mark:] {
			if !strings.Contains(q.Text(), want) {
				continue
			}
			switch {
			case q.Kind == discordtest.OriginalEdit && q.Token == form.Token:
				webhook++
			case q.Kind == discordtest.MessageEdit && q.Message == board.ID:
				rest++
			default:
				t.Errorf("the board went out as %s %s", q.Kind, q.Path)
			}
		}
		return webhook, rest
	}
	mark := h.mark()
	if dms := h.dm(carol, "1"); len(dms) != 1 || !h.says(dms[0].Text(), "play.played", "Action", "pick 1") {
		t.Fatalf("carol's DM: %+v", dms)
	}
	if webhook, rest := editedBy(mark); webhook != 1 || rest != 0 {
		t.Errorf("after a DM: %d edits through alice's form, %d REST edits; want 1 and 0", webhook, rest)
	}
	// the form's token is too old now (Discord's 15 minutes, less a margin)
	h.clock.Advance(transport.HandleLife)
	mark = h.mark()
	h.dm(carol, "3")
	if webhook, rest := editedBy(mark); webhook != 0 || rest != 1 {
		t.Errorf("after the form's token aged: %d edits through it, %d REST edits; want 0 and 1", webhook, rest)
	}
}

// A player who is sent their secret prompt by DM is not also pinged in the
// channel for it: the DM notifies them.
func TestPlayersPromptedByDMAreNotPingedForIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	mark := h.mark()
	openTinyTable(t, h, chTiny, alice, carol)
	public := h.publicSince(mark)
	if !strings.Contains(public, "Your move: <@"+alice.ID+">") {
		t.Errorf("alice, who chooses in the channel, was not pinged:\n%s", public)
	}
	for _, line := range strings.Split(public, "\n") {
		if strings.HasPrefix(line, "Your move") && strings.Contains(line, "<@"+carol.ID+">") {
			t.Errorf("carol was pinged though her prompt went by DM: %s", line)
		}
	}
	dms := 0
	for _, q := range h.fake.Requests()[mark:] {
		if q.Kind == discordtest.DirectMessage && q.User == carol.ID && strings.Contains(q.Text(), "pick a number") {
			dms++
		}
	}
	if dms != 1 {
		t.Errorf("carol got %d DM prompts, want 1", dms)
	}
}

// A secret prompt's DM is a bot-token call, which a global 429 can hold
// for seconds: the channel's next board goes out while it waits. Here the
// DM that opens round 2 for carol is held, and alice's pick in round 2
// still reaches the board.
func TestABoardDoesNotWaitForADM(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2"})
	h.command(bob, chTiny, cmdLobby, subJoin, nil)
	h.command(carol, chTiny, cmdLobby, subJoin, nil)
	if res := h.command(alice, chTiny, cmdLobby, subStart, nil); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
	play := func(u tester, action string) { h.command(u, chTiny, cmdPlay, "", map[string]any{optAction: action}) }
	play(alice, "pick 2")
	play(bob, "pick 1")
	h.dm(carol, "1")
	play(alice, "move 1")
	play(bob, "move 1")
	h.bot.send.Limiter().SetExchange(time.Hour) // the held DM waits as long as the test
	caught, release := h.fake.Hold(func(q discordtest.Request) bool {
		return q.Kind == discordtest.DirectMessage && q.User == carol.ID && strings.Contains(q.Text(), "a number")
	})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer release()
	wg.Go(func() { play(carol, "move 1") }) // ends round 1: round 2's prompt is DMed
	<-caught
	version := h.game(chTiny).Version
	wg.Go(func() { play(alice, "pick 3") })
	waitUntil(t, "alice's pick on the board while carol's DM waits", func() bool {
		want := fmt.Sprintf("version %d ", version+1)
		for _, q := range h.fake.Requests() {
			if q.Kind != discordtest.DirectMessage && strings.Contains(q.Text(), want) {
				return true
			}
		}
		return false
	})
}
