package bot

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/bot/table"
)

// crashBeforeBoard opens a tiny table of alice and bob (and a computer),
// plays the picks, then stores alice's move without publishing it, as a
// process killed between the commit and the board's edit leaves it, and
// restarts the bot on the same file. It returns the board message as the
// crash left it.
func crashBeforeBoard(t *testing.T, h *harness) (oldMove string) {
	t.Helper()
	openTinyTable(t, h, chTiny, alice, bob)
	h.play(alice, chTiny, "pick 1")
	h.play(bob, chTiny, "pick 1")
	board := h.board(chTiny)
	move := mustComponent(t, board, "move 1")
	g := h.game(chTiny)
	if got := g.Messages[roleShown]; got != strconv.FormatUint(g.Revision, 10) {
		t.Fatalf("the board's shown revision is %q, want the game's %d", got, g.Revision)
	}
	h.bot.Wait()
	ref := table.NewReferee(table.Config{Store: h.store, Games: h.reg, Locks: table.NewLocks(), Now: h.clock.Now})
	if _, err := ref.Play(context.Background(), table.Request{Channel: chTiny, User: alice.ID, Text: "move 1"}); err != nil {
		t.Fatal(err)
	}
	h.restart()
	if g := h.game(chTiny); !boardBehind(g) {
		t.Fatalf("after the lost delivery the board is not behind: shown %q, revision %d", g.Messages[roleShown], g.Revision)
	}
	return move
}

// pingsOf counts the pings of user sent since mark.
func pingsOf(h *harness, mark int, user string) int {
	h.bot.Wait()
	n := 0
	for _, q := range h.fake.Requests()[mark:] {
		if q.Msg != nil && strings.Contains(q.Text(), "<@"+user+"> (") { // a ping says in brackets what they must decide
			n++
		}
	}
	return n
}

// boardEdits counts the requests since mark that change the channel's
// board message.
func boardEdits(h *harness, mark int, board string) int {
	h.bot.Wait()
	n := 0
	for _, q := range h.fake.Requests()[mark:] {
		if q.Message == board && (q.Kind == discordtest.MessageEdit || q.Kind == discordtest.OriginalEdit) {
			n++
		}
	}
	return n
}

// A bot killed between storing a move and editing the board leaves the
// board one move behind and the next player unpinged; the restarted bot
// repairs it at start-up (the guilds its gateway's READY lists): the board
// is edited to the stored game and bob is pinged, once, and a second
// start-up sends nothing.
func TestAStartUpRepairsABoardLeftBehind(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	crashBeforeBoard(t, h)
	board := h.game(chTiny).Messages[roleBoard]
	mark := h.mark()
	h.bot.repairBoards([]string{testGuild})
	if n := boardEdits(h, mark, board); n != 1 {
		t.Errorf("the start-up edited the board %d times, want 1", n)
	}
	if n := pingsOf(h, mark, bob.ID); n != 1 {
		t.Errorf("bob was pinged %d times, want 1:\n%s", n, h.publicSince(mark))
	}
	g := h.game(chTiny)
	if boardBehind(g) {
		t.Errorf("after the repair the board shows %q, the game is at %d", g.Messages[roleShown], g.Revision)
	}
	m := h.board(chTiny)
	if _, ok := componentOn(t, m, "move 1"); !ok {
		t.Errorf("the repaired board offers no move:\n%s", discordtest.MessageText(m))
	}

	mark = h.mark()
	h.restart()
	h.bot.repairBoards([]string{testGuild})
	if n := len(h.fake.Requests()) - mark; n != 0 {
		h.bot.Wait()
		t.Errorf("a start-up with every board up to date made %d requests, want 0", len(h.fake.Requests())-mark)
	}
}

// A click on the board a lost delivery left behind is refused as out of
// date, and repairs the board: edited to the stored game, bob pinged once.
func TestAStaleClickRepairsTheBoard(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	move := crashBeforeBoard(t, h)
	board := h.game(chTiny).Messages[roleBoard]
	mark := h.mark()
	res := h.click(bob, chTiny, board, move)
	if want := refusalText(englishWords(t), table.ErrStaleClick); !res.privately(want) {
		t.Errorf("the click on the old board: %q, want %q", res.text(), want)
	}
	if n := boardEdits(h, mark, board); n != 1 {
		t.Errorf("the stale click edited the board %d times, want 1", n)
	}
	if n := pingsOf(h, mark, bob.ID); n != 1 {
		t.Errorf("bob was pinged %d times, want 1:\n%s", n, h.publicSince(mark))
	}
	if g := h.game(chTiny); boardBehind(g) {
		t.Errorf("after the stale click the board shows %q, the game is at %d", g.Messages[roleShown], g.Revision)
	}
	// the fresh board's button plays
	fresh := mustComponent(t, h.board(chTiny), "move 1")
	if fresh == move {
		t.Fatal("the board still carries the old revision")
	}
	if res := h.click(bob, chTiny, board, fresh); res.private() && h.says(res.text(), "refuse.stale_click") {
		t.Errorf("a click on the repaired board: %s", res.text())
	}
}

// Over the gateway, the start-up repair runs when READY lists the guild.
func TestTheGatewaysReadyRepairsBoards(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	crashBeforeBoard(t, h)
	board := h.game(chTiny).Messages[roleBoard]
	h.fake.SetGuilds(testGuild)
	mark := h.mark()
	serveOverGateway(t, h)
	waitUntil(t, "the board's repair", func() bool { return !boardBehind(h.game(chTiny)) })
	if n := boardEdits(h, mark, board); n != 1 {
		t.Errorf("the start-up edited the board %d times, want 1", n)
	}
	if n := pingsOf(h, mark, bob.ID); n != 1 {
		t.Errorf("bob was pinged %d times, want 1:\n%s", n, h.publicSince(mark))
	}
}
