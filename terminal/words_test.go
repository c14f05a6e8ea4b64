package terminal_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/terminal"
	"github.com/meeplegames/meeple/wording"
)

// othersWords collects the words of what the terminal prints that stay as
// they are in every language (action notation, content names a language
// does not give, the computer players' names). The check below forgives
// these, and only these.
type othersWords map[string]bool

func (o othersWords) add(texts ...string) {
	for _, text := range texts {
		for _, w := range wording.Tokens(text) {
			o[w] = true
		}
	}
}

// addVerbatim adds the words a text carries as they stand: notation, and
// content items' English names (a name a language does not give reads in
// English).
func (o othersWords) addVerbatim(t engine.Text, names engine.Namer) {
	for _, a := range t.Args {
		switch {
		case a.Kind == engine.ArgCode:
			o.add(a.S)
		case a.Kind == engine.ArgItem && names != nil:
			o.add(names.ItemName(a.S, locale.English))
		}
		if a.Sub != nil {
			o.addVerbatim(*a.Sub, names)
		}
	}
}

// state adds what the others' parts say of st.
func (o othersWords) state(st engine.State, names engine.Namer) {
	d, _ := st.(engine.Describer)
	for _, p := range st.Prompts() {
		o.addVerbatim(*p.Text, names)
		for _, a := range append(append([]string{}, p.Actions...), st.FreeActions(p.Seat)...) {
			o.add(a)
			if d != nil {
				o.addVerbatim(d.Describe(p.Seat, a), names)
			}
		}
	}
}

// TestWholeGamesInGermanAndFrench plays whole games of both kinds through
// the terminal in German and in French, two people at the keyboard and a
// computer, using help, log, undo and save on the way: nothing the
// terminal prints holds a word only the English catalogue uses, except
// the words that stand as they are in every language (see othersWords).
func TestWholeGamesInGermanAndFrench(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games")
	}
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	english := wording.EnglishOnly(cat, crystalPalace(t), eightyDays(t))
	for _, lang := range []string{locale.German, locale.French} {
		for _, rules := range []engine.Rules{crystalPalace(t), eightyDays(t)} {
			t.Run(lang+"/"+rules.Name(), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				input := "help\nlog\n1\nundo\n1\nsave " + dir + "/mid.txt\n" + strings.Repeat("1\n", 4000)
				s, out := play(t, terminal.Config{
					Rules: rules, Setup: engine.Setup{Players: 3, Seed: 11},
					Seats: []string{terminal.Human, terminal.Human, "heuristic"}, Words: cat.For(lang),
				}, input)
				if !s.State().Over() {
					t.Fatalf("the game did not end:\n%s", out[max(0, len(out)-3000):])
				}
				names, _ := rules.(engine.Namer)
				forgiven := othersWords{}
				forgiven.add("human heuristic random", dir, s.Config().Script)
				data, err := os.ReadFile(s.Config().Script)
				if err != nil {
					t.Fatal(err)
				}
				header, _, _ := strings.Cut(string(data), "\n")
				_, setup, _ := engine.ScriptHeader(header)
				moves, err := engine.ReadScript(strings.NewReader(string(data)))
				if err != nil {
					t.Fatal(err)
				}
				st, err := rules.New(setup)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range moves {
					forgiven.state(st, names)
					events, err := st.Apply(m.Seat, m.Action)
					if err != nil {
						t.Fatalf("replaying %v: %v", m, err)
					}
					for _, e := range events {
						forgiven.addVerbatim(e.Text, names)
					}
				}
				forgiven.state(st, names)
				bad, lines := 0, strings.Split(out, "\n")
				t.Logf("%d lines read, %d moves; English-only words forgiven as the others' parts: %v", len(lines), len(moves), forgivenEnglish(english, forgiven))
				for _, line := range lines {
					if strings.HasPrefix(strings.TrimSpace(line), "meeple replay ") {
						continue // the command to type, the same in every language
					}
					var found []string
					for _, w := range wording.Tokens(line) {
						if english[w] && !forgiven[w] {
							found = append(found, w)
						}
					}
					if len(found) > 0 && bad < 10 {
						bad++
						t.Errorf("English %v in %q", found, line)
					}
				}
				if !strings.Contains(out, cat.For(lang).T("terminal.game_over")) {
					t.Errorf("the session never says the game is over in %s", lang)
				}
			})
		}
	}
}

// forgivenEnglish lists the English-only words the check forgives.
func forgivenEnglish(english map[string]bool, forgiven othersWords) []string {
	var out []string
	for w := range english {
		if forgiven[w] {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}
