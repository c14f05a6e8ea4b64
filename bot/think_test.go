package bot

import (
	"context"
	"encoding/json"
	"github.com/meeplegames/meeple/bot/discordtest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/engine"
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
	g, st, err := h.store.Load(context.Background(), ch)
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
	if now, err := h.store.Get(context.Background(), ch); err == nil && now.Version == g.Version {
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
	h.bot.think.Hold = func(channel string) bool {
		free := make(chan struct{})
		go func() {
			h.bot.timers.locks.With(channel, func() error { return nil })
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
		if _, _, err := h.store.Load(context.Background(), "5001"); err != nil {
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
	h.bot.think.Hold = func(string) bool { return false }
	aliceMoves(t, h, "5003")
	g := h.game("5003")
	if g.Deadline.IsZero() || g.Deadline.Sub(h.clock.Now()) != table.ComputerDue {
		t.Fatalf("no timer armed for the computer's move: deadline %v", g.Deadline)
	}
	if text := discordtest.MessageText(h.board("5003")); strings.Contains(text, "**"+h.say("board.deadline")+"**") {
		t.Errorf("the board shows the computer's timer as a deadline: %s", text)
	}
	h.restart()
	if got := h.game("5003"); got.Version != g.Version {
		t.Fatalf("version %d, want %d: the computer moved", got.Version, g.Version)
	}
	h.clock.Advance(table.ComputerDue + time.Second)
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.Wait()
	if got := h.game("5003"); got.Version == g.Version {
		t.Fatal("after the restart the computer did not move")
	}
}

// TestAHintIsPrivateCountedAndOnlyWhereAllowed asks /game hint at a table
// that allowed hints and at one that did not.
func TestAHintIsPrivateCountedAndOnlyWhereAllowed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{}, nil, nil)
	openWithStrongComputer(t, h, "5004")
	if res := h.command(alice, "5004", cmdGame, subHint, nil); !res.privatelySays(h, "hint.off") {
		t.Errorf("a hint where none are allowed: %s", res.text())
	}
	h.command(alice, "5005", cmdLobby, subNew, map[string]any{optGame: "eightydays", optHints: true})
	lobby, _ := h.fake.Message(h.game("5005").Messages[roleLobby])
	if data, _ := json.Marshal(lobby); !strings.Contains(string(data), h.say("lobby.hints_on")) {
		t.Errorf("the lobby does not say hints are on: %s", data)
	}
	h.command(alice, "5005", cmdLobby, subAddAI, map[string]any{optLevel: "easy"})
	h.command(alice, "5005", cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	g, st, err := h.store.Load(context.Background(), "5005")
	if err != nil || !g.Hints {
		t.Fatalf("hints not kept: %v %+v", err, g)
	}
	res := h.command(alice, "5005", cmdGame, subHint, nil)
	answer, _, _ := strings.Cut(h.say("hint.answer", "Action", "x", "What", "y", "Worth", 1), "`")
	if !res.private() || !strings.Contains(res.text(), answer) {
		t.Fatalf("hint: %s", res.text())
	}
	_, suggested, _ := strings.Cut(res.text(), "`")
	suggested, _, _ = strings.Cut(suggested, "`")
	if !slices.Contains(st.Prompts()[0].Actions, suggested) {
		t.Errorf("the hint %q is not one of alice's actions", suggested)
	}
	if g := h.game("5005"); len(g.HintsTaken) < 1 || g.HintsTaken[0] != 1 {
		t.Errorf("hints taken %v, want alice's one counted", g.HintsTaken)
	}
	if res := h.command(bob, "5005", cmdGame, subHint, nil); !res.privatelySays(h, "hint.no_decision") {
		t.Errorf("a hint for someone not seated: %s", res.text())
	}
	finished := &storage.Game{Status: storage.StatusFinished, Hints: true, Seats: g.Seats, Result: &engine.Result{Scores: []int{1, 2}}}
	if _, rated := ratedResult(finished); rated {
		t.Error("a game that allowed hints is rated")
	}
}
