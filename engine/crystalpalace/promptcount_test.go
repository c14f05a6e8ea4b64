package crystalpalace

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// countPrompts plays a whole game with the heuristic on every seat through
// the prompt flow, as the bot and the terminal let computers play, and
// counts the prompts answered by kind (free actions taken before answering
// are not prompts, and the answers given without asking are counted
// apart, as "unasked"); "" holds the total asked.
func countPrompts(tb testing.TB, r *Rules, players int, seed uint64) map[string]int {
	st, err := r.New(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	counts := map[string]int{}
	for n := 0; !st.Over(); n++ {
		if n > 5000 {
			tb.Fatalf("seed %d: no end after %d actions", seed, n)
		}
		if p, action, _, ok := engine.FirstUnasked(st); ok {
			counts["unasked"]++ // applied as the tables do, asking nobody
			if _, err := st.Apply(p.Seat, action); err != nil {
				tb.Fatalf("seed %d: unasked %s: %v", seed, action, err)
			}
			continue
		}
		p := st.Prompts()[0]
		action := ai.Decide(Heuristic{}, st, p, seed, n)
		free := false
		for _, f := range st.FreeActions(p.Seat) {
			free = free || f == action
		}
		if !free {
			counts[p.Kind]++
			counts[""]++
		}
		if _, err := st.Apply(p.Seat, action); err != nil {
			tb.Fatalf("seed %d: %s: %v", seed, action, err)
		}
	}
	return counts
}

// promptsBefore is the mean number of prompts of a 3-player game played by
// the heuristic (seeds 1-20) before optional steps were offered in the
// prompts that lead to them or remembered (docs/crystal-palace.md).
const promptsBefore = 156.7

// promptsMost is the most prompts a 3-player game of the heuristic may
// ask: a third fewer than promptsBefore, plus the choices given back when
// raising money keeps a decision open and a die with two possible actions
// is asked even after "… always" (docs/crystal-palace.md).
const promptsMost = 108

// The heuristic's 3-player games ask far fewer prompts than before; the
// figures by kind are logged for docs/crystal-palace.md.
func TestPromptCount(t *testing.T) {
	r := testRules(t)
	total := map[string]int{}
	const games = 20
	for seed := uint64(1); seed <= games; seed++ {
		for k, v := range countPrompts(t, r, 3, seed) {
			total[k] += v
		}
	}
	var kinds []string
	for k := range total {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var line []string
	for _, k := range kinds[1:] {
		line = append(line, k+" "+strconv.FormatFloat(float64(total[k])/games, 'f', 1, 64))
	}
	mean := float64(total[""]) / games
	t.Logf("prompts per game: %.1f (%s)", mean, strings.Join(line, ", "))
	if mean > promptsMost {
		t.Errorf("%.1f prompts a game, want at most %d (%.1f before)", mean, promptsMost, promptsBefore)
	}
}
