package bot

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

// openSolo opens a tiny game of u against a computer player, which sits
// second: u decides first in each round's moves, and again in the next
// round's picks right after the computer's move.
func openSolo(t *testing.T, h *harness, ch string, u tester, rounds string) {
	t.Helper()
	h.command(u, ch, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=" + rounds})
	lobby := h.game(ch).Messages[roleLobby]
	m, _ := h.fake.Message(lobby)
	h.click(u, ch, lobby, mustComponent(t, m, "Add computer"))
	m, _ = h.fake.Message(lobby)
	if res := h.click(u, ch, lobby, mustComponent(t, m, "Start (join order)")); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
}

// notified returns the users a request's message may notify (its allowed
// mentions).
func notified(t *testing.T, q discordtest.Request) []string {
	t.Helper()
	var payload struct {
		AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
		Data            struct {
			AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
		} `json:"data"`
	}
	if err := json.Unmarshal(q.Raw, &payload); err != nil {
		return nil
	}
	for _, a := range []*discordgo.MessageAllowedMentions{payload.AllowedMentions, payload.Data.AllowedMentions} {
		if a != nil {
			return a.Users
		}
	}
	return nil
}

// sentSince finds the channel post since mark whose text holds want.
func sentSince(t *testing.T, h *harness, mark int, want string) discordtest.Request {
	t.Helper()
	h.bot.Wait()
	for _, q := range h.fake.Requests()[mark:] {
		if q.Kind == discordtest.ChannelSend && strings.Contains(q.Text(), want) {
			return q
		}
	}
	t.Fatalf("no message with %q:\n%s", want, h.publicSince(mark))
	return discordtest.Request{}
}

func TestDeadlineRenewsWhenTheNextDecisionIsYoursAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour, Reminder: 4 * time.Hour}, nil, nil)
	openSolo(t, h, chTiny, alice, "2")
	// alice picks a minute before her deadline; her move is next
	h.clock.Advance(10*time.Hour - time.Minute)
	pickAll(t, h, chTiny, alice)
	g := h.game(chTiny)
	if want := h.clock.Now().Add(10 * time.Hour); !g.Deadline.Equal(want) || !g.RemindAt.Equal(h.clock.Now().Add(4*time.Hour)) {
		t.Fatalf("after the pick: deadline %v reminder %v, want %v and 4 hours from now", g.Deadline, g.RemindAt, want)
	}
	// she moves just before that deadline; the computer moves; round 2's
	// pick is hers again
	h.clock.Advance(10*time.Hour - time.Minute)
	board := h.board(chTiny)
	h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
	if g := h.game(chTiny); !g.Deadline.Equal(h.clock.Now().Add(10 * time.Hour)) {
		t.Fatalf("after the move: deadline %v, want 10 hours from %v", g.Deadline, h.clock.Now())
	}
	// past the old deadline: no reminder, no stand-in
	h.clock.Advance(2 * time.Minute)
	mark := h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	if got := h.publicSince(mark); got != "" {
		t.Fatalf("a stale timer fired: %q", got)
	}
	if v := h.game(chTiny).Version; v != 5 { // two picks, two moves, and nothing more
		t.Fatalf("version %d: someone decided for alice", v)
	}
}

func TestAFreeActionDoesNotRenewTheDeadline(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour}, nil, nil)
	openSolo(t, h, chTiny, alice, "1")
	deadline := h.game(chTiny).Deadline
	h.clock.Advance(time.Hour)
	if res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "cheer"}); res.private() && strings.Contains(res.text(), "not") {
		t.Fatalf("cheer: %s", res.text())
	}
	if g := h.game(chTiny); g.Version != 2 || !g.Deadline.Equal(deadline) {
		t.Fatalf("after a free action: version %d deadline %v, want the old %v", g.Version, g.Deadline, deadline)
	}
}

func TestExplicitAdminSettingsEqualToDefaultsAreKept(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 24 * time.Hour, Reminder: 6 * time.Hour}, nil, nil)
	// before the admins save anything, the host's defaults apply
	h.command(alice, "3002", cmdLobby, subNew, map[string]any{optGame: "tiny"})
	if tm := h.game("3002").Timing; tm.TurnDeadline != 24*time.Hour || tm.ReminderEvery != 6*time.Hour {
		t.Fatalf("timing before any settings %+v, want the host's 24 h and 6 h", tm)
	}
	def := storage.DefaultGuildSettings()
	res := h.command(admin, chTiny, cmdAdmin, subSettings, map[string]any{
		optDeadline: int(def.TurnDeadline / time.Hour), optReminder: int(def.ReminderEvery / time.Hour)})
	if !h.says(res.text(), "admin.settings", "Deadline", h.say("admin.deadline", "Duration", h.say("duration.days", "Count", 2)), "Reminders", h.say("admin.reminders", "Duration", h.say("duration.hours", "Count", 12))) {
		t.Fatalf("settings: %s", res.text())
	}
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"})
	if tm := h.game(chTiny).Timing; tm.TurnDeadline != def.TurnDeadline || tm.ReminderEvery != def.ReminderEvery {
		t.Fatalf("new game's timing %+v, want the admin's 48 h and 12 h", tm)
	}
}

// bobMissesADeadline plays until only bob, who turned pings off, has to
// decide, lets his hour pass and returns the mark before the check.
func bobMissesADeadline(t *testing.T, cfg Config) (*harness, int) {
	h := newHarness(t, tinyRegistry(), cfg, nil, nil)
	h.command(bob, chTiny, cmdGame, subPrefs, map[string]any{optPings: false})
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice)
	h.clock.Advance(2 * time.Hour)
	mark := h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	return h, mark
}

func TestPauseIsAnnouncedEvenWithoutPings(t *testing.T) {
	t.Parallel()
	h, mark := bobMissesADeadline(t, Config{OnDeadline: onDeadlinePause, Deadline: time.Hour})
	q := sentSince(t, h, mark, "paused until <@"+bob.ID+"> decides")
	if slices.Contains(notified(t, q), bob.ID) {
		t.Errorf("bob turned pings off but the pause notifies him: %v", notified(t, q))
	}
}

// A ping goes only to those who asked for pings: the notice that a
// computer decided for bob, who turned them off, names him and does not
// notify him.
func TestStandInNoticeKeepsToPingPreferences(t *testing.T) {
	t.Parallel()
	h, mark := bobMissesADeadline(t, Config{Deadline: time.Hour})
	q := sentSince(t, h, mark, "decided for <@"+bob.ID+">")
	if slices.Contains(notified(t, q), bob.ID) {
		t.Errorf("bob turned pings off but the stand-in notice notifies him: %v", notified(t, q))
	}
}

func TestNoReminderMeansNever(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 8 * time.Hour, NoReminder: true}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	if g := h.game(chTiny); g.Timing.ReminderEvery != 0 || !g.RemindAt.IsZero() {
		t.Fatalf("reminders armed although turned off: %+v %v", g.Timing, g.RemindAt)
	}
	// a lobby's own deadline keeps them off
	h.command(alice, "3002", cmdLobby, subNew, map[string]any{optGame: "tiny", optDeadline: 4})
	if tm := h.game("3002").Timing; tm.TurnDeadline != 4*time.Hour || tm.ReminderEvery != 0 {
		t.Fatalf("lobby timing %+v", tm)
	}
}

func TestDurationsAndReminderHelpRead(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{24 * time.Hour: "1 day", 48 * time.Hour: "2 days", time.Hour: "1 hour", 90 * time.Minute: "90 minutes"} {
		if got := humanDuration(englishWords(t), d); got != want {
			t.Errorf("humanDuration(%v) = %q, want %q", d, got, want)
		}
	}
	for _, c := range Commands(tinyRegistry(), testWords(t)) {
		walkOptions(c.Options, func(o *discordgo.ApplicationCommandOption) {
			if o.Name == optReminder && (strings.Contains(o.Description, "before") || !strings.Contains(o.Description, "every")) {
				t.Errorf("/%s %s: %q", c.Name, o.Name, o.Description)
			}
		})
	}
}

func walkOptions(opts []*discordgo.ApplicationCommandOption, fn func(*discordgo.ApplicationCommandOption)) {
	for _, o := range opts {
		fn(o)
		walkOptions(o.Options, fn)
	}
}

// A passed deadline's notice goes out on the channel's own worker once
// the timer is handled: while Discord holds one game's notice back (its
// rate limits, a slow answer), the ticker goes on to the next game's
// deadline instead of waiting for the notice, so that deadlines due at
// once are not handled one notice's wait after another.
func TestANoticeHeldBackDoesNotHoldTheNextDeadline(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: time.Hour}, nil, nil)
	channels := []string{chTiny, "3002"}
	for _, ch := range channels {
		openTinyTable(t, h, ch, alice, bob)
	}
	h.clock.Advance(time.Hour + time.Minute)
	h.bot.Wait()
	caught, release := h.fake.Hold(func(q discordtest.Request) bool {
		return q.Kind == discordtest.ChannelSend && h.says(q.Text(), "deadline.stood_in")
	})
	defer release()
	checked := make(chan struct{})
	go func() {
		defer close(checked)
		h.bot.CheckDeadlines(h.clock.Now())
	}()
	held := map[string]bool{}
	for len(held) < len(channels) {
		select {
		case q := <-caught:
			held[q.Channel] = true
		case <-time.After(time.Minute): // a watchdog: the transport gives a held call up after 10 s
			t.Fatalf("the notices held back: %v of %v", held, channels)
		}
	}
	// Both notices wait at Discord together; a post that gave up waiting
	// says so in the log before the ticker could go on.
	if strings.Contains(h.log(), "posting to the channel failed") {
		t.Fatalf("the second deadline waited for the first one's notice:\n%s", h.log())
	}
	<-checked
	release()
	h.bot.Wait()
}
