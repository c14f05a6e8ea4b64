package crystalpalace

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// Rules the rulebook prints that an audit found read differently before.

// A third prototype in one round is refused with the prototype limit, both
// while phase 5 goes on and after the game has moved to the next round.
func TestRuleThirdPrototypeRefusedWithTheLimit(t *testing.T) {
	const blue, red = 0, 1
	s := newGame(t, 2, 18)
	setRound(s, 3)
	s.Seats[blue].Patents = []int{patentIdx(t, s, "audiobook"), patentIdx(t, s, "crane"), patentIdx(t, s, "telegraph")}
	s.Seats[blue].Pounds = 60
	s.Seats[red].Patents = []int{patentIdx(t, s, "steamhammer")}
	s.Seats[red].Gears, s.Seats[red].Energy = 5, 5
	play(t, s, `
		P1: dice 2 1 1 1
		P2: dice 1 1 1 1
		P1: pass
		P2: pass
		P1: build audiobook
		P1: target 1
		P1: build crane
		P1: target 2`)
	s.Seats[red].Pounds = 60 // Red can build, so phase 5 waits for Red
	check := func(when string) {
		t.Helper()
		err := wantRefusal(t, s, blue, "build telegraph", errIllegal)
		if !strings.Contains(refusal(err), "2 prototypes") {
			t.Errorf("%s: refusal %q does not give the 2-prototype limit", when, refusal(err))
		}
	}
	wantPrompt(t, s, red, "build")
	check("during Red's phase 5 turn")
	play(t, s, "P2: pass")
	eq(t, "phase after Red passed", int(s.CurrentPhase), int(phaseDice))
	check("in the next round's phase 1")
}

// End of the game in the printed order: loans are paid back first, then
// leftover goods become pounds. 9 pounds and a gear cannot repay the -8 loan
// (9 < 10); the gear then makes 10 pounds, a note on a free space.
func TestRuleEndRepaysLoansBeforeConvertingGoods(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 26)
	p := &s.Seats[blue]
	p.Slots[0] = Slot{Kind: slotLoan, ID: -8}
	s.Round, s.CurrentPhase = 5, phaseIncome
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
	p := &s.Seats[0]
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
	s.Seats[blue].Chars = []int{charIdx(t, s, "bessemer")}
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
		s.Seats[blue].Gears, s.Seats[blue].Energy = 1, 1
		play(t, s, `
			P1: dice 6 1 1 1
			P2: dice 1 1 1 1
			P1: place 6 club 1
			P2: pass
			P1: pass`)
		play(t, s, "P1: take 1")
		pr := wantPrompt(t, s, blue, "instant")
		if !strings.Contains(say(*pr.Text), "4 £") {
			t.Errorf("instant prompt %q does not say what the bonus is", say(*pr.Text))
		}
		play(t, s, "P1: "+answer)
		end[answer] = s.Seats[blue].Pounds
	}
	eq(t, "pounds after accepting", end["accept"], end["skip"]+4)
}

// Pay first: the -2 pounds of Westminster's second action space are paid
// before the advance and its +2 pounds. With 1 pound and a gear, the player
// is asked to pay before anything else happens.
func TestRulePayActionSpaceCostFirst(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 30)
	play(t, s, `
		P1: dice 5 1 1 1
		P2: dice 6 1 1 1
		P2: place 6 westminster 1
		P1: place 5 westminster 2
		P1: skip
		P2: pass
		P1: place 1 waterloo 4
		P1: pass
		P2: advance`)
	s.Seats[blue].Pounds, s.Seats[blue].Gears, s.Seats[blue].Energy, s.Seats[blue].News = 1, 1, 0, 0
	play(t, s, "P1: advance")
	wantPrompt(t, s, blue, "pay")
	eq(t, "Westminster before paying", s.Seats[blue].West, 0)
	eq(t, "pounds before paying", s.Seats[blue].Pounds, 1)
	play(t, s, "P1: sell gear") // 2 pounds: the cost is paid, then the advance
	eq(t, "Westminster", s.Seats[blue].West, 1)
	eq(t, "pounds", s.Seats[blue].Pounds, 2)
	eq(t, "loans", s.count(blue, metricLoans), 0)
}

// Pay first in phase 1: the newspaper for the lowest total comes after the
// dice are paid, so it cannot pay for them.
func TestRuleDiceArePaidBeforeTheLowestTotalsNewspaper(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 31)
	s.Seats[blue].Pounds, s.Seats[blue].Gears, s.Seats[blue].Energy, s.Seats[blue].News = 3, 1, 0, 0
	play(t, s, "P1: dice 1 1 1 1\nP2: dice 6 1 1 1")
	wantPrompt(t, s, blue, "pay")
	eq(t, "newspapers while paying", s.Seats[blue].News, 0)
	play(t, s, "P1: sell gear")
	eq(t, "pounds", s.Seats[blue].Pounds, 0)
	eq(t, "newspapers after paying", s.Seats[blue].News, 1)
}

// The Patent and Character stacks lie face up: every view, a spectator's
// too, shows the top card of each, which is not on offer.
func TestViewShowsFaceUpStackTops(t *testing.T) {
	s := newGame(t, 3, 42)
	for _, seat := range []engine.Seat{engine.Spectator, 0, 2} {
		v := s.View(seat).(*View)
		for _, c := range []struct {
			l    locKind
			top  string
			deck []int
		}{{locPatent, s.c.Patents[s.PatentDeck[0]].ID, s.PatentDeck}, {locClub, s.c.Characters[s.CharDeck[0]].ID, s.CharDeck}} {
			got := v.Locations[c.l].StackTop
			if got == nil || got.ID != c.top {
				t.Errorf("seat %d, %s: stack top %+v, want %s", seat, c.l, got, c.top)
			}
		}
		if v.Locations[locMuseum].StackTop != nil {
			t.Errorf("the British Museum's tiles are face down, yet the view shows %+v", v.Locations[locMuseum].StackTop)
		}
	}
}

// A character with an instant bonus and no ability reads without a
// dangling separator (lists of cards showed "; ;").
func TestViewCardEffectHasNoEmptyParts(t *testing.T) {
	s := newGame(t, 2, 1)
	for i := range s.c.Characters {
		if e := s.characterView(i).Effect; strings.HasPrefix(e, ";") || strings.HasSuffix(strings.TrimSpace(e), ";") {
			t.Errorf("%s: effect %q", s.c.Characters[i].ID, e)
		}
	}
	for i := range s.c.Research {
		if e := s.researchView(i).Effect; strings.HasPrefix(e, ";") || strings.HasSuffix(strings.TrimSpace(e), ";") {
			t.Errorf("%s: effect %q", s.c.Research[i].ID, e)
		}
	}
}

// Placed dice show as placed: the public view lists the unplaced ones, and
// the mat keeps the round's dice after phase 3.
func TestViewShowsPlacedDice(t *testing.T) {
	s := newGame(t, 2, 13)
	play(t, s, "P1: dice 6 5 1 1\nP2: dice 1 1 1 1\nP1: place 6 club 1")
	v := s.View(0).(*View)
	if got := v.Seats[0].Unplaced; len(got) != 3 || got[0] != 5 {
		t.Errorf("unplaced dice %v, want 5 1 1", got)
	}
	if got := v.Seats[0].Placed; len(got) != 1 || got[0] != 6 {
		t.Errorf("placed dice %v, want 6", got)
	}
	s.Seats[0].Patents = []int{patentIdx(t, s, "audiobook")} // phase 5 waits for P1
	s.Seats[0].Gears, s.Seats[0].Energy = 1, 1
	play(t, s, "P2: pass\nP1: pass\nP1: pass")
	wantPrompt(t, s, 0, "build")
	if v := s.View(0).(*View); len(v.Private.Dice) != 4 {
		t.Errorf("phase 5 mat dice %v, want the round's 4 dice", v.Private.Dice)
	}
}
