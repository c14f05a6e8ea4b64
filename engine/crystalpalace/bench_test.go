package crystalpalace

import (
	"strconv"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// playRandom plays one random-legal game to the end.
func playRandom(tb testing.TB, r *Rules, players int, seed uint64) *State {
	st, err := r.New(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	rng := engine.NewRNG(seed)
	out, err := ai.PlayOut(st, []engine.Player{ai.Random{}, ai.Random{}, ai.Random{}, ai.Random{}, ai.Random{}}[:players], &rng, 100000)
	if err != nil || out.Stalled {
		tb.Fatalf("seed %d: %v (stalled %v)", seed, err, out.Stalled)
	}
	return st.(*State)
}

func BenchmarkFullGame(b *testing.B) {
	r := testRules(b)
	for n := 2; n <= 5; n++ {
		b.Run(strconv.Itoa(n)+"p", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				playRandom(b, r, n, uint64(i))
			}
		})
	}
}

// TestMidGameStateSize reports the serialised size of a mid-game state and
// keeps it under 32 KB.
func TestMidGameStateSize(t *testing.T) {
	r := testRules(t)
	biggest := 0
	for seed := uint64(1); seed <= 20; seed++ {
		st, _ := r.New(engine.Setup{Players: 5, Seed: seed})
		rng := engine.NewRNG(seed)
		for !st.Over() {
			s := st.(*State)
			if s.Round == 3 && s.CurrentPhase == phaseActions {
				break
			}
			p := st.Prompts()[0]
			if _, err := st.Apply(p.Seat, ai.Random{}.Choose(st, p, &rng)); err != nil {
				t.Fatal(err)
			}
		}
		data, err := st.Encode()
		if err != nil {
			t.Fatal(err)
		}
		biggest = max(biggest, len(data))
	}
	t.Logf("largest 5-player state in round 3, phase 3: %d bytes", biggest)
	if biggest >= 32*1024 {
		t.Errorf("mid-game state is %d bytes, want under 32 KB", biggest)
	}
}
