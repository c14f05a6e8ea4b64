package bot

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/locale"
)

// failureText is the English words of an error that is not the user's.
const failureText = "Something went wrong on Meeple's side. It has been logged; please try again, and tell the server admin if it keeps happening."

func testWords(t testing.TB) *locale.Catalogue {
	t.Helper()
	w, err := sharedWords()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// sharedWords is the one catalogue of the test binary, shared by every
// harness and its bot: reading and checking the catalogues takes a tenth
// of a second (more than a second under the race detector), and a
// Catalogue is safe for concurrent use.
var sharedWords = sync.OnceValues(locale.New)

func englishWords(t testing.TB) *locale.Printer { return testWords(t).For(locale.English) }

// TestLobbyAndGameCommandsSpeakGermanAndFrench plays a lobby and the
// /game and /meeple-admin commands with a German and then a French
// Discord client on a server of the same language, and finds in the
// answers no word that only the English catalogue uses. Names, numbers,
// mentions and what is typed in backquotes (commands, action notation)
// are left out of the check; so is the test game's own title.
func TestLobbyAndGameCommandsSpeakGermanAndFrench(t *testing.T) {
	t.Parallel()
	catalogue := testWords(t)
	for _, lang := range []string{locale.German, locale.French} {
		t.Run(lang, func(t *testing.T) {
			english := englishOnly(catalogue, lang)
			h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
			h.locale, h.guildLocale = lang, lang
			admin := alice
			admin.Admin = true
			var answers []string
			ask := func(u tester, name, sub string, opts map[string]any) result {
				t.Helper()
				res := h.command(u, chTiny, name, sub, opts)
				// the command's own answers; the game's board and pings that
				// follow a start publicly are the publisher's messages
				var parts []string
				for _, q := range res.Requests {
					if q.Kind != discordtest.Followup || q.Ephemeral() {
						parts = append(parts, q.Text())
					}
				}
				answers = append(answers, strings.Join(parts, "\n"))
				return res
			}
			ask(alice, cmdGame, subLog, nil) // no game yet
			ask(alice, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "speed"})
			ask(alice, cmdLobby, subNew, map[string]any{optGame: "tiny", optPlayers: 9})
			ask(alice, cmdLobby, subNew, map[string]any{optGame: "tiny", optDeadline: 36})
			ask(alice, cmdLobby, subNew, map[string]any{optGame: "tiny"}) // the channel is busy
			ask(alice, cmdLobby, subJoin, nil)
			ask(bob, cmdLobby, subLeave, nil)
			ask(bob, cmdLobby, subJoin, nil)
			ask(carol, cmdLobby, subAddAI, map[string]any{optName: "xq-7"})
			ask(bob, cmdLobby, subAddAI, map[string]any{optName: "xq-7"})
			ask(bob, cmdLobby, subAddAI, nil)
			ask(bob, cmdLobby, subDropAI, nil)
			ask(bob, cmdLobby, subDropAI, nil)
			ask(alice, cmdLobby, subList, nil)
			ask(alice, cmdGame, subMe, nil) // not started
			ask(carol, cmdLobby, subStart, nil)
			ask(alice, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
			ask(alice, cmdLobby, subJoin, nil) // started
			ask(alice, cmdGame, subLog, nil)
			ask(alice, cmdGame, subRules, nil)
			ask(alice, cmdGame, subRules, map[string]any{optTopic: "zzq"})
			ask(alice, cmdGame, subStats, nil)
			ask(alice, cmdGame, subPrefs, map[string]any{optPings: true})
			ask(alice, cmdGame, subUndo, nil)
			ask(alice, cmdGame, subNudge, nil)
			ask(alice, cmdGame, subNudge, nil)
			ask(carol, cmdGame, subNudge, nil)
			ask(alice, cmdGame, subReplace, nil)
			ask(bob, cmdGame, subReplace, map[string]any{optSeat: 1})
			ask(alice, cmdGame, subReplace, map[string]any{optSeat: 7})
			ask(alice, cmdGame, subEnd, nil)
			ask(alice, cmdGame, subEnd, nil)
			ask(alice, cmdGame, subBoardTop, nil)
			ask(alice, cmdMeta(), subShow, nil)
			ask(admin, cmdMeta(), subShow, nil)
			ask(admin, cmdMeta(), subSettings, map[string]any{optDeadline: 24, optReminder: 0, optThread: false, optLanguage: lang})
			ask(bob, cmdLobby, subAbandon, nil)
			ask(alice, cmdLobby, subAbandon, nil)
			ask(alice, cmdLobby, subAbandon, map[string]any{optGame: 99})
			ask(bob, cmdGame, subResign, nil)
			for n, a := range answers {
				if found := englishIn(english, a); len(found) > 0 {
					t.Errorf("answer %d has English %v:\n%s", n+1, found, a)
				}
			}
		})
	}
}

func cmdMeta() string { return cmdAdmin }

// unchecked are the parts of a text that are no language's words:
// mentions, timestamps, typed text in backquotes, numbers, the harness's
// names, the test game's title and its prompts' labels (the engine's
// words, which are the game's wording to translate, not the bot's).
var unchecked = regexp.MustCompile("<[@#][0-9]+>|<t:[0-9]+:[A-Za-z]>|`[^`]*`|\\{\\{[^}]*\\}\\}|Tiny Game|pick a number in secret|move 1 or 2|Alice|Bob|Carol|Dave|[0-9]+")

// wordsOf are the lower-cased words of a text, unchecked parts left out.
func wordsOf(text string) []string {
	return strings.FieldsFunc(strings.ToLower(unchecked.ReplaceAllString(text, " ")), func(r rune) bool { return !unicode.IsLetter(r) })
}

// englishOnly are the words of the English catalogue that lang's never
// uses.
func englishOnly(catalogue *locale.Catalogue, lang string) map[string]bool {
	of := func(l string) map[string]bool {
		set := map[string]bool{}
		for _, id := range catalogue.IDs() {
			if strings.HasPrefix(id, "cmd.") || strings.HasPrefix(id, "language.") {
				continue // command names and language names are not sentences
			}
			var args []any
			for _, name := range catalogue.Placeholders(locale.English, id) {
				args = append(args, name, "{{}}")
			}
			for _, n := range []int{1, 2} {
				for _, w := range wordsOf(catalogue.For(l).T(id, append(args, "Count", n)...)) {
					set[w] = true
				}
			}
		}
		return set
	}
	en, other := of(locale.English), of(lang)
	for w := range other {
		delete(en, w)
	}
	return en
}

func englishIn(english map[string]bool, text string) []string {
	var found []string
	for _, w := range wordsOf(text) {
		if english[w] && !slices.Contains(found, w) {
			found = append(found, w)
		}
	}
	return found
}

// TestLabelsFitDiscordInEveryLanguage checks the catalogue's button labels
// (80 characters) and embed field names (256) in every language; the
// harness's strict fake checks every answer the tests send.
func TestLabelsFitDiscordInEveryLanguage(t *testing.T) {
	t.Parallel()
	catalogue := testWords(t)
	for _, lang := range catalogue.Languages() {
		p := catalogue.For(lang)
		for _, id := range []string{"lobby.button.join", "lobby.button.leave", "lobby.button.add_ai", "lobby.button.drop_ai", "lobby.button.start_shuffled",
			"lobby.button.start_join", "lobby.button.abandon", "lobby.abandon_button", "vote.button", "log.older", "log.newer"} {
			if n := len([]rune(p.T(id))); n < 1 || n > 80 {
				t.Errorf("%s %s: label of %d characters", lang, id, n)
			}
		}
		for _, id := range []string{"lobby.table", "lobby.deadline", "lobby.options"} {
			if n := len([]rune(p.T(id))); n < 1 || n > 256 {
				t.Errorf("%s %s: field name of %d characters", lang, id, n)
			}
		}
		if n := len([]rune(p.T("lobby.title", "Game", strings.Repeat("W", 100)))); n > 256 {
			t.Errorf("%s: lobby title of %d characters", lang, n)
		}
	}
}

// TestPublicMessagesFollowTheServerAndAnswersThePerson: on a German
// server whose admins chose French for public messages, a German client's
// lobby is posted in French while the private answers stay German; a
// server that chose nothing posts in its own locale.
func TestPublicMessagesFollowTheServerAndAnswersThePerson(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.locale, h.guildLocale = locale.German, locale.German
	admin := alice
	admin.Admin = true
	if res := h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"}); !strings.Contains(res.text(), "Beitreten") {
		t.Fatalf("a German server's lobby: %s", res.text())
	}
	h.command(alice, chTiny, cmdLobby, subAbandon, nil)
	if res := h.command(admin, chTiny, cmdAdmin, subSettings, map[string]any{optLanguage: locale.French}); !res.private() || !strings.Contains(res.text(), "öffentliche Nachrichten in Français") {
		t.Fatalf("the settings, answered in German: %s", res.text())
	}
	if g, err := h.store.GuildSettings(context.Background(), h.guildID()); err != nil || g.Language != locale.French {
		t.Fatalf("stored settings %+v, %v", g, err)
	}
	const other = "3999"
	if res := h.command(bob, other, cmdLobby, subNew, map[string]any{optGame: "tiny"}); res.private() || !strings.Contains(res.text(), "Rejoindre") || strings.Contains(res.text(), "Beitreten") {
		t.Fatalf("the lobby after the server chose French: %s", res.text())
	}
	if res := h.command(bob, other, cmdLobby, subJoin, nil); !res.private() || !strings.Contains(res.text(), "Du sitzt bereits am Tisch.") {
		t.Fatalf("a refusal to a German client: %s", res.text())
	}
	if res := h.command(admin, chTiny, cmdAdmin, subSettings, map[string]any{optLanguage: "klingon"}); !strings.Contains(res.text(), "Meeple spricht en, de, fr") {
		t.Fatalf("an unknown language: %s", res.text())
	}
}
