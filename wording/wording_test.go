package wording_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

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
	st, err := rules.New(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	player, err := ai.Lookup(rules, "heuristic")
	if err != nil {
		t.Fatal(err)
	}
	var all []engine.Event
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
		}
		p := ps[step%len(ps)]
		ev, err := st.Apply(p.Seat, ai.Decide(player, st, p, seed, step))
		if err != nil {
			t.Fatalf("%s: %v", rules.Name(), err)
		}
		all = append(all, ev...)
	}
	return all
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
			for _, w := range words(a.S) {
				out[w] = true
			}
		case a.Kind == engine.ArgItem && names != nil:
			for _, w := range words(names.ItemName(a.S, locale.English)) {
				out[w] = true
			}
		}
		if a.Sub != nil {
			verbatim(*a.Sub, names, out)
		}
	}
}

var wordRE = regexp.MustCompile(`\p{L}{3,}`)

func words(s string) []string {
	var out []string
	for _, w := range wordRE.FindAllString(s, -1) {
		out = append(out, strings.ToLower(w))
	}
	return out
}

// catalogueWords are the words of every message of lang's catalogue files,
// placeholders left out.
func catalogueWords(t *testing.T, lang string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "locale", "messages", "*"+lang+".toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s catalogue: %v", lang, err)
	}
	out := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			for _, w := range words(regexp.MustCompile(`\{\{[^}]*\}\}`).ReplaceAllString(v, " ")) {
				out[w] = true
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for _, f := range files {
		if base := filepath.Base(f); base != lang+".toml" && !strings.HasSuffix(base, "."+lang+".toml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := toml.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		walk(m)
	}
	return out
}

// Every text the engines say in whole games (events and prompts) has its message in the
// catalogues, and reads in German and French without a word that only
// English uses (names of content items, notation, numbers and content
// texts given verbatim aside).
func TestWholeGamesReadInEveryLanguage(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	english := catalogueWords(t, locale.English)
	for _, lang := range []string{locale.German, locale.French} {
		for w := range catalogueWords(t, lang) {
			delete(english, w) // a word both languages use (Westminster, Buzz, …) is not English only
		}
	}
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
			for _, lang := range []string{locale.German, locale.French} {
				w := wording.ForRules(cat.For(lang), rules, nil)
				reported := map[string]bool{}
				for _, e := range events {
					if e.Text.ID == engine.PlainID {
						continue // not yet given as data (Around the World in 80 Days)
					}
					line := w.Event(e)
					allowed := map[string]bool{}
					verbatim(e.Text, names, allowed)
					for _, word := range words(line) {
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
