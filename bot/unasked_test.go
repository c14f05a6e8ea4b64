package bot

import (
	"strings"
	"testing"
)

// A prompt with one possible answer is answered by the table without
// asking, stored like any move, and the channel is told why; the player
// whose move led to it takes both back with one undo.
func TestAnUnaskedAnswerIsPlayedAndTakenBackWithTheMoveBeforeIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	res := h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2 second=one"})
	lobby := h.game(chTiny).Messages[roleLobby]
	if lobby == "" {
		t.Fatalf("no lobby: %s", res.text())
	}
	m, _ := h.fake.Message(lobby)
	h.click(bob, chTiny, lobby, mustComponent(t, m, "Join"))
	m, _ = h.fake.Message(lobby)
	if res := h.click(alice, chTiny, lobby, mustComponent(t, m, "Start (join order)")); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
	pickAll(t, h, chTiny, alice, bob)
	before, mark := len(h.game(chTiny).Log), h.mark()
	h.play(alice, chTiny, "move 2")

	g := h.game(chTiny)
	if len(g.Log) != before+2 || g.Log[len(g.Log)-1].Action != "move 1" || g.Log[len(g.Log)-1].Seat != 1 {
		t.Fatalf("after alice's move the log ends %+v; want bob's only move stored after it", g.Log[before:])
	}
	if got := h.publicSince(mark); !strings.Contains(got, "P2 moves 1 ("+h.say("engine.unasked.only")+")") {
		t.Errorf("the channel was not told that bob's move was the only possible answer:\n%s", got)
	}
	if res := h.command(bob, chTiny, cmdGame, subUndo, nil); !h.says(res.text(), "undo.not_yours") {
		t.Errorf("bob takes back the move nobody asked him for: %s", res.text())
	}
	if res := h.command(alice, chTiny, cmdGame, subUndo, nil); !h.says(res.text(), "undo.done", "Action", "move 2") {
		t.Fatalf("alice's undo: %s", res.text())
	}
	if g := h.game(chTiny); len(g.Log) != before {
		t.Fatalf("after the undo the log holds %d entries, want %d", len(g.Log), before)
	}
	if got := h.play(alice, chTiny, "move 1"); !strings.Contains(got, "move 1") {
		t.Fatalf("alice moves again: %s", got)
	}
}
