package eightydays

import (
	"math"
	"slices"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// perSecond is the search's work (ai.Search.Work) one core of the
// reference machine (the project's 2-core CI machine) does in a second, as
// BenchmarkStrongDecision measures it.
const perSecond = 250_000

// searchPlayer is a searching computer player with the given budget.
func searchPlayer(work int) ai.Search {
	return ai.Search{Knowledge: knowledge{}, Work: work, PerSecond: perSecond}
}

// knowledge teaches engine/ai's search about 80 Days (ai.Knowledge).
type knowledge struct{}

// Observe implements engine.Observable: the face-down deck sorted and the
// generator zeroed; everything else is public.
func (s *State) Observe(engine.Seat) engine.State {
	o := s.clone()
	slices.Sort(o.Deck)
	o.RNG = engine.RNG{}
	return o
}

// Determinize implements ai.Knowledge: the deck shuffled, a new generator.
func (knowledge) Determinize(view engine.State, _ engine.Seat, rng *engine.RNG) engine.State {
	s := view.(*State).clone()
	rng.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	s.RNG = engine.NewRNG(rng.Uint64())
	return s
}

// Progress implements ai.Knowledge: turns played.
func (knowledge) Progress(st engine.State) int { return st.(*State).Turns }

// rolloutRounds is how many rounds a rollout plays before its position is
// judged by the planner.
const rolloutRounds = 8

// Horizon implements ai.Knowledge.
func (knowledge) Horizon(st engine.State) int {
	s := st.(*State)
	return s.Turns + rolloutRounds*len(s.Seats)
}

// Evaluate implements ai.Knowledge: a finished race is won or lost; an
// unfinished one is judged by each seat's planned turns home against the
// nearest rival's.
func (knowledge) Evaluate(st engine.State, v []float64) {
	s := st.(*State)
	if s.Over() {
		for i := range v {
			v[i] = 0
		}
		v[s.Winner] = 1
		return
	}
	pl := s.rules.planner()
	var turns [8]float64
	for i := range s.Seats {
		t := &s.Seats[i]
		turns[i] = float64(s.position(pl, i, -1, 0, t.Pounds, t.Rumors)) / turnScore
	}
	for i := range s.Seats {
		rival := math.Inf(1)
		for j := range s.Seats {
			if j != i {
				rival = min(rival, turns[j])
			}
		}
		v[i] = 1 / (1 + math.Exp((turns[i]-rival)/1.5))
	}
}

// Rollout implements ai.Knowledge: the heuristic, with one action in ten
// at random so that rollouts differ.
func (knowledge) Rollout(st engine.State, p engine.Prompt, rng *engine.RNG) string {
	if rng.Intn(10) == 0 {
		return p.Actions[rng.Intn(len(p.Actions))]
	}
	return Heuristic{}.Choose(st, p, rng)
}

// Candidates implements ai.Knowledge: every action, best first by the
// heuristic's plan.
func (knowledge) Candidates(st engine.State, p engine.Prompt) []string {
	s := st.(*State)
	pl := s.rules.planner()
	type scored struct {
		text  string
		score int
	}
	out := make([]scored, 0, len(p.Actions))
	for _, text := range p.Actions {
		score := turnScore * 1000
		if a, err := s.parse(text); err == nil {
			score = s.score(pl, int(p.Seat), a)
		}
		out = append(out, scored{text, score})
	}
	slices.SortStableFunc(out, func(a, b scored) int { return a.score - b.score })
	texts := make([]string, len(out))
	for i, o := range out {
		texts[i] = o.text
	}
	return texts
}
