package bot

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// writeCounter is the bot's store with its writes counted, and Commit
// failing with fail when that is set (a crash before the transaction
// lands, or a concurrent writer).
type writeCounter struct {
	Store
	st *boltdb.Store

	mu sync.Mutex
	// calls counts the writes by method; "Update" counts the Updates of
	// the game's fields, "Update (message ids)" the publisher's, which
	// record a new board message's id after Discord answered.
	calls map[string]int
	fail  error
	// lose is how many commits from now are kept but answered with
	// storage.ErrUnknownOutcome, as when the database's answer is lost.
	lose int
	// script answers the next commits in order, before lose: each error
	// is returned without committing, but errKeptLost commits and answers
	// as lose does.
	script []error
}

// errKeptLost in a writeCounter's script is a commit kept whose answer
// was lost.
var errKeptLost = errors.New("kept, answer lost")

func countWrites(h *harness) *writeCounter {
	w := &writeCounter{calls: map[string]int{}}
	h.wrap = func(s Store) Store {
		w.Store, w.st = s, s.(*boltdb.Store)
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

// gameWrites is how many writes of a game's actions, deadline or ending
// calls holds (the bot's store has no other way to start a game than a
// Commit).
func gameWrites(calls map[string]int) int {
	return calls["Commit"] + calls["Append"] + calls["Update"] + calls["Finish"]
}

// reset forgets the writes so far and sets the failure Commit returns.
func (w *writeCounter) reset(fail error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls, w.fail = map[string]int{}, fail
}

func (w *writeCounter) snapshot() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps.Clone(w.calls)
}

func (w *writeCounter) Commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error) {
	if err := w.count("Commit"); err != nil {
		return nil, err
	}
	w.mu.Lock()
	var next error
	if len(w.script) > 0 {
		next, w.script = w.script[0], w.script[1:]
	}
	w.mu.Unlock()
	if next != nil && next != errKeptLost {
		return nil, next
	}
	g, err := w.st.Commit(ctx, channel, at, o)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err == nil && next == errKeptLost {
		return nil, fmt.Errorf("postgres: commit to channel %s: %w: unexpected EOF", channel, storage.ErrUnknownOutcome)
	}
	if err == nil && w.lose > 0 {
		w.lose--
		return nil, fmt.Errorf("postgres: commit to channel %s: %w: unexpected EOF", channel, storage.ErrUnknownOutcome)
	}
	return g, err
}

func (w *writeCounter) Append(channel string, at storage.Guard, e storage.Entry, snapshot []byte) (storage.Guard, error) {
	w.count("Append")
	return w.st.Append(context.Background(), channel, at, e, snapshot)
}

func (w *writeCounter) Update(ctx context.Context, channel string, game uint64, fn func(g *storage.Game) error) (*storage.Game, error) {
	kind := "Update"
	g, err := w.st.Update(ctx, channel, game, func(g *storage.Game) error {
		messages := maps.Clone(g.Messages)
		err := fn(g)
		if !maps.Equal(messages, g.Messages) {
			kind = "Update (message ids)"
		}
		return err
	})
	w.count(kind)
	return g, err
}

func (w *writeCounter) Finish(ctx context.Context, channel string, at storage.Guard, status storage.Status, result *engine.Result) (*storage.Game, error) {
	w.count("Finish")
	return w.st.Finish(ctx, channel, at, status, result)
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
	t.Parallel()
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
	if calls := w.snapshot(); calls["Commit"] != 1 || gameWrites(calls) != 1 {
		t.Fatalf("the click wrote %v; want one Commit and nothing else of the game's", calls)
	}
}

func TestAStartIsOneCommit(t *testing.T) {
	t.Parallel()
	for _, order := range []string{"Start (join order)", "Start (shuffled seats)"} {
		t.Run(order, func(t *testing.T) {
			h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour}, nil, nil)
			w := countWrites(h)
			h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2"})
			lobby := h.game(chTiny).Messages[roleLobby]
			m, _ := h.fake.Message(lobby)
			h.click(alice, chTiny, lobby, mustComponent(t, m, "Add computer"))
			m, _ = h.fake.Message(lobby)
			h.bot.Wait()
			seats := h.game(chTiny).Seats
			w.reset(nil)
			if res := h.click(alice, chTiny, lobby, mustComponent(t, m, order)); !h.says(res.text(), "lobby.started") {
				t.Fatalf("start: %s", res.text())
			}
			h.bot.Wait()
			g, st := load(t, h)
			if g.Status != storage.StatusRunning || g.Setup.Players != 2 || !g.Deadline.Equal(h.clock.Now().Add(10*time.Hour)) {
				t.Fatalf("after the start: status %s players %d deadline %v", g.Status, g.Setup.Players, g.Deadline)
			}
			if len(g.Seats) != 2 || !slices.ContainsFunc(g.Seats, func(s storage.Seat) bool { return s.User == alice.ID }) ||
				(order == "Start (join order)" && !slices.Equal(g.Seats, seats)) {
				t.Fatalf("seats %+v from the lobby's %+v", g.Seats, seats)
			}
			if a, b := stateText(t, st), string(g.Snapshot); a != b {
				t.Fatal("the stored snapshot is not the loaded state")
			}
			if calls := w.snapshot(); calls["Commit"] != 1 || gameWrites(calls) != 1 {
				t.Fatalf("the start wrote %v; want one Commit (the start, the computer's opening moves, the deadline) and nothing else of the game's", calls)
			}
		})
	}
}

func TestTheLastClickIsOneCommit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour}, nil, nil)
	w := countWrites(h)
	openSolo(t, h, chTiny, alice, "1")
	pickAll(t, h, chTiny, alice)
	id := h.game(chTiny).ID
	board := h.board(chTiny)
	h.bot.Wait()
	w.reset(nil)
	h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
	h.bot.Wait()
	g, err := h.store.GetByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != storage.StatusFinished || g.Result == nil || !g.Deadline.IsZero() {
		t.Fatalf("after the last move: status %s result %v deadline %v", g.Status, g.Result, g.Deadline)
	}
	if stats, err := h.store.Stats(context.Background(), alice.ID); err != nil || len(stats) != 1 || stats[0].Played != 1 {
		t.Fatalf("alice's statistics: %+v %v", stats, err)
	}
	if calls := w.snapshot(); calls["Commit"] != 1 || gameWrites(calls) != 1 {
		t.Fatalf("the last click wrote %v; want one Commit (the moves and the ending) and nothing else of the game's", calls)
	}
}

func TestAResignationIsOneCommit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour}, nil, nil)
	w := countWrites(h)
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice)
	h.clock.Advance(time.Hour)
	h.bot.Wait()
	v := h.game(chTiny).Version
	// bob resigns: a computer takes his seat and picks, the moves begin
	// with alice, whose deadline is re-armed
	w.reset(nil)
	if res := h.command(bob, chTiny, cmdGame, subResign, nil); !h.says(res.text(), "seats.resigned") {
		t.Fatalf("bob's resignation: %s", res.text())
	}
	h.bot.Wait()
	g := h.game(chTiny)
	if g.Version != v+1 || g.Seats[1].Computer == "" || len(g.Handovers) != 1 || !g.Deadline.Equal(h.clock.Now().Add(10*time.Hour)) {
		t.Fatalf("after the resignation: version %d (want %d) seats %+v handovers %d deadline %v", g.Version, v+1, g.Seats, len(g.Handovers), g.Deadline)
	}
	if calls := w.snapshot(); calls["Commit"] != 1 || gameWrites(calls) != 1 {
		t.Fatalf("the resignation wrote %v; want one Commit (the seat, the computer's pick, the deadline)", calls)
	}
	// alice, the last person at the table, resigns: one Commit abandons it
	w.reset(nil)
	if res := h.command(alice, chTiny, cmdGame, subResign, nil); !h.says(res.text(), "seats.resigned_alone") {
		t.Fatalf("alice's resignation: %s", res.text())
	}
	if g, err := h.store.GetByID(context.Background(), g.ID); err != nil || g.Status != storage.StatusAbandoned || len(g.Handovers) != 2 {
		t.Fatalf("after the last resignation: %+v %v", g, err)
	}
	if calls := w.snapshot(); calls["Commit"] != 1 || gameWrites(calls) != 1 {
		t.Fatalf("the last resignation wrote %v; want one Commit", calls)
	}
}

func TestAFailedCommitLeavesTheGameAsItWas(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		fail error
		want string
	}{
		{"crash", errors.New("disk gone"), failureText},
		{"another process moved first", &storage.VersionError{Channel: chTiny, Expected: storage.Guard{Game: 1, Revision: 3}, Actual: storage.Guard{Game: 1, Revision: 4}}, "Someone else acted at the same moment"},
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

// TestALostAnswerIsRecordedOnce keeps a click's commit but loses the
// database's answer: the bot retries with the click's interaction id, the
// store finds the commit kept, and alice is answered as for any move,
// which is in the log once.
func TestALostAnswerIsRecordedOnce(t *testing.T) {
	t.Parallel()
	h, w := moveBeforeTheComputer(t)
	before := h.game(chTiny)
	board := h.board(chTiny)
	w.reset(nil)
	w.mu.Lock()
	w.lose = 1
	w.mu.Unlock()
	retried := h.advanceThrough(table.RetryPauses()[0]) // the pause before the retry
	res := h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
	h.bot.Wait()
	retried()
	if text := res.text(); strings.Contains(text, failureText) || strings.Contains(text, refusalText(englishWords(t), table.ErrUnknownOutcome)) || h.says(text, "refuse.stale") {
		t.Fatalf("alice was told %q after her recorded move", text)
	}
	g, _ := load(t, h)
	if moved := g.Log[before.Version:]; len(moved) != 3 || moved[0].Seat != 0 {
		t.Fatalf("the click stored %+v; want alice's move once, then the computer's two", moved)
	}
	if calls := w.snapshot(); calls["Commit"] != 2 {
		t.Fatalf("the click made %d commits; want the first and its retry", calls["Commit"])
	}
}

func TestAStandInAtTheDeadlineIsOneCommit(t *testing.T) {
	t.Parallel()
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
	if calls := w.snapshot(); calls["Commit"] != 1 || gameWrites(calls) != 1 {
		t.Fatalf("the stand-in wrote %v; want one Commit and nothing else of the game's", calls)
	}
}

// load reads channel chTiny's game with its log, and its state.
func load(t *testing.T, h *harness) (*storage.Game, engine.State) {
	t.Helper()
	g, st, err := h.store.Load(context.Background(), chTiny)
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

// BenchmarkPlayAgainstComputers plays 100 concurrent 4-player Crystal
// Palace games of one person against three computer players, images off,
// at 100 interactions a second: each interaction is the person's next
// decision via /play, which sets off the computer players' moves and
// re-arms the deadline. Besides the answers' latency it reports the writes
// of game state each interaction made (game-writes/op: Commit, Append,
// Finish, and Updates of the game's fields).
func BenchmarkPlayAgainstComputers(b *testing.B) {
	reg := realRegistry(b)
	h := newHarness(b, reg, Config{Deadline: 24 * time.Hour}, nil, nil)
	w := countWrites(h)
	var chans []string
	for n := 0; n < benchGames; n++ {
		ch := fmt.Sprint(60000 + n)
		chans = append(chans, ch)
		openAgainstComputers(b, h, ch, "crystalpalace", 3)
	}
	h.bot.Wait()
	rules, _ := reg.Lookup("crystalpalace")
	player, _ := ai.Lookup(rules, "heuristic")
	rng := engine.NewRNG(1)
	lat := newLatencies()
	w.reset(nil)
	runPaced(b, h, lat, benchRate, func(n int) map[string]any {
		ch := chans[n%len(chans)]
		_, st, err := h.store.Load(context.Background(), ch)
		if err != nil || len(table.PromptsOf(st, 0)) == 0 {
			return guildCommand(alice, ch, cmdGame, subScores, nil) // that game is over
		}
		action := player.Choose(st, table.PromptsOf(st, 0)[0], &rng)
		return guildCommand(alice, ch, cmdPlay, "", []map[string]any{{"name": optAction, "type": 3, "value": action}})
	})
	b.ReportMetric(float64(gameWrites(w.snapshot()))/float64(b.N), "game-writes/op")
	checkBoards(b, h, chans)
}

// openAgainstComputers starts a game of kind in channel ch: alice against
// computers computer players.
func openAgainstComputers(t testing.TB, h *harness, ch, kind string, computers int) {
	t.Helper()
	h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: kind})
	lobby := h.game(ch).Messages[roleLobby]
	for range computers {
		m, _ := h.fake.Message(lobby)
		h.click(alice, ch, lobby, mustComponent(t, m, "Add computer"))
	}
	m, _ := h.fake.Message(lobby)
	if res := h.click(alice, ch, lobby, mustComponent(t, m, "Start (join order)")); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
}

// TestAnOlderBuildsButtonIsStale clicks a button an older Meeple drew
// (its custom_id carried the game's version, "m1:"): the click is
// answered as a stale board, and nothing is played.
func TestAnOlderBuildsButtonIsStale(t *testing.T) {
	t.Parallel()
	h, _ := moveBeforeTheComputer(t)
	before := h.game(chTiny)
	board := h.board(chTiny)
	old := fmt.Sprintf("m1:%s:%d:act:move 1", strconv.FormatUint(before.ID, 36), before.Version)
	res := h.click(alice, chTiny, board.ID, old)
	h.bot.Wait()
	if !res.private() || !strings.Contains(res.text(), refusalText(englishWords(t), table.ErrStaleClick)) {
		t.Fatalf("alice was told %q (private %v), want the stale board's answer", res.text(), res.private())
	}
	if g := h.game(chTiny); g.Version != before.Version || g.Revision != before.Revision {
		t.Fatalf("an older build's button played: version %d, was %d", g.Version, before.Version)
	}
}
