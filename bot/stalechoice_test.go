package bot

import (
	"strings"
	"testing"
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
	if told := h.play(bob, chTiny, "cheer"); !strings.Contains(told, "you played `cheer`") {
		t.Fatalf("bob's cheer: %s", told)
	}
	if told := h.play(alice, chTiny, cheer); !strings.Contains(told, "you played `cheer`") {
		t.Fatalf("alice's cheer from a list bob's action followed: %s", told)
	}

	// an undo and a different action: the list drawn before is stale
	cheer = h.listValues(alice, chTiny, "che")["cheer"]
	h.play(alice, chTiny, "cheer")
	if res := h.command(alice, chTiny, cmdGame, subUndo, nil); !strings.Contains(res.text(), "Taken back") {
		t.Fatalf("undo: %s", res.text())
	}
	h.bot.Wait()
	if told := h.play(alice, chTiny, "pick 2"); !strings.Contains(told, "you played `pick 2`") {
		t.Fatalf("alice's pick: %s", told)
	}
	v := h.game(chTiny).Version
	if told := h.play(alice, chTiny, cheer); !strings.Contains(told, errStaleChoice.text) {
		t.Fatalf("a choice from a list drawn before an undo: %q; want %q", told, errStaleChoice.text)
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
		if told := h.play(u, chTiny, "move 1"); !strings.Contains(told, "you played `move 1`") {
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
		if told := h.play(stale.u, chTiny, stale.value); !strings.Contains(told, errStaleChoice.text) {
			t.Errorf("%s's choice from the last game's list: %q; want %q", stale.u.Name, told, errStaleChoice.text)
		}
	}
	if g := h.game(chTiny); g.Version != v {
		t.Fatalf("a choice from the last game's list was stored in the new one: version %d, want %d", g.Version, v)
	}
}
