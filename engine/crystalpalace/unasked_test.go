package crystalpalace

import (
	"bytes"
	"slices"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// Every answer a table gives without asking is one the prompt lists, and
// no other answer would have served its player better: over whole games,
// at every prompt,
//   - a free instant bonus leaves the player with at least as much of
//     everything as before (more, unless a track is at its end or an
//     objective not met);
//   - a debt paid at once takes no more loans than selling every good and
//     exchanging every newspaper first would;
//   - green bonus sources called the same lead to the same game;
//   - a prompt asked although it lists one action is a debt that raising
//     money would shrink.
func TestUnaskedAnswersLoseNothing(t *testing.T) {
	seen, gained := map[taskKind]int{}, 0
	eachHeuristicPrompt(t, 40, 900, func(g int, s *State, pr engine.Prompt) {
		seat := int(pr.Seat)
		action, why, ok := engine.UnaskedAnswer(s, pr)
		var t0 Task
		if q := s.Seats[seat].Queue; len(q) > 0 {
			t0 = q[0]
		}
		if !ok {
			if len(pr.Actions) == 1 && !pr.Secret && (t0.Kind != dPay || !s.raisingSavesALoan(seat, t0.Amount)) {
				t.Fatalf("game %d: %q is asked with one possible answer, %q", g, pr.Kind, pr.Actions[0])
			}
			return
		}
		if !slices.Contains(pr.Actions, action) || why.IsZero() {
			t.Fatalf("game %d: unasked %q (why %v) is not one of %v", g, action, why, pr.Actions)
		}
		seen[t0.Kind]++
		after := func(actions ...string) *State {
			c := s.clone()
			for _, a := range actions {
				if _, err := c.Apply(pr.Seat, a); err != nil {
					t.Fatalf("game %d: %q: %v", g, a, err)
				}
			}
			return c
		}
		switch t0.Kind {
		case dInstant:
			// the bonus on its own, before the game flows on (a poster
			// reached, a phase ended) differently in each case
			e := s.c.Characters[t0.Subject].Instant[t0.Amount]
			c := s.clone()
			c.applyEffect(seat, effectTask(e, vpCharacters))
			mine := func(p Player) []int {
				return []int{p.Pounds, p.Gears, p.Energy, p.News, p.VP, p.Income, p.Buzz, p.West, p.Obj}
			}
			took, declined := mine(c.Seats[seat]), mine(s.Seats[seat])
			for i, n := range took {
				if n < declined[i] {
					t.Fatalf("game %d: taking instant bonus %d of %s leaves less than declining it: %v against %v",
						g, t0.Amount, s.c.Characters[t0.Subject].ID, took, declined)
				}
			}
			if !slices.Equal(took, declined) {
				gained++
			}
		case dPay:
			raised := []string{}
			c := s.clone()
			for _, a := range []string{"exchange pound", "sell energy", "sell gear"} {
				for c.checkFree(seat, mustParse(t, a)) == nil {
					if _, err := c.Apply(pr.Seat, a); err != nil {
						t.Fatal(err)
					}
					raised = append(raised, a)
				}
			}
			if paid, first := loans(after(action).Seats[seat]), loans(after(append(raised, action)...).Seats[seat]); paid > first {
				t.Fatalf("game %d: paying at once took %d loans, raising money first %d", g, paid, first)
			}
		case dGreen:
			want, _ := after(action).Encode()
			for _, other := range pr.Actions {
				if got, _ := after(other).Encode(); !bytes.Equal(got, want) {
					t.Fatalf("game %d: green sources %q and %q called the same lead to different games", g, action, other)
				}
			}
		}
	})
	t.Logf("unasked answers by decision: %v", seen)
	if gained == 0 {
		t.Error("no free bonus taken without asking gave anything")
	}
	for _, k := range []taskKind{dInstant, dPay} {
		if seen[k] == 0 {
			t.Errorf("no %s decision was answered without asking: the test checked nothing there", decisionKind(k))
		}
	}
}

// loans counts the loans p holds, on its mat and beside it.
func loans(p Player) int {
	n := 0
	for _, sl := range append(slices.Clone(p.Slots), p.Extra...) {
		if sl.Kind == slotLoan {
			n++
		}
	}
	return n
}

func mustParse(t *testing.T, text string) Action {
	t.Helper()
	a, err := ParseAction(text)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
