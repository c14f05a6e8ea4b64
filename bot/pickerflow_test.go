package bot

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/picker"
)

// pickFromTree plays action through the board's picker button: a private
// message, updated in place at each step, going back once on the way. It
// checks every step's menu against Discord's limits.
func pickFromTree(t *testing.T, h *harness, u tester, ch, board, button string, st engine.State, seat engine.Seat, secret bool, action string) {
	t.Helper()
	tree := picker.New(treeActions(st, seat, secret))
	path, ok := tree.Find(action)
	if !ok {
		t.Fatalf("the picker does not offer %q", action)
	}
	if len(path) > picker.MaxTaps {
		t.Fatalf("%q takes %d taps", action, len(path))
	}
	res := h.click(u, ch, board, button)
	if !res.private() {
		t.Fatalf("the picker opened in public: %s", res.text())
	}
	msgID, ok := h.privateMessage(res)
	if !ok {
		t.Fatal("no private picker message")
	}
	wentBack := false
	for step := 0; step < len(path); step++ {
		m, _ := h.fake.Message(msgID)
		menu := treeMenuOn(t, m)
		if len(menu.Options) > picker.MaxChoices {
			t.Fatalf("a step with %d choices", len(menu.Options))
		}
		if step >= 0 {
			// a submenu's notation label comes with words for what is behind it
			at, _ := tree.At(path[:step])
			for i, c := range at.Choices {
				if n, _ := c.Below(); n > 1 && (i >= len(menu.Options) || !strings.Contains(menu.Options[i].Description, strconv.Itoa(n))) {
					t.Fatalf("the submenu %q has no words for its %d choices", c.Label, n)
				}
			}
		}
		if step == 1 && !wentBack && len(path) > 1 {
			// go back to the top, and on again
			back, ok := componentOn(t, m, h.say("play.back"))
			if !ok {
				t.Fatalf("no back button below the top: %s", strings.Join(treeLabels(menu), ", "))
			}
			if r := h.click(u, ch, msgID, back); !r.updated() {
				t.Fatalf("back did not update the message in place: %v %s", r.callbackType(), r.text())
			}
			wentBack, step = true, -1
			continue
		}
		r := h.click(u, ch, msgID, menu.CustomID, strconv.Itoa(path[step]))
		if !r.updated() {
			t.Fatalf("step %d did not update the message in place: %v %s", step, r.callbackType(), r.text())
		}
		if step == len(path)-1 && !strings.Contains(r.text(), h.say("play.played", "ID", h.game(ch).ID, "Action", action)) {
			t.Fatalf("the last step: %s", r.text())
		}
	}
}

// treeMenuOn finds the picker's select menu on m.
func treeMenuOn(t *testing.T, m *discordgo.Message) *discordgo.SelectMenu {
	t.Helper()
	for _, row := range m.Components {
		if ar, ok := row.(*discordgo.ActionsRow); ok {
			for _, c := range ar.Components {
				if menu, ok := c.(*discordgo.SelectMenu); ok {
					return menu
				}
			}
		}
	}
	t.Fatalf("no menu on the picker message: %+v", m.Components)
	return nil
}

func treeLabels(menu *discordgo.SelectMenu) []string {
	var out []string
	for _, o := range menu.Options {
		out = append(out, o.Label)
	}
	return out
}

func TestTreeArgRoundTrips(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		secret bool
		seat   engine.Seat
		path   []int
	}{{false, 0, nil}, {false, 3, []int{24, 0, 7, 12}}, {true, 2, []int{1}}} {
		secret, s, p, ok := parseTreeArg(treeArg(c.secret, c.seat, c.path))
		if !ok || secret != c.secret || s != c.seat || len(p) != len(c.path) {
			t.Fatalf("%v %v %v: got %v %v %v %v", c.secret, c.seat, c.path, secret, s, p, ok)
		}
	}
	if secret, seat, _, ok := parseTreeArg(secretTree); !ok || !secret || seat != -1 {
		t.Fatal("the board's secret button names no seat")
	}
	for _, bad := range []string{"", "x", "1.-2", "1.01", "1.2.3.4.5.6", "1..2", "1.100", "ss1", "s-1"} {
		if _, _, _, ok := parseTreeArg(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestSecretPickerIsPrivateAndRefusedInTheNextRound(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	board := h.board(chTiny)
	open := func(u tester) (string, *discordgo.SelectMenu) {
		t.Helper()
		res := h.click(u, chTiny, board.ID, mustComponent(t, board, "Pick from menus"))
		if !res.private() {
			t.Fatalf("the secret picker opened in public: %s", res.text())
		}
		id, _ := h.privateMessage(res)
		m, _ := h.fake.Message(id)
		return id, treeMenuOn(t, m)
	}
	if res := h.click(eve, chTiny, board.ID, mustComponent(t, board, "Pick from menus")); !res.private() || !h.says(res.text(), "refuse.not_seated") {
		t.Fatalf("a spectator's click: %s", res.text())
	}
	mark := h.mark()
	msgID, menu := open(alice)
	if got := strings.Join(treeLabels(menu), ","); got != "pick 1,pick 2,pick 3" {
		t.Fatalf("alice's secret menu: %s", got)
	}
	if res := h.click(alice, chTiny, msgID, menu.CustomID, "2"); !h.says(res.text(), "play.played", "Action", "pick 3") {
		t.Fatalf("alice's pick: %s", res.text())
	}
	if got := h.publicSince(mark); strings.Contains(got, "pick 3") || strings.Contains(got, "Alice picks 3") {
		t.Fatalf("alice's secret pick in public before the reveal:\n%s", got)
	}
	// she may change it: a new picker; it is refused once the round is over
	msgID, menu = open(alice)
	pickAll(t, h, chTiny, bob)
	if res := h.click(alice, chTiny, msgID, menu.CustomID, "0"); !res.private() || !h.says(res.text(), "refuse.stale_click") {
		t.Fatalf("a secret picker of the last round: %s", res.text())
	}
	if got := h.publicSince(mark); !strings.Contains(got, "picks: P1 3, P2 1") {
		t.Fatalf("the reveal shows alice's pick from the picker: %s", got)
	}
	for _, q := range h.fake.Requests()[mark:] {
		for _, id := range append(q.CustomIDs(), q.CustomID) {
			if strings.Contains(id, "pick") {
				t.Errorf("custom_id %q names a pick", id)
			}
		}
	}
}
