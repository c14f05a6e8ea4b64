package crystalpalace

import (
	"bytes"
	"slices"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// An action carrying an answer ("place 3 patent 2 market place", "build
// crane target 2", "place 3 patent 2 only") ends in the same state as the
// older notation: the bare action, then the question answered (or skipped
// for "only"). So logs stored before answers could be carried still
// replay, and both notations stay legal.
func TestTailEqualsAnswersInTurn(t *testing.T) {
	r := testRules(t)
	tails := 0
	for g := 0; g < 20; g++ {
		st, err := r.New(engine.Setup{Players: 2 + g%4, Seed: uint64(900 + g)})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		setup := engine.Setup{Players: 2 + g%4, Seed: uint64(900 + g)}
		var moves []engine.Move
		rng := engine.NewRNG(uint64(g))
		for step := 0; !s.Done && step < 3000; step++ {
			pr := s.Prompts()[0]
			text := ai.Random{}.Choose(s, pr, &rng)
			if g%2 == 1 {
				text = Heuristic{}.Choose(s, pr, &rng)
			}
			a, err := ParseAction(text)
			if err != nil {
				t.Fatal(err)
			}
			if a.Tail {
				tails++
				replay, _ := r.New(setup)
				for _, m := range moves {
					if _, err := replay.Apply(m.Seat, m.Action); err != nil {
						t.Fatal(err)
					}
				}
				old := replay.(*State)
				inTurn(t, old, pr.Seat, a)
				if _, err := s.Apply(pr.Seat, text); err != nil {
					t.Fatalf("%q: %v", text, err)
				}
				want, _ := old.Encode()
				got, _ := s.Encode()
				if !bytes.Equal(want, got) {
					t.Fatalf("game %d: %q differs from its answers given in turn:\n%s\n%s", g, text, want, got)
				}
				moves = append(moves, engine.Move{Seat: pr.Seat, Action: text})
				continue
			}
			if _, err := s.Apply(pr.Seat, text); err != nil {
				t.Fatalf("%q: %v", text, err)
			}
			moves = append(moves, engine.Move{Seat: pr.Seat, Action: text})
		}
	}
	if tails < 50 {
		t.Fatalf("only %d actions carried answers", tails)
	}
}

// inTurn applies a in the older notation: the bare action, then its
// answers one question at a time, skipping the questions they skip.
func inTurn(t *testing.T, s *State, seat engine.Seat, a Action) {
	t.Helper()
	bare := a
	bare.Then, bare.Tail = nil, false
	apply := func(text string) {
		t.Helper()
		if _, err := s.Apply(seat, text); err != nil {
			t.Fatalf("%q after %q: %v", text, bare.String(), err)
		}
	}
	asked := func() *engine.Prompt {
		for _, p := range s.Prompts() {
			if p.Seat == seat && (p.Kind == "assistant" || p.Kind == "target") {
				return &p
			}
		}
		return nil
	}
	apply(bare.String())
	for _, f := range a.Then {
		for {
			p := asked()
			if p == nil {
				t.Fatalf("%q: no question left for %q", a.String(), f.String())
			}
			if slices.Contains(p.Actions, f.String()) {
				apply(f.String())
				break
			}
			apply("skip")
		}
	}
	if p := asked(); p != nil && p.Kind == "assistant" && len(a.Then) == 0 {
		apply("skip")
	}
}
