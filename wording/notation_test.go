package wording_test

import (
	"errors"
	"regexp"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// ownWords are notation words that are also words of a language, which a
// German or French line may use as such ("Bonus", "Buzz", "die",
// "Patent"; "place", "assistant").
var ownWords = map[string]map[string]bool{
	"de": {"bonus": true, "buzz": true, "die": true, "patent": true},
	"fr": {"bonus": true, "place": true, "assistant": true, "message": true},
}

// backticked is a typed action quoted as one: `…`.
var backticked = regexp.MustCompile("`[^`]*`")

// Notation reads as notation: in whole games played in German and French
// by the computer players, no line of the log, no prompt, no action's
// description and no refusal of a wrong action holds a word of the games'
// notation (the verbs and keys of the actions they offered) outside
// backticks, where it is what to type.
// Content names and the words a language shares with the notation aside.
func TestNoNotationInRunningText(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range games(t) {
		names, _ := rules.(engine.Namer)
		list, _ := rules.(engine.ItemLister)
		for _, players := range []int{rules.MinPlayers(), rules.MaxPlayers()} {
			events, typed := playOffered(t, rules, players, uint64(players)*13)
			refused := refusals(t, rules, engine.Setup{Players: players, Seed: uint64(players) * 13})
			for _, lang := range cat.Languages()[1:] {
				notation := map[string]bool{}
				for _, a := range typed {
					for _, w := range wording.Tokens(a) {
						notation[w] = !ownWords[lang][w]
					}
				}
				for _, key := range list.ItemKeys() {
					for _, w := range wording.Tokens(names.ItemName(key, lang)) {
						delete(notation, w)
					}
				}
				w := wording.ForRules(cat.For(lang), rules, nil)
				reported := map[string]bool{}
				for _, err := range refused {
					var rule *engine.RuleError
					if errors.As(err, &rule) {
						events = append(events, engine.Event{Kind: "refusal", Text: rule.Say})
					}
				}
				for _, e := range events {
					line := w.Event(e)
					for _, word := range wording.Tokens(backticked.ReplaceAllString(line, " ")) {
						if notation[word] && !reported[e.Text.ID+word] {
							reported[e.Text.ID+word] = true
							t.Errorf("%s %s: notation %q outside backticks in %q (%s)", rules.Name(), lang, word, line, e.Text.ID)
						}
					}
				}
			}
		}
	}
}
