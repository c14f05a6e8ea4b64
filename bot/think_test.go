package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
)

// openWithStrongComputer opens an 80 Days game of alice and a strong
// computer in ch, alice first.
func openWithStrongComputer(t *testing.T, h *harness, ch string) {
	t.Helper()
	h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: "eightydays"})
	res := h.command(alice, ch, cmdLobby, subAddAI, map[string]any{optLevel: "strong"})
	if !strings.Contains(res.text(), h.say("lobby.ai_added", "Name", alice.Name, "Kind", h.say("computer.level.strong"))) {
		t.Fatalf("add-computer: %s", res.text())
	}
	h.command(alice, ch, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	g := h.game(ch)
	if g.Status != storage.StatusRunning || g.Seats[1].Computer != "strong" || !strings.Contains(g.Seats[1].Name, h.say("computer.level.strong")) {
		t.Fatalf("after start: %+v", g.Seats)
	}
}

// aliceMoves plays alice's heuristic move by /play.
func aliceMoves(t *testing.T, h *harness, ch string) {
	t.Helper()
	g, st, err := h.store.Load(ch)
	if err != nil {
		t.Fatal(err)
	}
	p := st.Prompts()[0]
	if p.Seat != 0 {
		t.Fatalf("the game waits for P%d, not alice", p.Seat+1)
	}
	rules, _ := h.reg.Lookup(g.Kind)
	easy, _ := ai.Lookup(rules, "easy")
	action := ai.Decide(easy, st, p, g.Setup.Seed, g.Version)
	res := h.command(alice, ch, cmdPlay, "", map[string]any{optAction: action})
	if now, err := h.store.Get(ch); err == nil && now.Version == g.Version {
		t.Fatalf("/play %q was not applied: %s", action, res.text())
	}
}

// TestStrongComputersThinkOutsideTheLock checks, each time a strong
// computer is about to think, that its game's lock is free, and that the
// computer then moves by itself after alice's move.
func TestStrongComputersThinkOutsideTheLock(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{}, nil, nil)
	openWithStrongComputer(t, h, "5001")
	thoughts := 0
	h.bot.think.hold = func(channel string) bool {
		free := make(chan struct{})
		go func() {
			h.bot.timers.locks.with(channel, func() error { return nil })
			close(free)
		}()
		select {
		case <-free:
		case <-time.After(30 * time.Second): // a guard against a hang, not a measure
			t.Errorf("the game's lock is held while its computer thinks")
		}
		thoughts++
		return true
	}
	for range 3 {
		if _, _, err := h.store.Load("5001"); err != nil {
			break // the race is over
		}
		aliceMoves(t, h, "5001") // waits for the computer's answer too
	}
	if thoughts == 0 {
		t.Fatal("the computer never thought")
	}
}

// TestAComputerDueAtARestartMoves lets the computer's first decision be
// abandoned, as by a process that stopped; the next process moves it once
// its timer comes, and no board shows that timer as a deadline.
func TestAComputerDueAtARestartMoves(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{}, nil, nil)
	openWithStrongComputer(t, h, "5003")
	h.bot.think.hold = func(string) bool { return false }
	aliceMoves(t, h, "5003")
	g := h.game("5003")
	if g.Deadline.IsZero() || g.Deadline.Sub(h.clock.Now()) != computerDue {
		t.Fatalf("no timer armed for the computer's move: deadline %v", g.Deadline)
	}
	for _, f := range h.board("5003").Embeds[0].Fields {
		if f.Name == h.say("board.deadline") {
			t.Errorf("the board shows the computer's timer as a deadline: %s", f.Value)
		}
	}
	h.restart()
	if got := h.game("5003"); got.Version != g.Version {
		t.Fatalf("version %d, want %d: the computer moved", got.Version, g.Version)
	}
	h.clock.Advance(computerDue + time.Second)
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.Wait()
	if got := h.game("5003"); got.Version == g.Version {
		t.Fatal("after the restart the computer did not move")
	}
}
