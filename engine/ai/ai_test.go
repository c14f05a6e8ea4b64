package ai_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
)

// games returns both games with their embedded content: Around the World
// in 80 Days, then Crystal Palace.
func games(t *testing.T) []engine.Rules {
	t.Helper()
	ed, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	cpc, err := crystalpalace.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return []engine.Rules{eightydays.NewRules(ed), crystalpalace.NewRules(cpc)}
}

func eightyDays(t *testing.T) engine.Rules { return games(t)[0] }

func TestLookup(t *testing.T) {
	rules := eightyDays(t)
	if _, err := ai.Lookup(rules, "random"); err != nil {
		t.Errorf("random: %v", err)
	}
	if _, err := ai.Lookup(rules, "heuristic"); err != nil {
		t.Errorf("heuristic: %v", err)
	}
	_, err := ai.Lookup(rules, "genius")
	if err == nil || !strings.Contains(err.Error(), `no computer player "genius" (known: easy, heuristic, normal, random, strong)`) {
		t.Errorf("unknown player: err = %v", err)
	}
}

func TestPlayOutFinishesOrStalls(t *testing.T) {
	rules := eightyDays(t)
	heuristic, _ := ai.Lookup(rules, "heuristic")
	s, err := rules.New(engine.Setup{Players: 3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	rng := engine.NewRNG(5)
	out, err := ai.PlayOut(s, []engine.Player{heuristic, heuristic, heuristic}, &rng, 5000)
	if err != nil {
		t.Fatal(err)
	}
	if out.Stalled || !s.Over() || len(s.Result().Winners) != 1 {
		t.Fatalf("heuristic game did not finish: stalled %v, over %v", out.Stalled, s.Over())
	}
	// The moves replay to the same state.
	again, _ := rules.New(engine.Setup{Players: 3, Seed: 5})
	for _, m := range out.Moves {
		if _, err := again.Apply(m.Seat, m.Action); err != nil {
			t.Fatalf("replaying %v: %v", m, err)
		}
	}
	a, _ := s.Encode()
	b, _ := again.Encode()
	if string(a) != string(b) {
		t.Fatal("replaying the moves gave a different state")
	}

	// A step limit stops a game and says so.
	s, _ = rules.New(engine.Setup{Players: 3, Seed: 5})
	out, err = ai.PlayOut(s, []engine.Player{ai.Random{}, ai.Random{}, ai.Random{}}, &rng, 4)
	if err != nil || !out.Stalled || len(out.Moves) != 4 {
		t.Fatalf("limit of 4: stalled %v after %d moves, err %v", out.Stalled, len(out.Moves), err)
	}
}

// TestDecisionsDependOnThePositionOnly takes a game back a few actions, as
// an undo does, and plays the same moves again: every computer player
// chooses what it chose the first time, in both games.
func TestDecisionsDependOnThePositionOnly(t *testing.T) {
	for _, rules := range games(t) {
		t.Run(rules.Name(), func(t *testing.T) {
			heuristic, err := ai.Lookup(rules, "heuristic")
			if err != nil {
				t.Fatal(err)
			}
			players := []engine.Player{ai.Random{}, heuristic, ai.Random{}}
			const seed, steps = 11, 60
			s, err := rules.New(engine.Setup{Players: 3, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			var played []string
			var saved []engine.State // the game before each action
			for len(played) < steps && !s.Over() {
				saved = append(saved, s.Clone())
				p := s.Prompts()[0]
				action := ai.Decide(players[p.Seat], s, p, seed, len(played))
				if _, err := s.Apply(p.Seat, action); err != nil {
					t.Fatal(err)
				}
				played = append(played, action)
			}
			// go back to several points and play on from there
			for _, back := range []int{1, 7, 25} {
				again := saved[len(saved)-back]
				for i := len(saved) - back; i < len(played); i++ {
					p := again.Prompts()[0]
					if got := ai.Decide(players[p.Seat], again, p, seed, i); got != played[i] {
						t.Fatalf("taken back %d actions: action %d is %q, first time %q", back, i, got, played[i])
					}
					if _, err := again.Apply(p.Seat, played[i]); err != nil {
						t.Fatal(err)
					}
				}
			}
			// and the randomness is there: another seed's random player
			// chooses differently somewhere
			differs := false
			for i, st := range saved {
				p := st.Prompts()[0]
				if len(p.Actions) > 1 && ai.Decide(ai.Random{}, st.Clone(), p, seed+1, i) != ai.Decide(ai.Random{}, st.Clone(), p, seed, i) {
					differs = true
				}
			}
			if !differs {
				t.Fatal("the seed changes no random choice")
			}
		})
	}
}

func TestRNGAtDiffersFromTheGameAndBetweenPositions(t *testing.T) {
	game := engine.NewRNG(5)
	a, b := ai.RNGAt(5, 0), ai.RNGAt(5, 1)
	x, y, z := game.Uint64(), a.Uint64(), b.Uint64()
	if x == y || y == z || x == z {
		t.Fatalf("streams coincide: game %x, position 0 %x, position 1 %x", x, y, z)
	}
	if c := ai.RNGAt(5, 0); c.Uint64() != y {
		t.Fatal("the same position drew a different number")
	}
}

// A play-out in stretches, as simulate plays it, is the play-out in one go.
func TestPlayOutAtInStretches(t *testing.T) {
	for _, rules := range games(t) {
		players := []engine.Player{ai.Random{}, ai.Random{}}
		whole, _ := rules.New(engine.Setup{Players: 2, Seed: 3})
		once, err := ai.PlayOutAt(whole, players, 3, 0, 90)
		if err != nil {
			t.Fatal(err)
		}
		parts, _ := rules.New(engine.Setup{Players: 2, Seed: 3})
		var moves []engine.Move
		for len(moves) < 90 && !parts.Over() {
			out, err := ai.PlayOutAt(parts, players, 3, len(moves), min(7, 90-len(moves)))
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, out.Moves...)
		}
		if len(moves) < 20 || !slices.Equal(moves, once.Moves) {
			t.Fatalf("%s: %d moves in stretches differ from %d in one go", rules.Name(), len(moves), len(once.Moves))
		}
	}
}
