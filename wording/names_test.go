package wording_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// A content name enters a German or French sentence only in a form that
// needs no article or case of its own (docs/languages.md, "Names in
// sentences"):
//   - a card's title (patent, prototype, character, research tile, an 80
//     Days card) is quoted, „…“ or « … », after a noun that carries the
//     case ("die Karte „Der britische Konsul in Suez“");
//   - a location's bare name ("Patentamt") is never inside a sentence:
//     sentences say where with its at-phrase ("im Patentamt", "au Bureau
//     des brevets"), which the content gives whole;
//   - either may stand alone as a label: the whole text, at its head
//     before a colon, a bracket or a " · ", or alone in brackets.
//
// The test takes every text the engines say in whole games (events,
// prompts, what actions do) and in refusals, and writes each text that
// names such an item with every name of the item's kind, in German and
// French.
func TestNamesEnterSentencesInOneForm(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range games(t) {
		list, ok := rules.(engine.ItemLister)
		if !ok {
			t.Fatalf("%s lists no items", rules.Name())
		}
		byKind := map[string][]string{}
		for _, key := range list.ItemKeys() {
			kind := itemKind(key)
			byKind[kind] = append(byKind[kind], key)
		}
		var texts []engine.Text
		for _, players := range []int{rules.MinPlayers(), rules.MaxPlayers()} {
			for _, e := range play(t, rules, players, uint64(players)*7) {
				texts = append(texts, e.Text)
			}
			for _, err := range refusals(t, rules, engine.Setup{Players: players, Seed: uint64(players) * 5}) {
				var rule *engine.RuleError
				if errors.As(err, &rule) {
					texts = append(texts, rule.Say)
				}
			}
		}
		// one text per message id and path to an argument that names an item
		seen := map[string]bool{}
		var namings []naming
		for _, text := range texts {
			eachNaming(text, nil, func(path []int, key string) {
				if id := text.ID + "|" + fmt.Sprint(path) + "|" + itemKind(key); !seen[id] {
					seen[id] = true
					namings = append(namings, naming{text, path, key})
				}
			})
		}
		checked := 0
		for _, lang := range cat.Languages()[1:] {
			w := wording.ForRules(cat.For(lang), rules, nil)
			for _, n := range namings {
				kind := itemKind(n.key)
				quoted, ruled := quotable[kind]
				if !ruled {
					continue
				}
				for _, key := range byKind[kind] {
					line := w.Say(withKey(n.text, n.path, key))
					name := w.Item(key)
					checked++
					if !nameStands(lang, line, name, quoted) {
						t.Errorf("%s %s: %s %q (%s) enters %q: %s", rules.Name(), lang, n.text.ID, name, key, line, nameRuleSays[quoted])
						break
					}
				}
			}
		}
		if checked < 200 {
			t.Errorf("%s: only %d names in sentences checked", rules.Name(), checked)
		}
	}
}

// naming is the argument of text at path, which names item key.
type naming struct {
	text engine.Text
	path []int
	key  string
}

// eachNaming calls f for every argument that names an item in t and its
// nested texts, with its path from t: the indexes of the arguments that
// lead to it.
func eachNaming(t engine.Text, path []int, f func(path []int, key string)) {
	for i, a := range t.Args {
		at := append(append([]int(nil), path...), i)
		switch {
		case a.Kind == engine.ArgItem:
			f(at, a.S) // an inline text's arguments are its parent's
		case a.Sub != nil:
			eachNaming(*a.Sub, at, f)
		}
	}
}

// withKey is t with the item argument at path naming key.
func withKey(t engine.Text, path []int, key string) engine.Text {
	args := append([]engine.Arg(nil), t.Args...)
	a := &args[path[0]]
	if len(path) == 1 {
		a.S = key
	} else {
		sub := withKey(*a.Sub, path[1:], key)
		a.Sub = &sub
	}
	return engine.Text{ID: t.ID, Args: args}
}

// itemKind is the kind of an item key: "patent" for "patent:crane".
func itemKind(key string) string {
	kind, _, _ := strings.Cut(key, ":")
	return kind
}

// quotable are the kinds of items whose names may enter a sentence
// quoted (cards); the others (locations) stand only as labels.
var quotable = map[string]bool{"patent": true, "proto": true, "char": true, "research": true, "card": true, "loc": false}

var nameRuleSays = map[bool]string{
	true:  "a card's title is quoted after a noun, or stands as a label",
	false: "a location's name stands only as a label; a sentence uses its at-phrase",
}

// quotes are each language's opening quotation marks.
var quotes = map[string]string{"de": "„", "fr": "«\u202f"}

// nameStands reports whether every name in line stands as a label (the
// whole line, its head or a part after " · ", before a colon, a bracket,
// a comma, an arrow or a " · ", or alone in brackets) or, when quoted,
// opens a quotation in lang's marks.
func nameStands(lang, line, name string, quoted bool) bool {
	rest := line
	for {
		i := strings.Index(rest, name)
		if i < 0 {
			return true
		}
		before, after := rest[:i], rest[i+len(name):]
		head := before == "" || strings.HasSuffix(before, " · ")
		tail := after == "" || strings.HasPrefix(after, " (") || strings.HasPrefix(after, ":") || strings.HasPrefix(after, "\u202f:") ||
			strings.HasPrefix(after, " · ") || strings.HasPrefix(after, ",") || strings.HasPrefix(after, " →")
		bracketed := strings.HasSuffix(before, "(") && strings.HasPrefix(after, ")")
		if !(head && tail) && !bracketed && !(quoted && strings.HasSuffix(before, quotes[lang])) {
			return false
		}
		rest = after
	}
}

// The games' French content (names of cards, locations, cities, the texts
// of possibilities) is set as the French catalogues are
// (locale.FrenchTypography).
func TestFrenchContentTypography(t *testing.T) {
	for _, rules := range games(t) {
		names := rules.(engine.Namer)
		checked := 0
		for _, key := range rules.(engine.ItemLister).ItemKeys() {
			name := names.ItemName(key, locale.French)
			checked++
			if mistake := locale.FrenchTypography(name); mistake != "" {
				t.Errorf("%s %s: %s: %q", rules.Name(), key, mistake, name)
			}
		}
		if checked < 30 {
			t.Errorf("%s: only %d names checked", rules.Name(), checked)
		}
	}
}
