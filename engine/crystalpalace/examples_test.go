package crystalpalace

// The rulebook's worked examples, one test each, reproducing the example's
// numbers. Seats are named after the rulebook's colours in each test.

import (
	"testing"
)

// Phase 1: Red and Blue both total 14 with the same highest die (6); Blue's
// second die (5) beats Red's (4), so Blue is first player. The lowest total
// gets a newspaper; every die value is paid.
func TestExamplePhase1FirstPlayerTiebreak(t *testing.T) {
	const red, blue, yellow = 0, 1, 2
	s := newGame(t, 3, 1)
	play(t, s, `
		P1: dice 6 4 2 2
		P2: dice 2 1 6 5 # any order: the engine sorts the values
		P3: dice 3 2 1 1`)
	eq(t, "first player", s.First, blue)
	if want := []int{blue, yellow, red}; !equalInts(s.Order, want) {
		t.Errorf("turn order %v, want %v", s.Order, want)
	}
	eq(t, "Red pounds", s.P[red].Pounds, 40-14)
	eq(t, "Blue pounds", s.P[blue].Pounds, 40-14)
	eq(t, "Yellow pounds", s.P[yellow].Pounds, 40-7)
	eq(t, "Yellow newspapers (lowest total)", s.P[yellow].News, 1)
	eq(t, "Red newspapers", s.P[red].News, 0)
	eq(t, "Blue newspapers", s.P[blue].News, 0)
	wantPrompt(t, s, blue, "place")
}

// Phase 1: several players share the lowest total: each gets a newspaper.
func TestExamplePhase1NewspaperToEveryLowest(t *testing.T) {
	s := newGame(t, 4, 2)
	play(t, s, `
		P1: dice 1 1 1 1
		P2: dice 6 6 6 6
		P3: dice 2 1 1 1
		P4: dice 1 1 1 1`)
	eq(t, "first player", s.First, 1)
	for seat, want := range []int{1, 0, 0, 1} {
		eq(t, seatName(seat)+" newspapers", s.P[seat].News, want)
	}
}

// Phase 1: all totals equal: everybody but the first player gets a
// newspaper. Identical dice everywhere: random first player in round 1,
// the earlier player of the last round's order afterwards.
func TestExamplePhase1AllEqual(t *testing.T) {
	s := newGame(t, 3, 3)
	play(t, s, "P1: dice 6 1 1 1\nP2: dice 3 3 2 1\nP3: dice 3 3 2 1")
	eq(t, "first player (highest single die)", s.First, 0)
	for seat, want := range []int{0, 1, 1} {
		eq(t, seatName(seat)+" newspapers", s.P[seat].News, want)
	}

	firsts := map[int]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		s := newGame(t, 3, seed)
		play(t, s, "P1: dice 2 2 2 2\nP2: dice 2 2 2 2\nP3: dice 2 2 2 2")
		firsts[s.First] = true
		for seat := range s.P {
			want := 1
			if seat == s.First {
				want = 0
			}
			eq(t, seatName(seat)+" newspapers", s.P[seat].News, want)
		}
	}
	if len(firsts) != 3 {
		t.Errorf("round 1 ties chose first players %v, want each seat sometimes", firsts)
	}

	// A later round: the earlier player in the last round's order begins.
	s = newGame(t, 3, 4)
	setLastRoundOrder(s, 2)
	play(t, s, "P1: dice 2 2 2 2\nP2: dice 2 2 2 2\nP3: dice 2 2 2 2")
	eq(t, "first player (earlier last round)", s.First, 2)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Phase 2: Red places a 5 on the space needing 3 with the assistant symbol
// and may take an assistant action at once; Blue's 1 fits only the space
// needing 1, whose money symbol costs a 2-pound fee.
func TestExamplePhase2Placement(t *testing.T) {
	const red, blue, yellow = 0, 1, 2
	s := newGame(t, 3, 5)
	play(t, s, "P1: dice 6 5 1 1\nP2: dice 1 1 1 1\nP3: dice 2 1 1 1")
	eq(t, "first player", s.First, red)
	play(t, s, "P1: place 5 patent 2")
	pr := wantPrompt(t, s, red, "assistant")
	if !contains(pr.Actions, "market place") || !contains(pr.Actions, "skip") {
		t.Fatalf("assistant actions %v, want market place and skip", pr.Actions)
	}
	before := s.P[red].Pounds
	play(t, s, "P1: market place")
	eq(t, "Red pays the bottom tier's cost", s.P[red].Pounds, before-1)
	eq(t, "Red on tier 1", s.Market[0], red)
	play(t, s, "P1: skip") // no move down this time
	refused(t, s, blue, "place 1 patent 3", errIllegal)
	before = s.P[blue].Pounds
	play(t, s, "P2: place 1 patent 4")
	eq(t, "Blue pays the 2-pound fee", s.P[blue].Pounds, before-2)
	wantPrompt(t, s, yellow, "place")
}

// Black Market: after placing a die, Blue moves their assistant down from
// tier 6 to the next free space (tier 4) and takes a gear from the yellow
// banner; Yellow's assistant falls off from tier 2 and gets nothing.
func TestExampleBlackMarketMoveDown(t *testing.T) {
	const red, blue, yellow = 0, 1, 2
	s := newGame(t, 3, 6)
	setMarket(s, map[int]int{1: red, 2: yellow, 3: red, 5: red, 6: blue, 7: yellow})
	play(t, s, "P1: dice 3 1 1 1\nP2: dice 6 6 1 1\nP3: dice 2 1 1 1")
	gears, yGears, supply := s.P[blue].Gears, s.P[yellow].Gears, s.MarketGears
	play(t, s, "P2: place 6 patent 1")
	wantPrompt(t, s, blue, "down")
	play(t, s, "P2: down 6")
	eq(t, "tier 6", s.Market[5], -1)
	eq(t, "tier 4", s.Market[3], blue)
	eq(t, "Blue gears", s.P[blue].Gears, gears+1)
	eq(t, "gears on the banner", s.MarketGears, supply-1)

	asst := s.P[yellow].Asst
	play(t, s, "P3: place 2 patent 3\nP3: down 2")
	eq(t, "tier 2", s.Market[1], -1)
	eq(t, "tier 1 (Red stays)", s.Market[0], red)
	eq(t, "Yellow's assistant back in supply", s.P[yellow].Asst, asst+1)
	eq(t, "Yellow gears", s.P[yellow].Gears, yGears)
	eq(t, "gears on the banner", s.MarketGears, supply-1)
}

// Black Market burst: one free space left; the assistant placed there stays,
// every other assistant goes back to its owner.
func TestExampleBlackMarketBurst(t *testing.T) {
	const red, blue, yellow = 0, 1, 2
	s := newGame(t, 3, 7)
	setMarket(s, map[int]int{1: red, 2: yellow, 3: red, 5: red, 6: blue, 7: yellow})
	play(t, s, "P1: dice 6 5 1 1\nP2: dice 1 1 1 1\nP3: dice 2 1 1 1")
	ra, ba, ya := s.P[red].Asst, s.P[blue].Asst, s.P[yellow].Asst
	play(t, s, "P1: place 5 patent 2\nP1: market place")
	for tier, o := range s.Market {
		want := -1
		if tier == 3 {
			want = red
		}
		eq(t, "owner of tier "+itoa(tier+1), o, want)
	}
	eq(t, "Red's assistants", s.P[red].Asst, ra-1+3)
	eq(t, "Blue's assistants", s.P[blue].Asst, ba+1)
	eq(t, "Yellow's assistants", s.P[yellow].Asst, ya+2)
	wantPrompt(t, s, red, "down") // the placed assistant may still move down
}
