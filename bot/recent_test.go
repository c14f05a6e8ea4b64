package bot

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// What a board says happened is a glance: after the last dice choice of a
// 4-player game, the reveal stays among the six lines although the seats'
// bookkeeping follows it, and the payments of one cause share a line.
func TestLastActionsKeepTheRevealAndJoinOneCause(t *testing.T) {
	r := newRecentEvents()
	change := func(seat int, text string) engine.Event {
		return engine.Event{Kind: "change", Seat: engine.Seat(seat), Text: text}
	}
	r.add("c", []engine.Event{
		{Kind: engine.EventAction, Seat: 0, Text: "P1 places a 1 on space 4 at Westminster — -2 £ (fee)"},
		{Kind: engine.EventAction, Seat: 3, Text: "P4 has chosen their dice"},
		{Kind: engine.EventReveal, Seat: engine.Spectator, Text: "dice revealed: P1: 6 6 5 2; P2: 6 5 3 1; P3: 4 2 1 1; P4: 3 1 1 1"},
		change(0, "P1: -19 £ (dice paid)"), change(1, "P2: -15 £ (dice paid)"), change(2, "P3: -8 £ (dice paid)"), change(3, "P4: -6 £ (dice paid)"),
		{Kind: engine.EventAction, Seat: 0, Text: "P1 is first player"},
		{Kind: engine.EventPhase, Seat: engine.Spectator, Text: "Autumn 1849: phase 2, place dice"},
		change(3, "P4: +1 newspaper (lowest dice total)"),
		change(2, "P3: +1 £ (character)"),
		change(1, "P2: +1 energy (character)"),
		change(0, "P1: +2 £ (Pocket Watch)"),
		change(3, "P4: Buzz 3 → 4 (flyer)"),
	})
	got := r.last("c", 6)
	text := strings.Join(got, "\n")
	if len(got) != 6 || !strings.Contains(text, "dice revealed: P1: 6 6 5 2") {
		t.Fatalf("the reveal fell out of the last actions:\n%s", text)
	}
	if !strings.Contains(text, "P4: 3 1 1 1 — dice paid: P1 -19 £ · P2 -15 £ · P3 -8 £ · P4 -6 £") {
		t.Errorf("the payments of the reveal are not one line:\n%s", text)
	}
	if !strings.HasSuffix(text, "flyer: P4 Buzz 3 → 4") {
		t.Errorf("the latest line is not last:\n%s", text)
	}
	if strings.Index(text, "dice revealed") > strings.Index(text, "first player") {
		t.Errorf("lines out of order:\n%s", text)
	}
}
