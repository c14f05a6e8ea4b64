package crystalpalace

import (
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// chooseUntil lets the heuristic answer seat's prompts (free actions
// included) while seat has a prompt of kind, and returns what it chose.
func chooseUntil(t *testing.T, s *State, seat int, kind string) []string {
	t.Helper()
	rng := engine.NewRNG(1)
	var chose []string
	for len(chose) < 20 {
		var pr *engine.Prompt
		for _, p := range s.Prompts() {
			if int(p.Seat) == seat && p.Kind == kind {
				pr = &p
			}
		}
		if pr == nil {
			return chose
		}
		a := Heuristic{}.Choose(s, *pr, &rng)
		if _, err := s.Apply(pr.Seat, a); err != nil {
			t.Fatalf("heuristic chose %q: %v", a, err)
		}
		chose = append(chose, a)
	}
	t.Fatalf("the heuristic is still answering its %s prompt: %v", kind, chose)
	return nil
}

// Short of 3 pounds for its dice, with 2 newspapers and 1 energy (3 pounds'
// worth), the heuristic raises the money instead of taking a loan.
func TestHeuristicRaisesMoneyBeforeALoan(t *testing.T) {
	s := newGame(t, 2, 21)
	setPurse(s, 0, 3, 2)
	s.Seats[0].Gears, s.Seats[0].Energy = 0, 1
	play(t, s, "P1: dice 2 2 1 1\nP2: dice 1 1 1 1")
	chose := chooseUntil(t, s, 0, "pay")
	want := []string{"exchange pound", "exchange pound", "sell energy"} // then the debt is paid
	if len(chose) != len(want) {
		t.Fatalf("chose %v, want %v", chose, want)
	}
	for i := range want {
		if chose[i] != want[i] {
			t.Fatalf("chose %v, want %v", chose, want)
		}
	}
	eq(t, "P1 loans", metricCountLoans(s, 0), 0)
	eq(t, "P1 pounds", s.Seats[0].Pounds, 0)
}

// When raising everything would still leave as many loans to take, the
// heuristic keeps its goods and pays at once.
func TestHeuristicKeepsGoodsWhenALoanIsDueAnyway(t *testing.T) {
	s := newGame(t, 2, 22)
	setPurse(s, 0, 0, 2)
	s.Seats[0].Gears, s.Seats[0].Energy = 0, 1
	play(t, s, "P1: dice 3 2 2 1\nP2: dice 1 1 1 1") // 8 short, 4 to raise: 1 loan either way
	if chose := chooseUntil(t, s, 0, "pay"); len(chose) != 1 || chose[0] != "pay" {
		t.Fatalf("chose %v, want [pay]", chose)
	}
	eq(t, "P1 loans", metricCountLoans(s, 0), 1)
	eq(t, "P1 newspapers", s.Seats[0].News, 2)
	eq(t, "P1 energy", s.Seats[0].Energy, 1)
}

// With 4 newspapers before the reveal the heuristic buys a fifth die and
// then chooses five values.
func TestHeuristicExchangesNewspapersForADie(t *testing.T) {
	s := newGame(t, 2, 23)
	setPurse(s, 0, 40, 4)
	chose := chooseUntil(t, s, 0, "dice")
	if len(chose) != 2 || chose[0] != "exchange die" {
		t.Fatalf("chose %v, want exchange die, then the dice", chose)
	}
	a, err := ParseAction(chose[1])
	if err != nil || len(a.Vals) != 5 {
		t.Fatalf("dice %q after the exchange: want 5 values", chose[1])
	}
}

// Through whole games every free action the heuristic takes gives up
// newspapers, gears or energy (so it cannot take them forever), and the
// games end with few loans.
func TestHeuristicFreeActionsAreBounded(t *testing.T) {
	r := testRules(t)
	loanVP, seats, free := 0, 0, 0
	for g := 0; g < 12; g++ {
		n := 2 + g%4
		st, _ := r.New(engine.Setup{Players: n, Seed: uint64(700 + g)})
		s := st.(*State)
		rng := engine.NewRNG(uint64(g))
		for step := 0; !s.Over(); step++ {
			if step > 20000 {
				t.Fatal("game did not end")
			}
			pr := s.Prompts()[0]
			a := Heuristic{}.Choose(s, pr, &rng)
			if act, _ := ParseAction(a); isFree(act.Verb) {
				free++
				// The action alone, before the game runs on.
				after := s.clone()
				after.do(int(pr.Seat), act)
				p, q := &s.Seats[pr.Seat], &after.Seats[pr.Seat]
				if q.News+q.Gears+q.Energy >= p.News+p.Gears+p.Energy {
					t.Fatalf("free action %q did not give up goods", a)
				}
			}
			if _, err := s.Apply(pr.Seat, a); err != nil {
				t.Fatalf("%q: %v", a, err)
			}
		}
		for seat := range s.Seats {
			loanVP += s.Seats[seat].VPBy[vpLoans]
			seats++
		}
	}
	if free == 0 {
		t.Error("the heuristic never took a free action")
	}
	if mean := float64(loanVP) / float64(seats); mean < -8 {
		t.Errorf("loans cost %.1f VP a player on average", mean)
	}
}

// PlayOut accepts the heuristic's free actions as answers to its prompts.
func TestHeuristicPlaysOut(t *testing.T) {
	st, _ := testRules(t).New(engine.Setup{Players: 3, Seed: 5})
	rng := engine.NewRNG(5)
	out, err := ai.PlayOut(st, []engine.Player{Heuristic{}, Heuristic{}, ai.Random{}}, &rng, 20000)
	if err != nil || out.Stalled || !st.Over() {
		t.Fatalf("play-out: err %v, stalled %v, over %v", err, out.Stalled, st.Over())
	}
}
