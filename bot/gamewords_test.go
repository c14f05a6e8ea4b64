package bot

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
)

// sameEverywhere collects, during a game, the words that stand as they
// are in every language, which the word-list check forgives: the actions'
// notation, the notation inside the engines' texts, and the English names
// of content items (a name a language does not give yet reads in
// English). Everything else a game shows must be in the reader's language.
type sameEverywhere struct {
	mu    sync.Mutex
	words map[string]bool
	names engine.Namer // names the game's content items
}

func (v *sameEverywhere) add(texts ...string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.words == nil {
		v.words = map[string]bool{}
	}
	for _, text := range texts {
		for _, w := range wordsOf(text) {
			v.words[w] = true
		}
	}
}

// addVerbatim adds the notation t carries and the English names of the
// content items it names.
func (v *sameEverywhere) addVerbatim(t engine.Text) {
	for _, a := range t.Args {
		switch {
		case a.Kind == engine.ArgCode:
			v.add(a.S)
		case a.Kind == engine.ArgItem && v.names != nil:
			v.add(v.names.ItemName(a.S, locale.English))
		}
		if a.Sub != nil {
			v.addVerbatim(*a.Sub)
		}
	}
}

// step takes in the notation of st and of the decision made in it: every
// open prompt's text and actions, what each action does, and the events
// of action.
func (v *sameEverywhere) step(st engine.State, p engine.Prompt, action string) {
	d, _ := st.(engine.Describer)
	for _, pr := range st.Prompts() {
		v.addVerbatim(*pr.Text)
		for _, a := range append(slices.Clone(pr.Actions), st.FreeActions(pr.Seat)...) {
			v.add(a)
			if d != nil {
				v.addVerbatim(d.Describe(pr.Seat, a))
			}
		}
	}
	if events, err := st.Clone().Apply(p.Seat, action); err == nil {
		for _, e := range events {
			v.addVerbatim(e.Text)
		}
	}
}

// clippedWord is the end of a text clipped to fit: a word cut short.
var clippedWord = regexp.MustCompile(`\pL+…`)

// TestWholeGamesSpeakGermanAndFrench plays a whole game of each kind with
// German and then French clients on a server of the same language, every
// way a move can be made (board buttons and menus, the picker, /play, the
// secret form, DMs typed and picked from menus), and reads everything the
// bot sent: public messages, private answers, DMs, buttons, menus, forms
// and embeds. None may break a Discord limit (the strict fake checks each
// request; German runs long) or hold a word only the English catalogue
// uses.
func TestWholeGamesSpeakGermanAndFrench(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("whole games")
	}
	catalogue := testWords(t)
	for _, lang := range []string{locale.German, locale.French} {
		english := englishOnly(catalogue, lang)
		for _, kind := range []string{"crystalpalace", "eightydays"} {
			t.Run(lang+"/"+kind, func(t *testing.T) {
				t.Parallel()
				var h *harness
				if kind == "crystalpalace" { // with images: the full board's button
					h = newHarness(t, realRegistry(t), Config{Images: true}, realRenderer(t), plainText)
				} else {
					h = newHarness(t, realRegistry(t), Config{}, nil, plainText)
				}
				h.locale, h.guildLocale = lang, lang
				rules, err := h.reg.Lookup(kind)
				if err != nil {
					t.Fatal(err)
				}
				names, _ := rules.(engine.Namer)
				notation := sameEverywhere{names: names}
				h.step = notation.step
				playWholeGame(t, h, "8100", kind, []tester{alice, bob, carol, dave})
				h.bot.Wait()
				forgiven := map[string]bool{}
				for w := range english {
					if notation.words[w] {
						forgiven[w] = true
					}
				}
				sent, bad := 0, 0
				for _, q := range h.fake.Requests() {
					text := q.Text()
					for _, f := range q.Files { // an attachment's name is no one's reading
						text = strings.ReplaceAll(text, "\n"+f.Name, "")
					}
					// a word cut short to fit a label ("tie…" of "tier") is
					// no word of its own
					text = clippedWord.ReplaceAllString(text, " ")
					if strings.TrimSpace(text) == "" || q.Kind == discordtest.Other {
						continue
					}
					sent++
					var found []string
					for _, w := range englishIn(english, text) {
						if !forgiven[w] {
							found = append(found, w)
						}
					}
					if len(found) > 0 && bad < 10 {
						bad++
						t.Errorf("%s %s has English %v:\n%s", q.Kind, q.Path, found, text)
					}
				}
				if sent < 50 {
					t.Fatalf("only %d messages read", sent)
				}
				t.Logf("%d messages read; English-only words forgiven as notation or untranslated names: %d of %d", sent, len(forgiven), len(english))
			})
		}
	}
}

// TestDMsFollowTheUsersLastInteraction: a DM carries no locale, so the bot
// writes it in the language of the user's last interaction, kept in their
// preferences (and so after a restart); English before any.
func TestDMsFollowTheUsersLastInteraction(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	english := h.say("dm.none_waiting")
	if dms := h.dm(alice, "6"); len(dms) != 1 || dms[0].Text() != english {
		t.Fatalf("a DM before any interaction: %+v", dms)
	}
	h.locale, h.guildLocale = locale.German, locale.German
	h.command(alice, chTiny, cmdGame, subStats, nil)
	if p, err := h.store.UserPrefs(context.Background(), alice.ID); err != nil || p.Locale != locale.German {
		t.Fatalf("preferences after a German interaction: %+v, %v", p, err)
	}
	german := h.say("dm.none_waiting")
	if dms := h.dm(alice, "6"); len(dms) != 1 || dms[0].Text() != german {
		t.Fatalf("a DM after a German interaction: %+v", dms)
	}
	h.restart()
	if dms := h.dm(alice, "6"); len(dms) != 1 || dms[0].Text() != german {
		t.Fatalf("a DM after a restart: %+v", dms)
	}
	h.locale = "fr"
	h.command(alice, chTiny, cmdGame, subStats, nil)
	if dms := h.dm(alice, "6"); len(dms) != 1 || dms[0].Text() != h.say("dm.none_waiting") {
		t.Fatalf("a DM after a French interaction: %+v", dms)
	}
	if dms := h.dm(bob, "6"); len(dms) != 1 || dms[0].Text() != english {
		t.Fatalf("another user's DM: %+v", dms)
	}
}

// TestSkillAndPermissionsInTheReadersLanguage: the thread permissions a
// refusal names read as Discord names them in the reader's language, and
// every permission has its name in every catalogue.
func TestSkillAndPermissionsInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	catalogue := testWords(t)
	for lang, want := range map[string]string{locale.German: "Öffentliche Threads erstellen und Nachrichten in Threads senden", locale.French: "Créer des fils publics et Envoyer des messages dans les fils"} {
		p := catalogue.For(lang)
		got := refusalText(p, errThreadPermissions(permissionNames(threadPermissions)).(*table.Refusal))
		if !strings.Contains(got, want) {
			t.Errorf("%s: %s", lang, got)
		}
	}
	for _, perm := range Permissions() {
		for _, lang := range catalogue.Languages() {
			if name := permissionName(catalogue.For(lang), perm.Name); name == "" || lang != locale.English && name == perm.Name {
				t.Errorf("%s: %s reads %q", lang, perm.Name, name)
			}
		}
	}
}

// TestScoresAndPingsInTheReadersLanguage: the sources of points in the
// final scores are named in the reader's language (a source without a
// message as the game names it), and a turn ping's punctuation is the
// language's ("À vous de jouer : …").
func TestScoresAndPingsInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	catalogue := testWords(t)
	for lang, want := range map[string]string{locale.English: "Port tickets", locale.German: "Fahrkarten", locale.French: "billets du port"} {
		if got := scoreSource(catalogue.For(lang), "port-tickets"); got != want {
			t.Errorf("%s: port-tickets reads %q, want %q", lang, got, want)
		}
		if got := scoreSource(catalogue.For(lang), "spaces"); got != "spaces" {
			t.Errorf("%s: a source without a message reads %q", lang, got)
		}
	}
	if got := catalogue.For(locale.French).T("botgame.ping", "Prefix", "À vous de jouer", "Names", "<@1>"); got != "À vous de jouer\u202f: <@1>" {
		t.Errorf("a French ping reads %q", got)
	}
}

// TestTheServersLocaleOutlivesARestart: what the bot posts with no
// interaction at hand (a deadline's notice) reads in the server's own
// locale as its interactions carried it, after a restart too; keeping it
// saves none of the admins' settings.
func TestTheServersLocaleOutlivesARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{OnDeadline: onDeadlinePause, Deadline: time.Hour}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	h.guildLocale = locale.German
	h.command(alice, chTiny, cmdGame, subStats, nil)
	if s, err := h.store.GuildSettings(context.Background(), h.guildID()); err != nil || s.Locale != locale.German || s.Saved {
		t.Fatalf("the server's settings after German interactions: %+v, %v", s, err)
	}
	h.restart()
	h.clock.Advance(2 * time.Hour)
	mark := h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	h.locale = locale.German
	want, _, _ := strings.Cut(h.say("deadline.paused", "ID", 1, "Names", "x", "Count", 1), "#")
	if got := h.publicSince(mark); !strings.Contains(got, want) {
		t.Errorf("the deadline's notice after a restart: %q, want German %q", got, want)
	}
}
