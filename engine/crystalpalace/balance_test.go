package crystalpalace

import (
	"sort"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// TestNoCardDominates plays heuristic players against each other and checks
// that no card, tile or nation held often wins far above its kind's
// baseline (30 points above the win rate of all cards of that kind).
func TestNoCardDominates(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 150 full games")
	}
	r := testRules(t)
	held, won := map[string]int{}, map[string]int{}
	for g := 0; g < 150; g++ {
		st, _ := r.New(engine.Setup{Players: 4, Seed: uint64(9000 + g)})
		rng := engine.NewRNG(uint64(g))
		if _, err := ai.PlayOut(st, []engine.Player{Heuristic{}, Heuristic{}, Heuristic{}, Heuristic{}}, &rng, 100000); err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		res := s.Result()
		for seat := range s.Seats {
			w := false
			for _, x := range res.Winners {
				if int(x) == seat {
					w = true
				}
			}
			keys := []string{}
			for _, i := range s.Seats[seat].Protos {
				keys = append(keys, "proto:"+s.c.Patents[i].ID)
			}
			for _, i := range s.Seats[seat].Chars {
				keys = append(keys, "char:"+s.c.Characters[i].ID)
			}
			for _, sl := range s.Seats[seat].Slots {
				if sl.Kind == slotResearch {
					keys = append(keys, "res:"+s.c.Research[sl.ID].ID)
				}
			}
			keys = append(keys, "nation:"+s.c.Mats[s.Seats[seat].Mat].Nation)
			for _, k := range keys {
				held[k]++
				if w {
					won[k]++
				}
			}
		}
	}
	// Winners hold more cards than losers, so each kind (proto, char, res,
	// nation) has its own baseline: the win rate of all its holdings.
	kindHeld, kindWon := map[string]int{}, map[string]int{}
	for k, n := range held {
		kind := k[:strings.IndexByte(k, ':')]
		kindHeld[kind] += n
		kindWon[kind] += won[k]
	}
	type row struct {
		k    string
		n    int
		rate float64
	}
	var rows []row
	for k, n := range held {
		rows = append(rows, row{k, n, float64(won[k]) / float64(n)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].rate > rows[j].rate })
	for _, r := range rows {
		kind := r.k[:strings.IndexByte(r.k, ':')]
		base := float64(kindWon[kind]) / float64(kindHeld[kind])
		if r.n >= 20 && r.rate > base+0.30 {
			t.Errorf("%s: held %d times, its holder won %.0f%% (baseline for its kind %.0f%%)", r.k, r.n, 100*r.rate, 100*base)
		}
	}
	if testing.Verbose() {
		for _, r := range rows[:min(8, len(rows))] {
			t.Logf("%-24s held %3d  won %.2f", r.k, r.n, r.rate)
		}
		for kind, n := range kindHeld {
			t.Logf("baseline %-8s held %4d  won %.2f", kind, n, float64(kindWon[kind])/float64(n))
		}
	}
}
