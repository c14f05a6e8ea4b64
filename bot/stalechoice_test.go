package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/storage"
)

// listValues asks for /play's suggestions as u types typed and returns
// each choice's value by its name.
func (h *harness) listValues(u tester, channel, typed string) map[string]string {
	h.t.Helper()
	res := h.send(map[string]any{
		"type": 4, "guild_id": h.guildID(), "channel_id": channel, "member": u.member(),
		"data": map[string]any{"id": "1", "name": cmdPlay, "type": 1, "options": optionList(map[string]any{optAction: typed}, true, optAction)},
	})
	out := map[string]string{}
	for _, q := range res.Requests {
		for _, c := range q.Choices {
			v, _ := c.Value.(string)
			out[c.Name] = v
		}
	}
	return out
}

// play sends /play with value as its action and returns the answer.
func (h *harness) play(u tester, channel, value string) string {
	h.t.Helper()
	res := h.command(u, channel, cmdPlay, "", map[string]any{optAction: value})
	h.bot.Wait()
	return res.text()
}

// A choice picked from /play's list holds while the game's history only
// grows (other players act meanwhile), and is refused as stale once an
// undo took back the history it was listed in, or a new game took the
// channel: the action is then not played.
func TestAStaleListChoiceIsRefused(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)

	// bob acts after alice's list was drawn: her choice still holds
	list := h.listValues(alice, chTiny, "che")
	cheer := list["cheer"]
	if !strings.HasPrefix(cheer, customIDVersion+":") {
		t.Fatalf("the list's cheer sends %q; want the game and revision with it", cheer)
	}
	if told := h.play(bob, chTiny, "cheer"); !h.says(told, "play.played", "Action", "cheer") {
		t.Fatalf("bob's cheer: %s", told)
	}
	if told := h.play(alice, chTiny, cheer); !h.says(told, "play.played", "Action", "cheer") {
		t.Fatalf("alice's cheer from a list bob's action followed: %s", told)
	}

	// an undo and a different action: the list drawn before is stale
	cheer = h.listValues(alice, chTiny, "che")["cheer"]
	h.play(alice, chTiny, "cheer")
	if res := h.command(alice, chTiny, cmdGame, subUndo, nil); !h.says(res.text(), "undo.done") {
		t.Fatalf("undo: %s", res.text())
	}
	h.bot.Wait()
	if told := h.play(alice, chTiny, "pick 2"); !h.says(told, "play.played", "Action", "pick 2") {
		t.Fatalf("alice's pick: %s", told)
	}
	v := h.game(chTiny).Version
	if told := h.play(alice, chTiny, cheer); !strings.Contains(told, refusalText(englishWords(t), table.ErrStaleChoice)) {
		t.Fatalf("a choice from a list drawn before an undo: %q; want %q", told, refusalText(englishWords(t), table.ErrStaleChoice))
	}
	if g := h.game(chTiny); g.Version != v {
		t.Fatalf("the stale choice was stored: version %d, want %d", g.Version, v)
	}

	// the game ends and a new one takes the channel
	pick := h.listValues(bob, chTiny, "pick")["pick 1"]
	move := ""
	h.play(bob, chTiny, "pick 1")
	for _, u := range []tester{alice, bob} {
		if move == "" {
			move = h.listValues(alice, chTiny, "move")["move 1"]
		}
		if told := h.play(u, chTiny, "move 1"); !h.says(told, "play.played", "Action", "move 1") {
			t.Fatalf("%s's move: %s", u.Name, told)
		}
	}
	h.bot.Wait()
	openTinyTable(t, h, chTiny, alice, bob)
	h.bot.Wait()
	v = h.game(chTiny).Version // the computer's pick
	for _, stale := range []struct {
		u     tester
		value string
	}{{bob, pick}, {alice, move}} {
		if stale.value == "" {
			t.Fatal("no list value drawn")
		}
		if told := h.play(stale.u, chTiny, stale.value); !strings.Contains(told, refusalText(englishWords(t), table.ErrStaleChoice)) {
			t.Errorf("%s's choice from the last game's list: %q; want %q", stale.u.Name, told, refusalText(englishWords(t), table.ErrStaleChoice))
		}
	}
	if g := h.game(chTiny); g.Version != v {
		t.Fatalf("a choice from the last game's list was stored in the new one: version %d, want %d", g.Version, v)
	}
}

// A DM menu drawn before an undo that brought the game back into the same
// round is refused (the round alone would not tell), a new prompt is sent
// for the history as it is, and a choice typed by DM in answer to it
// plays.
func TestADMMenuDrawnBeforeAnUndoIsRefused(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2"})
	h.command(carol, chTiny, cmdLobby, subJoin, nil)
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	prompts := func() []discordtest.Request {
		h.bot.Wait()
		var out []discordtest.Request
		for _, q := range h.fake.Requests() {
			if q.Kind == discordtest.DirectMessage && q.User == carol.ID && len(q.CustomIDs()) == 1 {
				out = append(out, q)
			}
		}
		return out
	}
	before := prompts()
	if len(before) != 1 {
		t.Fatalf("%d DM prompts at the start, want 1", len(before))
	}
	pickAll(t, h, chTiny, carol)
	if res := h.command(carol, chTiny, cmdGame, subUndo, nil); !h.says(res.text(), "undo.done") {
		t.Fatalf("carol's undo: %s", res.text())
	}
	after := prompts()
	if len(after) != 2 {
		t.Fatalf("%d DM prompts after the undo, want a new one", len(after))
	}
	v := h.game(chTiny).Version
	old := before[0]
	if res := h.click(carol, "", old.Message, old.CustomIDs()[0], "pick 3"); !h.says(res.text(), "dm.moved_on") || h.game(chTiny).Version != v {
		t.Fatalf("the menu drawn before the undo: %s (version %d, want %d)", res.text(), h.game(chTiny).Version, v)
	}
	if dms := h.dm(carol, "2"); len(dms) != 1 || !h.says(dms[0].Text(), "play.played", "Action", "pick 2") {
		t.Fatalf("carol's typed answer to the new prompt: %+v", dms)
	}
}

// A typed DM is guarded by the prompt its writer had last been sent when
// writing it: the latest one for a DM written after it, the one before
// for a DM written before the latest arrived.
func TestATypedDMAnswersThePromptBeforeIt(t *testing.T) {
	var p promptsSent
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	p.record(7, "u", 5, t0)
	p.record(7, "u", 9, t0.Add(time.Minute))
	for _, c := range []struct {
		written time.Time
		want    table.Offer
	}{{t0.Add(-time.Second), table.Offer{}}, {t0.Add(time.Second), table.Offer{Revision: 5, Hold: table.HoldHistory}}, {t0.Add(2 * time.Minute), table.Offer{Revision: 9, Hold: table.HoldHistory}}} {
		if got := p.drawnFor(7, "u", c.written); got != c.want {
			t.Errorf("a DM written at %v answers the prompt %+v, want %+v", c.written.Sub(t0), got, c.want)
		}
	}
	if got := p.drawnFor(8, "u", t0.Add(time.Hour)); got != (table.Offer{}) {
		t.Errorf("another game's prompt: %+v, want none", got)
	}
}

// A choice drawn for a game in another channel and sent in this one is
// refused as belonging to that game, not as stale: the game it was drawn
// for has not changed.
func TestAChoiceForAGameElsewhereIsForeign(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	const other = "3002"
	openTinyTable(t, h, chTiny, alice, bob)
	openTinyTable(t, h, other, alice, bob)
	cheer := h.listValues(alice, other, "che")["cheer"]
	if cheer == "" {
		t.Fatal("no list value drawn")
	}
	v := h.game(chTiny).Version
	want := refusalText(englishWords(t), table.ErrForeignChoice)
	if told := h.play(alice, chTiny, cheer); !strings.Contains(told, want) {
		t.Fatalf("a choice for the game in channel %s sent in %s: %q; want %q", other, chTiny, told, want)
	}
	if g := h.game(chTiny); g.Version != v {
		t.Fatalf("the other game's choice was stored here: version %d, want %d", g.Version, v)
	}
}
