package wording_test

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// Every rules topic of both games reads in every language: its title and
// text are messages, written in German and French unlike the English, and
// found by their typed name and by their title in the reader's language;
// `rules overview` works for both games.
func TestTopicsReadInEveryLanguage(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range games(t) {
		topics := rules.(engine.Rulebook).Topics()
		english := wording.ForRules(cat.For(locale.English), rules, nil)
		for _, lang := range cat.Languages() {
			w := wording.ForRules(cat.For(lang), rules, nil)
			if got, ok := w.Topic(topics, "overview"); !ok || got.Name != "overview" {
				t.Errorf("%s %s: no overview", rules.Name(), lang)
			}
			for _, topic := range topics {
				title, text := w.Say(topic.Title), w.Say(topic.Text)
				for _, id := range []string{topic.Title.ID, topic.Text.ID} {
					if !cat.Has(id) {
						t.Errorf("%s: topic %q: message %q is in no catalogue", rules.Name(), topic.Name, id)
					}
				}
				if len(text) < 80 || title == "" || strings.Contains(title+text, ".topic.") {
					t.Errorf("%s %s: topic %q is too thin: %q, %q", rules.Name(), lang, topic.Name, title, text)
				}
				if lang != locale.English && (text == english.Say(topic.Text) || title == english.Say(topic.Title) && !sameTitle[title]) {
					t.Errorf("%s %s: topic %q reads in English", rules.Name(), lang, topic.Name)
				}
				for _, typed := range []string{topic.Name, strings.ToUpper(title), " " + title + " "} {
					if got, ok := w.Topic(topics, typed); !ok || got.Name != topic.Name {
						t.Errorf("%s %s: %q finds %q, want %q", rules.Name(), lang, typed, got.Name, topic.Name)
					}
				}
			}
		}
	}
}

// sameTitle are titles that are names, the same in every language.
var sameTitle = map[string]bool{"2 British Museum": true, "3 Bank of England": true, "8 Waterloo Station": true, "4 Westminster": true, "5 Reform Club": true, "6 London Times": true}

// A typed topic that several topics hold is no topic; one that a single
// topic holds finds it.
func TestTopicByPartOfItsName(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	rules := games(t)[0] // Crystal Palace
	topics := rules.(engine.Rulebook).Topics()
	de := wording.ForRules(cat.For(locale.German), rules, nil)
	for typed, want := range map[string]string{"museum": "british museum", "kredite": "loans", "london": "", "": "", "casino": ""} {
		got, ok := de.Topic(topics, typed)
		if ok != (want != "") || got.Name != want {
			t.Errorf("%q finds %q (%v), want %q", typed, got.Name, ok, want)
		}
	}
}

// The location topics say what each action space gives or costs at every
// player count as the content has it, so a topic cannot contradict the
// game: the rulebook's Westminster makes the third die pay at 5 players,
// the London Times' the third at 4 and 5, and the British Museum's the
// second at 2 and 3 players and the third at 5.
func TestLocationTopicsSayTheActionSpacesOfEachPlayerCount(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	rules := games(t)[0] // Crystal Palace
	topics := rules.(engine.Rulebook).Topics()
	want := map[string]map[string][]string{
		"en": {
			"westminster":    {"Action spaces with 2 to 4 players, in the order dice take them: +1 £, a cost of 2 £. Action spaces with 5 players, in the order dice take them: +1 £, nothing, a cost of 2 £."},
			"london times":   {"Action spaces with 2 to 3 players, in the order dice take them: +1 newspaper, a cost of 2 £. Action spaces with 4 to 5 players, in the order dice take them: +1 newspaper, nothing, a cost of 2 £."},
			"british museum": {"with 2 to 3 players, in the order dice take them: nothing, a cost of 2 £.", "with 4 players, in the order dice take them: nothing, nothing.", "with 5 players, in the order dice take them: nothing, nothing, a cost of 2 £."},
		},
		"de": {"westminster": {"Aktionsfelder bei 5 Spielenden, in der Reihenfolge der Würfel: +1 £, nichts, 2 £ Kosten."}},
		"fr": {"london times": {"De 4 à 5 joueurs, les cases action, dans l’ordre où les dés les prennent\u202f: +1 journal, rien, 2 £ à payer."}},
	}
	for lang, byTopic := range want {
		w := wording.ForRules(cat.For(lang), rules, nil)
		for name, parts := range byTopic {
			topic, ok := w.Topic(topics, name)
			if !ok {
				t.Fatalf("no topic %q", name)
			}
			text := w.Say(topic.Text)
			for _, part := range parts {
				if !strings.Contains(text, part) {
					t.Errorf("%s: topic %q says %q, want it to hold %q", lang, name, text, part)
				}
			}
		}
	}
}
