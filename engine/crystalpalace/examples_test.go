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

// Phase 3 at Westminster: Blue and Yellow both show a 5, Blue's die lies
// further left and acts first: +1 pound from the action space, then space I
// (+2 pounds). Yellow pays 2 pounds for the second action space and reaches
// space II (+1 energy). Red's die finds no action space: 1 pound.
func TestExamplePhase3OrderWestminster(t *testing.T) {
	const blue, yellow, red = 0, 1, 2
	s := newGame(t, 3, 8)
	s.P[yellow].West = 1
	play(t, s, `
		P1: dice 5 4 1 1
		P2: dice 5 3 1 1
		P3: dice 3 3 1 1
		P1: place 5 westminster 1
		P2: place 5 westminster 2
		P2: skip                  # the assistant action
		P3: place 3 westminster 3
		P1: pass
		P2: pass
		P3: place 3 waterloo 3
		P3: pass`)
	wantPrompt(t, s, blue, "action")
	b, y, r := s.P[blue], s.P[yellow], s.P[red]
	play(t, s, "P1: advance")
	eq(t, "Blue pounds", s.P[blue].Pounds, b.Pounds+1+2)
	eq(t, "Blue at Westminster", s.P[blue].West, 1)
	wantPrompt(t, s, yellow, "action")
	play(t, s, "P2: advance")
	eq(t, "Yellow pounds", s.P[yellow].Pounds, y.Pounds-2)
	eq(t, "Yellow energy", s.P[yellow].Energy, y.Energy+1)
	eq(t, "Yellow at Westminster", s.P[yellow].West, 2)
	eq(t, "Red pounds (compensation)", s.P[red].Pounds, r.Pounds+1)
	eq(t, "Red at Westminster", s.P[red].West, 0)
	wantPrompt(t, s, red, "action") // Red's die at Waterloo Station
}

// Patent Office: Blue, alone there with two dice, takes the audiobook from
// the second slot and a newspaper from the first action space, then acts
// again with the second die. The top card of the deck is never on offer.
func TestExamplePatentOffice(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 9)
	audiobook := patentIdx(t, s, "audiobook")
	setDisplay(s, locPatent, 2, audiobook)
	play(t, s, `
		P1: dice 6 5 1 1
		P2: dice 1 1 1 1
		P1: place 6 patent 1
		P2: pass
		P1: place 5 patent 2
		P1: skip
		P1: pass`)
	pr := wantPrompt(t, s, blue, "action")
	if want := []string{"take 1", "take 2", "take 3", "take 4", "pass"}; !equalStrings(pr.Actions, want) {
		t.Errorf("actions %v, want %v (the deck's top card is not choosable)", pr.Actions, want)
	}
	top := s.PatentDeck[0]
	play(t, s, "P1: take 2")
	eq(t, "Blue newspapers", s.P[blue].News, 1)
	if !hasInt(s.P[blue].Patents, audiobook) {
		t.Fatalf("Blue's patents %v lack the audiobook", s.P[blue].Patents)
	}
	eq(t, "slot 2 after taking", s.PatentDisp[1], -1)
	refused(t, s, blue, "take 2", errIllegal)
	refused(t, s, blue, "take 5", errIllegal)
	play(t, s, "P1: take 1")
	eq(t, "Blue newspapers (second of the first two)", s.P[blue].News, 2)
	eq(t, "deck top unchanged", s.PatentDeck[0], top)
	wantPrompt(t, s, blue, "build") // phase 5: Blue may build what they took
}

// British Museum (4 players, no cost): Blue takes the left tile (+1 income
// in every phase 6); Yellow takes a tile with instant 1 gear and 2 pounds.
func TestExampleBritishMuseum(t *testing.T) {
	const blue, yellow = 0, 1
	s := newGame(t, 4, 10)
	trade, mechFin := researchIdx(t, s, "g17"), researchIdx(t, s, "g02")
	setDisplay(s, locMuseum, 1, trade)
	setDisplay(s, locMuseum, 2, mechFin)
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 5 3 1 1
		P3: dice 1 1 1 1
		P4: dice 1 1 1 1
		P2: place 3 museum 2
		P2: skip
		P3: pass
		P4: pass
		P1: place 6 museum 1
		P2: place 5 waterloo 2
		P2: skip
		P1: pass
		P2: pass
		P1: take 1`)
	eq(t, "Blue's first research space", s.P[blue].Slots[0].ID, trade)
	y := s.P[yellow]
	play(t, s, "P2: take 2")
	eq(t, "Yellow's research tile", s.P[yellow].Slots[0].ID, mechFin)
	eq(t, "Yellow gears", s.P[yellow].Gears, y.Gears+1)
	eq(t, "Yellow pounds", s.P[yellow].Pounds, y.Pounds+2)
	// Phase 6: both go 3 steps down; Blue's tile adds 1 income.
	incB, incY := s.P[blue].Income, s.P[yellow].Income
	play(t, s, "P2: pass")
	eq(t, "Blue income space", s.P[blue].Income, incB-3+1)
	eq(t, "Yellow income space", s.P[yellow].Income, incY-3)
}

// Bank of England: Yellow buys the left share (+1 VP, +5 income), then
// Blue buys the second.
func TestExampleBankOfEngland(t *testing.T) {
	const blue, yellow = 0, 1
	s := newGame(t, 4, 11)
	setDisplay(s, locBank, 1, shareIdx(t, s, "r1a"))
	play(t, s, `
		P1: dice 5 1 1 1
		P2: dice 6 1 1 1
		P3: dice 1 1 1 1
		P4: dice 1 1 1 1
		P2: place 6 bank 1
		P3: pass
		P4: pass
		P1: place 5 bank 2
		P1: skip
		P2: pass
		P1: place 1 waterloo 5
		P1: pass`)
	y := s.P[yellow]
	play(t, s, "P2: take 1")
	eq(t, "Yellow VP", s.P[yellow].VP, y.VP+1)
	eq(t, "Yellow income space", s.P[yellow].Income, y.Income+5)
	second := s.BankDisp[1]
	play(t, s, "P1: take 2")
	if !hasInt(s.P[blue].Shares, second) {
		t.Errorf("Blue's shares %v lack the second share", s.P[blue].Shares)
	}
}

func equalStrings(a, b []string) bool {
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
