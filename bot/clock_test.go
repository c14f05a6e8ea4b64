package bot

import (
	"context"
	"fmt"
	"github.com/meeplegames/meeple/bot/discordtest"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/storage"
)

// A table with time banks: each decision draws on its player's bank and
// earns the time a decision adds; the game's one timer is the earliest
// moment a waiting player's bank runs out, survives a restart and is
// handled once; the player whose bank ran out meets the deadline's
// policy (a computer decides, their bank earns a decision's time) while
// the others' banks run on; the board shows every bank.
func TestTimeBanksRunOutOneAtATime(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 48 * time.Hour}, nil, nil)
	res := h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2", optClock: clockBank,
		optBank: 10, optBankAdd: 2, optBankCap: 12})
	if !h.says(res.text(), "clock.text", "Bank", h.say("duration.hours", "Count", 10), "Add", h.say("duration.hours", "Count", 2), "Cap", h.say("duration.hours", "Count", 12)) {
		t.Fatalf("lobby: %s", res.text())
	}
	for _, u := range []tester{bob, carol} {
		h.command(u, chTiny, cmdLobby, subJoin, nil)
	}
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	start := h.clock.Now()
	if g := h.game(chTiny); !g.Timing.Banked() || !g.Deadline.Equal(start.Add(10*time.Hour)) {
		t.Fatalf("at the start: timing %+v, deadline %v", g.Timing, g.Deadline)
	}
	h.clock.Advance(3 * time.Hour)
	pickAll(t, h, chTiny, alice, carol) // 3 hours of 10 spent, 2 earned: 9 left
	g := h.game(chTiny)
	if got := table.BankOf(g, 0); got != 9*time.Hour || !g.Deadline.Equal(start.Add(10*time.Hour)) {
		t.Fatalf("alice's bank %v, deadline %v; want 9h and bob's bank running out at %v", got, g.Deadline, start.Add(10*time.Hour))
	}
	players := discordtest.MessageText(h.board(chTiny))
	if !strings.Contains(players, "<@"+alice.ID+"> · ⏳ 9 h 0 min") || !strings.Contains(players, "<@"+bob.ID+"> · ⏳ 7 h 0 min, runs out <t:") {
		t.Fatalf("the board's players:\n%s", players)
	}

	h.restart() // as after a kill -9: the timer is in the store
	h.clock.Advance(7*time.Hour + time.Minute)
	mark := h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.CheckDeadlines(h.clock.Now()) // looked at again: handled once
	if got := strings.Count(h.publicSince(mark), "decided for <@"+bob.ID+">"); got != 1 {
		t.Fatalf("the stand-in for bob was told %d times: %q", got, h.publicSince(mark))
	}
	g = h.game(chTiny)
	if table.BankOf(g, 1) != 2*time.Hour || missed(g, 1) != 1 {
		t.Fatalf("bob's bank %v and misses in a row %d after his ran out; want 2h and 1", table.BankOf(g, 1), missed(g, 1))
	}
	// alice moves now, and her bank (9 hours) runs from the stand-in's move
	if want := h.clock.Now().Add(9 * time.Hour); !g.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want alice's bank to run out at %v", g.Deadline, want)
	}
	if r := reliabilityOf(t, h, bob.ID); r.Missed != 1 {
		t.Fatalf("bob's misses %+v", r)
	}
	// alice's pick counts as in time: her bank had time left
	if r := reliabilityOf(t, h, alice.ID); r != (storage.Reliability{InTime: 1}) {
		t.Fatalf("alice's counts %+v", r)
	}
}

// /game extend proposes more time for a player; the other people vote
// with a button, a majority of them grants it (to the bank), one
// proposal is open at a time, and each person proposes once a round.
func TestMoreTimeByVote(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2", optClock: clockBank, optBank: 10})
	for _, u := range []tester{bob, carol} {
		h.command(u, chTiny, cmdLobby, subJoin, nil)
	}
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})

	res := h.command(alice, chTiny, cmdGame, subExtend, map[string]any{optSeat: 2, optHours: 4})
	if res.private() || !strings.Contains(res.text(), "<@"+alice.ID+"> proposes 4 hours more for P2") || !strings.Contains(res.text(), "1 of 2 so far; still to vote: <@"+carol.ID+">") {
		t.Fatalf("the proposal: %s", res.text())
	}
	ids := res.Requests[0].CustomIDs()
	if len(ids) != 1 {
		t.Fatalf("the proposal's buttons: %v", ids)
	}
	if res := h.command(bob, chTiny, cmdGame, subExtend, map[string]any{optSeat: 1, optHours: 1}); !h.says(res.text(), "extend.open", "Seat", 2) {
		t.Fatalf("a second proposal: %s", res.text())
	}
	h.restart() // the proposal and its vote are kept with the game
	board := h.board(chTiny)
	if res := h.click(bob, chTiny, board.ID, ids[0]); !h.says(res.text(), "extend.not_voter") {
		t.Fatalf("bob votes on his own time: %s", res.text())
	}
	res = h.click(carol, chTiny, board.ID, ids[0])
	if !h.says(res.text(), "extend.granted_bank", "Seat", 2, "ID", 1, "Time", h.say("duration.hours", "Count", 4), "Left", "14 h 0 min") {
		t.Fatalf("carol's vote: %s", res.text())
	}
	g := h.game(chTiny)
	if table.BankOf(g, 1) != 14*time.Hour || g.Extension != nil || !g.Deadline.Equal(h.clock.Now().Add(10*time.Hour)) {
		t.Fatalf("after the grant: banks %v, proposal %+v, deadline %v", g.Banks, g.Extension, g.Deadline)
	}
	if res := h.click(carol, chTiny, board.ID, ids[0]); !h.says(res.text(), "extend.closed") {
		t.Fatalf("a vote after the grant: %s", res.text())
	}
	if res := h.command(alice, chTiny, cmdGame, subExtend, map[string]any{optSeat: 3, optHours: 1}); !h.says(res.text(), "extend.once_a_round") {
		t.Fatalf("alice's second proposal this round: %s", res.text())
	}
	// an admin grants alone
	if res := h.command(admin, chTiny, cmdGame, subExtend, map[string]any{optSeat: 3, optHours: 2}); !strings.Contains(res.text(), "P3 gets 2 hours more") {
		t.Fatalf("an admin's proposal: %s", res.text())
	}
	if g := h.game(chTiny); table.BankOf(g, 2) != 12*time.Hour {
		t.Fatalf("carol's bank %v after the admin's grant", table.BankOf(g, 2))
	}
}

// Under a fixed deadline, more time moves the deadline of the decision
// the player has to make, and only while the game waits on them.
func TestMoreTimeUnderAFixedDeadline(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice) // the game waits on bob alone
	deadline := h.game(chTiny).Deadline
	if res := h.command(bob, chTiny, cmdGame, subExtend, map[string]any{optSeat: 1, optHours: 3}); !strings.Contains(res.text(), "does not wait on P1 now") {
		t.Fatalf("more time for a player the game does not wait on: %s", res.text())
	}
	res := h.command(alice, chTiny, cmdGame, subExtend, map[string]any{optSeat: 2, optHours: 3}) // alice is the only other person: granted
	if !h.says(res.text(), "extend.granted_deadline", "Seat", 2, "ID", 1, "Time", h.say("duration.hours", "Count", 3)) || !strings.Contains(res.text(), "<t:") {
		t.Fatalf("the grant: %s", res.text())
	}
	if g := h.game(chTiny); !g.Deadline.Equal(deadline.Add(3 * time.Hour)) {
		t.Fatalf("deadline %v, want %v", g.Deadline, deadline.Add(3*time.Hour))
	}
	if res := h.command(alice, chTiny, cmdGame, subExtend, map[string]any{optSeat: 3, optHours: 3}); !h.says(res.text(), "extend.computer") {
		t.Fatalf("more time for a computer: %s", res.text())
	}
}

// With time banks, a decision is in time by its player's own bank, not
// by the game's timer, which another player's bank may have set earlier.
func TestInTimeByYourOwnBank(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optClock: clockBank, optBank: 10})
	for _, u := range []tester{bob, carol} {
		h.command(u, chTiny, cmdLobby, subJoin, nil)
	}
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	g := h.game(chTiny)
	if _, err := h.store.Update(context.Background(), chTiny, g.ID, func(r *storage.Game) error {
		r.Banks = []time.Duration{10 * time.Hour, time.Hour, 10 * time.Hour} // bob's runs out first
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(3 * time.Hour)
	pickAll(t, h, chTiny, alice) // the game's timer is now bob's bank, run out
	if g := h.game(chTiny); g.Deadline.After(h.clock.Now()) {
		t.Fatalf("deadline %v, want bob's bank, run out by %v", g.Deadline, h.clock.Now())
	}
	h.clock.Advance(time.Minute)
	pickAll(t, h, chTiny, carol) // before the timer is handled
	if r := reliabilityOf(t, h, carol.ID); r != (storage.Reliability{InTime: 1}) {
		t.Fatalf("carol's counts %+v: her bank had 7 hours left", r)
	}
}

// In a game of time banks, /inbox gives each player the end of their own
// bank, not the game's one timer, which is whoever's bank runs out first.
func TestTheInboxGivesYourOwnBanksEnd(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 48 * time.Hour}, nil, nil)
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2", optClock: clockBank,
		optBank: 10, optBankAdd: 2, optBankCap: 12})
	h.command(bob, chTiny, cmdLobby, subJoin, nil)
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	start := h.clock.Now()
	g := h.game(chTiny)
	if _, err := h.store.Update(context.Background(), chTiny, g.ID, func(r *storage.Game) error {
		table.SetBank(r, 0, 4*time.Hour) // alice has less left than bob
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for u, end := range map[tester]time.Time{alice: start.Add(4 * time.Hour), bob: start.Add(10 * time.Hour)} {
		res := h.command(u, chTiny, cmdInbox, "", nil)
		if want := fmt.Sprintf("<t:%d:R>", end.Unix()); !strings.Contains(res.text(), want) {
			t.Errorf("%s's inbox lacks their bank's end %s:\n%s", u.Name, want, res.text())
		}
	}
}
