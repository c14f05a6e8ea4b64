package bot

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// writeCounter is the bot's store with its writes counted, and Commit
// failing with fail when that is set (a crash before the transaction
// lands, or a concurrent writer).
type writeCounter struct {
	Store
	st *storage.Store

	mu    sync.Mutex
	calls map[string]int
	// timerUpdates counts the Updates that changed a deadline or reminder.
	timerUpdates int
	fail         error
}

func countWrites(h *harness) *writeCounter {
	w := &writeCounter{calls: map[string]int{}}
	h.wrap = func(s Store) Store {
		w.Store, w.st = s, s.(*storage.Store)
		return w
	}
	h.restart() // a bot on the wrapped store
	return w
}

func (w *writeCounter) count(method string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls[method]++
	if method == "Commit" {
		return w.fail
	}
	return nil
}

// reset forgets the writes so far and sets the failure Commit returns.
func (w *writeCounter) reset(fail error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls, w.timerUpdates, w.fail = map[string]int{}, 0, fail
}

func (w *writeCounter) snapshot() (map[string]int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]int{}
	for k, v := range w.calls {
		out[k] = v
	}
	return out, w.timerUpdates
}

func (w *writeCounter) Commit(channel string, expectVersion int, o storage.Outcome) (*storage.Game, error) {
	if err := w.count("Commit"); err != nil {
		return nil, err
	}
	return w.st.Commit(channel, expectVersion, o)
}

func (w *writeCounter) Append(channel string, expectVersion int, e storage.Entry, snapshot []byte) (int, error) {
	w.count("Append")
	return w.st.Append(channel, expectVersion, e, snapshot)
}

func (w *writeCounter) Update(channel string, fn func(g *storage.Game) error) (*storage.Game, error) {
	w.count("Update")
	return w.st.Update(channel, func(g *storage.Game) error {
		deadline, remind := g.Deadline, g.RemindAt
		err := fn(g)
		if !g.Deadline.Equal(deadline) || !g.RemindAt.Equal(remind) {
			w.mu.Lock()
			w.timerUpdates++
			w.mu.Unlock()
		}
		return err
	})
}

func (w *writeCounter) Finish(channel string, expectVersion int, status storage.Status, result *engine.Result) (*storage.Game, error) {
	w.count("Finish")
	return w.st.Finish(channel, expectVersion, status, result)
}

// moveBeforeTheComputer plays alice's round-1 pick in a two-round solo
// game with a 10-hour deadline, and returns the board whose "move 1" she
// clicks next: that click sets off the computer's move and re-arms her
// deadline for round 2's pick.
func moveBeforeTheComputer(t *testing.T) (*harness, *writeCounter) {
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour, Reminder: 4 * time.Hour}, nil, nil)
	w := countWrites(h)
	openSolo(t, h, chTiny, alice, "2")
	pickAll(t, h, chTiny, alice)
	h.clock.Advance(time.Hour)
	h.bot.Wait()
	return h, w
}

func TestOneClickIsOneCommit(t *testing.T) {
	h, w := moveBeforeTheComputer(t)
	before := h.game(chTiny)
	board := h.board(chTiny)
	w.reset(nil)
	h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
	h.bot.Wait()
	g, _ := load(t, h)
	if moved := g.Log[before.Version:]; len(moved) != 3 || moved[0].Seat != 0 || moved[1].Seat != 1 || moved[2].Seat != 1 {
		t.Fatalf("the click stored %+v; want alice's move, the computer's move and its next pick", moved)
	}
	if want := h.clock.Now().Add(10 * time.Hour); !g.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", g.Deadline, want)
	}
	calls, timers := w.snapshot()
	if calls["Commit"] != 1 || calls["Append"] != 0 || calls["Finish"] != 0 || timers != 0 {
		t.Fatalf("the click wrote %v (%d Updates of the deadline); want one Commit and nothing else of the game's", calls, timers)
	}
}

func TestAFailedCommitLeavesTheGameAsItWas(t *testing.T) {
	for _, c := range []struct {
		name string
		fail error
		want string
	}{
		{"crash", errors.New("disk gone"), genericFailure},
		{"another process moved first", &storage.VersionError{Channel: chTiny, Expected: 3, Actual: 4}, "Someone else acted at the same moment"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, w := moveBeforeTheComputer(t)
			before, beforeSt := load(t, h)
			board := h.board(chTiny)
			mark := h.mark()
			w.reset(c.fail)
			res := h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
			if !res.private() || !strings.Contains(res.text(), c.want) {
				t.Fatalf("alice was told %q (private %v), want %q", res.text(), res.private(), c.want)
			}
			h.bot.Wait()
			after, afterSt := load(t, h)
			if after.Version != before.Version || len(after.Log) != len(before.Log) || !after.Deadline.Equal(before.Deadline) || !after.RemindAt.Equal(before.RemindAt) {
				t.Fatalf("after a failed commit: version %d log %d deadline %v reminder %v; before %d %d %v %v",
					after.Version, len(after.Log), after.Deadline, after.RemindAt, before.Version, len(before.Log), before.Deadline, before.RemindAt)
			}
			if a, b := stateText(t, afterSt), stateText(t, beforeSt); a != b {
				t.Fatalf("the stored state moved:\n%s\nwas\n%s", a, b)
			}
			if got := h.publicSince(mark); got != "" {
				t.Fatalf("a failed commit was published: %q", got)
			}
			// nothing was applied: the same board still plays
			w.reset(nil)
			h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
			if g := h.game(chTiny); g.Version != before.Version+3 {
				t.Fatalf("the retry left version %d, want %d", g.Version, before.Version+3)
			}
		})
	}
}

func TestAStandInAtTheDeadlineIsOneCommit(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour, NoReminder: true}, nil, nil)
	w := countWrites(h)
	openSolo(t, h, chTiny, alice, "2")
	before := h.game(chTiny)
	h.clock.Advance(11 * time.Hour)
	h.bot.Wait()
	w.reset(nil)
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.Wait()
	g := h.game(chTiny)
	if g.Version <= before.Version {
		t.Fatalf("version %d: nobody stood in for alice", g.Version)
	}
	if want := h.clock.Now().Add(10 * time.Hour); !g.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", g.Deadline, want)
	}
	calls, timers := w.snapshot()
	if calls["Commit"] != 1 || calls["Append"] != 0 || timers != 0 {
		t.Fatalf("the stand-in wrote %v (%d Updates of the deadline); want one Commit", calls, timers)
	}
}

// load reads channel chTiny's game with its log, and its state.
func load(t *testing.T, h *harness) (*storage.Game, engine.State) {
	t.Helper()
	g, st, err := h.store.Load(chTiny)
	if err != nil {
		t.Fatal(err)
	}
	return g, st
}

func stateText(t *testing.T, st engine.State) string {
	t.Helper()
	b, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
