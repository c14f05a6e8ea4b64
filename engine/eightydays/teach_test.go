package eightydays

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// A refused answer to a pending question (which card to keep, the Police's
// discard) says why and lists the valid answers; over whole games every
// kind of wrong answer is tried at every such question, and another player
// trying to answer is told whose turn it is by name.
func TestRefusalsOfAnswersTeach(t *testing.T) {
	questions := 0
	for g := 0; g < 6; g++ {
		s := fixture(t, 2+g%5, nil)
		for steps := 0; !s.Over() && steps < 600; steps++ {
			p := s.Prompts()[0]
			if p.Kind != PromptTurn {
				questions++
				before, _ := s.Encode()
				for _, wrong := range []string{"keep 0", "keep 3", "keep 9", "discard", "pass", "back", "stay take", "restart", "move 1", "move 80", "play kiouni"} {
					if slices.Contains(p.Actions, wrong) {
						continue
					}
					_, err := s.Apply(p.Seat, wrong)
					if err == nil {
						t.Fatalf("%q accepted at a %s question", wrong, p.Kind)
					}
					if after, _ := s.Encode(); !bytes.Equal(before, after) {
						t.Fatalf("%q refused but the state changed", wrong)
					}
					var rule *engine.RuleError
					if !errors.As(err, &rule) {
						continue // not an action of the notation
					}
					msg := refusal(err)
					if !strings.Contains(msg, "Valid answers: "+p.Actions[0]) || !slices.Equal(rule.Valid, p.Actions) {
						t.Fatalf("%q at a %s question: %q does not list %v", wrong, p.Kind, msg, p.Actions)
					}
					if reason, _, _ := strings.Cut(msg, ". Valid answers:"); strings.TrimSpace(reason) == "" {
						t.Fatalf("%q: no reason: %q", wrong, msg)
					}
				}
				other := (int(p.Seat) + 1) % s.Players()
				_, err := s.Apply(engine.Seat(other), p.Actions[0])
				if err == nil || !strings.Contains(refusal(err), seatName(int(p.Seat))) || strings.Contains(" "+refusal(err)+" ", " your ") {
					t.Fatalf("P%d answering P%d's question: %v", other+1, p.Seat+1, err)
				}
			}
			if _, err := s.Apply(p.Seat, Heuristic{}.Choose(s, p, &s.RNG)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if questions < 10 {
		t.Fatalf("only %d questions met", questions)
	}
	t.Logf("%d questions", questions)
}
