package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// pickAll makes every listed user pick through /play.
func pickAll(t *testing.T, h *harness, ch string, users ...tester) {
	t.Helper()
	for _, u := range users {
		if res := h.command(u, ch, cmdPlay, "", map[string]any{optAction: "1"}); !h.says(res.text(), "play.played", "Action", "pick 1") {
			t.Fatalf("%s's pick: %s", u.Name, res.text())
		}
	}
}

func TestRestartInTheMiddleOfAGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 3"})
	oldBoard := h.board(chTiny)
	deadline := h.game(chTiny).Deadline

	h.restart() // a new bot on the same database file

	g := h.game(chTiny)
	if g.Version != 2 || !g.Deadline.Equal(deadline) {
		t.Fatalf("after restart: version %d deadline %v (want 2, %v)", g.Version, g.Deadline, deadline)
	}
	// alice's secret pick survived; she changes it (it is still hidden): the
	// change is one more action in the log, which replays to the same state
	if res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 1"}); !h.says(res.text(), "play.played", "Action", "pick 1") {
		t.Errorf("changing the pick after restart: %s", res.text())
	}
	if g := h.game(chTiny); g.Version != 3 || g.Log[1].Action != "pick 3" || g.Log[2].Action != "pick 1" {
		t.Errorf("after the change: version %d, log %+v", g.Version, g.Log)
	}
	if res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 7"}); !strings.Contains(res.text(), "pick a number from 1 to 3") {
		t.Errorf("an illegal change: %s", res.text())
	}
	mark := h.mark()
	pickAll(t, h, chTiny, bob)
	if got := h.publicSince(mark); !strings.Contains(got, "picks: P1 1, P2 1") {
		t.Errorf("reveal after the change: %s", got)
	}
	board := h.board(chTiny)
	if board.ID == oldBoard.ID {
		t.Error("no new board after the phase changed")
	}
	h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
	board = h.board(chTiny)
	h.click(bob, chTiny, board.ID, mustComponent(t, board, "move 2"))
	if _, err := h.store.Get(context.Background(), chTiny); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("game not finished after restart: %v", err)
	}
}

func TestSecretChoiceChangesAfterOthersActed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob, carol)
	mark := h.mark()
	h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 3"})
	pickAll(t, h, chTiny, bob) // alice's pick is no longer the last action
	// the private form still opens for alice, and her new pick is appended
	board := h.board(chTiny)
	res := h.click(alice, chTiny, board.ID, mustComponent(t, board, "Choose secretly"))
	if res.callbackType() != discordgo.InteractionResponseModal {
		t.Fatalf("secret button after another pick answered %v: %s", res.callbackType(), res.text())
	}
	if res = h.submit(alice, chTiny, res.Requests[0].CustomID, "2"); !res.privatelySays(h, "play.played", "Action", "pick 2") {
		t.Fatalf("alice's change: %s", res.text())
	}
	g := h.game(chTiny)
	var actions []string
	for _, e := range g.Log {
		actions = append(actions, fmt.Sprintf("P%d %s", e.Seat+1, e.Action))
	}
	if got := strings.Join(actions, ", "); len(actions) != 4 || !strings.HasSuffix(got, "P1 pick 3, P2 pick 1, P1 pick 2") {
		t.Errorf("log after the change: %s", got)
	}
	// nobody else learns either pick: not the log, public messages, custom_ids or log lines
	if res := h.command(bob, chTiny, cmdGame, subLog, nil); strings.Count(res.text(), "P1 Alice: (a secret choice") != 2 ||
		regexp.MustCompile(`pick [0-9]|you picked`).MatchString(res.text()) {
		t.Errorf("the log before the reveal: %s", res.text())
	}
	pickValue := regexp.MustCompile(`pick [0-9]`)
	if got := h.publicSince(mark); pickValue.MatchString(got) {
		t.Errorf("a pick appeared in public before the reveal:\n%s", got)
	}
	for _, q := range h.fake.Requests() {
		for _, id := range append(q.CustomIDs(), q.CustomID) {
			if strings.Contains(id, "pick") {
				t.Errorf("custom_id %q carries a pick", id)
			}
		}
	}
	if pickValue.MatchString(h.log()) {
		t.Errorf("a pick reached the log:\n%s", h.log())
	}
	// a wrong change is refused and changes nothing; carol's pick reveals the new one
	if res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 9"}); !strings.Contains(res.text(), "pick a number from 1 to 3") {
		t.Errorf("an illegal change: %s", res.text())
	}
	if h.game(chTiny).Version != g.Version {
		t.Error("an illegal change was stored")
	}
	mark = h.mark()
	pickAll(t, h, chTiny, carol)
	if got := h.publicSince(mark); !strings.Contains(got, "picks: P1 2, P2 1, P3 1") {
		t.Errorf("the reveal shows the changed pick: %s", got)
	}
	if res := h.command(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pick 3"}); !strings.Contains(res.text(), "no pick to make") {
		t.Errorf("a change after the reveal: %s", res.text())
	}
	// after the reveal the log shows the revealed picks, never the replaced one
	res = h.command(bob, chTiny, cmdGame, subLog, nil)
	for _, want := range []string{"P1 Alice: (a secret choice, changed before the reveal)", "P1 Alice: `pick 2`", "P2 Bob: `pick 1`",
		"↳ P1 has picked", "picks: P1 2, P2 1, P3 1, P4 2 · moves begin"} {
		if !strings.Contains(res.text(), want) {
			t.Errorf("the log after the reveal lacks %q:\n%s", want, res.text())
		}
	}
	if strings.Contains(res.text(), "pick 3") || strings.Contains(res.text(), "you picked") {
		t.Errorf("the replaced pick or a private event shows in the log after the reveal:\n%s", res.text())
	}
}

func TestSecretActionsStayOutOfTheLog(t *testing.T) {
	t.Parallel()
	// a rules change makes alice's stored secret pick unreplayable: /game
	// log fails, and the failure is logged without the pick
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 3"})
	h.reg = engine.NewRegistry(tinyRules{refuse: "pick 3"})
	h.restart()
	if res := h.command(bob, chTiny, cmdGame, subLog, nil); res.text() != failureText {
		t.Errorf("the log of a game that no longer replays: %s", res.text())
	}
	logged := h.log()
	if !strings.Contains(logged, "interaction failed") || !strings.Contains(logged, `\"pick …\", a secret choice: illegal action`) {
		t.Errorf("the replay failure was not logged as such:\n%s", logged)
	}
	if strings.Contains(logged, "pick 3") {
		t.Errorf("a secret pick reached the log:\n%s", logged)
	}

	// a buggy computer player stands in for a secret choice at a deadline
	h = newHarness(t, engine.NewRegistry(tinyRules{clumsy: true}), Config{Deadline: time.Hour, Computer: "clumsy"}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice) // bob's secret pick falls to the stand-in
	g := h.game(chTiny)
	h.clock.Advance(2 * time.Hour)
	h.bot.CheckDeadlines(h.clock.Now())
	if h.game(chTiny).Version != g.Version {
		t.Error("a refused computer move changed the game")
	}
	logged = h.log()
	if !strings.Contains(logged, "computer player clumsy of game 1 refused") || !strings.Contains(logged, "a secret choice: unknown action") {
		t.Errorf("the computer's failure was not logged as such:\n%s", logged)
	}
	if strings.Contains(logged, "pluck 2") {
		t.Errorf("a secret choice reached the log:\n%s", logged)
	}
}

func TestDeadlinePassesAndAComputerStandsIn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: 10 * time.Hour, Reminder: 4 * time.Hour}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice)

	// a reminder after 4 hours, for bob only
	h.clock.Advance(4*time.Hour + time.Minute)
	mark := h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	got := h.publicSince(mark)
	if !h.says(got, "deadline.reminder") || !strings.Contains(got, "<@"+bob.ID+">") || strings.Contains(got, "<@"+alice.ID+">") {
		t.Errorf("reminder: %q", got)
	}
	// the deadline survives a restart and fires after it
	h.restart()
	h.clock.Advance(6 * time.Hour)
	mark = h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	got = h.publicSince(mark)
	if !strings.Contains(got, "decided for <@"+bob.ID+">") {
		t.Fatalf("deadline: %q", got)
	}
	g := h.game(chTiny)
	if g.Version != 3 { // the computer's pick at start, alice's, and the stand-in's for bob
		t.Fatalf("version %d after the deadline, want 3", g.Version)
	}
	if !strings.Contains(got, "moves begin") && !strings.Contains(discordtest.MessageText(h.board(chTiny)), "moves") {
		t.Errorf("the game did not go on: %q", got)
	}
	if !g.Deadline.After(h.clock.Now()) {
		t.Errorf("no new deadline armed: %v", g.Deadline)
	}
	// a second check at the same time does nothing more
	v := g.Version
	h.bot.CheckDeadlines(h.clock.Now())
	if h.game(chTiny).Version != v {
		t.Error("a deadline fired twice")
	}
}

func TestDeadlinePausesWhenSetUpSo(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{OnDeadline: onDeadlinePause, Deadline: time.Hour}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	h.clock.Advance(2 * time.Hour)
	mark := h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	if got := h.publicSince(mark); !h.says(got, "deadline.paused") {
		t.Fatalf("pause: %q", got)
	}
	g := h.game(chTiny)
	if !g.Deadline.IsZero() || g.Version != 1 {
		t.Errorf("after pause: deadline %v version %d", g.Deadline, g.Version)
	}
	// acting resumes the game and re-arms the deadline
	pickAll(t, h, chTiny, alice)
	if h.game(chTiny).Deadline.IsZero() {
		t.Error("no deadline after the game resumed")
	}
}

func TestConcurrentClicksApplyOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice, bob)
	board := h.board(chTiny)
	move := mustComponent(t, board, "move 1")
	v := h.game(chTiny).Version
	var wg sync.WaitGroup
	results := make([]result, 8)
	for n := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[n] = h.click(alice, chTiny, board.ID, move)
		}()
	}
	wg.Wait()
	applied, stale := 0, 0
	for _, r := range results {
		switch {
		case r.callbackType() == discordgo.InteractionResponseDeferredMessageUpdate && !h.says(r.text(), "refuse.stale_click"):
			applied++
		case h.says(r.text(), "refuse.stale_click"):
			stale++
		}
	}
	if applied != 1 || stale != 7 {
		t.Errorf("applied %d, refused as stale %d; want 1 and 7", applied, stale)
	}
	if got := h.game(chTiny).Version; got != v+1 {
		t.Errorf("version %d, want %d", got, v+1)
	}
	// many games at once, each moving concurrently
	var chans []string
	for n := 0; n < 6; n++ {
		ch := fmt.Sprint(4000 + n)
		chans = append(chans, ch)
		openTinyTable(t, h, ch, alice, bob)
	}
	for _, ch := range chans {
		wg.Add(2)
		go func() { defer wg.Done(); h.command(alice, ch, cmdPlay, "", map[string]any{optAction: "2"}) }()
		go func() { defer wg.Done(); h.command(bob, ch, cmdPlay, "", map[string]any{optAction: "3"}) }()
	}
	wg.Wait()
	for _, ch := range chans {
		if g := h.game(ch); g.Version != 3 {
			t.Errorf("channel %s: version %d, want 3 (the computer's pick and both players', none lost)", ch, g.Version)
		}
	}
}

func TestDMAsksWhichGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, "5001", alice, bob)
	openTinyTable(t, h, "5002", bob, alice)
	answers := h.dm(alice, "2")
	if len(answers) != 1 || !h.says(answers[0].Text(), "dm.which") || len(answers[0].CustomIDs()) != 1 {
		t.Fatalf("DM answer: %+v", answers)
	}
	if strings.Contains(answers[0].CustomIDs()[0], "2") && strings.Contains(answers[0].CustomIDs()[0], "pick") {
		t.Error("the secret went into a custom_id")
	}
	second := h.game("5002")
	res := h.click(alice, "", answers[0].Message, answers[0].CustomIDs()[0], fmt.Sprint(second.ID))
	if !h.says(res.text(), "play.played", "Action", "pick 2") {
		t.Fatalf("after choosing the game: %s", res.text())
	}
	if h.game("5002").Version != second.Version+1 || h.game("5001").Version != 1 {
		t.Error("the DM went to the wrong game")
	}
	// game 1 still waits and game 2's choice is hidden and may change:
	// the next DM asks again
	answers = h.dm(alice, "1")
	if len(answers) != 1 || !h.says(answers[0].Text(), "dm.which") {
		t.Fatalf("second DM: %v", answers)
	}
	first := h.game("5001")
	if res := h.click(alice, "", answers[0].Message, answers[0].CustomIDs()[0], fmt.Sprint(first.ID)); !h.says(res.text(), "play.played", "Action", "pick 1") {
		t.Errorf("after choosing game 1: %s", res.text())
	}
	if h.game("5001").Version != first.Version+1 {
		t.Error("game 1 did not take the choice")
	}
	// no game at all: the DM says so
	if got := h.dm(dave, "1"); len(got) != 1 || !h.says(got[0].Text(), "dm.none_waiting") {
		t.Errorf("nothing waiting: %v", got[0].Text())
	}
}

func TestLobbyByCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	if res := h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optPlayers: 9}); !strings.Contains(res.text(), "2 to 4 players") {
		t.Errorf("9 players: %s", res.text())
	}
	if res := h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "speed=fast"}); !strings.Contains(res.text(), "no option \"speed\"") {
		t.Errorf("a bad option: %s", res.text())
	}
	if got := h.autocomplete(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rou"}, optOptions); len(got) != 2 {
		t.Errorf("option suggestions: %v", got)
	}
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optPlayers: 3, optDeadline: 6, optDefault: onDeadlinePause})
	if res := h.command(bob, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"}); !h.says(res.text(), "refuse.busy_channel") {
		t.Errorf("a second game in the channel: %s", res.text())
	}
	h.command(bob, chTiny, cmdLobby, subJoin, nil)
	if res := h.command(alice, chTiny, cmdLobby, subStart, nil); !strings.Contains(res.text(), "2 of its 3 seats") {
		t.Errorf("start with an open seat: %s", res.text())
	}
	h.command(bob, chTiny, cmdLobby, subAddAI, map[string]any{optName: "random"})
	if res := h.command(eve, chTiny, cmdLobby, subJoin, nil); !h.says(res.text(), "lobby.table_full", "Count", 3) {
		t.Errorf("joining a full table: %s", res.text())
	}
	h.command(bob, chTiny, cmdLobby, subDropAI, nil)
	h.command(carol, chTiny, cmdLobby, subJoin, nil)
	h.command(bob, chTiny, cmdLobby, subLeave, nil)
	h.command(dave, chTiny, cmdLobby, subJoin, nil)
	lobby, _ := h.fake.Message(h.game(chTiny).Messages[roleLobby])
	text := discordtest.MessageText(lobby)
	for _, want := range []string{"<@" + carol.ID + ">", "<@" + dave.ID + ">", "6 hours per decision, then the game pauses"} {
		if !strings.Contains(text, want) {
			t.Errorf("lobby message lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "<@"+bob.ID+">") {
		t.Error("bob left but is still listed")
	}
	if res := h.command(eve, chTiny, cmdLobby, subStart, nil); !h.says(res.text(), "lobby.start_who") {
		t.Errorf("a spectator starts: %s", res.text())
	}
	if res := h.command(dave, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderShuffle}); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
	lobby, _ = h.fake.Message(lobby.ID)
	if !h.says(lobby.Content, "lobby.started") || len(lobby.Components) != 0 {
		t.Errorf("the lobby message was not closed: %+v", lobby)
	}
	if d, _, on := gameDeadline(h.game(chTiny)); d != 6*time.Hour || on != onDeadlinePause {
		t.Errorf("per-game deadline: %v %s", d, on)
	}
	g := h.game(chTiny)
	if g.Timing.ReminderEvery != 90*time.Minute || g.Messages[roleLobby] == "" {
		t.Errorf("the lobby's settings are kept in Timing, only message ids in Messages: %+v %v", g.Timing, g.Messages)
	}
	for role := range g.Messages {
		if role != roleLobby && role != roleBoard && role != rolePhase && role != roleShown {
			t.Errorf("messages hold %q", role)
		}
	}
}

func TestUndoAbandonAndCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	// the computer picked after start: alice's undo refers to her own action only
	pickAll(t, h, chTiny, alice)
	if res := h.command(bob, chTiny, cmdGame, subLog, nil); !strings.Contains(res.text(), "P1 Alice: "+h.say("log.secret")) || strings.Contains(res.text(), "pick 1") {
		t.Errorf("the log before the reveal: %s", res.text())
	}
	if res := h.command(alice, chTiny, cmdGame, subUndo, nil); !h.says(res.text(), "undo.done", "Action", "pick 1") {
		t.Fatalf("undo: %s", res.text())
	}
	if res := h.command(bob, chTiny, cmdGame, subUndo, nil); !h.says(res.text(), "undo.not_yours") {
		t.Errorf("bob's undo: %s", res.text())
	}
	pickAll(t, h, chTiny, alice, bob) // the last pick reveals: no undo
	if res := h.command(bob, chTiny, cmdGame, subUndo, nil); !h.says(res.text(), "undo.revealed") {
		t.Errorf("undo after a reveal: %s", res.text())
	}
	// free action, log, scores, me, rules, board, stats, list
	if res := h.command(bob, chTiny, cmdFree, "", map[string]any{optAction: "cheer"}); !strings.Contains(res.text(), "`cheer`") {
		t.Errorf("free action: %s", res.text())
	}
	if got := h.autocomplete(bob, chTiny, cmdFree, "", map[string]any{optAction: ""}, optAction); len(got) != 1 || got[0] != "cheer" {
		t.Errorf("free autocomplete: %v", got)
	}
	checks := []struct {
		u         tester
		cmd, sub  string
		opts      map[string]any
		want      string
		isPrivate bool
	}{
		{alice, cmdGame, subLog, nil, "P1 Alice: `pick 1`", true},
		{alice, cmdGame, subScores, nil, "Scores", true},
		{alice, cmdGame, subMe, nil, "you are P1", true},
		{eve, cmdGame, subMe, nil, "You are watching", true},
		{alice, cmdGame, subRules, map[string]any{optTopic: "pick"}, "in secret", true},
		{alice, cmdGame, subRules, nil, "`picks`", true},
		{alice, cmdGame, subBoard, nil, "Waiting for", false},
		{alice, cmdGame, subStats, nil, "This server", true},
		{alice, cmdLobby, subList, nil, "Tiny Game #1", true},
		{bob, cmdAdmin, subSettings, map[string]any{optDeadline: 5}, "Manage Channels", true},
		{admin, cmdAdmin, subSettings, map[string]any{optDeadline: 5}, "5 hours per decision", true},
		{bob, cmdLobby, subJoin, nil, "already started", true},
	}
	for _, c := range checks {
		res := h.command(c.u, chTiny, c.cmd, c.sub, c.opts)
		if !strings.Contains(res.text(), c.want) || res.private() != c.isPrivate {
			t.Errorf("/%s %s by %s: private %v, %q; want %q", c.cmd, c.sub, c.u.Name, res.private(), res.text(), c.want)
		}
	}
	// abandon: not by bob (not the creator), by alice after confirming
	if res := h.command(bob, chTiny, cmdLobby, subAbandon, nil); !h.says(res.text(), "lobby.abandon_who_creator") {
		t.Errorf("bob abandons: %s", res.text())
	}
	res := h.command(alice, chTiny, cmdLobby, subAbandon, nil)
	confirm := res.Requests[0].CustomIDs()
	if len(confirm) != 1 || h.game(chTiny).Status != storage.StatusRunning {
		t.Fatalf("abandon should ask first: %s", res.text())
	}
	orig, _ := h.fake.Original(res.Token)
	mark := h.mark()
	h.click(alice, chTiny, orig, confirm[0])
	if _, err := h.store.Get(context.Background(), chTiny); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("not abandoned: %v", err)
	}
	if got := h.publicSince(mark); !h.says(got, "board.abandoned", "Name", "Alice") {
		t.Errorf("abandon announcement: %q", got)
	}
}

func TestDiscordErrorsAreSurvived(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice, bob)
	board := h.board(chTiny)

	// a 429 on the board edit: discordgo waits and retries, the board is updated
	h.fake.Fail(func(q discordtest.Request) bool { return q.Kind == discordtest.MessageEdit }, discordtest.RateLimited(20*time.Millisecond, 1))
	h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 2"))
	after := h.board(chTiny)
	if !strings.Contains(discordtest.MessageText(after), "P1 moves 2") {
		t.Errorf("board after a 429: %s", discordtest.MessageText(after))
	}
	// a 500 on the interaction answer: logged with the channel, state intact
	h.fake.Fail(func(q discordtest.Request) bool { return q.Kind == discordtest.Callback }, discordtest.Failure{Status: http.StatusInternalServerError, Message: "boom", Times: 1})
	g := h.game(chTiny)
	h.click(bob, chTiny, after.ID, mustComponent(t, after, "move 1"))
	if done, err := h.store.GetByID(context.Background(), g.ID); err != nil || done.Version != g.Version+2 || done.Status != storage.StatusFinished {
		t.Errorf("the action was lost when Discord failed to take the answer: %v", err)
	}
	if !strings.Contains(h.log(), "answering an interaction failed") || !strings.Contains(h.log(), "channel="+chTiny) {
		t.Errorf("the failure was not logged with the game's channel:\n%s", h.log())
	}
	if strings.Contains(h.log(), "fake-token") {
		t.Error("the token was logged")
	}
}

func TestUserMessages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err        error
		want       string
		unexpected bool
	}{
		{engine.Refuse(engine.ErrIllegalAction, "that space is taken"), "that space is taken", false},
		{fmt.Errorf("apply: %w", engine.Refuse(engine.ErrNotYourTurn, "wait for P2")), "wait for P2", false},
		{table.ErrStaleClick, refusalText(englishWords(t), table.ErrStaleClick), false},
		{&storage.VersionError{Channel: "1", Expected: storage.Guard{Game: 1, Revision: 1}, Actual: storage.Guard{Game: 1, Revision: 2}}, "moved on", false},
		{fmt.Errorf("x: %w", storage.ErrChannelBusy), "already has a game", false},
		{fmt.Errorf("x: %w", storage.ErrNotFound), "no game in this channel", false},
		{engine.ErrGameOver, "over", false},
		{errClosing, "restarting", false},
		{errors.New("disk on fire at /var/lib/meeple"), failureText, true},
	} {
		got, unexpected := userMessage(englishWords(t), c.err)
		if !strings.Contains(got, c.want) || unexpected != c.unexpected {
			t.Errorf("userMessage(%v) = %q, %v; want %q, %v", c.err, got, unexpected, c.want, c.unexpected)
		}
		if unexpected && strings.Contains(got, "/var/lib") {
			t.Error("an internal error leaked to the user")
		}
	}
}

// A command that answers once its work is done (a vote to end the game,
// here waiting for the game another action holds) is deferred privately
// when transport.AckBudget has passed on the bot's clock, not before, within
// Discord's window (the fake keeps it on the same clock), and its answer
// follows the deferral.
func TestSlowAnswersAreDeferredInTime(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	mark := h.mark()
	unlock := h.bot.timers.locks.Lock(chTiny) // another action is taking its time
	done := make(chan result)
	go func() { done <- h.command(alice, chTiny, cmdGame, subEnd, nil) }()
	callbacks := func() (out []discordtest.Request) {
		for _, q := range h.fake.Requests()[mark:] {
			if q.Kind == discordtest.Callback {
				out = append(out, q)
			}
		}
		return out
	}
	h.clock.WaitForTimer(transport.AckBudget) // the vote's automatic defer is set
	h.clock.Advance(transport.AckBudget - time.Millisecond)
	if cs := callbacks(); len(cs) != 0 {
		t.Fatalf("answered before the budget was spent: %+v", cs)
	}
	h.clock.Advance(time.Millisecond) // the defer goes out from Advance
	cs := callbacks()
	if len(cs) != 1 || cs[0].Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !cs[0].Ephemeral() || cs[0].Status >= 300 {
		t.Fatalf("at the budget: %+v", cs)
	}
	unlock()
	res := <-done
	if first := res.Requests[0]; first.Kind != discordtest.Callback || first.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("first answer: %+v", first)
	}
	// the vote is public: the private "thinking…" says it is done, and the
	// vote follows in public
	if !res.privatelySays(h, "reply.done") || !h.says(h.publicSince(mark), "vote.cast") {
		t.Errorf("the deferred answer was not completed: %s", res.text())
	}
	for _, q := range res.Requests {
		if q.Status >= 300 {
			t.Errorf("%s %s answered %d", q.Method, q.Path, q.Status)
		}
	}
}

func TestCloseFinishesWorkInFlightAndRefusesNew(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	unlock := h.bot.timers.locks.Lock(chTiny) // an action in flight holds the game
	done := make(chan result)
	go func() { done <- h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "3"}) }()
	for h.bot.inFlight.Load() == 0 { // the interaction has entered the bot: Close must wait for it
		runtime.Gosched()
	}
	closed := make(chan struct{})
	go func() { h.bot.Close(); close(closed) }()
	// Close waits on the gate the interaction holds: once a reader can no
	// longer enter, it is waiting there, and must not have returned
	for h.bot.gate.TryRLock() {
		h.bot.gate.RUnlock()
		select {
		case <-closed:
			t.Fatal("Close returned with an interaction in flight")
		default:
			runtime.Gosched()
		}
	}
	select {
	case <-closed:
		t.Fatal("Close returned with an interaction in flight")
	default:
	}
	unlock()
	if res := <-done; !h.says(res.text(), "play.played", "Action", "pick 3") {
		t.Errorf("the interaction in flight: %s", res.text())
	}
	<-closed
	if res := h.command(bob, chTiny, cmdPlay, "", map[string]any{optAction: "1"}); !h.says(res.text(), "refuse.closing") || !res.private() {
		t.Errorf("after Close: %s", res.text())
	}
	if g := h.game(chTiny); g.Version != 2 {
		t.Errorf("version %d after Close, want 2: the action in flight is kept, the later one refused", g.Version)
	}
}

// TestTheTickerRunsOnTheBotsClock: the deadline ticker waits on the bot's
// clock (Config.AfterFunc), so a deadline passes when that clock says so,
// with no real time waited for. The ticker sets its next timer only after
// a check is done, so a pending timer marks the end of each check.
func TestTheTickerRunsOnTheBotsClock(t *testing.T) {
	t.Parallel()
	const tick = time.Minute
	h := newHarness(t, tinyRegistry(), Config{OnDeadline: onDeadlinePause, Deadline: time.Hour, TickEvery: tick}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	h.bot.StartTicker()
	h.clock.WaitForTimer(tick)
	for range 59 {
		h.clock.Advance(tick)
		h.clock.WaitForTimer(tick)
	}
	if h.game(chTiny).Deadline.IsZero() {
		t.Fatal("the game paused before its deadline")
	}
	for range 2 {
		h.clock.Advance(tick)
		h.clock.WaitForTimer(tick)
	}
	h.bot.Wait()
	if g := h.game(chTiny); !g.Deadline.IsZero() || g.Version != 1 {
		t.Errorf("an hour and a minute on the bot's clock: deadline %v, version %d; want the game paused", g.Deadline, g.Version)
	}
}
