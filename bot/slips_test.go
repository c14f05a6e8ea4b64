package bot

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
)

// An interaction Discord no longer knows (it came too late, or its token
// expired) is no fault of the bot's: it is logged below ERROR, and named
// as expired. So is an autocomplete, by its kind's name.
func TestAnExpiredInteractionIsNoError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.unanswered = true
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"})
	h.fake.Fail(func(q discordtest.Request) bool { return q.Token != "" },
		discordtest.Failure{Status: http.StatusNotFound, Code: discordgo.ErrCodeUnknownInteraction, Message: "Unknown interaction"})
	h.command(bob, chTiny, cmdLobby, subJoin, nil)
	h.command(carol, chTiny, cmdGame, subRules, nil)
	h.autocomplete(bob, chTiny, cmdPlay, "", map[string]any{optAction: ""}, optAction)
	log := h.log()
	if strings.Contains(log, "level=ERROR") || !strings.Contains(log, "expired") {
		t.Errorf("expired interactions logged:\n%s", log)
	}
	if strings.Contains(log, "InteractionType(") || !strings.Contains(log, "kind=autocomplete") {
		t.Errorf("an autocomplete logged without its kind's name:\n%s", log)
	}
}

// A confirmation sent from a message it was never on, with the game's
// current revision (a forged click), is refused as such, not as a button
// of an older Meeple.
func TestAForgedConfirmIsNotCalledOld(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"})
	g := h.game(chTiny)
	id := componentID(g.Guard(), verbConfirm, "")
	res := h.click(alice, chTiny, g.Messages[roleLobby], id)
	if text := res.text(); h.says(text, "refuse.unknown_component") || !strings.Contains(text, h.say("refuse.misplaced_button")) {
		t.Errorf("a forged confirm was told %q", text)
	}
	if h.game(chTiny) == nil || h.game(chTiny).Status != g.Status {
		t.Error("a forged confirm abandoned the game")
	}
}
