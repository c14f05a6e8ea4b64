package bot

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

// dmsTo is the text of the DMs user got since mark.
func dmsTo(h *harness, mark int, user string) string {
	h.bot.Wait()
	var out []string
	for _, q := range h.fake.Requests()[mark:] {
		if q.Kind == discordtest.DirectMessage && q.Status < 300 && q.User == user {
			out = append(out, q.Content())
		}
	}
	return strings.Join(out, "\n")
}

// fmtJSON is v as JSON, for looking into.
func fmtJSON(v any) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(v)
	return b.String()
}

// reliabilityOf is user's counts on the harness's server.
func reliabilityOf(t *testing.T, h *harness, user string) storage.Reliability {
	t.Helper()
	p, err := h.store.UserPrefs(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	return p.Reliability[h.guildID()]
}

// A player who misses the server's number of deadlines in a row loses
// their seat to the computer and is told by DM how to take it back;
// /game rejoin gives it back, once. Decisions in time, misses and the
// seat handed over are counted per server, survive a restart, and show
// in /stats; a deadline is counted once however often the timers are
// looked at.
func TestMissedDeadlinesInARowLeaveTheSeatToTheComputer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour}, nil, nil)
	if res := h.command(admin, chTiny, cmdAdmin, subSettings, map[string]any{optMissed: 2}); !h.says(res.text(), "reliability.admin", "Count", 2) {
		t.Fatalf("admin settings: %s", res.text())
	}
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2"})
	h.command(bob, chTiny, cmdLobby, subJoin, nil)
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})

	pickAll(t, h, chTiny, alice) // in time; bob lets the deadline pass
	h.clock.Advance(11 * time.Hour)
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.CheckDeadlines(h.clock.Now()) // looked at again: counted once
	if g := h.game(chTiny); g.Seats[1].User != bob.ID || missed(g, 1) != 1 {
		t.Fatalf("after one miss: seats %+v, missed in a row %v", g.Seats, g.MissedInARow)
	}
	h.restart() // the misses in a row are kept with the game
	if got := h.play(alice, chTiny, "move 1"); !h.says(got, "play.played") {
		t.Fatalf("alice's move: %s", got)
	}
	mark := h.mark()
	h.clock.Advance(11 * time.Hour) // bob's turn passes too: two in a row
	h.bot.CheckDeadlines(h.clock.Now())
	g := h.game(chTiny)
	last := g.Handovers[len(g.Handovers)-1]
	if g.Seats[1].User != "" || g.Seats[1].Computer == "" || !last.Lapsed || last.From.User != bob.ID {
		t.Fatalf("after two misses: seats %+v, hand-overs %+v", g.Seats, g.Handovers)
	}
	if got := h.publicSince(mark); !strings.Contains(got, "<@"+bob.ID+"> missed 2 deadlines in a row, so a computer player keeps seat P2") {
		t.Fatalf("the channel was not told: %q", got)
	}
	if dm := dmsTo(h, mark, bob.ID); !h.says(dm, "reliability.lapsed_dm") || !strings.Contains(dm, "<#"+chTiny+">") {
		t.Fatalf("bob's DM: %q", dm)
	}
	if r := reliabilityOf(t, h, bob.ID); r != (storage.Reliability{Missed: 2, HandedOver: 1}) {
		t.Fatalf("bob's counts %+v", r)
	}
	if r := reliabilityOf(t, h, alice.ID); r != (storage.Reliability{InTime: 2}) {
		t.Fatalf("alice's counts %+v", r)
	}
	stats := h.command(bob, chTiny, cmdStats, "", nil)
	if !h.says(stats.text(), "reliability.stats", deadlineCounts(h, 0, 2, 1)...) {
		t.Fatalf("/stats: %s", stats.text())
	}

	h.restart()
	if res := h.command(alice, chTiny, cmdGame, subRejoin, nil); !h.says(res.text(), "reliability.nothing_to_rejoin") {
		t.Fatalf("alice's rejoin: %s", res.text())
	}
	res := h.command(bob, chTiny, cmdGame, subRejoin, nil)
	if !strings.Contains(res.text(), "<@"+bob.ID+"> is back in seat P2") {
		t.Fatalf("bob's rejoin: %s", res.text())
	}
	if g := h.game(chTiny); g.Status == storage.StatusRunning && g.Seats[1].User != bob.ID {
		t.Fatalf("bob's seat after rejoining: %+v", g.Seats[1])
	}
	if res := h.command(bob, chTiny, cmdGame, subRejoin, nil); !h.says(res.text(), "reliability.nothing_to_rejoin") {
		t.Fatalf("a second rejoin: %s", res.text())
	}
	if r := reliabilityOf(t, h, bob.ID); r.HandedOver != 1 {
		t.Fatalf("taking the seat back counted as handing one over: %+v", r)
	}
}

// A lobby that asks for a least share of deadlines met refuses a player
// below it and takes one with no deadline counted yet; the lobby shows
// each person's share; a table that keeps lapsed seats with the computer
// says so, and /game rejoin then refuses.
func TestALobbyCanAskForReliablePlayers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour}, nil, nil)
	for user, r := range map[string]storage.Reliability{alice.ID: {InTime: 19, Missed: 1}, bob.ID: {InTime: 3, Missed: 3, HandedOver: 2}} {
		if _, err := h.store.UpdateUserPrefs(context.Background(), user, func(p *storage.UserPrefs) error {
			p.Reliability = map[string]storage.Reliability{h.guildID(): r, "elsewhere": {Missed: 50}}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	res := h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optReliable: 80, optRejoin: false})
	if !h.says(res.text(), "reliability.share", "Percent", 95, "Count", 20) || !h.says(res.text(), "reliability.lobby_least", "Percent", 80) ||
		!h.says(res.text(), "reliability.lobby_no_rejoin") {
		t.Fatalf("lobby: %s", res.text())
	}
	if res := h.command(bob, chTiny, cmdLobby, subJoin, nil); !strings.Contains(res.text(), "you meet 50 %") || !res.private() {
		t.Fatalf("bob's join: %s", res.text())
	}
	h.command(carol, chTiny, cmdLobby, subJoin, nil)
	g := h.game(chTiny)
	if len(g.Seats) != 2 || g.Seats[1].User != carol.ID || g.MinReliability != 80 || !g.NoRejoin {
		t.Fatalf("seats %+v, least %d, no rejoin %v", g.Seats, g.MinReliability, g.NoRejoin)
	}
	if text := fmtJSON(h.messageJSON(g.Messages[roleLobby], chTiny)); !strings.Contains(text, "<@"+carol.ID+"> · new here") {
		t.Fatalf("the lobby after carol joined: %s", text)
	}
	// the table keeps lapsed seats with the computer
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	if _, err := h.store.Update(context.Background(), chTiny, g.ID, func(r *storage.Game) error {
		r.Handovers = append(r.Handovers, storage.Handover{Seat: 1, From: r.Seats[1], To: storage.Seat{Computer: "strong"}, Lapsed: true, At: h.clock.Now()})
		r.Seats[1] = storage.Seat{Computer: "strong"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if res := h.command(carol, chTiny, cmdGame, subRejoin, nil); !h.says(res.text(), "reliability.no_rejoin") {
		t.Fatalf("carol's rejoin: %s", res.text())
	}
	// over every server, /stats sums the counts
	if err := h.bot.RegisterCommands(); err != nil {
		t.Fatal(err)
	}
	if res := h.installedUse(bob, "", "group1", cmdStats, nil); !h.says(res.text(), "reliability.stats_everywhere", deadlineCounts(h, 3, 53, 2)...) {
		t.Fatalf("/stats in a DM: %s", res.text())
	}
}

// deadlineCounts are the placeholders of a player's deadline record as
// /stats writes it.
func deadlineCounts(h *harness, inTime, missed, handedOver int) []any {
	return []any{"InTime", h.say("reliability.in_time", "Count", inTime), "Missed", h.say("reliability.missed", "Count", missed),
		"HandedOver", h.say("reliability.seats_handed_over", "Count", handedOver)}
}
