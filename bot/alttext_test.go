package bot

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/bot/transport"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// opening is the text of message id up to its first placeholder: how
// every text made from it begins.
func (h *harness) opening(id string) string {
	before, _, _ := strings.Cut(h.say(id, "Game", "\x00", "Title", "\x00", "Seat", "\x00", "Stage", "\x00", "Waiting", "\x00", "Seats", "\x00", "List", "\x00", "Axis", "\x00", "Last", 1, "Series", "\x00"), "\x00")
	return before
}

// Every picture the bot posts carries alt text in the reader's language:
// the glance on the board (posted and edited), the full board (button and
// /game board), the private mat, the final score sheet, the report's
// chart and the leaderboard. Each is within Discord's 1,024 characters,
// begins with what it shows, and holds no secret choice.
func TestEveryPictureIsDescribed(t *testing.T) {
	for _, lang := range []string{locale.English, locale.German, locale.French} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, realRegistry(t), Config{Images: true}, realRenderer(t), plainText)
			h.locale, h.guildLocale = lang, lang
			const ch = "8300"
			h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: "crystalpalace", optPlayers: 2})
			h.command(bob, ch, cmdLobby, subJoin, nil)
			for _, u := range []tester{alice, bob} {
				h.command(u, ch, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
			}
			h.command(bob, ch, cmdLobby, subStart, nil)
			board := h.board(ch)
			h.click(carol, ch, board.ID, mustComponent(t, board, h.say("board.full_button")))
			h.command(carol, ch, cmdGame, subBoard, nil)
			h.command(alice, ch, cmdGame, subMe, nil)
			// a secret choice edits the board; its glance must not tell it
			g, st, err := h.store.Load(context.Background(), ch)
			if err != nil {
				t.Fatal(err)
			}
			p := st.Prompts()[0]
			secret := p.Actions[len(p.Actions)-1]
			_, values, _ := strings.Cut(secret, " ")
			who := map[string]tester{alice.ID: alice, bob.ID: bob}[g.Seats[p.Seat].User]
			h.dm(who, values)
			h.command(alice, ch, cmdGame, subEnd, nil)
			h.command(bob, ch, cmdGame, subEnd, nil)
			h.bot.Wait()
			h.command(eve, ch, cmdGame, subBoardTop, map[string]any{optGame: "crystalpalace"})
			h.bot.Wait()

			want := map[string]bool{
				h.opening("alt.glance"): false, h.opening("alt.board"): false, h.opening("alt.mat"): false,
				h.opening("report.alt"): false, h.opening("alt.scores"): false, h.opening("alt.leaderboard_empty"): false,
			}
			pictures := 0
			for _, q := range h.fake.Requests() {
				if q.Status >= 300 {
					continue
				}
				for _, f := range q.Files {
					pictures++
					alt := f.Description
					if alt == "" {
						t.Errorf("%s %s posts %s without alt text", q.Kind, q.Path, f.Name)
						continue
					}
					if n := utf8.RuneCountInString(alt); n > transport.MaxAltText {
						t.Errorf("alt text of %d characters: %.80s…", n, alt)
					}
					if strings.Contains(alt, values) && values != "" && !strings.Contains(h.publicSince(0), secret) {
						t.Errorf("alt text tells the secret %q: %s", secret, alt)
					}
					matched := false
					for open := range want {
						if strings.HasPrefix(alt, open) {
							want[open], matched = true, true
						}
					}
					if !matched {
						t.Errorf("alt text begins with no known summary: %.120s", alt)
					}
				}
			}
			for open, seen := range want {
				if !seen {
					t.Errorf("no picture described as %q… among %d", open, pictures)
				}
			}
			if strings.Contains(h.publicSince(0), "\x00") {
				t.Error("a placeholder leaked")
			}
			_ = discordtest.File{}
		})
	}
}
