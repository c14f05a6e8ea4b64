package crystalpalace

import (
	"testing"

	"github.com/meeplegames/meeple/engine"
)

func midState(tb testing.TB) *State {
	r := testRules(tb)
	st, _ := r.New(engine.Setup{Players: 4, Seed: 3})
	rng := engine.NewRNG(3)
	for !st.Over() {
		s := st.(*State)
		if s.Round == 2 && s.CurrentPhase == phasePlace {
			break
		}
		p := st.Prompts()[0]
		st.Apply(p.Seat, Heuristic{}.Choose(st, p, &rng))
	}
	return st.(*State)
}

func BenchmarkProbeClone(b *testing.B) {
	s := midState(b)
	for i := 0; i < b.N; i++ {
		_ = s.clone()
	}
}
func BenchmarkProbeEstimate(b *testing.B) {
	s := midState(b)
	for i := 0; i < b.N; i++ {
		_ = s.relative(0)
	}
}
func BenchmarkProbeHeuristicDecision(b *testing.B) {
	s := midState(b)
	p := s.Prompts()[0]
	rng := engine.NewRNG(1)
	for i := 0; i < b.N; i++ {
		Heuristic{}.Choose(s, p, &rng)
	}
}
