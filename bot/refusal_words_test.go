package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/locale"
)

// A game's refusal reaches the player in their client's language, numbers
// kept: a rule broken, a text that is no action, a Layover (its city named
// in the reader's language) — no word only English uses.
func TestGameRefusalsSpeakTheReadersLanguage(t *testing.T) {
	t.Parallel()
	catalogue := testWords(t)
	for _, lang := range []string{locale.German, locale.French} {
		english := englishOnly(catalogue, lang)
		for _, c := range []struct {
			kind, action string
			want         map[string]string // a phrase of the refusal by language
		}{
			{"crystalpalace", "dice 6 6", map[string]string{locale.German: "du hast 4 Würfel: gib genau 4 Werte an", locale.French: "vous avez 4 dés\u202f: donnez exactement 4 valeurs"}},
			{"crystalpalace", "dice 9", map[string]string{locale.German: "Würfelwerte sind Zahlen von 1 bis 6", locale.French: "les valeurs des dés sont des nombres de 1 à 6"}},
			{"eightydays", "move 38", map[string]string{locale.German: "Feld 38 ist ein Zwischenstopp", locale.French: "la case 38 est une Escale"}},
			{"eightydays", "move 79", map[string]string{locale.German: "79 Felder weit zu ziehen kostet", locale.French: "avancer de 79 cases coûte"}},
		} {
			t.Run(lang+"/"+c.action, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, realRegistry(t), Config{}, nil, plainText)
				h.locale, h.guildLocale = lang, lang
				const ch = "8200"
				h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: c.kind})
				h.command(bob, ch, cmdLobby, subJoin, nil)
				h.command(alice, ch, cmdLobby, subStart, nil)
				g := h.game(ch)
				first := alice
				if _, st, err := h.store.Load(context.Background(), ch); err != nil {
					t.Fatal(err)
				} else if p := st.Prompts(); len(p) > 0 && g.Seats[p[0].Seat].User != alice.ID {
					first = bob
				}
				told := h.play(first, ch, c.action)
				if !strings.Contains(told, c.want[lang]) {
					t.Fatalf("%q refused as %q, want %q", c.action, told, c.want[lang])
				}
				if found := englishIn(english, told); len(found) > 0 {
					t.Fatalf("%q refused with English %v: %q", c.action, found, told)
				}
			})
		}
	}
}
