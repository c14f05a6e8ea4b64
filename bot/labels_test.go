package bot

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/meeplegames/meeple/picker"
)

// Every choice says what it does where it is chosen: /play's autocomplete
// names what each action gives and costs (and sends the action alone), the
// board's buttons and menu options carry the same words.
func TestChoicesSayWhatTheyDo(t *testing.T) {
	h := newHarness(t, realRegistry(t), Config{}, nil, plainText)
	ch := "8101"
	h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: "crystalpalace"})
	h.command(bob, ch, cmdLobby, subJoin, nil)
	if res := h.command(bob, ch, cmdLobby, subStart, nil); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
	g := h.game(ch)
	users := seatUser(t, g, []tester{alice, bob})
	// the dice choices say what they cost
	if got := h.autocomplete(users[0], ch, cmdPlay, "", map[string]any{optAction: "dice 6 6"}, optAction); len(got) == 0 || !strings.Contains(got[0], " — costs ") {
		t.Fatalf("dice suggestions: %v", got)
	}
	for seat, u := range users {
		if res := h.command(u, ch, cmdPlay, "", map[string]any{optAction: []string{"dice 6 5 2 1", "dice 1 1 1 1"}[seat]}); !h.says(res.text(), "play.played") {
			t.Fatalf("dice: %s", res.text())
		}
	}
	_, st, err := h.store.Load(context.Background(), ch)
	if err != nil {
		t.Fatal(err)
	}
	p := st.Prompts()[0]
	got := h.autocomplete(users[p.Seat], ch, cmdPlay, "", map[string]any{optAction: "place 6 west"}, optAction)
	if len(got) == 0 || !strings.Contains(got[0], "place 6 westminster 1 — Westminster · ") {
		t.Fatalf("placement suggestions: %v", got)
	}
	// the picker's menus describe the actions they end in: walk down to a
	// menu of whole actions
	board := h.board(ch)
	res := h.click(users[p.Seat], ch, board.ID, mustComponent(t, board, ": choose"))
	msgID, ok := h.privateMessage(res)
	if !ok {
		t.Fatal("no private picker message")
	}
	for step := 0; step < picker.MaxTaps; step++ {
		m, _ := h.fake.Message(msgID)
		menu := treeMenuOn(t, m)
		for _, o := range menu.Options {
			if !strings.HasSuffix(o.Label, " …") {
				if o.Description == "" {
					t.Fatalf("picker option %q says nothing of what it does", o.Label)
				}
				return
			}
		}
		h.click(users[p.Seat], ch, msgID, menu.CustomID, "0")
	}
	t.Fatal("no menu of whole actions within the picker's taps")
}

// What an action does and the rules topics read in the reader's language:
// /play's autocomplete beside the typed notation, /game rules by the
// topic's typed name or its title in that language, and the topics'
// autocomplete with their titles.
func TestDescriptionsAndRulesInTheReadersLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang, dice, overview, loansTitle string
	}{
		{"de", " — kostet beim Aufdecken ", "Crystal Palace im Überblick", "Kredite"},
		{"fr", " — coûte ", "Crystal Palace en bref", "Prêts"},
	} {
		h := newHarness(t, realRegistry(t), Config{}, nil, plainText)
		h.locale, h.guildLocale = tc.lang, tc.lang
		ch := "8102"
		h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: "crystalpalace"})
		h.command(bob, ch, cmdLobby, subJoin, nil)
		h.command(bob, ch, cmdLobby, subStart, nil)
		users := seatUser(t, h.game(ch), []tester{alice, bob})
		got := h.autocomplete(users[0], ch, cmdPlay, "", map[string]any{optAction: "dice 6 6"}, optAction)
		if len(got) == 0 || !strings.Contains(got[0], tc.dice) || !strings.HasPrefix(got[0], "dice 6 6") {
			t.Errorf("%s: dice suggestions %v", tc.lang, got)
		}
		for _, c := range got {
			if utf8.RuneCountInString(c) > 100 {
				t.Errorf("%s: choice name of %d characters", tc.lang, utf8.RuneCountInString(c))
			}
		}
		for _, typed := range []string{"overview", "  OVERVIEW "} {
			if res := h.command(alice, ch, cmdGame, subRules, map[string]any{optTopic: typed}); !strings.Contains(res.text(), tc.overview) {
				t.Errorf("%s: /game rules %q: %s", tc.lang, typed, res.text())
			}
		}
		if res := h.command(alice, ch, cmdGame, subRules, map[string]any{optTopic: strings.ToLower(tc.loansTitle)}); !strings.Contains(res.text(), "Crystal Palace: "+tc.loansTitle) {
			t.Errorf("%s: /game rules by the title %q: %s", tc.lang, tc.loansTitle, res.text())
		}
		if res := h.command(alice, ch, cmdGame, subRules, nil); !strings.Contains(res.text(), "`loans` ("+tc.loansTitle+")") || strings.Contains(res.text(), "…") {
			t.Errorf("%s: the list of topics, whole and with their titles: %s", tc.lang, res.text())
		}
		if got := h.autocomplete(alice, ch, cmdGame, subRules, map[string]any{optTopic: tc.loansTitle}, optTopic); len(got) != 1 || got[0] != "loans — "+tc.loansTitle {
			t.Errorf("%s: topic suggestions for %q: %v", tc.lang, tc.loansTitle, got)
		}
	}
}

// BenchmarkAutocompleteDescribed is /play's autocomplete in phase 1 of
// Crystal Palace for a German reader: every dice choice is described and
// written before the list is matched against what was typed.
func BenchmarkAutocompleteDescribed(b *testing.B) {
	h := newHarness(b, realRegistry(b), Config{}, nil, nil)
	h.locale, h.guildLocale = "de", "de"
	ch := "8103"
	h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: "crystalpalace"})
	h.command(bob, ch, cmdLobby, subJoin, nil)
	h.command(bob, ch, cmdLobby, subStart, nil)
	for b.Loop() { // both players choose their dice in phase 1
		if got := h.autocomplete(alice, ch, cmdPlay, "", map[string]any{optAction: "dice 6"}, optAction); len(got) == 0 {
			b.Fatal("no suggestions")
		}
	}
}
