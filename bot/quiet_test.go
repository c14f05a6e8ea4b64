package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

func TestQuietUntil(t *testing.T) {
	var z zones
	berlin := storage.UserPrefs{TimeZone: "Europe/Berlin", QuietFrom: 22, QuietTo: 7}
	day := storage.UserPrefs{TimeZone: "America/New_York", QuietFrom: 9, QuietTo: 17}
	utc := func(s string) time.Time {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			panic(err)
		}
		return t
	}
	for _, c := range []struct {
		prefs storage.UserPrefs
		now   string
		want  string // "" for outside
	}{
		{berlin, "2026-11-22T20:59:00Z", ""},                     // 21:59 in Berlin
		{berlin, "2026-11-22T21:00:00Z", "2026-11-23T06:00:00Z"}, // 22:00 until 7:00 (UTC+1)
		{berlin, "2026-11-23T05:59:00Z", "2026-11-23T06:00:00Z"},
		{berlin, "2026-11-23T06:00:00Z", ""},
		{berlin, "2026-03-28T22:30:00Z", "2026-03-29T05:00:00Z"}, // the night summer time starts: 7:00 is UTC+2
		{day, "2026-11-22T14:00:00Z", "2026-11-22T22:00:00Z"},    // 9:00 in New York (UTC-5)
		{day, "2026-11-22T22:00:00Z", ""},
		{storage.UserPrefs{QuietFrom: 3, QuietTo: 3}, "2026-11-22T03:30:00Z", ""}, // none
		{storage.UserPrefs{TimeZone: "Mars/Olympus", QuietFrom: 1, QuietTo: 2}, "2026-11-22T01:30:00Z", "2026-11-22T02:00:00Z"},
	} {
		got := z.quietUntil(c.prefs, utc(c.now))
		if c.want == "" && !got.IsZero() || c.want != "" && !got.Equal(utc(c.want)) {
			t.Errorf("%+v at %s: quiet until %v, want %q", c.prefs, c.now, got, c.want)
		}
	}
}

// shown is every public message since mark, in order, with the users each
// may notify and whether it is silent.
func shown(t *testing.T, h *harness, mark int) []discordtest.Request {
	t.Helper()
	h.bot.Wait()
	var out []discordtest.Request
	for _, q := range h.fake.Requests()[mark:] {
		created := q.Kind == discordtest.ChannelSend || q.Kind == discordtest.Followup ||
			q.Kind == discordtest.Callback && q.Type == discordgo.InteractionResponseChannelMessageWithSource
		if created && !q.Ephemeral() && q.Status < 300 {
			out = append(out, q)
		}
	}
	return out
}

// A routine post that pings nobody is silent; a ping is not; a DM is not.
func TestRoutinePostsAreSilent(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(bob, chTiny, cmdGame, subPrefs, map[string]any{optPings: false})
	mark := h.mark()
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice, bob)
	pings, silent := 0, 0
	for _, q := range shown(t, h, mark) {
		quiet := q.Flags()&discordgo.MessageFlagsSuppressNotifications != 0
		switch who := notified(t, q); {
		case len(who) > 0 && quiet:
			t.Errorf("a ping of %v is silent: %s", who, q.Text())
		case len(who) == 0 && !quiet:
			t.Errorf("a post that pings nobody notifies: %s", q.Text())
		case len(who) > 0:
			pings++
			if slices.Contains(who, bob.ID) {
				t.Errorf("bob, who turned pings off, is pinged: %s", q.Text())
			}
		default:
			silent++
		}
	}
	if pings == 0 || silent == 0 {
		t.Errorf("%d pings and %d silent posts: want both", pings, silent)
	}
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.DirectMessage && q.Flags()&discordgo.MessageFlagsSuppressNotifications != 0 {
			t.Errorf("a silent DM: %s", q.Text())
		}
	}
}

// A ping that falls in a player's quiet hours names them without a
// mention and is held: the game's reminder, a stored timer, pings them
// once when the hours end, after a restart too.
func TestQuietHoursHoldAPing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	// 12:00 UTC is 13:00 in Berlin: inside 13 to 15, which end at 14:00 UTC
	res := h.command(bob, chTiny, cmdGame, subPrefs, map[string]any{optTimeZone: "Europe/Berlin", optQuietFrom: 13, optQuietTo: 15})
	if !res.privatelySays(h, "prefs.quiet", "From", 13, "To", 15, "Zone", "Europe/Berlin") {
		t.Fatalf("prefs: %s", res.text())
	}
	mark := h.mark()
	openTinyTable(t, h, chTiny, alice, bob)
	end := time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)
	named := false
	for _, q := range shown(t, h, mark) {
		if slices.Contains(notified(t, q), bob.ID) {
			t.Errorf("bob is pinged in his quiet hours: %s", q.Text())
		}
		named = named || strings.Contains(q.Text(), "<@"+bob.ID+">") && strings.Contains(q.Text(), fmt.Sprintf("<t:%d:t>", end.Unix()))
	}
	if !named {
		t.Errorf("bob is not named with the end of his quiet hours:\n%s", h.publicSince(mark))
	}
	if g := h.game(chTiny); !g.RemindAt.Equal(end) {
		t.Fatalf("the held ping's timer is %v, want %v", g.RemindAt, end)
	}
	h.restart() // the held ping is in the store
	h.clock.Advance(2*time.Hour + time.Second)
	mark = h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.CheckDeadlines(h.clock.Now())
	pinged := 0
	for _, q := range shown(t, h, mark) {
		if slices.Contains(notified(t, q), bob.ID) {
			pinged++
		}
	}
	if pinged != 1 {
		t.Errorf("bob pinged %d times when his quiet hours ended, want once:\n%s", pinged, h.publicSince(mark))
	}
	// the game's own reminders go on from there
	if g := h.game(chTiny); g.Timing.ReminderEvery > 0 && !g.RemindAt.Equal(end.Add(g.Timing.ReminderEvery)) {
		t.Errorf("the next reminder is at %v, want %v after %v", g.RemindAt, g.Timing.ReminderEvery, end)
	}
	// a time zone the database lacks is refused, and nothing changes
	if res := h.command(bob, chTiny, cmdGame, subPrefs, map[string]any{optTimeZone: "Mars/Olympus"}); !res.privatelySays(h, "prefs.bad_zone", "Zone", "Mars/Olympus") {
		t.Errorf("an unknown zone: %s", res.text())
	}
}
