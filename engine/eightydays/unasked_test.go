package eightydays

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// The forced discard at the Police is the only possible answer: a table
// gives it without asking, and the log says why.
func TestTheForcedPoliceDiscardIsUnasked(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 10); at(s, 1, 50); at(s, 2, 3) })
	apply(t, s, 0, "move 13")
	apply(t, s, 1, "move 51")
	apply(t, s, 2, "move 4")
	p := s.Prompts()[0]
	action, why, ok := engine.UnaskedAnswer(s, p)
	if !ok || action != "discard" || p.Kind != PromptPolice {
		t.Fatalf("the forced discard of %+v: %q, %v; want discard, unasked", p, action, ok)
	}
	events := engine.NoteUnasked(apply(t, s, 0, action), p.Seat, why)
	if text := say(events[0].Text); !strings.HasSuffix(text, "(the only possible answer)") {
		t.Fatalf("the log reads %q", text)
	}
}

// Two identical cards drawn are one choice, the first kept; two different
// ones are asked.
func TestTwoIdenticalCardsAreNotAChoice(t *testing.T) {
	for _, tc := range []struct {
		cards   []string
		unasked bool
	}{{[]string{"bribe", "bribe"}, true}, {[]string{"aouda", "bribe"}, false}} {
		s := fixture(t, 3, func(s *State) { at(s, 0, 3); at(s, 1, 30); at(s, 2, 1) })
		s.Deck = append(s.Deck, cardIndex(t, tc.cards[0]), cardIndex(t, tc.cards[1]))
		apply(t, s, 0, "move 5")
		p := s.Prompts()[0]
		action, why, ok := engine.UnaskedAnswer(s, p)
		if p.Kind != PromptKeep || ok != tc.unasked {
			t.Fatalf("%v drawn: prompt %s, unasked %v, want keep, %v", tc.cards, p.Kind, ok, tc.unasked)
		}
		if ok && (action != p.Actions[0] || say(why) != "both cards drawn are the same") {
			t.Fatalf("%v drawn: %q because %q", tc.cards, action, say(why))
		}
	}
}

// At a table (answers that need no asking given, the heuristic on every
// seat), no 4-player game asks a prompt with one possible answer; the
// prompts asked per game, by kind, are logged for docs/eighty-days.md.
func TestPromptCount(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	r := NewRules(c)
	asked, unasked := map[string]int{}, 0
	const games = 20
	for seed := uint64(1); seed <= games; seed++ {
		st, err := r.New(engine.Setup{Players: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; !st.Over(); n++ {
			if n > 5000 {
				t.Fatalf("seed %d: no end after %d actions", seed, n)
			}
			p := st.Prompts()[0]
			action, _, ok := engine.UnaskedAnswer(st, p)
			switch {
			case ok:
				unasked++
			case len(p.Actions) == 1:
				t.Fatalf("seed %d: %s is asked with one possible answer, %s", seed, p.Kind, p.Actions[0])
			default:
				asked[p.Kind]++
				asked[""]++
				rng := engine.NewRNG(seed + uint64(n))
				action = Heuristic{}.Choose(st, p, &rng)
			}
			if _, err := st.Apply(p.Seat, action); err != nil {
				t.Fatal(err)
			}
		}
	}
	var kinds []string
	for k, n := range asked {
		if k != "" {
			kinds = append(kinds, fmt.Sprintf("%s %.1f", k, float64(n)/games))
		}
	}
	sort.Strings(kinds)
	t.Logf("prompts asked per game: %.1f (%s); answered unasked %.1f",
		float64(asked[""])/games, strings.Join(kinds, ", "), float64(unasked)/games)
}
