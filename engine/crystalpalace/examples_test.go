package crystalpalace

import (
	"errors"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// Seats of the rulebook's examples.
const (
	blue   = 0
	red    = 1
	yellow = 2
	black  = 3
)

// scenario is a fresh game whose parts a test then arranges.
func scenario(t *testing.T, players int) *State {
	t.Helper()
	s, err := testRules(t).newState(engine.Setup{Players: players, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustApply(t *testing.T, s *State, seat int, action string) []engine.Event {
	t.Helper()
	ev, err := s.Apply(engine.Seat(seat), action)
	if err != nil {
		t.Fatalf("P%d %q: %v", seat+1, action, err)
	}
	return ev
}

func refused(t *testing.T, s *State, seat int, action string, kind error, reason string) {
	t.Helper()
	before, _ := s.Encode()
	_, err := s.Apply(engine.Seat(seat), action)
	if err == nil {
		t.Fatalf("P%d %q accepted, want refusal", seat+1, action)
	}
	if !errors.Is(err, kind) || !strings.Contains(refusal(err), reason) {
		t.Fatalf("P%d %q: got %q (%v), want %v containing %q", seat+1, action, refusal(err), errors.Unwrap(err), kind, reason)
	}
	after, _ := s.Encode()
	if string(before) != string(after) {
		t.Fatalf("P%d %q refused but the state changed", seat+1, action)
	}
}

func id(t *testing.T, s *State, kind, key string) int {
	t.Helper()
	switch kind {
	case "patent":
		return s.c.patentByID[key]
	case "character":
		return s.c.charByID[key]
	case "research":
		for i, r := range s.c.Research {
			if r.ID == key {
				return i
			}
		}
	case "share":
		for i, sh := range s.c.Shares {
			if sh.ID == key {
				return i
			}
		}
	}
	t.Fatalf("no %s %q", kind, key)
	return -1
}

// atPhase3 puts the game in phase 3 at location l with the given dice on its
// dice spaces (owner -1 for an empty space), and a die of seat 0 waiting at
// Waterloo Station so that the round does not run on.
func atPhase3(s *State, l locKind, round int, dice ...Die) {
	s.Round, s.CurrentPhase, s.Revealed, s.Location = round, phaseActions, true, int(l)
	s.First = 0
	for i := range s.Seats {
		s.Seats[i].Vals = nil
	}
	copy(s.Boards[l].Dice, dice)
	if l != locWaterloo {
		w := &s.Boards[locWaterloo]
		w.Dice[len(w.Dice)-1] = Die{Owner: 0, Value: 1}
	}
}

func free() Die { return Die{Owner: -1} }

func TestExampleFirstPlayerTiebreak(t *testing.T) {
	s := scenario(t, 3)
	mustApply(t, s, red, "dice 6 4 3 1")
	mustApply(t, s, yellow, "dice 3 2 1 1")
	if s.Revealed || s.CurrentPhase != phaseDice {
		t.Fatal("dice revealed before every seat chose")
	}
	mustApply(t, s, red, "dice 6 4 3 1") // a seat may change its choice until the reveal
	ev := mustApply(t, s, blue, "dice 6 5 2 1")
	if s.First != blue {
		t.Errorf("first player P%d, want Blue (P1): equal totals 14 and highest die 6, Blue's second die 5 beats 4", s.First+1)
	}
	if got := []int{s.Seats[blue].Pounds, s.Seats[red].Pounds, s.Seats[yellow].Pounds}; got[0] != 26 || got[1] != 26 || got[2] != 33 {
		t.Errorf("pounds after paying %v, want [26 26 33]", got)
	}
	if s.Seats[yellow].News != 1 || s.Seats[blue].News != 0 || s.Seats[red].News != 0 {
		t.Errorf("newspapers %d %d %d, want only the lowest total (Yellow) to get one", s.Seats[blue].News, s.Seats[red].News, s.Seats[yellow].News)
	}
	reveal := false
	for _, e := range ev {
		if e.Kind == engine.EventReveal && e.Reveals && strings.Contains(say(e.Text), "P1: 6 5 2 1") {
			reveal = true
		}
	}
	if !reveal {
		t.Errorf("no reveal event in %+v", ev)
	}
}

func TestExampleAllEqualDice(t *testing.T) {
	s := scenario(t, 3)
	s.Round, s.First, s.Order = 2, 2, []int{2, 0, 1} // Yellow went first last round
	for seat := 0; seat < 3; seat++ {
		mustApply(t, s, seat, "dice 4 3 2 1")
	}
	if s.First != yellow {
		t.Errorf("first player P%d, want Yellow who went earliest last round", s.First+1)
	}
	if s.Seats[yellow].News != 0 || s.Seats[blue].News != 1 || s.Seats[red].News != 1 {
		t.Error("with all totals equal everyone but the first player gets a newspaper")
	}
}

func TestExamplePlaceDice(t *testing.T) {
	s := scenario(t, 4)
	for seat, d := range []string{"dice 2 2 2 1", "dice 5 4 3 2", "dice 2 2 1 1", "dice 2 2 1 1"} {
		mustApply(t, s, seat, d)
	}
	if s.First != red {
		t.Fatalf("first player P%d, want Red", s.First+1)
	}
	refused(t, s, red, "place 2 westminster 2", engine.ErrIllegalAction, "space 2 at Westminster needs a die of at least 3")
	refused(t, s, blue, "place 2 westminster 4", engine.ErrNotYourTurn, "P2's turn")
	mustApply(t, s, red, "place 5 westminster 2")
	if p := s.Prompts(); len(p) != 1 || p[0].Seat != red || p[0].Kind != "assistant" {
		t.Fatalf("after a die on an assistant space: prompts %+v, want Red's assistant action", p)
	}
	mustApply(t, s, red, "market place")
	if s.Market[0] != red || s.Seats[red].Pounds != 40-14-1 {
		t.Errorf("Red's assistant on tier %v for 1 pound: pounds %d", s.Market, s.Seats[red].Pounds)
	}
	// After the placement Red may move the new assistant down (off the market: no gear).
	mustApply(t, s, red, "skip")
	mustApply(t, s, yellow, "pass")
	mustApply(t, s, black, "place 1 westminster 4")
	if s.Seats[black].Pounds != 40-6-2 {
		t.Errorf("Black paid %d, want the die total 6 and the 2-pound fee", 40-s.Seats[black].Pounds)
	}
	if p := s.Prompts(); p[0].Seat != blue {
		t.Errorf("after Black, turn of P%d, want Blue", p[0].Seat+1)
	}
}

func TestExampleWestminster(t *testing.T) {
	s := scenario(t, 4)
	s.Seats[yellow].West = 1
	atPhase3(s, locWestminster, 1, Die{Owner: blue, Value: 5}, Die{Owner: yellow, Value: 5}, Die{Owner: red, Value: 2}, free())
	p0 := []int{s.Seats[blue].Pounds, s.Seats[yellow].Pounds, s.Seats[red].Pounds}
	if pr := s.Prompts(); pr[0].Seat != blue {
		t.Fatalf("first to act P%d, want Blue (equal value, further left)", pr[0].Seat+1)
	}
	mustApply(t, s, blue, "advance")
	if s.Seats[blue].West != 1 || s.Seats[blue].Pounds != p0[0]+1+2 {
		t.Errorf("Blue on %d with %d pounds, want space I and 1+2 pounds more", s.Seats[blue].West, s.Seats[blue].Pounds-p0[0])
	}
	e0 := s.Seats[yellow].Energy
	mustApply(t, s, yellow, "advance")
	if s.Seats[yellow].West != 2 || s.Seats[yellow].Pounds != p0[1]-2 || s.Seats[yellow].Energy != e0+1 {
		t.Errorf("Yellow: space %d, pounds %+d, energy %+d; want II, -2, +1", s.Seats[yellow].West, s.Seats[yellow].Pounds-p0[1], s.Seats[yellow].Energy-e0)
	}
	if s.Seats[red].Pounds != p0[2]+1 {
		t.Errorf("Red got %d pounds, want 1 as compensation", s.Seats[red].Pounds-p0[2])
	}
}

func TestExampleWestminsterV(t *testing.T) {
	s := scenario(t, 4)
	s.Seats[red].West = 5
	atPhase3(s, locWestminster, 1, Die{Owner: red, Value: 6})
	p0, e0 := s.Seats[red].Pounds, s.Seats[red].Energy
	mustApply(t, s, red, "advance")
	pr := s.Prompts()
	if pr[0].Kind != "bonus" || strings.Join(pr[0].Actions, ",") != "bonus energy,bonus buzz" {
		t.Fatalf("on V: %+v, want the choice of 1 energy or 2 Buzz", pr[0])
	}
	mustApply(t, s, red, "bonus energy")
	if s.Seats[red].West != 5 || s.Seats[red].Pounds != p0+1 || s.Seats[red].Energy != e0+1 {
		t.Error("Red stays on V, gets 1 pound from the action space and 1 energy")
	}
}

func TestExamplePatentOffice(t *testing.T) {
	s := scenario(t, 4)
	audio := id(t, s, "patent", "audiobook")
	s.PatentDisp[1] = audio
	atPhase3(s, locPatent, 1, Die{Owner: blue, Value: 6}, Die{Owner: blue, Value: 4})
	mustApply(t, s, blue, "take 2")
	if s.Seats[blue].News != 1 || len(s.Seats[blue].Patents) != 1 || s.Seats[blue].Patents[0] != audio || s.PatentDisp[1] != -1 {
		t.Fatal("Blue takes the audiobook and a newspaper; the slot stays empty")
	}
	if pr := s.Prompts(); pr[0].Seat != blue || pr[0].Kind != "action" {
		t.Fatalf("Blue's second die acts next, got %+v", pr[0])
	}
	refused(t, s, blue, "take 2", engine.ErrIllegalAction, "nothing in slot 2")
	mustApply(t, s, blue, "take 1")
	if s.Seats[blue].News != 2 {
		t.Error("the second action space gives a newspaper too")
	}
}

func TestExampleBritishMuseum(t *testing.T) {
	s := scenario(t, 4)
	income := id(t, s, "research", "g17")   // phase 6: +1 income
	press := id(t, s, "research", "g01")    // 2 newspapers, 4 Buzz
	mechanic := id(t, s, "research", "g02") // 1 gear, 2 pounds
	s.MuseumDisp = []int{income, press, mechanic}
	atPhase3(s, locMuseum, 1, Die{Owner: blue, Value: 5}, Die{Owner: yellow, Value: 3})
	mustApply(t, s, blue, "take 1")
	if s.Seats[blue].Slots[0] != (Slot{Kind: slotResearch, ID: income}) {
		t.Fatal("Blue places the income tile on a research space")
	}
	b0, n0 := s.Seats[yellow].Buzz, s.Seats[yellow].News
	mustApply(t, s, yellow, "take 2")
	for len(s.Seats[yellow].Queue) > 0 { // posters passed on the way
		mustApply(t, s, yellow, "skip")
	}
	if s.Seats[yellow].Buzz != b0+4 || s.Seats[yellow].News != n0+2 {
		t.Errorf("Yellow: Buzz %+d, newspapers %+d; want +4 and +2", s.Seats[yellow].Buzz-b0, s.Seats[yellow].News-n0)
	}
	in0 := s.Seats[blue].Income
	s.CurrentPhase = phaseIncome
	s.settleSeat(blue)
	s.Seats[blue].Queue = s.greenEffects(blue)
	s.settleSeat(blue)
	if s.Seats[blue].Income != in0+1 {
		t.Error("the tile raises Blue's income by 1 in phase 6")
	}
}

func TestExampleBankOfEngland(t *testing.T) {
	s := scenario(t, 4)
	first, second := id(t, s, "share", "r1a"), id(t, s, "share", "r1b")
	s.BankDisp = []int{first, second, -1}
	atPhase3(s, locBank, 1, Die{Owner: yellow, Value: 4}, Die{Owner: blue, Value: 3})
	vp, inc := s.Seats[yellow].VP, s.Seats[yellow].Income
	mustApply(t, s, yellow, "take 1")
	if s.Seats[yellow].VP != vp+1 || s.Seats[yellow].Income != inc+5 {
		t.Errorf("Yellow: %+d VP, %+d income; want +1 and +5", s.Seats[yellow].VP-vp, s.Seats[yellow].Income-inc)
	}
	mustApply(t, s, blue, "take 2")
	if len(s.Seats[blue].Shares) != 1 || s.Seats[blue].Shares[0] != second {
		t.Error("Blue takes the second share")
	}
}

func TestExampleReformClubBronte(t *testing.T) {
	s := scenario(t, 4)
	bronte := id(t, s, "character", "bronte")
	s.CharDisp[2] = bronte
	p := &s.Seats[blue]
	p.Protos = []int{id(t, s, "patent", "audiobook")}
	p.Gears, p.Energy = 2, 1
	atPhase3(s, locClub, 3, Die{Owner: blue, Value: 6}) // Spring 1850
	vp, pounds, buzz := p.VP, p.Pounds, p.Buzz
	mustApply(t, s, blue, "take 3")
	if p.Gears != 0 || p.Energy != 0 || p.Pounds != pounds {
		t.Errorf("Blue pays 2 gears and 1 energy: left %d gears %d energy, %+d pounds", p.Gears, p.Energy, p.Pounds-pounds)
	}
	if p.VP != vp+10+4 {
		t.Errorf("Blue gains %d VP, want 10 for 1850 and 4 for the linked audiobook", p.VP-vp)
	}
	if p.Buzz != buzz+1 {
		t.Error("the first action space gives 1 Buzz")
	}
	pr := s.Prompts()
	if pr[0].Kind != "assistant" {
		t.Fatalf("Brontë's instant bonus is an assistant action, got %+v", pr[0])
	}
	mustApply(t, s, blue, "market place")
	if s.Market[0] != blue || p.Pounds != pounds {
		t.Error("the assistant goes on the Black Market for free")
	}
}

func TestExampleLondonTimes(t *testing.T) {
	s := scenario(t, 4)
	s.Publisher = 0 // tile 1, side a: round 3 counts characters and prototypes
	p := &s.Seats[yellow]
	p.Chars = []int{id(t, s, "character", "holmes"), id(t, s, "character", "darwin")}
	p.Protos = []int{id(t, s, "patent", "pneumatic")}
	p.Buzz = 20
	atPhase3(s, locTimes, 3, Die{Owner: yellow, Value: 4})
	mustApply(t, s, yellow, "publish")
	if p.Buzz != 24 || p.News != 1 {
		t.Errorf("Yellow: Buzz %d, newspapers %d; want 4 Buzz (third level) and 1 newspaper", p.Buzz, p.News)
	}
}

func TestExamplePortTicket(t *testing.T) {
	s := scenario(t, 4)
	s.TicketDice = []Die{{Owner: red, Value: 5}}
	atPhase3(s, locPort, 4, Die{Owner: blue, Value: 6}) // Autumn 1850
	p := &s.Seats[blue]
	vp, dice := p.VP, p.Dice
	mustApply(t, s, blue, "use ticket")
	if p.VP != vp+4+6 {
		t.Errorf("Blue gains %d VP, want 4 for 1850 and 6 for the die", p.VP-vp)
	}
	if len(s.TicketDice) != 2 || s.TicketDice[1] != (Die{Owner: blue, Value: 6}) || p.Dice != dice-1 || p.Tick != 1 {
		t.Error("the die stays under a ticket on the middle dice space for the rest of the game")
	}
	s.TicketDice = append(s.TicketDice, Die{Owner: red, Value: 1})
	s.Boards[locPort].Poss = []int{-1, -1, -1, -1, -1}
	s.Location = int(locPort)
	s.Boards[locPort].Dice[1] = Die{Owner: red, Value: 3}
	refused(t, s, red, "use ticket", engine.ErrIllegalAction, "every dice space below the ticket is taken")
}

func TestExamplePortAndWaterloo(t *testing.T) {
	s := scenario(t, 3)
	atPhase3(s, locPort, 1, Die{Owner: blue, Value: 6}, Die{Owner: red, Value: 5})
	refused(t, s, blue, "use buydie", engine.ErrIllegalAction, "only offered with 4 or more players")
	mustApply(t, s, blue, "use gears")
	refused(t, s, red, "use gears", engine.ErrIllegalAction, "already used this round")
	r0 := s.Seats[red].Pounds
	mustApply(t, s, red, "use assistant")
	mustApply(t, s, red, "market place")
	mustApply(t, s, red, "market place")
	if s.Seats[red].Pounds != r0-2-1 {
		t.Errorf("Red paid %d: 2 for the second action space, nothing for the first placement, 1 for the second", r0-s.Seats[red].Pounds)
	}
	if s.Seats[blue].Gears != 1+2 {
		t.Error("Blue receives 2 gears")
	}

	w := scenario(t, 4)
	atPhase3(w, locWaterloo, 1, Die{Owner: blue, Value: 4})
	e0 := w.Seats[blue].Energy
	mustApply(t, w, blue, "use energy")
	if w.Seats[blue].Energy != e0+2 {
		t.Error("Blue receives 2 energy at Waterloo")
	}
}

func TestExampleSalaryHolmes(t *testing.T) {
	s := scenario(t, 4)
	p := &s.Seats[blue]
	p.Chars = []int{id(t, s, "character", "holmes"), id(t, s, "character", "bronte")}
	p.West, p.Pounds, p.News = 2, 5, 5
	p.Patents = []int{id(t, s, "patent", "kaleidoscope")} // phase 5 then waits for Blue
	atPhase3(s, locWaterloo, 1, Die{Owner: blue, Value: 4})
	vp := p.VP
	mustApply(t, s, blue, "pass") // phase 3 ends; phase 4 salaries: 3 for Holmes, 3 for Brontë
	pr := s.Prompts()
	if s.CurrentPhase != phaseSalaries || pr[0].Seat != blue || pr[0].Kind != "pay" || !strings.Contains(say(*pr[0].Text), "pay 6 £ (salaries), holding 5 £") {
		t.Fatalf("Blue owes 6 with 5 in hand: %+v", pr)
	}
	mustApply(t, s, blue, "exchange pound") // paid with the last 5 pounds and 1 newspaper
	if p.Pounds != 0 || metricCountLoans(s, blue) != 0 || p.News != 4 {
		t.Errorf("Blue has %d pounds, %d newspapers and %d loans, want 0, 4 and no loan", p.Pounds, p.News, metricCountLoans(s, blue))
	}
	if p.VP != vp+2 {
		t.Errorf("Holmes gives %d VP, want 2 for 4 newspapers", p.VP-vp)
	}
	if pr := s.Prompts(); s.CurrentPhase != phaseBuild || pr[0].Seat != blue || pr[0].Kind != "build" {
		t.Errorf("phase 5 follows: %+v", pr)
	}
}

func metricCountLoans(s *State, seat int) int { return s.count(seat, metricLoans) }

func TestExampleAudiobookAndCrane(t *testing.T) {
	s := scenario(t, 4)
	audio, crane := id(t, s, "patent", "audiobook"), id(t, s, "patent", "crane")
	s.Round, s.CurrentPhase, s.Revealed, s.Turn = 3, phaseBuild, true, 0
	s.Order = []int{blue, red, yellow, black}
	p := &s.Seats[blue]
	p.Patents = []int{audio, crane}
	p.Chars = []int{id(t, s, "character", "bronte")}
	p.Gears, p.Energy, p.Pounds = 2, 1, 10
	s.Seats[red].Protos = []int{id(t, s, "patent", "pneumatic")}
	s.Seats[red].Patents = []int{id(t, s, "patent", "kaleidoscope")} // keeps phase 5 waiting for Red
	vp := p.VP
	if msg := refusal(wantRefusal(t, s, blue, "dice 1 1 1 1", errIllegal)); !strings.Contains(msg, "dice values are chosen in phase 1") {
		t.Errorf("dice in phase 5 refused with %q, want the phase they are chosen in", msg)
	}
	mustApply(t, s, blue, "build audiobook")
	if p.VP != vp+3+4 || p.Gears != 1 || p.Energy != 0 {
		t.Fatalf("audiobook: %+d VP, %d gears, %d energy; want 3+4 VP and 1 gear 1 energy paid", p.VP-vp, p.Gears, p.Energy)
	}
	mustApply(t, s, blue, "target 1")
	if p.Pounds != 18 {
		t.Fatalf("Blue has %d pounds, want 10 + 8", p.Pounds)
	}
	mustApply(t, s, blue, "build crane")
	if p.Pounds != 14 || p.Gears != 0 || p.Energy != 0 || p.VP != vp+7+4 {
		t.Fatalf("crane: pounds %d (want 4 paid for energy), VP %+d (want 4 more)", p.Pounds, p.VP-vp-7)
	}
	rp, rvp := s.Seats[red].Pounds, s.Seats[red].VP
	mustApply(t, s, blue, "target 2")
	if s.Seats[red].Pounds != rp-2 || s.Seats[red].VP != rvp+1 {
		t.Errorf("Red: %+d pounds, %+d VP; want -2 and +1 for its one prototype", s.Seats[red].Pounds-rp, s.Seats[red].VP-rvp)
	}
	if pr := s.Prompts(); pr[0].Seat != red || pr[0].Kind != "build" {
		t.Errorf("after two prototypes Blue's turn ends; got %+v", pr[0])
	}
}

func TestExamplePhase6IncomeAndExpenses(t *testing.T) {
	s := scenario(t, 4)
	s.Round = 2
	for seat, income := range []int{6, 1, 5, 5} { // Blue pays 5, Red on a red space, Yellow and Black 4
		s.Seats[seat].Income = income
		s.Seats[seat].Pounds = 20
	}
	s.CurrentPhase = phaseBuild
	s.Turn = s.PlayerCount
	s.run()
	got := []int{s.Seats[blue].Pounds, s.Seats[red].Pounds, s.Seats[yellow].Pounds, s.Seats[black].Pounds}
	if got[0] != 25 || got[2] != 24 || got[3] != 24 {
		t.Errorf("pounds after income %v, want Blue 25, Yellow and Black 24", got)
	}
	if got[1] != 18 || s.Seats[red].VP != 4 || s.Seats[red].Income != 0 {
		t.Errorf("Red: pounds %d VP %d income space %d; want 2 pounds paid for two steps below the bottom, 1 VP lost", got[1], s.Seats[red].VP, s.Seats[red].Income)
	}
	if s.Seats[blue].Income != 3 || s.Round != 3 || s.CurrentPhase != phaseDice {
		t.Errorf("Blue on income space %d, round %d phase %d: want 3 steps down and the next round", s.Seats[blue].Income, s.Round, s.CurrentPhase)
	}
}

func TestExampleBlackMarket(t *testing.T) {
	s := scenario(t, 4) // 9 tiers, gear from tier 3 up
	s.Market = []int{black, yellow, -1, red, yellow, red, blue, -1, -1}
	s.Seats[blue].Asst, s.Seats[yellow].Asst, s.Seats[red].Asst, s.Seats[black].Asst = 4, 3, 3, 4
	g0, gears := s.Seats[blue].Gears, s.MarketGears
	s.moveDown(blue, 6, true) // tier 7 down past 6 and 5... the next free space is tier 3
	if s.Market[2] != blue || s.Seats[blue].Gears != g0+1 || s.MarketGears != gears-1 {
		t.Errorf("Blue's assistant from tier 7 lands on the next free tier 3 and takes a gear: %v", s.Market)
	}
	y0 := s.Seats[yellow].Gears
	s.moveDown(yellow, 1, true) // tier 2, nothing free below: off the market
	if s.Market[1] != -1 || s.Seats[yellow].Asst != 4 || s.Seats[yellow].Gears != y0 {
		t.Error("Yellow's assistant from tier 2 falls off the market without a gear")
	}
	s.Market = []int{black, yellow, red, red, yellow, red, blue, blue, -1}
	s.Seats[blue].Asst, s.Seats[yellow].Asst, s.Seats[red].Asst, s.Seats[black].Asst = 2, 3, 2, 4
	s.occupy(black, 8)
	s.Seats[black].Asst--
	for tier, o := range s.Market {
		if (tier == 8) != (o == black) || (tier != 8 && o >= 0) {
			t.Fatalf("after the burst %v, want only Black's assistant on tier 9", s.Market)
		}
	}
	if s.Seats[blue].Asst != 4 || s.Seats[red].Asst != 5 || s.Seats[yellow].Asst != 5 || s.Seats[black].Asst != 4 {
		t.Error("burst assistants go back to their owners")
	}
}

func TestExampleAssistantActions(t *testing.T) {
	s := scenario(t, 4)
	france := -1
	for i, m := range s.c.Mats {
		if m.Nation == "France" {
			france = i
		}
	}
	p := &s.Seats[red]
	p.Mat, p.Obj = france, 1
	p.Chars = []int{id(t, s, "character", "holmes")}
	s.Market = []int{blue, -1, -1, yellow, -1, -1, -1, -1, -1}
	s.Market[1] = red
	p.Asst--
	s.Seats[red].Queue = []Task{{Kind: dAssistant}}
	pr := s.Prompts()
	if strings.Contains(strings.Join(pr[0].Actions, ","), "objective") {
		t.Error("the next objective level needs at least two characters")
	}
	err := wantRefusal(t, s, red, "objective", errIllegal)
	if msg := refusal(err); !strings.Contains(msg, "objective level 2 is not met yet") {
		t.Errorf("objective refused with %q, want the level that is not met", msg)
	}
	p.Chars = append(p.Chars, id(t, s, "character", "darwin"))
	pr = s.Prompts()
	want := "objective,market place,market move 2,skip"
	if strings.Join(pr[0].Actions, ",") != want {
		t.Fatalf("assistant actions %v, want %s", pr[0].Actions, want)
	}
	pounds := p.Pounds
	mustApply(t, s, red, "market move 2")
	if s.Market[2] != red || p.Pounds != pounds-2 {
		t.Errorf("Red moves to the next free space (tier 3) for its cost: %v, paid %d", s.Market, pounds-p.Pounds)
	}
}

func TestExampleBuzzTrack(t *testing.T) {
	s := scenario(t, 4)
	for i := range s.FlyerAt {
		if s.FlyerAt[i].Space == 5 {
			for j, f := range s.c.Flyers {
				if f.ID == "b1" {
					s.FlyerAt[i].Flyer = j
				}
			}
		}
	}
	p := &s.Seats[red]
	p.Buzz = 3
	g0 := p.Gears
	s.moveBuzz(red, 3)
	s.settle()
	if pr := s.Prompts(); pr[0].Kind != "poster" || !strings.Contains(say(*pr[0].Text), "poster 4") {
		t.Fatalf("passing poster 4 offers a Buzz token: %+v", pr)
	}
	mustApply(t, s, red, "poster")
	if p.Buzz != 6 || p.Gears != g0+1 || p.Tokens[0] != 4 {
		t.Errorf("Red on %d with %+d gears; want space 6, a token on 4 and the flyer's gear", p.Buzz, p.Gears-g0)
	}
	// Phase 6 step 4: Blue has a token on poster 7, Red chooses 2 Buzz on poster 4.
	s.Seats[blue].Tokens, s.Seats[blue].Buzz = []int{7}, 8
	s.Seats[red].Buzz = 5
	s.CurrentPhase, s.Turn = phaseIncome, phase6Steps // step 4, the last of phase 6, is under way
	bvp, rvp := s.Seats[blue].VP, p.VP
	s.Seats[blue].Queue = []Task{{Kind: tPosters}}
	p.Queue = []Task{{Kind: tPosters}}
	s.settle()
	if s.Seats[blue].VP != bvp+2 {
		t.Errorf("Blue gets %d VP for poster 7, want 2", s.Seats[blue].VP-bvp)
	}
	if pr := s.Prompts(); len(pr) != 1 || pr[0].Seat != red || strings.Join(pr[0].Actions, ",") != "bonus pounds,bonus buzz,bonus pounds always,bonus buzz always" {
		t.Fatalf("Red chooses 2 pounds or 2 Buzz: %+v", pr)
	}
	mustApply(t, s, red, "bonus buzz")
	mustApply(t, s, red, "poster")
	if p.Buzz != 7 || p.VP != rvp+2 || len(p.Tokens) != 2 {
		t.Errorf("Red on %d with %+d VP and tokens %v; want poster 7 reached, the second token placed and 2 VP at once", p.Buzz, p.VP-rvp, p.Tokens)
	}
}

func TestExampleEndOfBuzzTrack(t *testing.T) {
	s := scenario(t, 4)
	s.Seats[yellow].Buzz, s.Seats[blue].Buzz, s.Seats[red].Buzz, s.Seats[black].Buzz = 38, 30, 12, 12
	s.Seats[yellow].Tokens, s.Seats[blue].Tokens = []int{4, 7}, []int{4, 7}
	s.moveBuzz(yellow, 5)
	s.settle()
	if s.Seats[yellow].Buzz != 40 || len(s.Tickets) != 1 || s.Tickets[0] != yellow {
		t.Fatal("Yellow reaches 40 and takes entry ticket I; extra Buzz is lost")
	}
	before := []int{s.Seats[yellow].VP, s.Seats[blue].VP, s.Seats[red].VP, s.Seats[black].VP}
	s.scoreBuzz()
	got := []int{s.Seats[yellow].VP - before[0], s.Seats[blue].VP - before[1], s.Seats[red].VP - before[2], s.Seats[black].VP - before[3]}
	if got[0] != 6 || got[1] != 4 || got[2] != 1 || got[3] != 1 {
		t.Errorf("Buzz ranks give %v, want 6, 4, and 2 shared by the tied Red and Black", got)
	}
}

func TestExampleEndScoring(t *testing.T) {
	s := scenario(t, 4)
	s.Round, s.CurrentPhase = 5, phaseIncome
	p := &s.Seats[blue]
	mat := p.Mat
	p.Obj = 2
	p.Slots = make([]Slot, 8)
	p.Slots[0] = Slot{Kind: slotLoan, ID: -9, Repaid: true}
	p.Slots[1] = Slot{Kind: slotResearch, ID: 0}
	p.Slots[2] = Slot{Kind: slotResearch, ID: 1}
	p.Pounds, p.Gears, p.Energy, p.News = 7, 1, 1, 1
	s.Market = []int{-1, red, -1, red, blue, -1, -1, -1, -1}
	before := p.VPBy
	before = append([]int(nil), before...)
	s.endScoring()
	if p.VPBy[vpObjective]-before[vpObjective] != s.c.Mats[mat].Objective[1].VP || s.c.Mats[mat].Objective[1].VP != 4 {
		t.Errorf("objective level 2 scores %d, want 4", p.VPBy[vpObjective])
	}
	if p.VPBy[vpLoans] != -5 {
		t.Errorf("the paid-back loan costs %d, want -5", p.VPBy[vpLoans])
	}
	if p.VPBy[vpResearchSpaces] != -8 || p.Slots[3].Kind != slotNote {
		t.Errorf("research spaces cost %d, want -8: 10 pounds cover one of the five free spaces", p.VPBy[vpResearchSpaces])
	}
	if p.VPBy[vpBlackMarket] != 3 || s.Seats[red].VPBy[vpBlackMarket] != 3 {
		t.Errorf("Black Market: Blue %d, Red %d; want 3 each (Red 2+1)", p.VPBy[vpBlackMarket], s.Seats[red].VPBy[vpBlackMarket])
	}
	if !s.Done || len(s.Prompts()) != 0 {
		t.Error("the game is over")
	}
	if _, err := s.Apply(0, "pass"); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("after the end: %v, want ErrGameOver", err)
	}
}

func TestLoansAndForcedLoans(t *testing.T) {
	s := scenario(t, 2)
	p := &s.Seats[blue]
	for i := range p.Slots {
		p.Slots[i] = Slot{Kind: slotResearch, ID: i}
	}
	refused(t, s, blue, "loan", engine.ErrIllegalAction, "say which research tile the loan replaces")
	mustApply(t, s, blue, "loan 3")
	if p.Slots[2].Kind != slotLoan || p.Pounds != 50 {
		t.Fatal("the loan replaces research tile 3 and pays 10 pounds")
	}
	refused(t, s, blue, "loan 3", engine.ErrIllegalAction, "only replace a research tile")
	mustApply(t, s, blue, "repay 3")
	if !p.Slots[2].Repaid || p.Pounds != 40 {
		t.Fatal("paying back costs 10 pounds and flips the loan")
	}
	refused(t, s, blue, "repay 3", engine.ErrIllegalAction, "no open loan")
	// A forced loan with a full mat asks which tile it replaces.
	p.Pounds = 3
	mustApply(t, s, red, "dice 1 1 1 1")
	mustApply(t, s, blue, "dice 2 2 2 1")
	pr := s.Prompts()
	if pr[0].Seat != blue || pr[0].Kind != "pay" || pr[0].Actions[0] != "pay" {
		t.Fatalf("Blue owes 7 pounds with 3 in hand: %+v", pr)
	}
	mustApply(t, s, blue, "pay")
	pr = s.Prompts()
	if pr[0].Seat != blue || pr[0].Kind != "replace" {
		t.Fatalf("Blue must place the forced loan: %+v", pr)
	}
	mustApply(t, s, blue, "replace 1")
	if p.Slots[0].Kind != slotLoan || p.Pounds != 3+10-7 {
		t.Errorf("forced loan: slot %+v, pounds %d", p.Slots[0], p.Pounds)
	}
}
