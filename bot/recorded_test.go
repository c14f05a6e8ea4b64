package bot

import (
	"fmt"
	"strings"
	"testing"
	"time"

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
	for _, way := range []string{"board click", "/play", "DM"} {
		t.Run(way, func(t *testing.T) {
			h, w := moveBeforeTheComputer(t)
			if way == "DM" {
				// a round-2 pick, which alice may send by DM
				h.click(alice, chTiny, h.board(chTiny).ID, mustComponent(t, h.board(chTiny), "move 1"))
				h.bot.Wait()
			}
			before := h.game(chTiny)
			w.reset(nil)
			w.loseNext(1)
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
			if !strings.Contains(told, englishWords(t).T(recordedNote)) || strings.Contains(told, failureText) || strings.Contains(told, errUnknownOutcome.words(englishWords(t))) {
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
// never that it failed, and nothing is stored.
func TestAnOutcomeThatStaysUnknownSaysWhatToDo(t *testing.T) {
	retries := commitRetries
	commitRetries = []time.Duration{0, 0, 0}
	t.Cleanup(func() { commitRetries = retries })
	h, w := moveBeforeTheComputer(t)
	before := h.game(chTiny)
	w.reset(fmt.Errorf("postgres: commit to channel %s: %w: connection reset by peer", chTiny, storage.ErrUnknownOutcome))
	told := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "move 1"}).text()
	h.bot.Wait()
	if !strings.Contains(told, errUnknownOutcome.words(englishWords(t))) || !strings.Contains(told, "look at the board") || strings.Contains(told, failureText) || strings.Contains(told, englishWords(t).T(recordedNote)) {
		t.Fatalf("alice was told %q; want the unknown outcome's words and what to do", told)
	}
	if calls := w.snapshot(); calls["Commit"] != 1+len(commitRetries) {
		t.Fatalf("%d commits; want the first and %d retries", calls["Commit"], len(commitRetries))
	}
	w.reset(nil)
	if g := h.game(chTiny); g.Version != before.Version {
		t.Fatalf("version %d after commits that were never kept, want %d", g.Version, before.Version)
	}
}
