package bot

import (
	"context"
	"github.com/meeplegames/meeple/bot/discordtest"
	"strings"
	"testing"
	"time"
)

// day is the calendar day d after the harness clock's, as /away takes it.
func (h *harness) day(d int) string {
	return h.clock.Now().AddDate(0, 0, d).Format(awayDateLayout)
}

// away runs /away for u in ch.
func (h *harness) away(u tester, ch string, opts map[string]any) string {
	h.t.Helper()
	res := h.command(u, ch, cmdAway, "", opts)
	if !res.private() {
		h.t.Fatalf("/away answered in public: %s", res.text())
	}
	answered(h.t.(*testing.T), "/away", res)
	return res.text()
}

// A player away with a computer standing in: the computer decides for
// them at the next tick, each time the game waits on them, without
// pinging them; the board shows until when they are away; and the
// absence ends the moment they act themselves.
func TestAwayWithAComputerStandingIn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	if told := h.away(alice, chTiny, map[string]any{optUntil: h.day(3), optStandIn: "computer"}); !h.says(told, "away.set_computer") || !strings.Contains(told, "<t:") {
		t.Fatalf("/away: %s", told)
	}
	if players := discordtest.MessageText(h.board(chTiny)); !strings.Contains(players, "<@"+alice.ID+"> (away until <t:") {
		t.Fatalf("the board does not show the absence at once: %s", players)
	}
	pickAll(t, h, chTiny, bob) // the game now waits on alice alone
	if players := discordtest.MessageText(h.board(chTiny)); !strings.Contains(players, "<@"+alice.ID+"> (away until <t:") || strings.Contains(players, "<@"+bob.ID+"> (away") {
		t.Fatalf("the board's players: %s", players)
	}
	v := h.game(chTiny).Version
	mark := h.mark()
	h.clock.Advance(time.Second) // the next tick, not the deadline 10 hours on
	h.bot.CheckDeadlines(h.clock.Now())
	if got := h.publicSince(mark); !strings.Contains(got, "decided for <@"+alice.ID+">, who is away") {
		t.Fatalf("no stand-in for the absent player: %q", got)
	}
	for _, q := range h.fake.Requests()[mark:] {
		if h.says(q.Text(), "away.stood_in") && strings.Contains(string(q.Raw), `"users":["`+alice.ID) {
			t.Errorf("the absent player was pinged: %s", q.Raw)
		}
	}
	if g := h.game(chTiny); g.Version <= v {
		t.Fatalf("version %d after the stand-in, want more than %d", g.Version, v)
	}
	// the absence survives a restart; alice acting ends it
	h.restart()
	if p, _ := h.store.UserPrefs(context.Background(), alice.ID); !p.AwayAt(h.clock.Now()) {
		t.Fatalf("the absence did not survive the restart: %+v", p)
	}
	for h.game(chTiny).Status == "running" && !h.says(h.play(alice, chTiny, "move 1"), "play.played") {
		h.clock.Advance(time.Second) // until the game waits on alice again, her stand-in having moved
		h.bot.CheckDeadlines(h.clock.Now())
		if p, _ := h.store.UserPrefs(context.Background(), alice.ID); p.Away.IsZero() {
			t.Fatal("the absence ended without alice acting")
		}
	}
	if p, _ := h.store.UserPrefs(context.Background(), alice.ID); !p.Away.IsZero() {
		t.Fatalf("alice acted and is still away: %+v", p)
	}
}

// A player away whose deadlines wait: a deadline that passes while the
// game waits on them alone moves to their return plus the game's time
// for a decision, through a restart, and no computer decides for them.
func TestAwayDeadlinesWait(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	if told := h.away(alice, chTiny, map[string]any{optUntil: h.day(2), optStandIn: "wait"}); !h.says(told, "away.set_wait") {
		t.Fatalf("/away: %s", told)
	}
	prefs, _ := h.store.UserPrefs(context.Background(), alice.ID)
	pickAll(t, h, chTiny, bob)
	v := h.game(chTiny).Version
	h.restart()
	h.clock.Advance(11 * time.Hour)
	h.bot.CheckDeadlines(h.clock.Now())
	g := h.game(chTiny)
	if g.Version != v || !g.Deadline.Equal(prefs.Away.Add(10*time.Hour)) {
		t.Fatalf("after the deadline: version %d (was %d), deadline %v; want the deadline at her return %v plus 10 hours", g.Version, v, g.Deadline, prefs.Away)
	}
	// back, she has the game's time; then the deadline applies as ever
	h.clock.Advance(g.Deadline.Sub(h.clock.Now()) + time.Minute)
	mark := h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	if got := h.publicSince(mark); !h.says(got, "deadline.stood_in") || !strings.Contains(got, "<@"+alice.ID+">") {
		t.Fatalf("the deadline after her return: %q", got)
	}
}

// The server's admins bound absences and choose what may stand in; a day
// gone by is refused; /away alone ends an absence.
func TestAwayLimitsAreTheServers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	res := h.command(admin, chTiny, cmdAdmin, subSettings, map[string]any{optAwayMax: 2, optAwayLets: "computer"})
	if !h.says(res.text(), "admin.away", "Count", 2, "Choices", h.say("away.choice_computer")) {
		t.Fatalf("admin settings: %s", res.text())
	}
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{optUntil: h.day(5)}, "at most 2 days"},
		{map[string]any{optUntil: h.day(1), optStandIn: "wait"}, "does not let waiting deadlines stand in"},
		{map[string]any{optUntil: h.day(-1)}, "is not a day to come"},
		{map[string]any{optUntil: "next tuesday"}, "is not a day to come"},
		{map[string]any{optUntil: h.day(2)}, "computer player decides in your place"},
		{nil, "Welcome back"},
	} {
		if told := h.away(alice, chTiny, c.opts); !strings.Contains(told, c.want) {
			t.Errorf("/away %v: %s, want %q", c.opts, told, c.want)
		}
	}
	if p, _ := h.store.UserPrefs(context.Background(), alice.ID); !p.Away.IsZero() {
		t.Errorf("/away alone left the absence: %+v", p)
	}
}
