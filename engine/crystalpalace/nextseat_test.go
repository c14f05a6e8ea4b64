package crystalpalace

import (
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// NextSeat names who decides after the current player while dice are
// placed and prototypes built: checked against who does, over whole
// games. It cannot foresee a phase that ends with the current player's
// decision, nor a player who passes the moment their turn comes (no die
// fits anywhere): at most one time in ten.
func TestNextSeatNamesWhoDecidesNext(t *testing.T) {
	rules := exampleRules(t)
	hits, misses := 0, 0
	for seed := uint64(1); seed <= 4; seed++ {
		st, err := rules.New(engine.Setup{Players: 2 + int(seed)%4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		easy, _ := ai.Lookup(rules, "easy")
		rng := engine.NewRNG(seed)
		for steps := 0; !s.Over() && steps < 20000; steps++ {
			ps := s.Prompts()
			next, ok := s.NextSeat()
			if _, err := s.Apply(ps[0].Seat, easy.Choose(s, ps[0], &rng)); err != nil {
				t.Fatal(err)
			}
			after := s.Prompts()
			if !ok || len(after) != 1 || after[0].Seat == ps[0].Seat || len(ps) != 1 {
				continue // the same player goes on, or no order to foresee
			}
			if after[0].Seat == next {
				hits++
			} else {
				misses++
				t.Logf("phase %d: P%d then P%d, foreseen P%d (%s)", s.CurrentPhase, ps[0].Seat+1, after[0].Seat+1, next+1, after[0].Kind)
			}
		}
	}
	if hits == 0 || misses*10 > hits {
		t.Errorf("NextSeat was right %d times and wrong %d", hits, misses)
	}
}
