package bot

import (
	"context"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// checkFits fails when a message the fake received exceeds a Discord limit
// on its texts.
func checkFits(t *testing.T, qs []discordtest.Request) {
	t.Helper()
	for _, q := range qs {
		if q.Msg == nil {
			continue
		}
		if n := utf8.RuneCountInString(q.Msg.Content); n > transport.MaxContent {
			t.Errorf("%s with %d characters of content", q.Kind, n)
		}
		total := 0
		for _, e := range q.Msg.Embeds {
			total += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
			if utf8.RuneCountInString(e.Description) > transport.MaxEmbedDescription || utf8.RuneCountInString(e.Title) > transport.MaxEmbedTitle {
				t.Errorf("%s with an embed over its limits", q.Kind)
			}
			for _, f := range e.Fields {
				total += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
				if utf8.RuneCountInString(f.Value) > transport.MaxEmbedField {
					t.Errorf("%s with a field of %d characters", q.Kind, utf8.RuneCountInString(f.Value))
				}
			}
			if e.Footer != nil {
				total += utf8.RuneCountInString(e.Footer.Text)
			}
		}
		if total > transport.MaxEmbedTotal {
			t.Errorf("%s with %d characters of embeds", q.Kind, total)
		}
	}
}

func TestOverlongInputIsAnsweredWithinLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	long := strings.Repeat("x", 3000)
	// before any game: the lobby's options and a computer's name
	if res := h.command(alice, "6101", cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: long}); !res.private() || !h.says(res.text(), "lobby.option_format") {
		t.Errorf("/lobby new options: %.200s", res.text())
	}
	openTinyTable(t, h, chTiny, alice, bob)
	h.command(alice, "6102", cmdLobby, subNew, map[string]any{optGame: "tiny"})
	if res := h.command(alice, "6102", cmdLobby, subAddAI, map[string]any{optName: long}); !h.says(res.text(), "lobby.no_such_ai") {
		t.Errorf("/lobby add-computer: %.200s", res.text())
	}
	for _, c := range []struct{ name, sub, opt string }{
		{cmdPlay, "", optAction}, {cmdFree, "", optAction}, {cmdGame, subRules, optTopic},
	} {
		res := h.command(alice, chTiny, c.name, c.sub, map[string]any{c.opt: long})
		if !res.private() || res.text() == "" {
			t.Errorf("/%s %s: %.200s", c.name, c.sub, res.text())
		}
	}
	if got := h.dm(alice, strings.Repeat("y", 2000)); len(got) != 1 {
		t.Errorf("a 2,000-character DM got %d answers", len(got))
	}
	h.bot.Wait()
	checkFits(t, h.fake.Requests())
	if g := h.game(chTiny); g.Version != 1 {
		t.Errorf("over-long input changed the game: version %d", g.Version)
	}
}

func TestComponentsOfTheWrongKindAreRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	g := h.game(chTiny)
	board := h.board(chTiny)
	id := func(v verb, arg string) string {
		s := componentID(g.Guard(), v, arg)
		return s
	}
	// a button carrying the private form's verb, a menu carrying a button's
	res := h.click(alice, chTiny, board.ID, id(verbModal, ""))
	if !res.private() || !strings.Contains(res.text(), refusalText(englishWords(t), errUnknownComp)) {
		t.Errorf("a button with the form's verb: %s", res.text())
	}
	if res := h.click(alice, chTiny, board.ID, id(verbAct, "pick 1"), "pick 1"); !strings.Contains(res.text(), refusalText(englishWords(t), errUnknownComp)) {
		t.Errorf("a menu with a button's verb: %s", res.text())
	}
	// forms carrying a menu's verbs
	for _, v := range []verb{verbPick, verbWhich, verbAct} {
		if res := h.submit(alice, chTiny, id(v, "0"), "pick 1"); !strings.Contains(res.text(), refusalText(englishWords(t), errUnknownComp)) {
			t.Errorf("a form with verb %s: %s", v, res.text())
		}
	}
	// a user select menu (another component type) with a Meeple custom_id
	raw := map[string]any{"type": 3, "data": map[string]any{"custom_id": id(verbPick, "0"), "component_type": 5, "values": []string{alice.ID}},
		"message": h.messageJSON(board.ID, chTiny)}
	h.place(raw, alice, chTiny)
	if res := h.send(raw); !strings.Contains(res.text(), refusalText(englishWords(t), errUnknownComp)) {
		t.Errorf("a user select: %s", res.text())
	}
	// the which-game menu belongs in DMs only
	if res := h.click(alice, chTiny, board.ID, id(verbWhich, ""), fmt.Sprint(g.ID)); !strings.Contains(res.text(), refusalText(englishWords(t), errUnknownComp)) {
		t.Errorf("a which-game menu in a channel: %s", res.text())
	}
	if got := h.game(chTiny).Version; got != g.Version {
		t.Errorf("refused components changed the game: version %d, want %d", got, g.Version)
	}
	if after, _ := h.fake.Message(board.ID); discordtest.MessageText(after) != discordtest.MessageText(board) {
		t.Error("a refused component changed the board")
	}
	if strings.Contains(h.log(), "panic") {
		t.Errorf("a panic was logged:\n%s", h.log())
	}
}

// A select menu drawn for one seat is refused to a player holding another,
// even when its choice is one their own seat could make.
func TestSeatMenuIsRefusedToAnotherSeat(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	g := h.game(chTiny)
	aliceSeat := slices.IndexFunc(g.Seats, func(s storage.Seat) bool { return s.User == alice.ID })
	menu := componentID(g.Guard(), verbPick, fmt.Sprint(aliceSeat))
	res := h.click(bob, chTiny, h.board(chTiny).ID, menu, "pick 1")
	if !res.private() || !strings.Contains(res.text(), refusalText(englishWords(t), table.ErrNotYours)) {
		t.Errorf("bob on alice's menu: %s", res.text())
	}
	if got := h.game(chTiny).Version; got != g.Version {
		t.Errorf("the refused pick changed the game: version %d, want %d", got, g.Version)
	}
}

func TestBlankPrivateFormIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	board := h.board(chTiny)
	res := h.click(alice, chTiny, board.ID, mustComponent(t, board, "Choose secretly"))
	form := res.Requests[0].CustomID
	for _, blank := range []string{"", "   ", "\n\t"} {
		res := h.submit(alice, chTiny, form, blank)
		if !res.private() || !strings.Contains(res.text(), refusalText(englishWords(t), table.ErrBlankChoice)) {
			t.Errorf("blank form %q: %s", blank, res.text())
		}
	}
	if strings.Contains(h.log(), "ERROR") {
		t.Errorf("a blank form was logged as an error:\n%s", h.log())
	}
	if g := h.game(chTiny); g.Version != 1 {
		t.Errorf("a blank form changed the game: version %d", g.Version)
	}
	// resolveAction never makes an action of nothing
	st, _ := tinyRules{}.New(engine.Setup{Players: 2})
	if _, action := table.ResolveAction(st, []engine.Seat{0}, "  "); action != "" {
		t.Errorf("resolveAction of blank = %q", action)
	}
}

func TestPanicsAreRecovered(t *testing.T) {
	t.Parallel()
	// a presenter that panics: /game me is answered privately and logged
	boom := func(any, *wording.Words) (string, error) {
		panic(fmt.Errorf("presenter bug holding %s", "secret 6 6 5 1"))
	}
	h := newHarness(t, engine.NewRegistry(tinyRules{clumsy: true}), Config{Deadline: time.Hour, Computer: "panicky"}, nil, boom)
	openTinyTable(t, h, chTiny, alice, bob)
	res := h.command(alice, chTiny, cmdGame, subMe, nil)
	if !res.private() || !strings.Contains(res.text(), failureText) {
		t.Errorf("after a panic: %s", res.text())
	}
	logged := h.log()
	if !strings.Contains(logged, "recovered from a panic in an interaction") || !strings.Contains(logged, "goroutine") {
		t.Errorf("the panic was not logged with its stack:\n%s", logged)
	}
	if strings.Contains(logged, "6 6 5 1") {
		t.Error("the panic's value reached the log")
	}
	// the bot goes on, and so does the game
	if res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 2"}); !h.says(res.text(), "play.played") {
		t.Errorf("after the panic: %s", res.text())
	}
	// a computer player that panics at a deadline: the tick survives, the
	// game's lock is free again, the next interaction is served
	h.clock.Advance(2 * time.Hour)
	h.bot.CheckDeadlines(h.clock.Now())
	if !strings.Contains(h.log(), "handling a timer failed") || !strings.Contains(h.log(), "index out of range") {
		t.Errorf("the deadline's panic was not logged:\n%s", h.log())
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.command(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pick 1"})
	}()
	<-done // the game's lock was released after the panic (else go test's -timeout reports the hang)
}

func TestPanicInADMIsRecovered(t *testing.T) {
	t.Parallel()
	h := newHarness(t, engine.NewRegistry(tinyRules{clumsy: true}), Config{}, nil, nil)
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"})
	h.command(alice, chTiny, cmdLobby, subAddAI, map[string]any{optName: "panicky"})
	// the computer's first pick panics while the game starts: the start
	// is answered, the panic logged, and the game stays in the lobby
	// (the start and the computers' opening moves are one commit)
	if res := h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin}); !res.private() || !strings.Contains(res.text(), failureText) {
		t.Errorf("start with a panicking computer: %s", res.text())
	}
	if g := h.game(chTiny); g.Status != storage.StatusLobby || g.Version != 0 {
		t.Errorf("after the failed start the game is %s at version %d; want it left in the lobby", g.Status, g.Version)
	}
	// a running game with that computer: alice's pick by DM sets it off,
	// and the DM is answered
	running := &storage.Game{Kind: "tiny", Guild: testGuild, Channel: "3010", Creator: alice.ID, Status: storage.StatusRunning,
		Setup: engine.Setup{Players: 2, Seed: 1}, Seats: []storage.Seat{{User: alice.ID}, {Name: "Panicky", Computer: "panicky"}}}
	if err := h.store.Create(context.Background(), running); err != nil {
		t.Fatal(err)
	}
	got := h.dm(alice, "2")
	if len(got) != 1 || !strings.Contains(got[0].Text(), failureText) {
		t.Fatalf("DM answers: %+v", got)
	}
	if logged := h.log(); !strings.Contains(logged, "recovered from a panic in a DM") || !strings.Contains(logged, "index out of range") {
		t.Errorf("the DM's panic was not logged:\n%s", logged)
	}
}

func TestBlankDMIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	v := h.game(chTiny).Version
	// alice's game waits for her pick: a DM without text (a picture, a
	// sticker) is told so
	if got := h.dm(alice, " \n "); len(got) != 1 || got[0].Text() != refusalText(englishWords(t), table.ErrBlankChoice) {
		t.Errorf("a blank DM while a pick is due: %+v", got)
	}
	// nobody waits for eve: a blank DM goes unanswered
	if got := h.dm(eve, ""); len(got) != 0 {
		t.Errorf("a blank DM from someone with nothing to choose: %+v", got)
	}
	if h.game(chTiny).Version != v || strings.Contains(h.log(), "ERROR") {
		t.Errorf("a blank DM changed the game or logged an error:\n%s", h.log())
	}
}
