package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/storage"
)

// loseNext makes the next n commits kept but answered as lost.
func (w *writeCounter) loseNext(n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lose = n
}

// A move whose commit was kept but whose answer was lost is found on the
// retry and told as recorded, in words, on every way in: a board click,
// /play, a DM. It is stored once.
func TestALostAnswerIsToldAsRecorded(t *testing.T) {
	t.Parallel()
	for _, way := range []string{"board click", "/play", "DM"} {
		t.Run(way, func(t *testing.T) {
			t.Parallel()
			h, w := moveBeforeTheComputer(t)
			if way == "DM" {
				// a round-2 pick, which alice may send by DM
				h.click(alice, chTiny, h.board(chTiny).ID, mustComponent(t, h.board(chTiny), "move 1"))
				h.bot.Wait()
			}
			before := h.game(chTiny)
			w.reset(nil)
			w.loseNext(1)
			retried := h.advanceThrough(table.RetryPauses()[0]) // the pause before the retry
			var told string
			switch way {
			case "board click":
				board := h.board(chTiny)
				told = h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1")).text()
			case "/play":
				told = h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "move 1"}).text()
			case "DM":
				for _, q := range h.dm(alice, "pick 2") {
					told += q.Text() + "\n"
				}
			}
			h.bot.Wait()
			retried()
			if !strings.Contains(told, englishWords(t).T(recordedNote)) || strings.Contains(told, failureText) || strings.Contains(told, refusalText(englishWords(t), table.ErrUnknownOutcome)) {
				t.Fatalf("alice was told %q; want %q", told, englishWords(t).T(recordedNote))
			}
			g, _ := load(t, h)
			if n := countOf(g.Log[before.Version:], 0); n != 1 {
				t.Fatalf("alice's action is stored %d times after the retry: %+v", n, g.Log[before.Version:])
			}
			if calls := w.snapshot(); calls["Commit"] != 2 {
				t.Fatalf("%d commits; want the first and its retry", calls["Commit"])
			}
		})
	}
}

// countOf counts the entries of seat.
func countOf(log []storage.Entry, seat int) int {
	n := 0
	for _, e := range log {
		if int(e.Seat) == seat {
			n++
		}
	}
	return n
}

// When the database stays out of reach through every retry, the player is
// told that it is not known whether the move was recorded, and what to do:
// never that it failed, and nothing is stored. A click, acknowledged before
// its commit, is told in an ephemeral follow-up.
func TestAnOutcomeThatStaysUnknownSaysWhatToDo(t *testing.T) {
	t.Parallel()
	for _, way := range []string{"/play", "board click"} {
		t.Run(way, func(t *testing.T) {
			t.Parallel()
			h, w := moveBeforeTheComputer(t)
			before := h.game(chTiny)
			board := h.board(chTiny)
			w.reset(fmt.Errorf("postgres: commit to channel %s: %w: connection reset by peer", chTiny, storage.ErrUnknownOutcome))
			retried := h.advanceThrough(table.RetryPauses()...) // every pause, as the bot comes to it
			var res result
			if way == "/play" {
				res = h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "move 1"})
			} else {
				res = h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
			}
			h.bot.Wait()
			retried()
			told := res.text()
			if !res.privately(refusalText(englishWords(t), table.ErrUnknownOutcome)) || strings.Contains(told, failureText) || strings.Contains(told, englishWords(t).T(recordedNote)) {
				t.Fatalf("alice was told %q; want the unknown outcome's words and what to do, privately", told)
			}
			if calls := w.snapshot(); calls["Commit"] != 1+len(table.RetryPauses()) {
				t.Fatalf("%d commits; want the first and %d retries", calls["Commit"], len(table.RetryPauses()))
			}
			w.reset(nil)
			if g := h.game(chTiny); g.Version != before.Version {
				t.Fatalf("version %d after commits that were never kept, want %d", g.Version, before.Version)
			}
		})
	}
}

// errStartingUp is the error a store gives while its database restarts.
var errStartingUp = fmt.Errorf("postgres: commit to channel %s: %w: FATAL: the database system is starting up (SQLSTATE 57P03)", chTiny, storage.ErrUnavailable)

// After a lost answer, the retries go on through a database that is still
// starting up, until it answers: the move was kept, and the player is told
// it was recorded, not that something went wrong.
func TestARetryThroughARestartFindsTheMoveRecorded(t *testing.T) {
	t.Parallel()
	h, w := moveBeforeTheComputer(t)
	before := h.game(chTiny)
	board := h.board(chTiny)
	w.reset(nil)
	w.script = []error{errKeptLost, errStartingUp, errStartingUp, errStartingUp}
	retried := h.advanceThrough(table.RetryPauses()[:4]...)
	told := h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1")).text()
	h.bot.Wait()
	retried()
	if !strings.Contains(told, englishWords(t).T(recordedNote)) || strings.Contains(told, failureText) {
		t.Fatalf("alice was told %q; want %q", told, englishWords(t).T(recordedNote))
	}
	g, _ := load(t, h)
	if n := countOf(g.Log[before.Version:], 0); n != 1 {
		t.Fatalf("alice's action is stored %d times: %+v", n, g.Log[before.Version:])
	}
	if calls := w.snapshot(); calls["Commit"] != 5 {
		t.Fatalf("%d commits; want the first, three that met the restart and the one that found it kept", calls["Commit"])
	}
}

// A move the store did not keep is told as not recorded, with what to
// do, when the retries settle it: after a lost answer the game turned out
// to have moved on without it, or the database never came back.
func TestAMoveNotKeptIsToldNotRecorded(t *testing.T) {
	t.Parallel()
	lost := fmt.Errorf("postgres: commit to channel %s: %w: conn closed", chTiny, storage.ErrUnknownOutcome)
	stale := fmt.Errorf("postgres: commit to channel %s: %w", chTiny, &storage.VersionError{Channel: chTiny})
	for name, tc := range map[string]struct {
		script  []error
		always  error
		commits int
	}{
		"lost, then stale":       {script: []error{lost, errStartingUp, stale}, commits: 3},
		"unavailable throughout": {always: errStartingUp, commits: 1 + len(table.RetryPauses())},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h, w := moveBeforeTheComputer(t)
			before := h.game(chTiny)
			w.reset(tc.always)
			w.script = tc.script
			retried := h.advanceThrough(table.RetryPauses()[:tc.commits-1]...)
			res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "move 1"})
			h.bot.Wait()
			retried()
			told := res.text()
			if !res.privately(refusalText(englishWords(t), table.ErrNotRecorded)) || strings.Contains(told, failureText) || strings.Contains(told, englishWords(t).T(recordedNote)) {
				t.Fatalf("alice was told %q; want that the move was not recorded", told)
			}
			if calls := w.snapshot(); calls["Commit"] != tc.commits {
				t.Fatalf("%d commits; want %d", calls["Commit"], tc.commits)
			}
			w.reset(nil)
			if g := h.game(chTiny); g.Version != before.Version {
				t.Fatalf("version %d, want %d: nothing was kept", g.Version, before.Version)
			}
		})
	}
}
