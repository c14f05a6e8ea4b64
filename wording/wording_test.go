package wording_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// play plays a whole game of rules with players seats, the game's
// heuristic computer player choosing for every seat, and returns every
// event, and every prompt's label as an event of kind "prompt".
func play(t *testing.T, rules engine.Rules, players int, seed uint64) []engine.Event {
	t.Helper()
	all, _ := playOffered(t, rules, players, seed)
	return all
}

// playOffered plays as play does and returns besides the events every
// action the game offered (its prompts' and the free ones).
func playOffered(t *testing.T, rules engine.Rules, players int, seed uint64) ([]engine.Event, []string) {
	t.Helper()
	st, err := rules.New(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	player, err := ai.Lookup(rules, "heuristic")
	if err != nil {
		t.Fatal(err)
	}
	var all []engine.Event
	var offered []string
	for step := 0; !st.Over(); step++ {
		if step > 5000 {
			t.Fatalf("%s: no end after %d actions", rules.Name(), step)
		}
		ps := st.Prompts()
		for _, p := range ps {
			var text engine.Text
			if p.Text != nil {
				text = *p.Text
			}
			all = append(all, engine.Event{Kind: "prompt", Seat: p.Seat, Text: text})
			all = append(all, descriptions(st, p)...)
			offered = append(append(offered, p.Actions...), st.FreeActions(p.Seat)...)
		}
		p := ps[step%len(ps)]
		ev, err := st.Apply(p.Seat, ai.Decide(player, st, p, seed, step))
		if err != nil {
			t.Fatalf("%s: %v", rules.Name(), err)
		}
		all = append(all, ev...)
	}
	return all, offered
}

// descriptions are what the actions open to p's seat do (engine.Describer),
// as events of kind "describe": the first few of each verb, so that a list
// of hundreds of dice values does not make the game crawl.
func descriptions(st engine.State, p engine.Prompt) []engine.Event {
	d, ok := st.(engine.Describer)
	if !ok {
		return nil
	}
	var out []engine.Event
	seen := map[string]int{}
	for _, a := range append(append([]string(nil), p.Actions...), st.FreeActions(p.Seat)...) {
		verb, _, _ := strings.Cut(a, " ")
		if seen[verb]++; seen[verb] > 3 {
			continue
		}
		if text := d.Describe(p.Seat, a); !text.IsZero() {
			out = append(out, engine.Event{Kind: "describe", Seat: p.Seat, Text: text})
		}
	}
	return out
}

func games(t *testing.T) []engine.Rules {
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

// ids lists the message ids t reads, nested ones included.
func ids(t engine.Text, out map[string]bool) {
	if t.ID != "" && t.ID != engine.PlainID {
		out[t.ID] = true
	}
	for _, a := range t.Args {
		switch a.Kind {
		case engine.ArgMsg, engine.ArgAmount, engine.ArgChange, engine.ArgInline:
			out[a.S] = true
		}
		if a.Sub != nil {
			ids(*a.Sub, out)
		}
	}
}

// verbatim lists the words t carries as they stand in every language:
// notation, dice, content texts that have no translation yet, and the
// English names of content items (a name a language does not give reads
// in English).
func verbatim(t engine.Text, names engine.Namer, out map[string]bool) {
	for _, a := range t.Args {
		switch {
		case a.Kind == engine.ArgCode:
			for _, w := range wording.Tokens(a.S) {
				out[w] = true
			}
		case a.Kind == engine.ArgItem && names != nil:
			for _, w := range wording.Tokens(names.ItemName(a.S, locale.English)) {
				out[w] = true
			}
		}
		if a.Sub != nil {
			verbatim(*a.Sub, names, out)
		}
	}
}

// unwritten finds a message id in a written line: the message failed.
var unwritten = regexp.MustCompile(`\b(cp|ed|log|unit|goods|move|list|recent|describe|topics)\.[a-z_.0-9]+`)

// Every text the engines say in whole games (events, prompts and what each
// kind of action would do) has its message in the
// catalogues, and reads in German and French without a word that only
// English uses (names of content items, notation, numbers and content
// texts given verbatim aside).
func TestWholeGamesReadInEveryLanguage(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	english := wording.EnglishOnly(cat)
	for _, rules := range games(t) {
		for players := rules.MinPlayers(); players <= rules.MaxPlayers(); players++ {
			events := play(t, rules, players, uint64(players)*31)
			used := map[string]bool{}
			for _, e := range events {
				if e.Kind == "prompt" && e.Text.IsZero() {
					t.Errorf("%s: a prompt without a text", rules.Name())
				}
				ids(e.Text, used)
			}
			for id := range used {
				if !cat.Has(id) {
					t.Errorf("%s: message %q is in no catalogue", rules.Name(), id)
				}
			}
			names, _ := rules.(engine.Namer)
			for _, lang := range cat.Languages() {
				w := wording.ForRules(cat.For(lang), rules, nil)
				reported := map[string]bool{}
				for _, e := range events {
					if e.Text.ID == engine.PlainID {
						continue // not yet given as data (Around the World in 80 Days)
					}
					line := w.Event(e)
					if id := unwritten.FindString(line); id != "" {
						t.Errorf("%s %s: %q is written as its id in %q", rules.Name(), lang, id, line)
					}
					if lang == locale.English {
						continue
					}
					allowed := map[string]bool{}
					verbatim(e.Text, names, allowed)
					for _, word := range wording.Tokens(line) {
						if english[word] && !allowed[word] && !reported[word] {
							reported[word] = true
							t.Errorf("%s %s, %d players: English word %q in %q", rules.Name(), lang, players, word, line)
						}
					}
				}
			}
		}
	}
}
