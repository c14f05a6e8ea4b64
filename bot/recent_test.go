package bot

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/wording"
)

// What a board says happened is a glance: after the last dice choice of a
// 4-player game, the reveal stays among the six lines although the seats'
// bookkeeping follows it, and the payments of one cause share a line.
func TestLastActionsKeepTheRevealAndJoinOneCause(t *testing.T) {
	r := newRecentEvents()
	change := func(seat int, cause string, part engine.Arg) engine.Event {
		return engine.Event{Kind: "change", Seat: engine.Seat(seat), Text: engine.Say("log.change_cause",
			engine.Who("Who", engine.Seat(seat)), engine.Part(part), engine.Msg("Cause", "cp.cause."+cause, 0))}
	}
	pounds := func(n int) engine.Arg { return engine.Amount("unit.pounds", n) }
	r.add("c", []engine.Event{
		{Kind: engine.EventAction, Seat: 0, Text: engine.Plain("P1 places a 1 on space 4 at Westminster — -2 £ (fee)")},
		{Kind: engine.EventAction, Seat: 3, Text: engine.Say("cp.log.dice", engine.Who("Who", 3))},
		{Kind: engine.EventReveal, Seat: engine.Spectator, Text: engine.Say("cp.log.reveal", engine.Code("Dice", "P1: 6 6 5 2; P2: 6 5 3 1; P3: 4 2 1 1; P4: 3 1 1 1"))},
		change(0, "dice_paid", pounds(-19)), change(1, "dice_paid", pounds(-15)), change(2, "dice_paid", pounds(-8)), change(3, "dice_paid", pounds(-6)),
		{Kind: engine.EventAction, Seat: 0, Text: engine.Say("cp.log.first", engine.Who("Who", 0))},
		{Kind: engine.EventPhase, Seat: engine.Spectator, Text: engine.Plain("Autumn 1849: phase 2, place dice")},
		change(3, "lowest_dice", engine.Amount("unit.newspapers", 1)),
		change(2, "character", pounds(1)),
		change(1, "character", engine.Amount("unit.energy", 1)),
		change(0, "watch", pounds(2)),
		change(3, "flyer", engine.Change("move.buzz", 3, 4)),
	})
	got := r.last("c", 6, wording.New(englishWords(t), nil, nil))
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
