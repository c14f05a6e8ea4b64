package ai_test

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/eightydays"
)

func eightyDays(t *testing.T) engine.Rules {
	t.Helper()
	c, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return eightydays.NewRules(c)
}

func TestLookup(t *testing.T) {
	rules := eightyDays(t)
	if _, err := ai.Lookup(rules, "random"); err != nil {
		t.Errorf("random: %v", err)
	}
	if _, err := ai.Lookup(rules, "heuristic"); err != nil {
		t.Errorf("heuristic: %v", err)
	}
	_, err := ai.Lookup(rules, "genius")
	if err == nil || !strings.Contains(err.Error(), `no computer player "genius" (known: heuristic, random)`) {
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
