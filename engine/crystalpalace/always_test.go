package crystalpalace

import (
	"slices"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// A question answered "always" is not asked again, and the matching "ask …"
// free action is listed until it is taken, after which the question comes
// back: over whole heuristic games, no seat that said "skip always" is asked
// to move an assistant down, no seat that said "pass always" is asked when
// it can only pass, and so on; a seat that asks again is asked again.
func TestAnsweredAlwaysIsNotAskedAgain(t *testing.T) {
	r := testRules(t)
	seen := map[string]int{}
	for g := 0; g < 12; g++ {
		st, err := r.New(engine.Setup{Players: 2 + g%4, Seed: uint64(300 + g)})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := engine.NewRNG(uint64(g))
		for step := 0; !s.Done && step < 3000; step++ {
			for _, pr := range s.Prompts() {
				p := &s.Seats[pr.Seat]
				switch {
				case pr.Kind == "down" && p.NoDown && slices.Contains(pr.Actions, "skip"): // a card event's move down is no question
					t.Fatalf("game %d: %s said skip always, asked %q", g, seatName(int(pr.Seat)), say(*pr.Text))
				case (pr.Kind == "place" || pr.Kind == "build") && p.AutoPass && equalStrings(pr.Actions, passOnly):
					t.Fatalf("game %d: %s said pass always, asked %v", g, seatName(int(pr.Seat)), pr.Actions)
				case pr.Kind == "action" && p.AutoAt&(1<<s.Location) != 0 && len(pr.Actions) == 3 && strings.HasSuffix(pr.Actions[1], " always") &&
					slices.Equal(pr.Actions, s.withRaisedMoney(int(pr.Seat)).phaseActions(int(pr.Seat))): // raising money would open no other
					t.Fatalf("game %d: %s said always, asked %v", g, seatName(int(pr.Seat)), pr.Actions)
				case pr.Kind == "bonus" && p.Queue[0].Subject >= 0 && slices.ContainsFunc(p.Picks, func(k Pick) bool { return k.Poster == p.Queue[0].Subject }):
					t.Fatalf("game %d: %s chose this poster's bonus always, asked %v", g, seatName(int(pr.Seat)), pr.Actions)
				}
			}
			// Every preference set lists its "ask" free action; now and then a
			// seat takes it, and the preference is gone.
			for seat := range s.Seats {
				p := &s.Seats[seat]
				for key, on := range map[string]bool{"down": p.NoDown, "pass": p.AutoPass, "bonus": len(p.Picks) > 0, "act": p.AutoAt != 0} {
					listed := slices.Contains(s.FreeActions(engine.Seat(seat)), "ask "+key)
					if listed != on {
						t.Fatalf("game %d: %s preference %s is %v but ask %s listed %v", g, seatName(seat), key, on, key, listed)
					}
					if on {
						seen[key]++
						if rng.Intn(40) == 0 {
							mustApply(t, s, seat, "ask "+key)
						}
					}
				}
			}
			if s.Done {
				break
			}
			pr := s.Prompts()[0]
			if _, err := s.Apply(pr.Seat, Heuristic{}.Choose(s, pr, &rng)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, key := range []string{"down", "pass", "bonus", "act"} {
		if seen[key] == 0 {
			t.Errorf("no seat ever answered %s always", key)
		}
	}
}

// "… always" holds where it was said: "advance always" at Westminster does
// not take a die's one possible action at the Bank (nor log it "as
// always" there). Over whole heuristic games, a seat whose "always" covers
// every other location is asked at this one.
func TestAlwaysHoldsWhereItWasSaid(t *testing.T) {
	met := 0
	eachHeuristicPrompt(t, 6, 340, func(g int, s *State, pr engine.Prompt) {
		if pr.Kind != "action" || !oneAction(pr.Actions) {
			return
		}
		met++
		c := s.clone()
		c.Seats[pr.Seat].AutoAt = ^uint16(0) &^ (1 << c.Location)
		if text, ok := c.unaskedAction(int(pr.Seat)); ok {
			t.Fatalf("game %d: %s takes %q unasked at location %d after saying always elsewhere", g, seatName(int(pr.Seat)), text, c.Location)
		}
		c.Seats[pr.Seat].AutoAt = 1 << c.Location
		if _, ok := c.unaskedAction(int(pr.Seat)); !ok && slices.Equal(pr.Actions, c.withRaisedMoney(int(pr.Seat)).phaseActions(int(pr.Seat))) {
			t.Fatalf("game %d: %s said always here and is still asked %v", g, seatName(int(pr.Seat)), pr.Actions)
		}
	})
	if met < 20 {
		t.Fatalf("only %d prompts with one possible action met", met)
	}
}

// eachHeuristicPrompt plays games whole games of the heuristic (2 to 5
// players by turns, seeds from seed) and calls fn with each game's state
// and first prompt before the heuristic answers it.
func eachHeuristicPrompt(t *testing.T, games int, seed uint64, fn func(g int, s *State, pr engine.Prompt)) {
	t.Helper()
	r := testRules(t)
	for g := range games {
		st, err := r.New(engine.Setup{Players: 2 + g%4, Seed: seed + uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := engine.NewRNG(uint64(g))
		for step := 0; !s.Done && step < 3000; step++ {
			pr := s.Prompts()[0]
			fn(g, s, pr)
			if _, err := s.Apply(pr.Seat, Heuristic{}.Choose(s, pr, &rng)); err != nil {
				t.Fatal(err)
			}
		}
	}
}
