package wording_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/locale"
)

// notCommands are the words the bot's catalogues quote that are not
// typed actions: the fields of a Discord user or a content file.
var notCommands = map[string]bool{"description": true, "hash": true, "id": true, "one": true, "other": true, "person": true, "personne": true, "user": true}

// actionWords are the words an action is made of that are quoted alone:
// the words that end one ("always", "only") and Crystal Palace's location
// keys (the values of <Ort>, <lieu>).
var actionWords = map[string]bool{"always": true, "only": true, "patent": true, "museum": true, "bank": true, "westminster": true,
	"club": true, "times": true, "port": true, "waterloo": true}

// A typed action is the same in every language: every action a catalogue
// quotes (`…`), in any language, parses in one of the games, its
// placeholders (<Feld>, <case>) standing for a value. Slash commands,
// options (name=value) and placeholders of the message itself are left
// out.
func TestEveryQuotedActionParses(t *testing.T) {
	c, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	quoted := regexp.MustCompile("`([^`]+)`")
	checked := 0
	for _, lang := range c.Languages() {
		for _, text := range c.Texts(lang) {
			for _, m := range quoted.FindAllStringSubmatch(text, -1) {
				q := m[1]
				if strings.HasPrefix(q, "/") || strings.HasPrefix(q, "{{") || strings.Contains(q, "=") || notCommands[q] || actionWords[q] {
					continue
				}
				checked++
				if !parsesWithValues(q) {
					t.Errorf("%s: %q quotes %q, which is no action of either game", lang, text, q)
				}
			}
		}
	}
	if checked < 18 {
		t.Fatalf("only %d quoted actions checked", checked)
	}
}

// placeholder is a <…> in an action's usage, a message's own {{.Key}}
// standing for one, or "…" for the rest of an action.
var placeholder = regexp.MustCompile(`<[^>]+>|\{\{[^}]*\}\}|…`)

// parsesWithValues reports whether action parses in either game once each
// placeholder is given one of a few values, or, for an action's verb
// quoted alone (`dice`), once up to three values follow it.
func parsesWithValues(action string) bool {
	if parsesFilled(action) {
		return true
	}
	for _, more := range []string{" <a>", " <a> <b>", " <a> <b> <c>"} {
		if !strings.Contains(action, " ") && parsesFilled(action+more) {
			return true
		}
	}
	return false
}

// parsesFilled reports whether action parses in either game once each
// placeholder is given one of a few values.
func parsesFilled(action string) bool {
	values := []string{"1", "6", "westminster", "crane", "gears", "pounds", "watch", "gear", "die"}
	n := len(placeholder.FindAllString(action, -1))
	for k := 0; k < pow(len(values), n); k++ {
		i := k
		text := placeholder.ReplaceAllStringFunc(action, func(string) string {
			v := values[i%len(values)]
			i /= len(values)
			return v
		})
		if _, err := crystalpalace.ParseAction(text); err == nil {
			return true
		}
		if _, err := eightydays.ParseAction(text); err == nil {
			return true
		}
	}
	return false
}

func pow(b, e int) int {
	n := 1
	for range e {
		n *= b
	}
	return n
}
