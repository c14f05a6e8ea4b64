package crystalpalace

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

var changePart = regexp.MustCompile(`([+-]\d+) (£|VP|gears?|energy|newspapers?)(?:[ ,;)]|$)`)

// reported adds up the change events' amounts by seat and unit.
func reported(events []engine.Event) map[int]map[string]int {
	out := map[int]map[string]int{}
	for _, e := range events {
		if e.Kind != EventChange {
			continue
		}
		seat := int(e.Seat)
		if out[seat] == nil {
			out[seat] = map[string]int{}
		}
		text := say(e.Text)
		if i := strings.LastIndex(text, " — "); i >= 0 {
			text = text[i:] // an action's line: its changes follow the dash
		}
		for _, m := range changePart.FindAllStringSubmatch(text, -1) {
			n, _ := strconv.Atoi(m[1])
			unit := m[2]
			for _, stem := range []string{"gear", "newspaper"} {
				if strings.HasPrefix(unit, stem) {
					unit = stem
				}
			}
			out[seat][unit] += n
		}
	}
	return out
}

// Every change of a seat's pounds, VP, gears, energy and newspapers reaches
// the log: over whole games played by computer players, the amounts of the
// change events of each action add up to what changed.
func TestLogReportsEveryChange(t *testing.T) {
	r := testRules(t)
	for g := 0; g < 6; g++ {
		st, err := r.New(engine.Setup{Players: 2 + g%4, Seed: uint64(700 + g)})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := engine.NewRNG(uint64(g))
		for step := 0; !s.Done && step < 3000; step++ {
			pr := s.Prompts()[0]
			a := Heuristic{}.Choose(s, pr, &rng)
			before := make([]tally, s.PlayerCount)
			market := make([]string, s.PlayerCount)
			for seat := range before {
				before[seat] = s.tally(seat)
				market[seat] = marketOf(s, seat)
			}
			ev, err := s.Apply(pr.Seat, a)
			if err != nil {
				t.Fatal(err)
			}
			got := reported(ev)
			for seat := range before {
				now := s.tally(seat)
				if marketOf(s, seat) != market[seat] && !mentions(ev, seatName(seat), "Black Market") {
					t.Fatalf("game %d, %s %q: %s's Black Market assistants %s became %s with no line: %v", g, seatName(int(pr.Seat)), a, seatName(seat), market[seat], marketOf(s, seat), ev)
				}
				if now != before[seat] && !hasChangeEvent(ev, seat) {
					t.Fatalf("game %d, %s %q: %s's %+v became %+v with no change line: %v", g, seatName(int(pr.Seat)), a, seatName(seat), before[seat], now, ev)
				}
				for unit, d := range map[string]int{"£": now.pounds - before[seat].pounds, "VP": now.vp - before[seat].vp,
					"gear": now.gears - before[seat].gears, "energy": now.energy - before[seat].energy,
					"newspaper": now.news - before[seat].news} {
					if got[seat][unit] != d {
						t.Fatalf("game %d, %s %q: %s changed by %d, the log says %d: %v", g, seatName(int(pr.Seat)), a, unit, d, got[seat][unit], ev)
					}
				}
			}
		}
	}
}

// marketOf is where seat's assistants stand on the Black Market.
func marketOf(s *State, seat int) string {
	var tiers []string
	for t, o := range s.Market {
		if o == seat {
			tiers = append(tiers, strconv.Itoa(t+1))
		}
	}
	return strings.Join(tiers, ",")
}

// mentions reports whether one event's text holds both who and what.
func mentions(events []engine.Event, who, what string) bool {
	for _, e := range events {
		if strings.Contains(say(e.Text), who) && strings.Contains(say(e.Text), what) {
			return true
		}
	}
	return false
}

func hasChangeEvent(events []engine.Event, seat int) bool {
	for _, e := range events {
		if e.Kind == EventChange && int(e.Seat) == seat {
			return true
		}
	}
	return false
}

// Phase 6 is not silent: income and special expenses reach the log with
// their cause.
func TestLogExplainsPhase6(t *testing.T) {
	s := newGame(t, 2, 40)
	var all []engine.Event
	for _, line := range []string{"P1: dice 2 1 1 1", "P2: dice 1 1 1 1", "P1: pass", "P2: pass"} {
		m := strings.SplitN(line, ": ", 2)
		ev, err := s.Apply(engine.Seat(m[0][1]-'1'), m[1])
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ev...)
	}
	var text []string
	for _, e := range all {
		text = append(text, say(e.Text))
	}
	joined := strings.Join(text, "\n")
	for _, want := range []string{"P1: -5 £ (dice paid)", "(income)", "(special expenses)", "P2: +1 newspaper (lowest dice total)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the log lacks %q:\n%s", want, joined)
		}
	}
}

// Lines say what happened, naming the card and the place.
func TestLogNamesCardAndLocation(t *testing.T) {
	s := newGame(t, 2, 41)
	crane := patentIdx(t, s, "crane")
	setDisplay(s, locPatent, 2, crane)
	play(t, s, `
		P1: dice 6 1 1 1
		P2: dice 1 1 1 1
		P1: place 6 patent 1
		P2: pass
		P1: pass`)
	ev, err := s.Apply(0, "take 2")
	if err != nil {
		t.Fatal(err)
	}
	want := "P1 takes the " + s.c.Patents[crane].Name + " at the Patent Office"
	if !strings.HasPrefix(say(ev[0].Text), want) {
		t.Errorf("first event %q, want %q", say(ev[0].Text), want)
	}
}

// Skipping a decision says what was not done.
func TestLogSaysWhatASkipDeclines(t *testing.T) {
	const blue = 1
	s := newGame(t, 3, 6)
	setMarket(s, map[int]int{1: 0, 2: 2, 3: 0, 5: 0, 6: blue, 7: 2})
	play(t, s, "P1: dice 3 1 1 1\nP2: dice 6 6 1 1\nP3: dice 2 1 1 1\nP2: place 6 patent 1")
	ev, err := s.Apply(blue, "skip")
	if err != nil {
		t.Fatal(err)
	}
	if want := "P2 moves no assistant down"; say(ev[0].Text) != want {
		t.Errorf("log line %q, want %q", say(ev[0].Text), want)
	}
}

// Black Market lines say where the assistant goes, a placement's line
// names its fee, and effects count a single gear or newspaper in the singular.
func TestLogSaysWhereAndForHowMuch(t *testing.T) {
	s := newGame(t, 2, 42)
	s.Market[0], s.Market[1], s.Market[3] = 1, 1, 0
	for _, tc := range []struct {
		a    Action
		want string
	}{
		{Action{Verb: vPlaceAsst}, "P1 places an assistant on the Black Market, tier 3"},
		{Action{Verb: vMoveAsst, Vals: []int{4}}, "P1 moves their assistant up the Black Market, tier 4 → 5"},
		{Action{Verb: vDown, Vals: []int{4}}, "P1 moves their assistant down the Black Market, tier 4 → 3"},
		{Action{Verb: vDown, Vals: []int{2}}, "P1 moves their assistant off the Black Market (tier 2), back to their supply"},
	} {
		if got := say(s.narrate(0, tc.a)); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.a, got, tc.want)
		}
	}
	play(t, s, "P1: dice 6 1 1 1\nP2: dice 1 1 1 1")
	ev := mustApply(t, s, 0, "place 1 patent 4")
	if got, want := say(ev[0].Text), "P1 places a 1 on space 4 at the Patent Office — -2 £ (fee)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := effectText([]Effect{{gain: gainNewspapers, N: 1}, {gain: gainGears, N: 1}, {gain: gainGears, N: 2}}); got != "+1 newspaper, +1 gear, +2 gears" {
		t.Errorf("effect text %q", got)
	}
}

// A burst of the Black Market says whose assistants go home.
func TestLogNamesTheAssistantsABurstSendsHome(t *testing.T) {
	s := newGame(t, 2, 43)
	for i := range s.Market {
		s.Market[i] = 1
	}
	s.Market[0], s.Market[len(s.Market)-1] = 0, -1
	s.occupy(0, len(s.Market)-1)
	var text []string
	for _, e := range s.ev {
		text = append(text, say(e.Text))
	}
	joined := strings.Join(text, "\n")
	for _, want := range []string{"P1's assistant on tier 1 goes back to P1 (the Black Market bursts)",
		"P2's assistant on tier 2 goes back to P2 (the Black Market bursts)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the log lacks %q:\n%s", want, joined)
		}
	}
}

// A debt that waits for its payer keeps its cause: salaries paid after
// raising the money say so, and so does the choice to pay with loans; a
// flyer's bonus names the flyer.
func TestLogKeepsTheCauseOfAWaitingDebt(t *testing.T) {
	s := fixture(t, "salary")
	ev, err := s.Apply(0, "exchange pound")
	if err != nil {
		t.Fatal(err)
	}
	if !mentions(ev, "P1: -6 £ (salaries)", "") {
		t.Errorf("salaries paid after an exchange: %v", ev)
	}
	s = fixture(t, "salary")
	if pr := wantPrompt(t, s, 0, "pay"); !strings.Contains(say(*pr.Text), "pay 6 £ (salaries), holding 5 £") {
		t.Errorf("pay prompt %q does not say what the debt is for", say(*pr.Text))
	}
	ev, err = s.Apply(0, "pay")
	if err != nil {
		t.Fatal(err)
	}
	if !mentions(ev, "P1 pays 6 £ (salaries), with loans", "") {
		t.Errorf("salaries paid with loans: %v", ev)
	}
	s = newGame(t, 2, 44)
	s.FlyerAt = []Flyers{{Space: 1, Flyer: s.FlyerAt[0].Flyer}}
	s.startLedger()
	s.moveBuzz(0, 1)
	s.settle()
	s.reportAll("")
	if !mentions(s.ev, "(flyer)", "P1") {
		t.Errorf("a flyer's bonus: %v", s.ev)
	}
}

// A prototype aimed at another player gives its effects that player's
// cause, even when they wait behind that player's own question: P2's
// Microphone moves P1 onto a poster and costs P1 2 newspapers, and the
// line of P1 placing its Buzz token does not carry that cost.
func TestATargetsChangesKeepTheirCause(t *testing.T) {
	s := scenario(t, 2)
	mic := id(t, s, "patent", "microphone")
	s.Round, s.CurrentPhase, s.Revealed, s.Turn = 3, phaseBuild, true, 0
	s.Order = []int{1, 0}
	s.Seats[1].Patents = []int{mic}
	s.Seats[1].Gears, s.Seats[1].Energy = 1, 2
	s.Seats[0].News, s.Seats[0].Tokens = 4, nil
	s.Seats[0].Buzz = s.c.Tracks.Buzz.Posters[0].Space - 3
	var lines []string
	for _, a := range []struct {
		seat int
		text string
	}{{1, "build microphone target 1"}, {0, "poster"}} {
		for _, e := range mustApply(t, s, a.seat, a.text) {
			lines = append(lines, say(e.Text))
		}
	}
	log := strings.Join(lines, "\n")
	if !strings.Contains(log, "-2 newspapers (a prototype aimed at them)") {
		t.Errorf("P1's -2 newspapers are not blamed on P2's prototype:\n%s", log)
	}
	for _, l := range lines {
		if strings.Contains(l, "places a Buzz token") && strings.Contains(l, "newspaper") {
			t.Errorf("P1's poster line carries the prototype's cost: %q", l)
		}
	}
}
