package crystalpalace

import (
	"strings"
	"testing"
)

// Rules the rulebook prints that an audit found read differently before.

// A third prototype in one round is refused with the prototype limit, both
// while phase 5 goes on and after the game has moved to the next round.
func TestRuleThirdPrototypeRefusedWithTheLimit(t *testing.T) {
	const blue, red = 0, 1
	s := newGame(t, 2, 18)
	setRound(s, 3)
	s.P[blue].Patents = []int{patentIdx(t, s, "audiobook"), patentIdx(t, s, "crane"), patentIdx(t, s, "telegraph")}
	s.P[blue].Pounds = 60
	s.P[red].Patents = []int{patentIdx(t, s, "steamhammer")}
	s.P[red].Gears, s.P[red].Energy = 5, 5
	play(t, s, `
		P1: dice 2 1 1 1
		P2: dice 1 1 1 1
		P1: pass
		P2: pass
		P1: build audiobook
		P1: target 1
		P1: build crane
		P1: target 2`)
	s.P[red].Pounds = 60 // Red can build, so phase 5 waits for Red
	check := func(when string) {
		t.Helper()
		err := wantRefusal(t, s, blue, "build telegraph", errIllegal)
		if !strings.Contains(err.Error(), "2 prototypes") {
			t.Errorf("%s: refusal %q does not give the 2-prototype limit", when, err)
		}
	}
	wantPrompt(t, s, red, "build")
	check("during Red's phase 5 turn")
	play(t, s, "P2: pass")
	eq(t, "phase after Red passed", s.Ph, 1)
	check("in the next round's phase 1")
}

// End of the game in the printed order: loans are paid back first, then
// leftover goods become pounds. 9 pounds and a gear cannot repay the -8 loan
// (9 < 10); the gear then makes 10 pounds, a note on a free space.
func TestRuleEndRepaysLoansBeforeConvertingGoods(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 26)
	p := &s.P[blue]
	p.Slots[0] = Slot{K: slotLoan, ID: -8}
	s.Round, s.Ph = 5, 6
	p.Pounds, p.Gears, p.Energy, p.News = 9, 1, 0, 0
	s.endScoring()
	if p.Slots[0].Repaid {
		t.Error("the loan was repaid with the gear's pound; the rulebook repays loans before converting goods")
	}
	eq(t, "notes", countSlots(p.Slots, slotNote), 1)
	eq(t, "loan VP", p.VPBy[vpLoans], -8)
}

// Selling a gear or an energy pays what the end of the game pays for it, so
// selling before the end gains nothing.
func TestRuleSellingPricesMatchTheEndConversion(t *testing.T) {
	s := newGame(t, 2, 1)
	e := s.c.Tracks.Economy
	eq(t, "sell gear", e.SellGear, 1)
	eq(t, "sell energy", e.SellEnergy, 1)
	p := &s.P[0]
	before := p.Pounds
	play(t, s, "P1: sell gear")
	eq(t, "pounds after selling a gear", p.Pounds, before+1)
}

// The one-off green bonus offers the green-banner bonuses the rulebook
// names (research tiles, Black Market spaces), not a character's phase 6
// ability.
func TestRuleGreenBonusSources(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 16)
	s.P[blue].Chars = []int{charIdx(t, s, "bessemer")}
	setResearch(s, blue, researchIdx(t, s, "g17"), researchIdx(t, s, "g18"))
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 waterloo 1
		P2: pass
		P1: pass`)
	play(t, s, "P1: use energygreen")
	pr := wantPrompt(t, s, blue, "green")
	if strings.Join(pr.Actions, ", ") != "green research 1, green research 2" {
		t.Errorf("green bonus choices %v, want only the two research tiles", pr.Actions)
	}
}

// A character's instant bonus is a "may": the recruiter may decline it.
// Singer's is 4 pounds: accepting ends the round 4 pounds richer.
func TestRuleInstantBonusMayBeDeclined(t *testing.T) {
	const blue = 0
	end := map[string]int{}
	for _, answer := range []string{"skip", "accept"} {
		s := newGame(t, 2, 13)
		singer := charIdx(t, s, "singer")
		setDisplay(s, locClub, 1, singer)
		s.P[blue].Gears, s.P[blue].Energy = 1, 1
		play(t, s, `
			P1: dice 6 1 1 1
			P2: dice 1 1 1 1
			P1: place 6 club 1
			P2: pass
			P1: pass`)
		play(t, s, "P1: take 1")
		pr := wantPrompt(t, s, blue, "instant")
		if !strings.Contains(pr.Label, "4 £") {
			t.Errorf("instant prompt %q does not say what the bonus is", pr.Label)
		}
		play(t, s, "P1: "+answer)
		end[answer] = s.P[blue].Pounds
	}
	eq(t, "pounds after accepting", end["accept"], end["skip"]+4)
}
