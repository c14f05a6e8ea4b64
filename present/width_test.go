package present_test

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/present"
	"github.com/meeplegames/meeple/wording"
)

// maxColumns is the terminal width the text views must fit.
const maxColumns = 100

// TestTextFitsAHundredColumns plays whole games of each game with 2 to
// its most computer players and checks every line of every seat's view,
// and the spectator's, after every action, in English, German (which
// runs longest) and French, named as meeple play names seats.
func TestTextFitsAHundredColumns(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range bothGames(t) {
		fitsAHundredColumns(t, cat, rules)
	}
}

// bothGames returns the rules of each game, with its default content.
func bothGames(t *testing.T) []engine.Rules {
	t.Helper()
	c, err := cp.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	d, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return []engine.Rules{cp.NewRules(c), eightydays.NewRules(d)}
}

func fitsAHundredColumns(t *testing.T, cat *locale.Catalogue, rules engine.Rules) {
	widest, where := 0, ""
	for players := rules.MinPlayers(); players <= rules.MaxPlayers(); players++ {
		setup := engine.Setup{Players: players, Seed: uint64(40 + players)}
		s, err := rules.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"P1", "P2 heuristic", "P3 random", "P4 heuristic", "P5 random", "P6 heuristic"}[:players]
		var seats []engine.Player
		for i := 0; i < players; i++ {
			p, err := ai.Lookup(rules, []string{"heuristic", "random"}[i%2])
			if err != nil {
				t.Fatal(err)
			}
			seats = append(seats, p)
		}
		for step := 0; !s.Over() && step < 5000; step++ {
			p := s.Prompts()[0]
			if _, err := s.Apply(p.Seat, ai.Decide(seats[p.Seat], s, p, setup.Seed, step)); err != nil {
				t.Fatal(err)
			}
			for seat := engine.Spectator; int(seat) < players; seat++ {
				view := s.View(seat)
				for _, lang := range cat.Languages() {
					text, err := present.View(view, wording.ForRules(cat.For(lang), rules, names), present.Style{Color: true})
					if err != nil {
						t.Fatal(err)
					}
					for _, line := range strings.Split(text, "\n") {
						if n := len([]rune(present.StripANSI(line))); n > widest {
							widest, where = n, line
						}
					}
				}
			}
		}
		if !s.Over() {
			t.Fatalf("%d players: the game did not end", players)
		}
	}
	if widest > maxColumns {
		t.Fatalf("%s: a line of %d columns:\n%s", rules.Title(), widest, present.StripANSI(where))
	}
}
