package eightydays

import (
	"bytes"
	"context"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/enginetest"
)

// searchPositions are positions of heuristic games, every stride-th
// decision of games with players seats.
func searchPositions(tb testing.TB, players, games, stride int) []*State {
	c, err := DefaultContent()
	if err != nil {
		tb.Fatal(err)
	}
	r := NewRules(c)
	var out []*State
	for seed := uint64(1); seed <= uint64(games); seed++ {
		st, err := r.New(engine.Setup{Players: players, Seed: seed})
		if err != nil {
			tb.Fatal(err)
		}
		for n := 0; !st.Over() && n < 5000; n++ {
			p := st.Prompts()[0]
			if n%stride == 0 {
				out = append(out, st.(*State).clone())
			}
			if _, err := st.Apply(p.Seat, ai.Decide(Heuristic{}, st, p, seed, n)); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// TestTheSearchNeverPeeks checks, over many positions, that the order of
// the face-down deck and the random generator, which no seat can see,
// change neither a seat's observation nor any computer player's decision.
func TestTheSearchNeverPeeks(t *testing.T) {
	rng := engine.NewRNG(7)
	players := map[string]engine.Player{"easy": Heuristic{}, "normal": searchPlayer(3000)}
	positions := searchPositions(t, 4, 3, 7)
	changed := 0
	for i, s := range positions {
		p := s.Prompts()[0]
		other := s.clone()
		rng.Shuffle(len(other.Deck), func(i, j int) { other.Deck[i], other.Deck[j] = other.Deck[j], other.Deck[i] })
		other.RNG = engine.NewRNG(rng.Uint64())
		full1, _ := s.Encode()
		full2, _ := other.Encode()
		if !bytes.Equal(full1, full2) {
			changed++
		}
		seen1, _ := s.Observe(p.Seat).Encode()
		seen2, _ := other.Observe(p.Seat).Encode()
		if !bytes.Equal(seen1, seen2) {
			t.Fatalf("position %d: P%d's observation depends on what it cannot see", i, p.Seat+1)
		}
		for name, pl := range players {
			if a, b := ai.Decide(pl, s, p, 99, i), ai.Decide(pl, other, p, 99, i); a != b {
				t.Errorf("position %d, %s P%d: %q, but %q when only hidden things differ", i, name, p.Seat+1, a, b)
			}
		}
	}
	if changed < len(positions)/2 {
		t.Fatalf("the disguise changed only %d of %d positions: the test proves little", changed, len(positions))
	}
}

// TestASearchDecisionIsRepeatable checks that the same position and seed
// bring the same choice, and an ended context a legal one at once.
func TestASearchDecisionIsRepeatable(t *testing.T) {
	player := searchPlayer(5000)
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	for i, s := range searchPositions(t, 3, 1, 5) {
		p := s.Prompts()[0]
		if a, b := ai.Decide(player, s, p, 5, i), ai.Decide(player, s.clone(), p, 5, i); a != b {
			t.Fatalf("position %d: %q then %q", i, a, b)
		}
		a := ai.DecideWithin(ended, searchPlayer(1<<40), s, p, 5, i)
		if _, err := s.clone().Apply(p.Seat, a); err != nil {
			t.Fatalf("position %d, no time: %q: %v", i, a, err)
		}
	}
}

// BenchmarkStrongDecision is the strong player's decision at its default
// budget over positions of 4-player games; work/s is the rate that
// perSecond assumes.
func BenchmarkStrongDecision(b *testing.B) {
	enginetest.StrongDecisions(b, benchRules(b), benchPositions(b))
}

// benchPositions are the benchmarks' positions of 4-player games.
func benchPositions(b *testing.B) []engine.State {
	var positions []engine.State
	for _, s := range searchPositions(b, 4, 2, 9) {
		positions = append(positions, s)
	}
	return positions
}

// benchRules are the rules with the default content.
func benchRules(b *testing.B) *Rules {
	c, err := DefaultContent()
	if err != nil {
		b.Fatal(err)
	}
	return NewRules(c)
}

// BenchmarkThinkingMemory is the memory a strong decision holds at its
// default budget, over positions of 4-player games (live-MB).
func BenchmarkThinkingMemory(b *testing.B) {
	enginetest.ThinkingMemory(b, benchRules(b), benchPositions(b))
}

// TestRolloutsAnswerEveryPromptLegally checks the rollout policy's answers
// in whole games of 2, 4 and 6 players.
func TestRolloutsAnswerEveryPromptLegally(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	enginetest.RolloutsAreLegal(t, NewRules(c), knowledge{}, []int{2, 4, 6}, 60)
}
