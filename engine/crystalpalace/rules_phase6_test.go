package crystalpalace

// Phase 6 rules beyond the rulebook's examples: the four steps are played
// together, step by step, in player order.

import "testing"

// Two players reach the end of the Buzz track with their green effects in
// the same phase 6: the one earlier in player order takes entry ticket I.
func TestRulePhase6FollowsPlayerOrder(t *testing.T) {
	s := newGame(t, 2, 50)
	buzzTile := researchIdx(t, s, "g20") // phase 6: 1 Buzz
	for seat := range s.Seats {
		s.Seats[seat].Buzz, s.Seats[seat].Tokens = 39, []int{7, 14}
		setResearch(s, seat, buzzTile)
	}
	play(t, s, "P1: dice 1 1 1 1\nP2: dice 2 1 1 1") // P2 is first player
	play(t, s, "P2: pass\nP1: pass")
	if !equalInts(s.Tickets, []int{1, 0}) {
		t.Errorf("entry tickets %v, want P2 (first player) then P1", s.Tickets)
	}
}

// Step 3 uses the green effects a player has then: a research tile that a
// loan replaced in step 2 (special expenses) gives nothing.
func TestRulePhase6GreenEffectsAfterExpenses(t *testing.T) {
	s := newGame(t, 2, 51)
	tiles := []int{researchIdx(t, s, "g18")} // phase 6: 2 pounds
	for i := 3; len(tiles) < len(s.Seats[0].Slots); i++ {
		tiles = append(tiles, researchIdx(t, s, "g0"+itoa(i))) // instant only
	}
	setResearch(s, 0, tiles...)
	s.Seats[0].Pounds, s.Seats[0].Income = 5, 0 // 0 pounds after the dice; red space
	s.Seats[0].Gears, s.Seats[0].Energy = 0, 0  // nothing to sell: the loan is forced
	play(t, s, "P1: dice 2 1 1 1\nP2: dice 1 1 1 1\nP1: pass\nP2: pass")
	// Step 2: three steps below the bottom cost 3 pounds: a forced loan.
	wantPrompt(t, s, 0, "replace")
	play(t, s, "P1: replace 1")
	wantPrompt(t, s, 0, "dice") // next round
	eq(t, "P1 pounds", s.Seats[0].Pounds, 10-3)
}
