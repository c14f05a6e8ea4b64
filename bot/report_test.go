package bot

import (
	"context"
	"github.com/meeplegames/meeple/bot/transport"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/report"
	"github.com/meeplegames/meeple/storage"
)

// reportUpload is the described image of the first public message after
// mark whose text holds title, and that message's text.
func reportUpload(t *testing.T, h *harness, mark int, title string) (discordtest.File, string) {
	t.Helper()
	for _, q := range h.fake.Requests()[mark:] {
		if q.Status >= 300 || q.Ephemeral() || !strings.Contains(q.Text(), title) {
			continue
		}
		if len(q.Files) != 1 {
			t.Fatalf("the report carries %d files: %s", len(q.Files), q.Text())
		}
		return q.Files[0], q.Text()
	}
	t.Fatalf("no report titled %q among:\n%s", title, h.publicSince(mark))
	return discordtest.File{}, ""
}

// A game that ends posts its report under its final scores: the chart,
// described for screen readers, and each player's turns; it pings nobody.
func TestFinishedGamePostsItsReport(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Images: true}, pngRenderer{}, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice, bob)
	board := h.board(chTiny)
	h.clock.Advance(3 * time.Hour)
	h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
	board = h.board(chTiny)
	mark := h.mark()
	h.clock.Advance(25 * time.Minute)
	h.click(bob, chTiny, board.ID, mustComponent(t, board, "move 2"))
	h.bot.Wait()
	g, err := h.store.GetByID(context.Background(), 1)
	if err != nil || g.Status != storage.StatusFinished {
		t.Fatalf("the game: %v %+v", err, g)
	}
	file, text := reportUpload(t, h, mark, h.say("report.title", "Game", "Tiny Game", "ID", g.ID))
	if !strings.Contains(file.Description, "Alice: 0") || !strings.Contains(file.Description, h.say("report.score")) {
		t.Errorf("alt text %q: want each player's scores", file.Description)
	}
	// Bob's one timed turn waited on him from Alice's move to his own
	if want := h.say("report.turns", "Count", 1, "Median", "25 min", "Longest", "25 min"); !strings.Contains(text, "<@"+bob.ID+"> — "+want) {
		t.Errorf("Bob's turns: want %q in\n%s", want, text)
	}
	if !strings.Contains(text, h.say("report.computer")) {
		t.Errorf("the computer's seat is not said to be one:\n%s", text)
	}
	for _, q := range h.fake.Requests()[mark:] {
		if strings.Contains(q.Text(), h.say("report.footer")) && q.Msg != nil && len(q.Msg.Mentions) > 0 {
			t.Errorf("the report pings %v", q.Msg.Mentions)
		}
	}
}

// importedRace stores, as Meeple before reports did, a finished 80 Days
// race between alice, bob and carol in channel ch of guild: Alice takes ten
// minutes an action, the others one.
func importedRace(t *testing.T, h *harness, ch, guild string) *storage.Game {
	t.Helper()
	rules, err := h.reg.Lookup("eightydays")
	if err != nil {
		t.Fatal(err)
	}
	setup := engine.Setup{Players: 3, Seed: 5}
	st, err := rules.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	easy, err := ai.Lookup(rules, "easy")
	if err != nil {
		t.Fatal(err)
	}
	rng := engine.NewRNG(6)
	out, err := ai.PlayOut(st, []engine.Player{easy, easy, easy}, &rng, 100000)
	if err != nil || out.Stalled {
		t.Fatalf("the race: %v, stalled %v", err, out.Stalled)
	}
	g := &storage.Game{Kind: "eightydays", Guild: guild, Channel: ch, Creator: alice.ID, Status: storage.StatusRunning, Setup: setup,
		Seats:   []storage.Seat{{User: alice.ID, Name: alice.Name}, {User: bob.ID, Name: bob.Name}, {User: carol.ID, Name: carol.Name}},
		Created: h.clock.Now().Add(-48 * time.Hour)}
	at := g.Created
	for _, m := range out.Moves {
		at = at.Add(time.Minute)
		if m.Seat == 0 {
			at = at.Add(9 * time.Minute)
		}
		g.Log = append(g.Log, storage.Entry{Seat: m.Seat, Action: m.Action, At: at})
	}
	if err := h.store.Import(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	games, err := h.store.ArchiveForGuild(context.Background(), guild, 0, 1)
	if err != nil || len(games) != 1 {
		t.Fatalf("the archive: %v %v", games, err)
	}
	full, err := h.store.GetByID(context.Background(), games[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return full
}

// /game summary reports a game archived before reports existed, from its
// log: the chart with its figures in the alt text, the final scores and
// each player's turn times, in public.
func TestSummaryOfAnOlderGame(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays a whole race and draws it")
	}
	h := newHarness(t, realRegistry(t), Config{Images: true}, realRenderer(t), plainText)
	g := importedRace(t, h, "8101", testGuild)
	rules, _ := h.reg.Lookup("eightydays")
	rep, err := report.Build(rules, g)
	if err != nil {
		t.Fatal(err)
	}
	if alice := rep.Turns[0]; alice.Median < 10*time.Minute {
		t.Fatalf("Alice's median turn %v: she took ten minutes an action", alice.Median)
	}
	mark := h.mark()
	res := h.command(bob, "8101", cmdGame, subSummary, nil) // the channel's last game
	if res.private() {
		t.Fatalf("the report is private: %s", res.text())
	}
	title := h.say("game.eightydays.title")
	file, text := reportUpload(t, h, mark, h.say("report.title", "Game", title, "ID", g.ID))
	if !strings.Contains(text, h.say("board.final", "Game", title)) {
		t.Errorf("no final scores in the report:\n%s", text)
	}
	for n, u := range []tester{alice, bob, carol} {
		tt := rep.Turns[n]
		want := "<@" + u.ID + "> — " + h.say("report.turns", "Count", tt.Count, "Median", span(h.catalogue.For(""), tt.Median), "Longest", span(h.catalogue.For(""), tt.Longest))
		if !strings.Contains(text, want) {
			t.Errorf("want %q in\n%s", want, text)
		}
	}
	final := rep.Rounds[len(rep.Rounds)-1]
	for _, want := range []string{h.say("image.chart.axis.eightydays"), "Alice: 0, ", ", " + strconv.Itoa(final.Scores[1]) + ";"} {
		if !strings.Contains(file.Description, want) {
			t.Errorf("alt text %q lacks %q", file.Description, want)
		}
	}
	if len(file.Description) > transport.MaxAltText {
		t.Errorf("alt text of %d bytes", len(file.Description))
	}
	// by number, from another channel
	if res := h.command(carol, "8102", cmdGame, subSummary, map[string]any{optGame: g.ID}); !strings.Contains(res.text(), h.say("report.title", "Game", title, "ID", g.ID)) {
		t.Errorf("by number: %s", res.text())
	}
}

// A game of another server, a lobby, or a channel where none ended has
// no report, and says why, privately.
func TestSummaryRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{}, nil, plainText)
	elsewhere := importedRace(t, h, "8103", "7001")
	h.command(alice, "8101", cmdLobby, subNew, map[string]any{optGame: "eightydays"})
	lobby := h.game("8101").ID
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{nil, h.say("report.none_here")},
		{map[string]any{optGame: lobby}, h.say("report.unknown", "ID", lobby)},
		{map[string]any{optGame: 999}, h.say("report.unknown", "ID", 999)},
		{map[string]any{optGame: elsewhere.ID}, h.say("report.unknown", "ID", elsewhere.ID)},
	} {
		if res := h.command(alice, "8101", cmdGame, subSummary, c.opts); !res.privately(c.want) {
			t.Errorf("/game summary %v: %s", c.opts, res.text())
		}
	}
}
