package eightydays_test

import (
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/eightydays"
)

// benchTurnLimit bounds a random game: random travellers who pile up money
// on moves back may never be allowed home (10 £ or less), see docs/eighty-days.md.
const benchTurnLimit = 1000

// BenchmarkFullGame plays complete 4-player games between random players:
// the games of the first seeds that end within benchTurnLimit actions,
// chosen before the timer starts. One operation is one whole game, from
// New to the winner's arrival in London, so ns/op is the time of a game and
// games/s counts finished games only. It also reports the actions in an
// average game and the share of random games that end.
func BenchmarkFullGame(b *testing.B) {
	rules := newRules(b)
	players := []engine.Player{ai.Random{}, ai.Random{}, ai.Random{}, ai.Random{}}
	var seeds []uint64
	tried := 0
	for seed := uint64(1); len(seeds) < 200; seed++ {
		tried++
		s, _ := rules.New(engine.Setup{Players: 4, Seed: seed})
		rng := engine.NewRNG(seed)
		if out, err := ai.PlayOut(s, players, &rng, benchTurnLimit); err == nil && !out.Stalled {
			seeds = append(seeds, seed)
		}
	}
	actions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		seed := seeds[i%len(seeds)]
		s, err := rules.New(engine.Setup{Players: 4, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		rng := engine.NewRNG(seed)
		out, err := ai.PlayOut(s, players, &rng, benchTurnLimit)
		if err != nil || out.Stalled || !s.Over() {
			b.Fatalf("seed %d: %v (stalled %v)", seed, err, out.Stalled)
		}
		actions += len(out.Moves)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
	b.ReportMetric(float64(len(seeds))/float64(tried), "ending-share")
}

func newRules(tb testing.TB) *eightydays.Rules {
	tb.Helper()
	c, err := eightydays.DefaultContent()
	if err != nil {
		tb.Fatal(err)
	}
	return eightydays.NewRules(c)
}
