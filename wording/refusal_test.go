package wording_test

import (
	"errors"
	"regexp"
	"slices"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// wrongActions are actions of every kind, most of which a given moment of
// a game refuses: rules broken, answers to no question, texts that are no
// action, by game.
var wrongActions = map[string][]string{
	"crystalpalace": {"pass", "pass always", "advance", "publish", "take 1", "take 9", "take x", "place 1 patent 1", "place 6 westminster 9",
		"place 6 westminster 1", "place 6 patent 4", "place 3 patent 2 nonsense", "place 7 louvre 1", "build crane", "build crane target 9",
		"build nonsense", "build", "skip", "skip always", "accept", "poster", "watch vp", "watch pounds", "watch x", "pay", "objective",
		"market place", "market move 1", "market move 9", "market", "green watch", "green research 1", "green research 9",
		"green market 1", "green market 9", "green", "bonus nonsense", "bonus pounds", "bonus", "use gears", "use ticket", "use buydie",
		"use nonsense", "use", "replace 1", "replace 99", "down 1", "down 99", "target 1", "target 9", "loan", "loan 1", "loan 9",
		"repay 1", "repay 9", "exchange die", "exchange pound", "exchange income", "exchange gear", "exchange x", "buy gear",
		"buy energy", "sell gear", "sell energy", "ask down", "ask pass", "ask bonus", "ask act", "dice 6 6", "dice 9", "dice",
		"dice 6 5 4 3 2 1 1", "frobnicate", "", "pass extra"},
	"eightydays": {"move 0", "move 1", "move 3", "move 13", "move 38", "move 79", "move 80", "move a 3", "move b 3", "move -1", "move",
		"back", "back a", "pass", "restart", "stay take", "stay give", "discard", "keep 0", "keep 1", "keep 3", "keep", "play aouda",
		"play fix", "play", "fly", "", "pass now"},
}

// refusals plays a whole game of rules with setup, the heuristic choosing,
// and tries every wrong action of its game for every seat now and then,
// on a copy: it returns the refusals, one per message id and numbers.
func refusals(t *testing.T, rules engine.Rules, setup engine.Setup) []error {
	t.Helper()
	st, err := rules.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	player, err := ai.Lookup(rules, "heuristic")
	if err != nil {
		t.Fatal(err)
	}
	var out []error
	seen := map[string]bool{}
	for step := 0; !st.Over(); step++ {
		if step > 5000 {
			t.Fatalf("%s: no end after %d actions", rules.Name(), step)
		}
		ps := st.Prompts()
		if step%9 == 0 {
			for seat := engine.Seat(-1); int(seat) <= st.Players(); seat++ {
				for _, a := range wrongActions[rules.Name()] {
					_, err := st.Clone().Apply(seat, a)
					var rule *engine.RuleError
					if !errors.As(err, &rule) {
						continue
					}
					if key := rule.Error(); !seen[key] {
						seen[key] = true
						out = append(out, err)
					}
				}
			}
		}
		p := ps[step%len(ps)]
		if _, err := st.Apply(p.Seat, ai.Decide(player, st, p, setup.Seed, step)); err != nil {
			t.Fatalf("%s: %v", rules.Name(), err)
		}
	}
	for _, a := range wrongActions[rules.Name()] { // the game is over
		if _, err := st.Apply(0, a); err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err)
		}
	}
	return out
}

// number finds the numbers a text holds.
var number = regexp.MustCompile(`\d+`)

// Why an action is refused reads in German and French: for refusals of
// every kind met over whole games of both (rules broken, answers to no
// question, texts that are no action, setups), every message exists, no
// German or French reason holds a word only English uses (notation and
// untranslated content names aside), and each keeps the English reason's
// numbers.
func TestRefusalsReadInEveryLanguage(t *testing.T) {
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	english := wording.EnglishOnly(cat)
	for _, rules := range games(t) {
		var all []error
		for players := rules.MinPlayers(); players <= rules.MaxPlayers(); players++ {
			all = append(all, refusals(t, rules, engine.Setup{Players: players, Seed: uint64(players) * 17})...)
		}
		if rules.Name() == "eightydays" {
			all = append(all, refusals(t, rules, engine.Setup{Players: 2, Seed: 5, Options: map[string]string{"variant": "two-pawns"}})...)
		}
		for _, setup := range []engine.Setup{{Players: 1}, {Players: 9}, {Players: 3, Options: map[string]string{"nonsense": "1"}},
			{Players: 3, Options: map[string]string{"variant": "nonsense"}}, {Players: 3, Options: map[string]string{"variant": "two-pawns"}}} {
			if _, err := rules.New(setup); err != nil {
				all = append(all, err)
			}
		}
		kinds := map[string]bool{}
		names, _ := rules.(engine.Namer)
		en := wording.ForRules(cat.For(locale.English), rules, nil)
		for _, err := range all {
			var rule *engine.RuleError
			if !errors.As(err, &rule) || rule.Say.IsZero() {
				t.Errorf("%s: %v is not given as data", rules.Name(), err)
				continue
			}
			used := map[string]bool{}
			ids(rule.Say, used)
			for id := range used {
				kinds[id] = true
				if !cat.Has(id) {
					t.Errorf("%s: message %q is in no catalogue", rules.Name(), id)
				}
			}
			allowed := map[string]bool{}
			verbatim(rule.Say, names, allowed)
			want := number.FindAllString(en.Refusal(err), -1)
			slices.Sort(want)
			for _, lang := range cat.Languages()[1:] {
				line := wording.ForRules(cat.For(lang), rules, nil).Refusal(err)
				if id := unwritten.FindString(line); id != "" {
					t.Errorf("%s %s: %q is written as its id in %q", rules.Name(), lang, id, line)
				}
				for _, word := range wording.Tokens(line) {
					if english[word] && !allowed[word] {
						t.Errorf("%s %s: English word %q in %q", rules.Name(), lang, word, line)
					}
				}
				got := number.FindAllString(line, -1)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s %s: %q has the numbers %v; English %q has %v", rules.Name(), lang, line, got, en.Refusal(err), want)
				}
			}
		}
		t.Logf("%s: %d refusals, %d messages", rules.Name(), len(all), len(kinds))
		if len(kinds) < 40 {
			t.Errorf("%s: only %d messages of refusals met", rules.Name(), len(kinds))
		}
	}
}
