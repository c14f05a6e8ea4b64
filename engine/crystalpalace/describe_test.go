package crystalpalace

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

func TestDescribe(t *testing.T) {
	s := newGame(t, 2, 13)
	setDisplay(s, locClub, 4, charIdx(t, s, "bronte"))
	setPurse(s, 0, 40, 4)
	s.Seats[0].Gears, s.Seats[0].Energy = 2, 1
	e := s.c.Tracks.Economy
	club := s.side(locClub).Dice[0]
	fee := "no fee"
	if club.Fee > 0 {
		fee = "fee " + itoa(club.Fee) + " £"
	}
	if club.Assistant {
		fee += " · assistant action"
	}
	phase1 := []struct{ seat, action, want string }{
		{"P1", "dice 6 5 1 1", "costs 13 £ at the reveal"},
		{"P1", "exchange die", "4 newspapers → a die this round"},
		{"P1", "exchange income", itoa(e.IncomeNewspapers) + " newspapers → +1 income"},
		{"P1", "exchange pound", "1 newspaper → 1 £"},
		{"P1", "sell gear", "1 gear → " + pounds(e.SellGear)},
		{"P2", "exchange die", ""}, // P2 has no newspapers: not legal
		{"P1", "take 1", ""},       // not legal in phase 1
		{"P1", "nonsense", ""},
	}
	for _, c := range phase1 {
		if got := say(s.Describe(seatOf(t, c.seat), c.action)); got != c.want {
			t.Errorf("phase 1, %s %q: %q, want %q", c.seat, c.action, got, c.want)
		}
	}
	play(t, s, "P1: dice 6 1 1 1\nP2: dice 1 1 1 1")
	if got, want := say(s.Describe(0, "place 6 club 1")), "Reform Club · "+fee; got != want {
		t.Errorf("place 6 club 1: %q, want %q", got, want)
	}
	if got := say(s.Describe(1, "place 6 club 1")); got != "" {
		t.Errorf("P2 place out of turn: %q, want \"\"", got)
	}
	play(t, s, "P1: place 6 club 1\nP2: pass\nP1: pass")
	want := "+1 Buzz · Charlotte Bronte · 2 gears, 1 energy · 12 VP · assistant action (Black Market placement free)"
	if got := say(s.Describe(0, "take 4")); got != want {
		t.Errorf("take 4 at the Club: %q, want %q", got, want)
	}
	if got := say(s.Describe(0, "pass")); got != "no action for this die; the space stays free" {
		t.Errorf("pass in phase 3: %q", got)
	}
}

// Every legal action of a random playout can be described without panicking,
// and only the phase prompts' choices of cards, places and exchanges need
// words: each of them gets some.
func TestDescribeEveryLegalAction(t *testing.T) {
	s := newGame(t, 3, 7)
	rng := engine.NewRNG(7)
	for steps := 0; !s.Over() && steps < 3000; steps++ {
		prs := s.Prompts()
		pr := prs[rng.Intn(len(prs))]
		for _, a := range append(append([]string(nil), pr.Actions...), s.FreeActions(pr.Seat)...) {
			got := say(s.Describe(pr.Seat, a))
			a0, _ := ParseAction(a)
			switch a0.Verb {
			case vPlace, vTake, vBuild, vExchange, vBuy, vSell, vLoan, vRepay, vUse, vPublish, vAdvance:
				if got == "" {
					t.Fatalf("%s %q has no description", seatName(int(pr.Seat)), a)
				}
			}
		}
		if _, err := s.Apply(pr.Seat, pr.Actions[rng.Intn(len(pr.Actions))]); err != nil {
			t.Fatal(err)
		}
	}
}

func seatOf(t *testing.T, name string) engine.Seat {
	t.Helper()
	return engine.Seat(name[1] - '1')
}

func BenchmarkDescribe(b *testing.B) {
	s := newGame(b, 4, 1)
	for b.Loop() {
		s.Describe(0, "exchange die")
		s.Describe(0, "dice 6 5 1 1")
	}
}

// The "down" question says which moves take a gear from the banner.
func TestDescribeDownGear(t *testing.T) {
	const blue = 1
	s := newGame(t, 3, 6)
	setMarket(s, map[int]int{1: 0, 2: 2, 3: 0, 5: 0, 6: blue, 7: 2})
	play(t, s, "P1: dice 3 1 1 1\nP2: dice 6 6 1 1\nP3: dice 2 1 1 1\nP2: place 6 patent 1")
	pr := wantPrompt(t, s, blue, "down")
	if !strings.Contains(say(*pr.Text), "gear") {
		t.Errorf("down prompt %q does not mention the gear", say(*pr.Text))
	}
	if got, want := say(s.Describe(blue, "down 6")), "to tier 4 · +1 gear from the banner"; got != want {
		t.Errorf("down 6: %q, want %q", got, want)
	}
}

// Building says what it buys and for how much before the choice.
func TestDescribeBuildSaysWhatItBuys(t *testing.T) {
	const blue = 0
	s := newGame(t, 2, 18)
	s.Seats[blue].Patents = []int{patentIdx(t, s, "audiobook")} // 1 gear, 1 energy
	s.Seats[blue].Gears, s.Seats[blue].Energy = 1, 0
	play(t, s, "P1: dice 2 1 1 1\nP2: dice 1 1 1 1\nP1: pass\nP2: pass")
	got := say(s.Describe(blue, "build audiobook"))
	if want := "(buys 1 energy for 4 £)"; !strings.Contains(got, want) {
		t.Errorf("build audiobook: %q, want it to contain %q", got, want)
	}
	ev, err := s.Apply(blue, "build audiobook")
	if err != nil {
		t.Fatal(err)
	}
	if want := "P1 builds the Audiobook prototype, buys 1 energy for 4 £ — "; !strings.HasPrefix(say(ev[0].Text), want) {
		t.Errorf("log line %q, want %q", say(ev[0].Text), want)
	}
}

// Every choice says what it gives and costs: a prototype's target is told
// whether the effect is good or bad for them, a patent names the prototype
// it builds and a build the patent it comes from, a placement carrying an
// assistant action says what that does, "always" answers say they last.
func TestDescribeSaysWhatEachChoiceGivesAndCosts(t *testing.T) {
	s := fixture(t, "build")
	s.Seats[0].Gears, s.Seats[0].Energy, s.Seats[0].Pounds = 2, 2, 40
	pt := &s.c.Patents[patentIdx(t, s, "audiobook")]
	got := say(s.Describe(0, "build audiobook target 2"))
	for _, want := range []string{pt.Prototype + " (patent " + pt.Name + ")", "P2 gets " + say(effectsText(pt.Effect)), " for P2)"} {
		if !strings.Contains(got, want) {
			t.Errorf("build audiobook target 2: %q lacks %q", got, want)
		}
	}
	play(t, s, "P1: build audiobook")
	for seat := 1; seat <= 2; seat++ {
		got := say(s.Describe(0, "target "+itoa(seat)))
		verdict := "good for"
		for _, e := range pt.Effect {
			if e.N < 0 {
				verdict = "for" // bad or mixed
			}
		}
		if !strings.Contains(got, "P"+itoa(seat)+" gets ") || !strings.Contains(got, verdict+" P"+itoa(seat)) {
			t.Errorf("target %d: %q", seat, got)
		}
	}

	s = fixture(t, "phase2")
	for _, a := range s.Prompts()[0].Actions {
		if strings.HasSuffix(a, " market place") {
			if got := say(s.Describe(0, a)); !strings.Contains(got, "then an assistant on Black Market tier") {
				t.Errorf("%s: %q", a, got)
			}
		}
		if strings.HasSuffix(a, " only") {
			if got := say(s.Describe(0, a)); !strings.Contains(got, "no assistant action") {
				t.Errorf("%s: %q", a, got)
			}
		}
	}
	play(t, s, "P1: place 6 patent 1\nP2: pass\nP3: pass\nP1: pass")
	for s.CurrentPhase == phasePlace {
		play(t, s, seatName(int(s.Prompts()[0].Seat))+": pass")
	}
	if s.CurrentPhase != phaseActions || s.Location != int(locPatent) {
		t.Fatalf("not at the Patent Office in phase 3: %s", s.Phase().Key())
	}
	{
		patent := &s.c.Patents[s.PatentDisp[0]]
		if got := say(s.Describe(0, "take 1")); !strings.Contains(got, patent.Name+" → builds the "+patent.Prototype+" (build "+patent.ID+")") {
			t.Errorf("take 1 at the Patent Office: %q does not link the patent to its prototype", got)
		}
	}
}

// Descriptions that whole games seldom reach read in every language: a
// move down the Black Market with its gear and a repayment.
func TestDescribeReadsInEveryLanguage(t *testing.T) {
	all, err := testWords()
	if err != nil {
		t.Fatal(err)
	}
	s := newGame(t, 3, 6)
	setMarket(s, map[int]int{1: 0, 2: 2, 3: 0, 5: 0, 6: 1, 7: 2})
	play(t, s, "P1: dice 3 1 1 1\nP2: dice 6 6 1 1\nP3: dice 2 1 1 1\nP2: place 6 patent 1")
	down := s.Describe(1, "down 6")
	loan := fixture(t, "loan")
	repay := loan.Describe(0, "repay 1")
	for lang, want := range map[string][2]string{
		"en": {"to tier 4 · +1 gear from the banner", "10 £ → the -8 VP loan scores -5 VP"},
		"de": {"auf Stufe 4 · +1 Zahnrad vom Banner", "10 £ → der -8-SP-Kredit zählt -5 SP"},
		"fr": {"au niveau 4 · +1 engrenage de la bannière", "10 £ → le prêt de -8 PV compte -5 PV"},
	} {
		if got := all[lang].Say(down); got != want[0] {
			t.Errorf("%s: down 6 reads %q, want %q", lang, got, want[0])
		}
		if got := all[lang].Say(repay); got != want[1] {
			t.Errorf("%s: repay 1 reads %q, want %q", lang, got, want[1])
		}
	}
}

// BenchmarkDescribeWritten is what a reader pays for one description: the
// text made and written in German (a placement: location, fee, assistant
// action and what the assistant's tier pays, nested).
func BenchmarkDescribeWritten(b *testing.B) {
	all, err := testWords()
	if err != nil {
		b.Fatal(err)
	}
	s := newGame(b, 3, 41) // the "phase2" fixture: P1 holds 6 5 3 1
	play(b, s, "P1: dice 6 5 3 1\nP2: dice 4 4 2 2\nP3: dice 2 2 1 1")
	var action string
	for _, a := range s.Prompts()[0].Actions {
		if strings.HasSuffix(a, " market place") {
			action = a
		}
	}
	if action == "" {
		b.Fatal("no placement with an assistant action")
	}
	de := all["de"]
	for b.Loop() {
		de.Say(s.Describe(0, action))
	}
}
