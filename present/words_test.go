package present_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/present"
	"github.com/meeplegames/meeple/wording"
)

// unwritten finds a message id in a written view: the message failed.
var unwritten = regexp.MustCompile(`\b(view|cp|ed|unit|goods|list)\.[a-z_.0-9]+`)

// notation is what a view writes as it stands in every language: the
// typed action beside a card ("play aouda").
var notation = regexp.MustCompile(`\bplay [a-z0-9_-]+`)

// TestTextViewsReadInGermanAndFrench plays a game of each kind and reads
// every seat's text view, and the spectator's, every few actions, in
// German and French: no line holds a word only the English catalogue
// uses, and no message is written as its id.
func TestTextViewsReadInGermanAndFrench(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	english := wording.EnglishOnly(cat)
	for _, rules := range bothGames(t) {
		players := 3
		setup := engine.Setup{Players: players, Seed: 7}
		s, err := rules.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		heuristic, err := ai.Lookup(rules, "heuristic")
		if err != nil {
			t.Fatal(err)
		}
		reported, views := map[string]bool{}, 0
		read := func() {
			for seat := engine.Spectator; int(seat) < players; seat++ {
				view := s.View(seat)
				typed := map[string]bool{} // the Port's and Waterloo's keys, as typed in "use gears"
				if v, ok := view.(*cp.View); ok {
					for _, loc := range v.Locations {
						for _, p := range loc.Possibilities {
							typed[p.Key] = true
						}
					}
				}
				for _, lang := range []string{locale.German, locale.French} {
					text, err := present.View(view, wording.ForRules(cat.For(lang), rules, nil), present.Style{})
					if err != nil {
						t.Fatal(err)
					}
					views++
					if id := unwritten.FindString(text); id != "" && !reported[id] {
						reported[id] = true
						t.Errorf("%s %s: %q is written as its id:\n%s", rules.Name(), lang, id, text)
					}
					for _, line := range strings.Split(text, "\n") {
						for _, word := range wording.Tokens(notation.ReplaceAllString(line, "")) {
							if english[word] && !typed[word] && !reported[word] {
								reported[word] = true
								t.Errorf("%s %s: English word %q in %q", rules.Name(), lang, word, line)
							}
						}
					}
				}
			}
		}
		for step := 0; !s.Over() && step < 5000; step++ {
			if step%7 == 0 {
				read()
			}
			p := s.Prompts()[0]
			if _, err := s.Apply(p.Seat, ai.Decide(heuristic, s, p, setup.Seed, step)); err != nil {
				t.Fatal(err)
			}
		}
		if !s.Over() {
			t.Fatalf("%s: the game did not end", rules.Name())
		}
		read() // the final scores
		if views < 50 {
			t.Fatalf("%s: only %d views read", rules.Name(), views)
		}
	}
}
