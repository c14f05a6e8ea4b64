package crystalpalace

// Phase 3 rules beyond the rulebook's examples: an action space's bonus is
// received before the action is chosen.

import "testing"

// clubWithBuzz puts Bronte (2 gears, 1 energy) in the Reform Club's slot 4,
// Blue on Buzz space buzz with 1 gear, 1 energy and no pounds or newspapers
// to buy the second gear with, and Blue's die on the Club's first action
// space, whose bonus is 1 Buzz.
func clubWithBuzz(t *testing.T, buzz int) *State {
	t.Helper()
	s := newGame(t, 2, 13)
	setDisplay(s, locClub, 4, charIdx(t, s, "bronte"))
	setFlyer(t, s, 5, flyerIdx(t, s, "b1")) // 1 gear
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 club 1
		P2: pass
		P1: pass`)
	p := &s.Seats[0]
	p.Buzz, p.Gears, p.Energy = buzz, 1, 1
	setPurse(s, 0, 0, 0)
	return s
}

// The Buzz bonus reaches the flyer on space 5 before Blue chooses: its gear
// makes Bronte affordable, and pays for her.
func TestRuleBonusBeforeAction(t *testing.T) {
	s := clubWithBuzz(t, 4)
	pr := wantPrompt(t, s, 0, "action")
	if !contains(pr.Actions, "take 4") {
		t.Fatalf("take 4 (Bronte) not offered: %v", pr.Actions)
	}
	play(t, s, "P1: take 4")
	p := &s.Seats[0]
	eq(t, "Blue Buzz", p.Buzz, 5)
	eq(t, "Blue gears", p.Gears, 0)
	eq(t, "Blue energy", p.Energy, 0)
	eq(t, "Blue pounds", p.Pounds, 0)
	eq(t, "Blue loans", metricCountLoans(s, 0), 0)
	if !hasInt(p.Chars, charIdx(t, s, "bronte")) {
		t.Errorf("Blue's characters %v lack Bronte", p.Chars)
	}
}

// One step earlier the Buzz bonus reaches no flyer: Bronte stays out of
// reach until Blue raises the money.
func TestRuleBonusWithoutFlyer(t *testing.T) {
	s := clubWithBuzz(t, 3)
	if pr := wantPrompt(t, s, 0, "action"); contains(pr.Actions, "take 4") {
		t.Fatalf("take 4 (Bronte) offered without the means: %v", pr.Actions)
	}
	wantRefusal(t, s, 0, "take 4", errIllegal)
}
