package crystalpalace

// Rules of the Port of London and of newspapers that the rulebook states
// without a worked example.

import (
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// Port of London, assistant possibility: exactly 2 assistant actions; a
// Black Market placement with the first is free, with the second it costs.
func TestRulePortAssistantActions(t *testing.T) {
	s := newGame(t, 2, 60)
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 port 1
		P2: pass
		P1: place 1 waterloo 4
		P1: pass`)
	pounds := s.Seats[0].Pounds
	play(t, s, "P1: use assistant")
	wantPrompt(t, s, 0, "assistant")
	play(t, s, "P1: market place")
	eq(t, "pounds after the free placement", s.Seats[0].Pounds, pounds)
	wantPrompt(t, s, 0, "assistant")
	play(t, s, "P1: market place")
	eq(t, "pounds after the second placement", s.Seats[0].Pounds, pounds-s.market().Spaces[1].Cost)
	eq(t, "tier 1", s.Market[0], 0)
	eq(t, "tier 2", s.Market[1], 0)
}

// Port of London, new dice: usable from the next round; with 4-5 players a
// second possibility sells one for 2 pounds.
func TestRulePortNewDice(t *testing.T) {
	s := newGame(t, 4, 61)
	play(t, s, `
		P1: dice 6 6 1 1
		P2: dice 1 1 1 1
		P3: dice 1 1 1 1
		P4: dice 1 1 1 1
		P1: place 6 port 1
		P2: pass
		P3: pass
		P4: pass
		P1: place 6 port 3
		P1: pass`)
	pounds := s.Seats[0].Pounds
	play(t, s, "P1: use buydie")
	eq(t, "pounds", s.Seats[0].Pounds, pounds-2)
	eq(t, "dice next round", s.Seats[0].New, 1)
	play(t, s, "P1: use die") // the last action of round 1
	wantPrompt(t, s, 0, "dice")
	eq(t, "dice in round 2", s.Seats[0].Dice, 6)
	wantRefusal(t, s, 0, "dice 1 1 1 1", errIllegal)
	play(t, s, "P1: dice 1 1 1 1 1 1")
}

// Newspapers: 4 buy a die usable at once before the reveal (the values
// must be chosen again), from the next round after it.
func TestRuleNewspaperDie(t *testing.T) {
	s := newGame(t, 2, 62)
	s.Seats[0].News = 4
	play(t, s, "P1: dice 1 1 1 1\nP1: exchange die")
	eq(t, "dice", s.Seats[0].Dice, 5)
	eq(t, "newspapers", s.Seats[0].News, 0)
	wantPrompt(t, s, 0, "dice")
	wantRefusal(t, s, 0, "dice 1 1 1 1", errIllegal)
	play(t, s, "P2: dice 1 1 1 1") // no reveal yet: P1 must choose again
	eq(t, "revealed", boolInt(s.Revealed), 0)
	play(t, s, "P1: dice 6 1 1 1 1")
	eq(t, "P1 paid 5 dice", s.Seats[0].Pounds, 40-10)

	s.Seats[0].News = 4
	play(t, s, "P1: exchange die")
	eq(t, "dice this round", s.Seats[0].Dice, 5)
	eq(t, "dice next round", s.Seats[0].New, 1)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Income track: steps beyond the top space (12) pay 1 pound each.
func TestRuleIncomeTrackTop(t *testing.T) {
	s := newGame(t, 4, 63)
	top := len(s.c.Tracks.Income) - 1
	eq(t, "top income", s.c.Tracks.Income[top].Income, 12)
	setDisplay(s, locBank, 1, shareIdx(t, s, "r1a")) // +1 VP, +5 income
	s.Seats[0].Income = top - 2
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P3: dice 1 1 1 1
		P4: dice 1 1 1 1
		P1: place 6 bank 1
		P2: pass
		P3: pass
		P4: pass
		P1: place 1 waterloo 5
		P1: pass`)
	pounds := s.Seats[0].Pounds
	play(t, s, "P1: take 1")
	eq(t, "income space", s.Seats[0].Income, top)
	eq(t, "pounds for the 3 steps beyond 12", s.Seats[0].Pounds, pounds+3)
	s.Seats[0].News = 3
	play(t, s, "P1: exchange income")
	eq(t, "income space", s.Seats[0].Income, top)
	eq(t, "pounds", s.Seats[0].Pounds, pounds+4)
	eq(t, "newspapers", s.Seats[0].News, 0)
}

// Phase 4: short of pounds with nothing to exchange or sell, the salary is
// paid at once with a forced loan; with goods, the player is asked first.
func TestRuleSalaryForcedLoan(t *testing.T) {
	s := newGame(t, 2, 64)
	s.Seats[0].Chars = []int{charIdx(t, s, "holmes")} // 4 pounds at the star
	s.Seats[0].Patents = []int{patentIdx(t, s, "telegraph")}
	play(t, s, "P1: dice 6 1 1 1\nP2: dice 1 1 1 1\nP1: place 6 waterloo 1\nP2: pass\nP1: pass")
	s.Seats[0].Pounds, s.Seats[0].News, s.Seats[0].Gears, s.Seats[0].Energy = 1, 0, 0, 0
	play(t, s, "P1: pass")
	wantPrompt(t, s, 0, "build")
	eq(t, "loans", s.count(0, metricLoans), 1)
	eq(t, "pounds", s.Seats[0].Pounds, 1+10-4)

	s = newGame(t, 2, 64)
	s.Seats[0].Chars = []int{charIdx(t, s, "holmes")}
	s.Seats[0].Patents = []int{patentIdx(t, s, "telegraph")}
	play(t, s, "P1: dice 6 1 1 1\nP2: dice 1 1 1 1\nP1: place 6 waterloo 1\nP2: pass\nP1: pass")
	s.Seats[0].Pounds, s.Seats[0].News, s.Seats[0].Gears, s.Seats[0].Energy = 1, 0, 3, 0
	play(t, s, "P1: pass")
	wantPrompt(t, s, 0, "pay")
	wantRefusal(t, s, 1, "pass", engine.ErrNotYourTurn)       // P2 waits for the salary
	play(t, s, "P1: sell gear\nP1: sell gear\nP1: sell gear") // enough now: the salary is paid at once
	wantPrompt(t, s, 0, "build")
	eq(t, "loans", s.count(0, metricLoans), 0)
	eq(t, "pounds", s.Seats[0].Pounds, 1+3*s.c.Tracks.Economy.SellGear-4)
}

// Phase 2: one die at a time in turn order; a player who passed, or has no
// die left, is skipped for the rest of the phase.
func TestRulePlacementTurns(t *testing.T) {
	s := newGame(t, 3, 65)
	s.Seats[0].Dice = 1 // direct edit: P1 plays this round with one die
	play(t, s, `
		P1: dice 6
		P2: dice 5 5 1 1
		P3: dice 1 1 1 1
		P2: place 5 waterloo 2
		P2: skip
		P3: pass
		P1: place 6 waterloo 1`)
	wantPrompt(t, s, 1, "place") // P3 passed, P1 has no die left
	play(t, s, "P2: place 5 port 2\nP2: skip")
	wantPrompt(t, s, 1, "place")
	wantRefusal(t, s, 2, "place 1 patent 4", engine.ErrNotYourTurn)
	wantRefusal(t, s, 0, "pass", engine.ErrNotYourTurn)
	play(t, s, "P2: pass")
	if s.CurrentPhase != phaseActions {
		t.Errorf("phase %d after the last pass, want 3", s.CurrentPhase)
	}
}

// Westminster track: space III gives 2 Buzz, space IV one use of a green
// bonus of the player's choice.
func TestRuleWestminsterTrack(t *testing.T) {
	s := newGame(t, 2, 66)
	s.Seats[0].West, s.Seats[0].Buzz = 2, 10
	play(t, s, "P1: dice 6 1 1 1\nP2: dice 1 1 1 1\nP1: place 6 westminster 1\nP2: pass\nP1: place 1 waterloo 4\nP1: pass")
	play(t, s, "P1: advance")
	eq(t, "Westminster", s.Seats[0].West, 3)
	eq(t, "Buzz", s.Seats[0].Buzz, 12)

	s = newGame(t, 2, 67)
	s.Seats[0].West = 3
	setResearch(s, 0, researchIdx(t, s, "g18"), researchIdx(t, s, "g19")) // 2 pounds; 1 newspaper
	play(t, s, "P1: dice 6 1 1 1\nP2: dice 1 1 1 1\nP1: place 6 westminster 1\nP2: pass\nP1: place 1 waterloo 4\nP1: pass")
	pounds := s.Seats[0].Pounds
	play(t, s, "P1: advance")
	pr := wantPrompt(t, s, 0, "green")
	if want := []string{"green research 1", "green research 2"}; !equalStrings(pr.Actions, want) {
		t.Fatalf("green choices %v, want %v", pr.Actions, want)
	}
	play(t, s, "P1: green research 1")
	eq(t, "Westminster", s.Seats[0].West, 4)
	eq(t, "pounds (+1 action space, +2 tile)", s.Seats[0].Pounds, pounds+1+2)
}
