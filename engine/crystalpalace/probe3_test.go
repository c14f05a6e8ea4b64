package crystalpalace

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

func TestProbeStrength(t *testing.T) {
	iters, _ := strconv.Atoi(os.Getenv("ITERS"))
	games, _ := strconv.Atoi(os.Getenv("GAMES"))
	if games == 0 {
		t.Skip()
	}
	r := testRules(t)
	wins, vp, hvp := 0.0, 0, 0
	start := time.Now()
	for g := 0; g < games; g++ {
		st, _ := r.New(engine.Setup{Players: 4, Seed: uint64(100 + g)})
		players := []engine.Player{Heuristic{}, Heuristic{}, Heuristic{}, Heuristic{}}
		me := g % 4
		players[me] = searchPlayer(iters)
		if _, err := ai.PlayOutAt(st, players, uint64(100+g), 0, 5000); err != nil {
			t.Fatal(err)
		}
		res := st.Result()
		for _, w := range res.Winners {
			if int(w) == me {
				wins += 1 / float64(len(res.Winners))
			}
		}
		vp += res.Scores[me]
		for i, sc := range res.Scores {
			if i != me {
				hvp += sc
			}
		}
		fmt.Println(g, res.Scores, "me", me, time.Since(start).Round(time.Second))
	}
	fmt.Printf("win %.2f meanVP %.1f heuristic %.1f\n", wins/float64(games), float64(vp)/float64(games), float64(hvp)/float64(3*games))
}
