package ai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// luckGame is one decision among arms whose worths differ by a little,
// while a hidden luck, the same whatever is chosen, moves the outcome by
// much more: what a good search must tell apart from the luck of a guess.
type luckGame struct {
	Arm  int     // the arm chosen, -1 before
	Luck float64 // hidden: the seat cannot see it
}

const arms = 8

func (g *luckGame) Players() int { return 1 }
func (g *luckGame) Prompts() []engine.Prompt {
	if g.Arm >= 0 {
		return nil
	}
	p := engine.Prompt{Seat: 0, Kind: "arm"}
	for a := range arms {
		p.Actions = append(p.Actions, fmt.Sprint("arm ", a))
	}
	return []engine.Prompt{p}
}
func (g *luckGame) FreeActions(engine.Seat) []string { return nil }
func (g *luckGame) Apply(_ engine.Seat, action string) ([]engine.Event, error) {
	_, err := fmt.Sscanf(action, "arm %d", &g.Arm)
	return nil, err
}
func (g *luckGame) View(engine.Seat) any             { return g.Arm }
func (g *luckGame) Phase() engine.Text               { return engine.Text{} }
func (g *luckGame) Over() bool                       { return g.Arm >= 0 }
func (g *luckGame) Result() engine.Result            { return engine.Result{Over: g.Over()} }
func (g *luckGame) Encode() ([]byte, error)          { return json.Marshal(g) }
func (g *luckGame) Clone() engine.State              { c := *g; return &c }
func (g *luckGame) Observe(engine.Seat) engine.State { return &luckGame{Arm: g.Arm} }

// luckKnowledge lists the worst arm first and the best last.
type luckKnowledge struct{}

func (luckKnowledge) Determinize(view engine.State, _ engine.Seat, rng *engine.RNG) engine.State {
	return &luckGame{Arm: view.(*luckGame).Arm, Luck: float64(rng.Intn(1000)) / 1000 * 0.8}
}
func (luckKnowledge) Candidates(_ engine.State, p engine.Prompt) []string { return p.Actions }
func (luckKnowledge) Rollout(_ engine.State, p engine.Prompt, _ *engine.RNG) string {
	return p.Actions[0]
}
func (luckKnowledge) Progress(st engine.State) int { return st.(*luckGame).Arm + 1 }
func (luckKnowledge) Horizon(engine.State) int     { return arms + 1 }
func (luckKnowledge) Evaluate(st engine.State, v []float64) {
	g := st.(*luckGame)
	v[0] = 0.1 + 0.01*float64(g.Arm) + g.Luck
}

// The root's candidates are compared on the same guesses, so a luck that
// dwarfs their differences does not decide between them: the best arm is
// chosen from every starting point of the random stream.
func TestSearchComparesCandidatesOnTheSameGuesses(t *testing.T) {
	m := ai.Search{Knowledge: luckKnowledge{}, Work: 20_000}
	wrong := 0
	for seed := range uint64(40) {
		rng := engine.NewRNG(seed)
		g := &luckGame{Arm: -1}
		if got := m.Best(context.Background(), g, g.Prompts()[0], &rng).Action; got != "arm 7" {
			wrong++
		}
	}
	if wrong > 0 {
		t.Errorf("the best arm missed from %d of 40 starting points", wrong)
	}
}
