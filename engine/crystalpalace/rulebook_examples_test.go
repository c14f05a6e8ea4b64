package crystalpalace

// The rulebook's worked examples, one test each, reproducing the example's
// numbers. Seats are named after the rulebook's colours in each test.

import (
	"strings"
	"testing"
)

// Phase 1: Red and Blue both total 14 with the same highest die (6); Blue's
// second die (5) beats Red's (4), so Blue is first player. The lowest total
// gets a newspaper; every die value is paid.
func TestWorkedExamplePhase1FirstPlayerTiebreak(t *testing.T) {
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
	eq(t, "Red pounds", s.Seats[red].Pounds, 40-14)
	eq(t, "Blue pounds", s.Seats[blue].Pounds, 40-14)
	eq(t, "Yellow pounds", s.Seats[yellow].Pounds, 40-7)
	eq(t, "Yellow newspapers (lowest total)", s.Seats[yellow].News, 1)
	eq(t, "Red newspapers", s.Seats[red].News, 0)
	eq(t, "Blue newspapers", s.Seats[blue].News, 0)
	wantPrompt(t, s, blue, "place")
}

// Phase 1: several players share the lowest total: each gets a newspaper.
func TestWorkedExamplePhase1NewspaperToEveryLowest(t *testing.T) {
	s := newGame(t, 4, 2)
	play(t, s, `
		P1: dice 1 1 1 1
		P2: dice 6 6 6 6
		P3: dice 2 1 1 1
		P4: dice 1 1 1 1`)
	eq(t, "first player", s.First, 1)
	for seat, want := range []int{1, 0, 0, 1} {
		eq(t, seatName(seat)+" newspapers", s.Seats[seat].News, want)
	}
}

// Phase 1: all totals equal: everybody but the first player gets a
// newspaper. Identical dice everywhere: random first player in round 1,
// the earlier player of the last round's order afterwards.
func TestWorkedExamplePhase1AllEqual(t *testing.T) {
	s := newGame(t, 3, 3)
	play(t, s, "P1: dice 6 1 1 1\nP2: dice 3 3 2 1\nP3: dice 3 3 2 1")
	eq(t, "first player (highest single die)", s.First, 0)
	for seat, want := range []int{0, 1, 1} {
		eq(t, seatName(seat)+" newspapers", s.Seats[seat].News, want)
	}

	firsts := map[int]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		s := newGame(t, 3, seed)
		play(t, s, "P1: dice 2 2 2 2\nP2: dice 2 2 2 2\nP3: dice 2 2 2 2")
		firsts[s.First] = true
		for seat := range s.Seats {
			want := 1
			if seat == s.First {
				want = 0
			}
			eq(t, seatName(seat)+" newspapers", s.Seats[seat].News, want)
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
func TestWorkedExamplePhase2Placement(t *testing.T) {
	const red, blue, yellow = 0, 1, 2
	s := newGame(t, 3, 5)
	play(t, s, "P1: dice 6 5 1 1\nP2: dice 1 1 1 1\nP3: dice 2 1 1 1")
	eq(t, "first player", s.First, red)
	play(t, s, "P1: place 5 patent 2")
	pr := wantPrompt(t, s, red, "assistant")
	if !contains(pr.Actions, "market place") || !contains(pr.Actions, "skip") {
		t.Fatalf("assistant actions %v, want market place and skip", pr.Actions)
	}
	before := s.Seats[red].Pounds
	play(t, s, "P1: market place")
	eq(t, "Red pays the bottom tier's cost", s.Seats[red].Pounds, before-1)
	eq(t, "Red on tier 1", s.Market[0], red)
	play(t, s, "P1: skip") // no move down this time
	wantRefusal(t, s, blue, "place 1 patent 3", errIllegal)
	before = s.Seats[blue].Pounds
	play(t, s, "P2: place 1 patent 4")
	eq(t, "Blue pays the 2-pound fee", s.Seats[blue].Pounds, before-2)
	wantPrompt(t, s, yellow, "place")
}

// Black Market: after placing a die, Blue moves their assistant down from
// tier 6 to the next free space (tier 4) and takes a gear from the yellow
// banner; Yellow's assistant falls off from tier 2 and gets nothing.
func TestWorkedExampleBlackMarketMoveDown(t *testing.T) {
	const red, blue, yellow = 0, 1, 2
	s := newGame(t, 3, 6)
	setMarket(s, map[int]int{1: red, 2: yellow, 3: red, 5: red, 6: blue, 7: yellow})
	play(t, s, "P1: dice 3 1 1 1\nP2: dice 6 6 1 1\nP3: dice 2 1 1 1")
	gears, yGears, supply := s.Seats[blue].Gears, s.Seats[yellow].Gears, s.MarketGears
	play(t, s, "P2: place 6 patent 1")
	wantPrompt(t, s, blue, "down")
	play(t, s, "P2: down 6")
	eq(t, "tier 6", s.Market[5], -1)
	eq(t, "tier 4", s.Market[3], blue)
	eq(t, "Blue gears", s.Seats[blue].Gears, gears+1)
	eq(t, "gears on the banner", s.MarketGears, supply-1)

	asst := s.Seats[yellow].Asst
	play(t, s, "P3: place 2 patent 3\nP3: down 2")
	eq(t, "tier 2", s.Market[1], -1)
	eq(t, "tier 1 (Red stays)", s.Market[0], red)
	eq(t, "Yellow's assistant back in supply", s.Seats[yellow].Asst, asst+1)
	eq(t, "Yellow gears", s.Seats[yellow].Gears, yGears)
	eq(t, "gears on the banner", s.MarketGears, supply-1)
}

// Black Market burst: one free space left; the assistant placed there stays,
// every other assistant goes back to its owner.
func TestWorkedExampleBlackMarketBurst(t *testing.T) {
	const red, blue, yellow = 0, 1, 2
	s := newGame(t, 3, 7)
	setMarket(s, map[int]int{1: red, 2: yellow, 3: red, 5: red, 6: blue, 7: yellow})
	play(t, s, "P1: dice 6 5 1 1\nP2: dice 1 1 1 1\nP3: dice 2 1 1 1")
	ra, ba, ya := s.Seats[red].Asst, s.Seats[blue].Asst, s.Seats[yellow].Asst
	play(t, s, "P1: place 5 patent 2\nP1: market place")
	for tier, o := range s.Market {
		want := -1
		if tier == 3 {
			want = red
		}
		eq(t, "owner of tier "+itoa(tier+1), o, want)
	}
	eq(t, "Red's assistants", s.Seats[red].Asst, ra-1+3)
	eq(t, "Blue's assistants", s.Seats[blue].Asst, ba+1)
	eq(t, "Yellow's assistants", s.Seats[yellow].Asst, ya+2)
	wantPrompt(t, s, red, "down") // the placed assistant may still move down
}

// Phase 3 at Westminster: Blue and Yellow both show a 5, Blue's die lies
// further left and acts first: +1 pound from the action space, then space I
// (+2 pounds). Yellow pays 2 pounds for the second action space and reaches
// space II (+1 energy). Red's die finds no action space: 1 pound.
func TestWorkedExamplePhase3OrderWestminster(t *testing.T) {
	const blue, yellow, red = 0, 1, 2
	s := newGame(t, 3, 8)
	s.Seats[yellow].West = 1
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
	b, y, r := s.Seats[blue], s.Seats[yellow], s.Seats[red]
	play(t, s, "P1: advance")
	eq(t, "Blue pounds", s.Seats[blue].Pounds, b.Pounds+1+2)
	eq(t, "Blue at Westminster", s.Seats[blue].West, 1)
	wantPrompt(t, s, yellow, "action")
	play(t, s, "P2: advance")
	eq(t, "Yellow pounds", s.Seats[yellow].Pounds, y.Pounds-2)
	eq(t, "Yellow energy", s.Seats[yellow].Energy, y.Energy+1)
	eq(t, "Yellow at Westminster", s.Seats[yellow].West, 2)
	eq(t, "Red pounds (compensation)", s.Seats[red].Pounds, r.Pounds+1)
	eq(t, "Red at Westminster", s.Seats[red].West, 0)
	wantPrompt(t, s, red, "action") // Red's die at Waterloo Station
}

// Patent Office: Blue, alone there with two dice, takes the audiobook from
// the second slot and a newspaper from the first action space, then acts
// again with the second die. The top card of the deck is never on offer.
func TestWorkedExamplePatentOffice(t *testing.T) {
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
	eq(t, "Blue newspapers", s.Seats[blue].News, 1)
	if !hasInt(s.Seats[blue].Patents, audiobook) {
		t.Fatalf("Blue's patents %v lack the audiobook", s.Seats[blue].Patents)
	}
	eq(t, "slot 2 after taking", s.PatentDisp[1], -1)
	wantRefusal(t, s, blue, "take 2", errIllegal)
	wantRefusal(t, s, blue, "take 5", errIllegal)
	play(t, s, "P1: take 1")
	eq(t, "Blue newspapers (second of the first two)", s.Seats[blue].News, 2)
	eq(t, "deck top unchanged", s.PatentDeck[0], top)
	wantPrompt(t, s, blue, "build") // phase 5: Blue may build what they took
}

// British Museum (4 players, no cost): Blue takes the left tile (+1 income
// in every phase 6); Yellow takes a tile with instant 1 gear and 2 pounds.
func TestWorkedExampleBritishMuseum(t *testing.T) {
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
	eq(t, "Blue's first research space", s.Seats[blue].Slots[0].ID, trade)
	y := s.Seats[yellow]
	play(t, s, "P2: take 2")
	eq(t, "Yellow's research tile", s.Seats[yellow].Slots[0].ID, mechFin)
	eq(t, "Yellow gears", s.Seats[yellow].Gears, y.Gears+1)
	eq(t, "Yellow pounds", s.Seats[yellow].Pounds, y.Pounds+2)
	// Phase 6: both go 3 steps down; Blue's tile adds 1 income.
	incB, incY := s.Seats[blue].Income, s.Seats[yellow].Income
	play(t, s, "P2: pass")
	eq(t, "Blue income space", s.Seats[blue].Income, incB-3+1)
	eq(t, "Yellow income space", s.Seats[yellow].Income, incY-3)
}

// Bank of England: Yellow buys the left share (+1 VP, +5 income), then
// Blue buys the second.
func TestWorkedExampleBankOfEngland(t *testing.T) {
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
	y := s.Seats[yellow]
	play(t, s, "P2: take 1")
	eq(t, "Yellow VP", s.Seats[yellow].VP, y.VP+1)
	eq(t, "Yellow income space", s.Seats[yellow].Income, y.Income+5)
	second := s.BankDisp[1]
	play(t, s, "P1: take 2")
	if !hasInt(s.Seats[blue].Shares, second) {
		t.Errorf("Blue's shares %v lack the second share", s.Seats[blue].Shares)
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

// Westminster: Red is already on space V: +1 pound from the first action
// space, the token stays on V, and Red chooses 1 energy or 2 Buzz.
func TestWorkedExampleWestminsterV(t *testing.T) {
	for _, choice := range []string{"bonus energy", "bonus buzz"} {
		t.Run(choice, func(t *testing.T) {
			const red = 0
			s := newGame(t, 2, 12)
			s.Seats[red].West = 5
			s.Seats[red].Buzz = 10 // no flyer or poster on 11 and 12
			play(t, s, `
				P1: dice 6 1 1 1
				P2: dice 1 1 1 1
				P1: place 6 westminster 1
				P2: pass
				P1: place 1 waterloo 4
				P1: pass`)
			r := s.Seats[red]
			play(t, s, "P1: advance")
			pr := wantPrompt(t, s, red, "bonus")
			if want := []string{"bonus energy", "bonus buzz"}; !equalStrings(pr.Actions, want) {
				t.Fatalf("choices %v, want %v", pr.Actions, want)
			}
			eq(t, "Red pounds", s.Seats[red].Pounds, r.Pounds+1)
			play(t, s, "P1: "+choice)
			eq(t, "Red stays on V", s.Seats[red].West, 5)
			if choice == "bonus energy" {
				eq(t, "Red energy", s.Seats[red].Energy, r.Energy+1)
				eq(t, "Red Buzz", s.Seats[red].Buzz, r.Buzz)
			} else {
				eq(t, "Red energy", s.Seats[red].Energy, r.Energy)
				eq(t, "Red Buzz", s.Seats[red].Buzz, r.Buzz+2)
			}
		})
	}
}

// Reform Club in Spring 1850: Blue advances 1 Buzz on the first action
// space, pays Bronte's 2 gears and 1 energy, places an assistant on the
// Black Market for free (her instant bonus), and scores 10 VP plus 4 for
// the audiobook prototype she is linked with.
func TestWorkedExampleReformClubBronte(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 13)
	setRound(s, 3)
	bronte := charIdx(t, s, "bronte")
	setDisplay(s, locClub, 4, bronte)
	s.Seats[blue].Protos = []int{patentIdx(t, s, "audiobook")}
	s.Seats[blue].Gears, s.Seats[blue].Energy = 2, 1
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 club 1
		P2: pass
		P1: place 1 waterloo 4
		P1: pass`)
	b := s.Seats[blue]
	// The card on top of the stack is face up, but not on offer.
	if msg := refusal(wantRefusal(t, s, blue, "take 5", errIllegal)); !strings.Contains(msg, "slot 5 shows the top card of the stack at the Reform Club, which the rules do not let you take: take one of slots 1 to 4") {
		t.Errorf("take 5 refused with %q, want the stack's top card named", msg)
	}
	play(t, s, "P1: take 4")
	wantPrompt(t, s, blue, "assistant")
	play(t, s, "P1: market place")
	p := s.Seats[blue]
	eq(t, "Blue Buzz", p.Buzz, b.Buzz+1)
	eq(t, "Blue gears", p.Gears, 0)
	eq(t, "Blue energy", p.Energy, 0)
	eq(t, "Blue pounds (free placement)", p.Pounds, b.Pounds)
	eq(t, "Blue on tier 1", s.Market[0], blue)
	eq(t, "Blue VP", p.VP, b.VP+10+4)
	eq(t, "character VP", p.VPBy[vpCharacters], 14)
	if !hasInt(p.Chars, bronte) {
		t.Errorf("Blue's characters %v lack Bronte", p.Chars)
	}
}

// London Times: Yellow owns 2 characters and 1 prototype, the third level of
// the round's condition (1-3 characters and/or prototypes): +1 newspaper
// for the first action space and 4 Buzz.
func TestWorkedExampleLondonTimes(t *testing.T) {
	const yellow = 0
	s := newGame(t, 2, 14)
	setPublisher(t, s, "1", "a")
	s.Seats[yellow].Chars = []int{charIdx(t, s, "holmes"), charIdx(t, s, "armstrong")}
	s.Seats[yellow].Protos = []int{patentIdx(t, s, "telegraph")}
	setFlyer(t, s, 2, flyerIdx(t, s, "b1")) // 1 gear on the way
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 times 1
		P2: pass
		P1: pass`)
	y := s.Seats[yellow]
	play(t, s, "P1: publish")
	wantPrompt(t, s, yellow, "poster") // space 4
	eq(t, "Yellow Buzz", s.Seats[yellow].Buzz, y.Buzz+4)
	eq(t, "Yellow newspapers", s.Seats[yellow].News, y.News+1)
	eq(t, "Yellow gears (flyer on space 2)", s.Seats[yellow].Gears, y.Gears+1)
}

// Port of London in Autumn 1850: Blue's 6 goes from the first action space
// to the ticket and onto the middle dice space (the first is taken): 4 VP
// for the year plus 6 for the die, and the die stays there.
func TestWorkedExamplePortTicket(t *testing.T) {
	const blue, red = 0, 1
	s := newGame(t, 2, 15)
	setRound(s, 4)
	s.TicketDice = []Die{{Owner: red, Value: 3}} // a ticket die of an earlier round
	s.Seats[red].Dice, s.Seats[red].Tick = 3, 1
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1
		P1: place 6 port 1
		P2: pass
		P1: place 1 waterloo 4
		P1: pass`)
	b := s.Seats[blue]
	play(t, s, "P1: use ticket")
	eq(t, "Blue VP", s.Seats[blue].VP, b.VP+4+6)
	eq(t, "ticket VP", s.Seats[blue].VPBy[vpTickets], 10)
	eq(t, "dice below the ticket", len(s.TicketDice), 2)
	eq(t, "middle dice space", s.TicketDice[1].Value, 6)
	eq(t, "Blue's dice for the next rounds", s.Seats[blue].Dice, 3)
	eq(t, "Blue's ticket dice", s.Seats[blue].Tick, 1)
	play(t, s, "P1: pass")
	wantPrompt(t, s, blue, "dice")
	if pr := wantPrompt(t, s, blue, "dice"); pr.Actions[0] != "dice 6 6 6" {
		t.Errorf("Blue's next dice prompt starts %q, want three dice", pr.Actions[0])
	}
}

// Waterloo Station: Blue's die goes to the first action space and on to the
// left possibility: 2 energy. Each possibility serves once a round.
func TestWorkedExampleWaterloo(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 16)
	s.Seats[blue].Buzz = 10 // no flyer or poster on 11 and 12
	play(t, s, `
		P1: dice 6 5 1 1
		P2: dice 6 1 1 1
		P1: place 6 waterloo 1
		P2: place 6 port 1
		P1: place 5 waterloo 3
		P2: pass
		P1: pass
		P2: pass`)
	b := s.Seats[blue]
	play(t, s, "P1: use energy")
	eq(t, "Blue energy", s.Seats[blue].Energy, b.Energy+2)
	wantRefusal(t, s, blue, "use energy", errIllegal)
	play(t, s, "P1: use energybuzz")
	eq(t, "Blue energy", s.Seats[blue].Energy, b.Energy+3)
	eq(t, "Blue Buzz", s.Seats[blue].Buzz, b.Buzz+2)
}

// Phase 4: Blue on Westminster II owes 3 for Holmes and 3 for Bronte; Blue
// pays with the last 5 pounds and 1 pound from a newspaper, so takes no
// loan; then Holmes gives 1 VP per 2 newspapers: 4 newspapers, 2 VP.
func TestWorkedExampleSalaryHolmes(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 17)
	s.Seats[blue].Chars = []int{charIdx(t, s, "holmes"), charIdx(t, s, "bronte")}
	s.Seats[blue].West = 2
	s.Seats[blue].Patents = []int{patentIdx(t, s, "telegraph")} // phase 5 then waits for Blue
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 waterloo 1
		P2: pass
		P1: pass`)
	setPurse(s, blue, 5, 5)
	vp := s.Seats[blue].VP
	play(t, s, "P1: pass # the last phase 3 action: phase 4 follows")
	pr := wantPrompt(t, s, blue, "pay") // 6 due, 5 pounds: Blue may raise money first
	if !equalStrings(pr.Actions, []string{"pay"}) {
		t.Fatalf("salary actions %v, want pay", pr.Actions)
	}
	play(t, s, "P1: exchange pound") // 6 pounds now: the salaries are paid at once
	wantPrompt(t, s, blue, "build")
	p := s.Seats[blue]
	eq(t, "Blue pounds", p.Pounds, 0)
	eq(t, "Blue newspapers", p.News, 4)
	eq(t, "Blue loans", s.count(blue, metricLoans), 0)
	eq(t, "Blue VP (Holmes)", p.VP, vp+2)
}

// Phase 5 in Spring 1850: the audiobook costs 1 gear and 1 energy and gives
// 3 VP plus 4 for Bronte; Blue plays its effect on themself: 8 pounds. Then
// Blue buys an energy for 4 pounds to build the hydraulic crane (4 VP) and
// plays its effect on Red, who has one prototype: -2 pounds, +1 VP.
func TestWorkedExamplePrototypesAudiobookCrane(t *testing.T) {
	const blue, red = 0, 1
	s := newGame(t, 2, 18)
	setRound(s, 3)
	audiobook, crane := patentIdx(t, s, "audiobook"), patentIdx(t, s, "crane")
	s.Seats[blue].Patents = []int{audiobook, crane}
	s.Seats[blue].Chars = []int{charIdx(t, s, "bronte")}
	s.Seats[blue].Gears, s.Seats[blue].Energy = 2, 1
	s.Seats[red].Protos = []int{patentIdx(t, s, "telegraph")}
	s.Seats[red].Patents = []int{patentIdx(t, s, "steamhammer")} // Red's turn then waits
	play(t, s, `
		P1: dice 2 1 1 1
		P2: dice 1 1 1 1
		P1: pass
		P2: pass`)
	wantPrompt(t, s, blue, "build")
	b, r := s.Seats[blue], s.Seats[red]
	play(t, s, "P1: build audiobook")
	eq(t, "Blue gears", s.Seats[blue].Gears, 1)
	eq(t, "Blue energy", s.Seats[blue].Energy, 0)
	eq(t, "Blue VP", s.Seats[blue].VP, b.VP+3+4)
	wantPrompt(t, s, blue, "target")
	play(t, s, "P1: target 1")
	eq(t, "Blue pounds", s.Seats[blue].Pounds, b.Pounds+8)
	play(t, s, "P1: buy energy")
	eq(t, "Blue pounds", s.Seats[blue].Pounds, b.Pounds+8-4)
	play(t, s, "P1: build crane\nP1: target 2")
	p := s.Seats[blue]
	eq(t, "Blue VP", p.VP, b.VP+3+4+4)
	eq(t, "Blue gears", p.Gears, 0)
	eq(t, "Blue energy", p.Energy, 0)
	eq(t, "Blue pounds", p.Pounds, b.Pounds+8-4)
	eq(t, "Red pounds", s.Seats[red].Pounds, r.Pounds-2)
	eq(t, "Red VP", s.Seats[red].VP, r.VP+1)
	if len(p.Protos) != 2 || len(p.Patents) != 0 {
		t.Errorf("Blue's prototypes %v patents %v, want both built", p.Protos, p.Patents)
	}
}

// Phase 6, steps 1 and 2: Yellow and Black get 4 pounds, Blue 5; Red on the
// red space gets nothing and loses 1 VP. All go 3 steps down; Red reaches
// the bottom after one step and pays 1 pound for each of the other two.
func TestWorkedExamplePhase6IncomeAndExpenses(t *testing.T) {
	const blue, yellow, red, black = 0, 1, 2, 3
	s := newGame(t, 4, 19)
	s.Seats[yellow].Income, s.Seats[black].Income = 5, 5 // income 4
	s.Seats[blue].Income = 6                             // income 5
	s.Seats[red].Income = 1                              // the upper red space
	play(t, s, "P1: dice 3 1 1 1\nP2: dice 2 1 1 1\nP3: dice 2 1 1 1")
	vp := s.Seats[red].VP
	play(t, s, `
		P4: dice 2 1 1 1
		P1: pass
		P2: pass
		P3: pass
		P4: pass # nothing happens in phases 3 to 5: phase 6 follows`)
	wantPrompt(t, s, blue, "dice") // round 2
	paid := 40 - 5
	eq(t, "Yellow pounds", s.Seats[yellow].Pounds, paid+4)
	eq(t, "Black pounds", s.Seats[black].Pounds, paid+4)
	eq(t, "Blue pounds", s.Seats[blue].Pounds, 40-6+5)
	eq(t, "Red pounds", s.Seats[red].Pounds, paid-2)
	eq(t, "Red VP", s.Seats[red].VP, vp-1)
	eq(t, "Yellow income space", s.Seats[yellow].Income, 2)
	eq(t, "Blue income space", s.Seats[blue].Income, 3)
	eq(t, "Red income space", s.Seats[red].Income, 0)
}

// Phase 6, step 3: Blue's assistant on the Black Market gives 1 newspaper
// and 1 income, Blue's research tile 1 more income; Red's assistant moves
// Red's token one step in Westminster (space I: 2 pounds). Phase 7 then
// moves every assistant one tier down.
func TestWorkedExamplePhase6GreenEffects(t *testing.T) {
	const blue, red = 0, 1
	s := newGame(t, 4, 20)
	setMarket(s, map[int]int{5: blue, 9: red, 1: 2})
	setResearch(s, blue, researchIdx(t, s, "g17"))
	play(t, s, `
		P1: dice 3 1 1 1
		P2: dice 3 1 1 1
		P3: dice 3 1 1 1
		P4: dice 2 1 1 1
		P1: pass
		P2: pass
		P3: pass
		P4: pass`)
	wantPrompt(t, s, blue, "dice") // round 2
	// Start space 6, 3 steps down, +1 (market) +1 (research).
	eq(t, "Blue income space", s.Seats[blue].Income, 6-3+1+1)
	eq(t, "Blue newspapers", s.Seats[blue].News, 1)
	eq(t, "Red at Westminster", s.Seats[red].West, 1)
	eq(t, "Red pounds", s.Seats[red].Pounds, 40-6+5+2)
	eq(t, "Blue on tier 4", s.Market[3], blue)
	eq(t, "Red on tier 8", s.Market[7], red)
	eq(t, "tier 1 empty", s.Market[0], -1)
	eq(t, "P3's assistant back from the last step", s.Seats[2].Asst, 5)
}

// Phase 6, step 4: Blue's token on poster 7 gives 2 VP. Red's token on
// poster 4 offers 2 pounds or 2 Buzz; with 2 Buzz Red reaches poster 7,
// places the second token there and gets its 2 VP at once.
func TestWorkedExamplePhase6Posters(t *testing.T) {
	const blue, red = 0, 1
	s := newGame(t, 2, 21)
	s.Seats[blue].Buzz, s.Seats[blue].Tokens = 8, []int{7}
	s.Seats[red].Buzz, s.Seats[red].Tokens = 5, []int{4}
	play(t, s, `
		P1: dice 2 1 1 1
		P2: dice 1 1 1 1
		P1: pass
		P2: pass`)
	pr := wantPrompt(t, s, red, "bonus")
	// The same two, each also offered for good ("always"): the poster's
	// bonus comes back every phase 6.
	if want := []string{"bonus pounds", "bonus buzz", "bonus pounds always", "bonus buzz always"}; !equalStrings(pr.Actions, want) {
		t.Fatalf("poster 4 choices %v, want %v", pr.Actions, want)
	}
	eq(t, "Blue poster VP", s.Seats[blue].VPBy[vpPosters], 2)
	vp := s.Seats[red].VP
	play(t, s, "P2: bonus buzz")
	eq(t, "Red Buzz", s.Seats[red].Buzz, 7)
	wantPrompt(t, s, red, "poster")
	play(t, s, "P2: poster")
	eq(t, "Red VP", s.Seats[red].VP, vp+2)
	if !equalInts(s.Seats[red].Tokens, []int{4, 7}) {
		t.Errorf("Red's tokens %v, want [4 7]", s.Seats[red].Tokens)
	}

	// The other choice: 2 pounds.
	s = newGame(t, 2, 21)
	s.Seats[red].Buzz, s.Seats[red].Tokens = 5, []int{4}
	play(t, s, "P1: dice 2 1 1 1\nP2: dice 1 1 1 1\nP1: pass\nP2: pass")
	pounds := s.Seats[red].Pounds
	play(t, s, "P2: bonus pounds")
	eq(t, "Red pounds", s.Seats[red].Pounds, pounds+2)
	eq(t, "Red Buzz", s.Seats[red].Buzz, 5)
}

// Buzz track: Red gains 3 Buzz from space 3 to 6, may place a Buzz token on
// poster 4 on the way and takes the 1 gear of the flyer on space 5.
func TestWorkedExampleBuzzTrack(t *testing.T) {
	const red = 0
	s := newGame(t, 2, 22)
	s.Seats[red].Buzz = 3
	setFlyer(t, s, 5, flyerIdx(t, s, "b1"))
	setDisplay(s, locMuseum, 1, researchIdx(t, s, "g06")) // instant 3 Buzz
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 museum 1
		P2: pass
		P1: place 1 waterloo 4
		P1: pass`)
	gears := s.Seats[red].Gears
	play(t, s, "P1: take 1")
	wantPrompt(t, s, red, "poster")
	play(t, s, "P1: poster")
	eq(t, "Red Buzz", s.Seats[red].Buzz, 6)
	eq(t, "Red gears (flyer on 5)", s.Seats[red].Gears, gears+1)
	if !equalInts(s.Seats[red].Tokens, []int{4}) {
		t.Errorf("Red's Buzz tokens %v, want on poster 4", s.Seats[red].Tokens)
	}
}

// End of the Buzz track: Yellow reaches space 40 first and takes entry
// ticket I, Blue takes II, Red III; Black arrives fourth and gets no
// ticket. Steps beyond 40 are forfeited. At the end Yellow ranks first
// (6 VP), Blue second (4 VP), Red third (2 VP), Black gets nothing.
func TestWorkedExampleBuzzTrackEnd(t *testing.T) {
	const yellow, blue, red, black = 0, 1, 2, 3
	s := newGame(t, 4, 23)
	for seat, b := range []int{38, 39, 38, 39} {
		s.Seats[seat].Buzz, s.Seats[seat].Tokens = b, []int{7, 14} // no poster decisions
	}
	s.Seats[blue].West = 5
	setDisplay(s, locMuseum, 1, researchIdx(t, s, "g06")) // instant 3 Buzz
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 5 1 1 1
		P3: dice 6 2 1 1
		P4: dice 4 1 1 1
		P3: place 6 waterloo 1
		P4: place 4 waterloo 2
		P4: skip
		P1: place 6 museum 1
		P2: place 5 westminster 1
		P3: pass
		P4: pass
		P1: pass
		P2: pass
		P1: take 1 # 3 Buzz: 38 to 40, one step forfeited`)
	eq(t, "Yellow Buzz", s.Seats[yellow].Buzz, 40)
	play(t, s, "P2: advance\nP2: bonus buzz # 39 to 40, one step forfeited")
	eq(t, "Blue Buzz", s.Seats[blue].Buzz, 40)
	play(t, s, "P3: use energybuzz\nP4: use buzz")
	eq(t, "Red Buzz", s.Seats[red].Buzz, 40)
	eq(t, "Black Buzz", s.Seats[black].Buzz, 40)
	if !equalInts(s.Tickets, []int{yellow, blue, red}) {
		t.Fatalf("entry tickets %v, want Yellow, Blue, Red", s.Tickets)
	}
	res := playLastRound(t, s)
	for seat, want := range []int{6, 4, 2, 0} {
		eq(t, seatName(seat)+" Buzz VP", res.Breakdown[seat]["buzz-rank"], want)
	}
}

// End scoring, Buzz track: 6, 4 and 2 VP by position; tied players share
// the VP of the places they cover, rounded down.
func TestWorkedExampleEndScoringBuzz(t *testing.T) {
	for _, c := range []struct {
		name string
		buzz []int
		want []int
	}{
		{"no ties", []int{20, 30, 10, 5}, []int{4, 6, 2, 0}},
		{"two first, two third", []int{20, 20, 15, 15}, []int{5, 5, 1, 1}},
		{"three first", []int{20, 20, 20}, []int{4, 4, 4}},
		{"three second", []int{30, 25, 25, 25, 10}, []int{6, 2, 2, 2, 0}},
		{"all five tied: 12/5 rounded down", []int{12, 12, 12, 12, 12}, []int{2, 2, 2, 2, 2}},
		{"three third: 2/3 rounded down", []int{30, 25, 9, 9, 9}, []int{6, 4, 0, 0, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newGame(t, len(c.buzz), 24)
			for seat, b := range c.buzz {
				s.Seats[seat].Buzz = b
				s.Seats[seat].Tokens = []int{7, 14} // VP posters only: no decisions
			}
			res := playLastRound(t, s)
			for seat, want := range c.want {
				eq(t, seatName(seat)+" Buzz VP", res.Breakdown[seat]["buzz-rank"], want)
			}
		})
	}
}

// End scoring, Black Market: Blue's assistant is highest (3 VP); Red holds
// the second and third highest (2 + 1 VP).
func TestWorkedExampleEndScoringBlackMarket(t *testing.T) {
	const blue, red, yellow = 0, 1, 2
	s := newGame(t, 3, 25)
	setMarket(s, map[int]int{7: blue, 6: red, 4: red, 1: yellow})
	res := playLastRound(t, s)
	eq(t, "Blue", res.Breakdown[blue]["black-market"], 3)
	eq(t, "Red", res.Breakdown[red]["black-market"], 3)
	eq(t, "Yellow", res.Breakdown[yellow]["black-market"], 0)
}

// End scoring, player mat: objective level 2 gives 4 VP, the paid-back loan
// -5 VP; Blue's leftover 10 pounds become a note on one of five free
// research spaces, so four stay free: -8 VP.
func TestWorkedExampleEndScoringPlayerMat(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 26)
	p := &s.Seats[blue]
	p.Obj = 2
	setResearch(s, blue, -1, researchIdx(t, s, "g03"), researchIdx(t, s, "g04"))
	p.Slots[0] = Slot{Kind: slotLoan, ID: -9, Repaid: true}
	p.Pounds, p.Gears, p.Energy, p.News = 12, 0, 0, 0
	p.Income = 4 // income 3
	// Round 5: dice cost 5, income +3: 10 pounds at the end.
	res := playLastRound(t, s)
	eq(t, "empty research spaces", len(p.Slots)-3, 5)
	eq(t, "objective", res.Breakdown[blue]["objective"], 4)
	eq(t, "loans", res.Breakdown[blue]["loans"], -5)
	eq(t, "research spaces", res.Breakdown[blue]["research-spaces"], -8)
	eq(t, "pounds left", s.Seats[blue].Pounds, 0)
	eq(t, "notes", countSlots(s.Seats[blue].Slots, slotNote), 1)
}

func countSlots(slots []Slot, k int) int {
	n := 0
	for _, sl := range slots {
		if sl.Kind == k {
			n++
		}
	}
	return n
}

// Loans: a loan tile drawn at random (the pile is shuffled at setup) goes on
// a free research space and gives 10 pounds.
func TestWorkedExampleLoanOnFreeSpace(t *testing.T) {
	s := newGame(t, 2, 27)
	kinds := map[int]int{}
	for _, vp := range s.Loans {
		kinds[vp]++
	}
	if kinds[-8] != 10 || kinds[-9] != 10 || kinds[-10] != 10 {
		t.Fatalf("loan pile %v, want 10 each of -8, -9, -10", kinds)
	}
	top := s.Loans[len(s.Loans)-1]
	play(t, s, "P1: loan")
	eq(t, "pounds", s.Seats[0].Pounds, 50)
	if sl := s.Seats[0].Slots[0]; sl.Kind != slotLoan || sl.ID != top {
		t.Errorf("research space 1 holds %+v, want the drawn loan %d", sl, top)
	}
	eq(t, "loans left", len(s.Loans), 29)
}

// Loans: with every research space full, the loan replaces a research tile
// of the player's choice, which is discarded.
func TestWorkedExampleLoanReplacesResearch(t *testing.T) {
	s := newGame(t, 2, 28)
	var tiles []int
	for i := range s.Seats[0].Slots {
		tiles = append(tiles, s.GreenDeck[i])
	}
	setResearch(s, 0, tiles...)
	err := wantRefusal(t, s, 0, "loan", errIllegal)
	t.Logf("refusal: %v", err)
	play(t, s, "P1: loan 3")
	if sl := s.Seats[0].Slots[2]; sl.Kind != slotLoan {
		t.Errorf("research space 3 holds %+v, want the loan", sl)
	}
	eq(t, "research tiles left", countSlots(s.Seats[0].Slots, slotResearch), len(tiles)-1)
	eq(t, "pounds", s.Seats[0].Pounds, 50)
}

// Loans: when every research space holds a loan, a new loan lies beside
// the mat and counts too; no research tile can be received any more.
func TestWorkedExampleLoanBesideMat(t *testing.T) {
	s := newGame(t, 2, 29)
	for i := range s.Seats[0].Slots {
		s.Seats[0].Slots[i] = Slot{Kind: slotLoan, ID: -8, Repaid: i == 0}
	}
	play(t, s, "P1: loan")
	eq(t, "loans beside the mat", len(s.Seats[0].Extra), 1)
	eq(t, "loans", s.count(0, metricLoans), len(s.Seats[0].Slots)+1)
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 museum 1
		P2: pass
		P1: pass`)
	// No research tile fits the mat, whatever money is raised: the die
	// passes without asking.
	for _, pr := range s.Prompts() {
		if pr.Kind == "action" {
			t.Errorf("%v has an action prompt %v, want the museum die passed", pr.Seat, pr.Actions)
		}
	}
	if s.CurrentPhase == phaseActions && s.Location <= int(locMuseum) {
		t.Errorf("phase %d at location %d, want the museum done", s.CurrentPhase, s.Location)
	}
}

// Loans: short of money when paying the dice, a player is forced to take as
// many loans as needed; with a full mat they choose the tile each replaces.
func TestWorkedExampleForcedLoans(t *testing.T) {
	s := newGame(t, 2, 30)
	s.Seats[0].Pounds = 3
	play(t, s, "P1: dice 6 6 1 1\nP2: dice 1 1 1 1")
	wantPrompt(t, s, 0, "pay") // P1 holds a gear and an energy: it may sell them first
	play(t, s, "P1: pay")
	eq(t, "loans", s.count(0, metricLoans), 2)
	eq(t, "pounds", s.Seats[0].Pounds, 3+20-14)

	s = newGame(t, 2, 31)
	var tiles []int
	for i := range s.Seats[1].Slots {
		tiles = append(tiles, s.GreenDeck[i])
	}
	setResearch(s, 1, tiles...)
	s.Seats[1].Pounds = 2
	s.Seats[1].Gears, s.Seats[1].Energy = 0, 0 // nothing to sell: the loan is forced at once
	play(t, s, "P1: dice 1 1 1 1\nP2: dice 2 1 1 1")
	pr := wantPrompt(t, s, 1, "replace")
	eq(t, "replace choices", len(pr.Actions), len(tiles))
	play(t, s, "P2: replace 5")
	eq(t, "P2 pounds", s.Seats[1].Pounds, 2+10-5)
	if s.Seats[1].Slots[4].Kind != slotLoan {
		t.Errorf("space 5 holds %+v, want the loan", s.Seats[1].Slots[4])
	}
}

// A research tile never replaces a loan, open or paid back: with a full mat
// the new tile may replace only research tiles.
func TestWorkedExampleResearchNeverReplacesLoan(t *testing.T) {
	s := newGame(t, 2, 32)
	var tiles []int
	for i := range s.Seats[0].Slots {
		tiles = append(tiles, s.GreenDeck[len(s.GreenDeck)-1-i])
	}
	setResearch(s, 0, tiles...)
	s.Seats[0].Slots[0] = Slot{Kind: slotLoan, ID: -9, Repaid: true}
	s.Seats[0].Slots[1] = Slot{Kind: slotLoan, ID: -10}
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 museum 1
		P2: pass
		P1: pass`)
	newTile := s.MuseumDisp[0]
	play(t, s, "P1: take 1")
	pr := wantPrompt(t, s, 0, "replace")
	for _, a := range pr.Actions {
		if a == "replace 1" || a == "replace 2" {
			t.Errorf("replace choices %v offer a loan's space", pr.Actions)
		}
	}
	eq(t, "replace choices", len(pr.Actions), len(tiles)-2)
	wantRefusal(t, s, 0, "replace 1", errIllegal)
	play(t, s, "P1: replace 3")
	if s.Seats[0].Slots[2] != (Slot{Kind: slotResearch, ID: newTile}) {
		t.Errorf("space 3 holds %+v, want the new tile", s.Seats[0].Slots[2])
	}
}

// Assistant action on the Black Market: a new assistant goes on the lowest
// free space for that space's cost (1 pound); an assistant already there
// moves up to the next free space for that space's cost (3 pounds).
func TestWorkedExampleBlackMarketAssistantCosts(t *testing.T) {
	const blue, red = 0, 1
	s := newGame(t, 3, 33)
	setMarket(s, map[int]int{2: red, 3: blue})
	play(t, s, "P1: dice 6 3 1 1\nP2: dice 1 1 1 1\nP3: dice 1 1 1 1\nP1: place 3 patent 2")
	pr := wantPrompt(t, s, blue, "assistant")
	if !contains(pr.Actions, "market place") || !contains(pr.Actions, "market move 3") {
		t.Fatalf("assistant actions %v", pr.Actions)
	}
	placed, moved := s.clone(), s.clone()
	pounds := s.Seats[blue].Pounds
	play(t, placed, "P1: market place")
	eq(t, "pounds after placing", placed.Seats[blue].Pounds, pounds-1)
	eq(t, "tier 1", placed.Market[0], blue)
	play(t, moved, "P1: market move 3")
	eq(t, "pounds after moving", moved.Seats[blue].Pounds, pounds-3)
	eq(t, "tier 3", moved.Market[2], -1)
	eq(t, "tier 4", moved.Market[3], blue)
}

// A token placed on poster 4 in phase 6 is paid by that phase's posters
// step, so its bonus is chosen with the token in one question: Red's
// Publicity tile (phase 6: +1 Buzz) takes it from 3 to poster 4, and
// "poster buzz" places the token and takes 2 Buzz when the posters pay,
// with no second question. The token alone stays an answer, as older
// games logged it, and then the bonus is asked at the posters step.
func TestAPosterAndItsBonusAreOneQuestion(t *testing.T) {
	const red = 0
	start := func() *State {
		s := newGame(t, 2, 21)
		s.Seats[red].Buzz = 3
		setResearch(s, red, researchIdx(t, s, "g20"))
		play(t, s, "P1: dice 2 1 1 1\nP2: dice 1 1 1 1\nP1: pass\nP2: pass")
		return s
	}
	s := start()
	pr := wantPrompt(t, s, red, "poster")
	if want := []string{"poster pounds", "poster buzz", "poster pounds always", "poster buzz always", "poster", "skip"}; !equalStrings(pr.Actions, want) {
		t.Fatalf("poster 4 in phase 6 offers %v, want %v", pr.Actions, want)
	}
	play(t, s, "P1: poster buzz")
	eq(t, "Red Buzz: 3, +1 Publicity, +2 from poster 4", s.Seats[red].Buzz, 6)
	for _, p := range s.Prompts() {
		if p.Seat == red && p.Kind == "bonus" {
			t.Fatalf("the bonus chosen with the token was asked again: %v", p.Actions)
		}
	}
	eq(t, "picks left after the posters paid", len(s.Seats[red].Picks), 0)

	// the two questions of older logs still replay
	s = start()
	play(t, s, "P1: poster")
	wantPrompt(t, s, red, "bonus")
	play(t, s, "P1: bonus buzz")
	eq(t, "Red Buzz the two-question way", s.Seats[red].Buzz, 6)

	// chosen for good: taken at every posters step from then on
	s = start()
	play(t, s, "P1: poster pounds always")
	if len(s.Seats[red].Picks) != 1 || s.Seats[red].Picks[0].Once {
		t.Fatalf("picks after poster pounds always: %+v", s.Seats[red].Picks)
	}
}
