package eightydays

import (
	"testing"

	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

func TestDescribeSaysWhatEachLegalActionCostsAndWhereItLeads(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 42); at(s, 1, 30); at(s, 2, 1) })
	s.Seats[0].Characters = []int{cardIndex(t, "kiouni")}
	for action, want := range map[string]string{
		"move 44":     "pay 3 £ · Pound",
		"move 45":     "pay 6 £ · Passepartout",
		"back":        "take 40 £ · Calcutta (Layover)",
		"play kiouni": "Kiouni the Elephant: " + say(s.rules.events.effects[cardIndex(t, "kiouni")]),
		"move 43":     "", // a Layover: illegal forward
		"fly 3":       "", // not an action
	} {
		if got := say(s.Describe(0, action)); got != want {
			t.Errorf("Describe(%q) = %q, want %q", action, got, want)
		}
	}
	if got := say(s.Describe(1, "move 31")); got != "" {
		t.Errorf("another seat's action described: %q", got)
	}
	// a drawn character is kept for later, an event applies now
	s.Drawn = []int{cardIndex(t, "aouda"), cardIndex(t, "whist")}
	aouda, whist := say(s.Describe(0, "keep 1")), say(s.Describe(0, "keep 2"))
	s.Drawn = nil
	if aouda != "Aouda (character, played later): discard 1 Rumor" || whist != "A Winning Hand at Whist: take 20 £" {
		t.Errorf("keep: %q and %q", aouda, whist)
	}
	// a character played takes its discount off the price shown
	apply(t, s, 0, "play kiouni")
	if got := say(s.Describe(0, "move 47")); got != "pay 0 £ · Bet 2" {
		t.Errorf("after Kiouni, move 47 = %q, want the 15 £ move for 0 £", got)
	}
	// every legal action of every prompt in a game is described
	g := fixture(t, 4, nil)
	for steps := 0; !g.Over() && steps < 400; steps++ {
		p := g.Prompts()[0]
		for _, a := range p.Actions {
			if g.Describe(p.Seat, a).IsZero() {
				t.Fatalf("legal %q has no description", a)
			}
		}
		if _, err := g.Apply(p.Seat, Heuristic{}.Choose(g, p, &g.RNG)); err != nil {
			t.Fatal(err)
		}
	}
}

// A description reads in the reader's language, content names included:
// going back to London, which whole games seldom reach, and a card.
func TestDescribeReadsInEveryLanguage(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	s := fixture(t, 2, func(s *State) { at(s, 0, 4); s.Seats[0].Pounds = 0 })
	k := fixture(t, 2, nil)
	k.Drawn = []int{cardIndex(t, "aouda"), cardIndex(t, "whist")}
	for lang, want := range map[string][2]string{
		"en": {"back to London with at least 80 £", "Aouda (character, played later): discard 1 Rumor"},
		"de": {"zurück nach London mit mindestens 80 £", "Aouda (Person, später gespielt): 1 Gerücht abwerfen"},
		"fr": {"retour à Londres avec au moins 80 £", "Aouda (personnage, joué plus tard)\u202f: défausser 1 Rumeur"},
	} {
		w := wording.New(cat.For(lang), s.rules, nil)
		if got := w.Say(s.Describe(0, "restart")); got != want[0] {
			t.Errorf("%s: restart reads %q, want %q", lang, got, want[0])
		}
		if got := w.Say(k.Describe(0, "keep 1")); got != want[1] {
			t.Errorf("%s: keep 1 reads %q, want %q", lang, got, want[1])
		}
	}
}
