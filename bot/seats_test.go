package bot

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

// commandNaming runs a command whose user options name the given users,
// with the user and member data Discord sends along (resolved).
func (h *harness) commandNaming(u tester, channel, name, sub string, opts map[string]any, named ...tester) result {
	h.t.Helper()
	options := optionList(opts, false, "")
	for _, o := range options {
		if o["name"] == optUser {
			o["type"] = 6
		}
	}
	users, members := map[string]any{}, map[string]any{}
	for _, n := range named {
		users[n.ID] = map[string]any{"id": n.ID, "username": strings.ToLower(n.Name), "global_name": n.Name}
		members[n.ID] = map[string]any{"nick": n.Name, "permissions": "0"}
	}
	return h.send(map[string]any{
		"type": 2, "guild_id": testGuild, "channel_id": channel, "member": u.member(),
		"data": map[string]any{"id": "1", "name": name, "type": 1,
			"options":  []map[string]any{{"name": sub, "type": 1, "options": options}},
			"resolved": map[string]any{"users": users, "members": members}},
	})
}

func TestNudgeOncePerHourMentionsEvenWithoutPings(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(bob, chTiny, cmdGame, subPrefs, map[string]any{optPings: false})
	openTinyTable(t, h, chTiny, alice, bob)
	pickAll(t, h, chTiny, alice) // only bob is awaited now
	if res := h.command(eve, chTiny, cmdGame, subNudge, nil); !res.private() || !h.says(res.text(), "refuse.not_seated") {
		t.Errorf("a spectator's nudge: %s", res.text())
	}
	if res := h.command(bob, chTiny, cmdGame, subNudge, nil); !res.private() || !h.says(res.text(), "nudge.only_you") {
		t.Errorf("bob nudging himself: %s", res.text())
	}
	res := h.command(alice, chTiny, cmdGame, subNudge, nil)
	if res.private() || !strings.Contains(res.text(), "<@"+alice.ID+"> nudges <@"+bob.ID+"> (pick a number in secret)") {
		t.Fatalf("alice's nudge: %s", res.text())
	}
	if got := notified(t, res.Requests[0]); !slices.Equal(got, []string{bob.ID}) {
		t.Errorf("the nudge notifies %v, want bob although he turned pings off", got)
	}
	h.clock.Advance(nudgeEvery - time.Minute)
	if res := h.command(carol, chTiny, cmdGame, subNudge, nil); !res.private() {
		t.Errorf("carol is not seated but nudged: %s", res.text())
	}
	if res := h.command(alice, chTiny, cmdGame, subNudge, nil); !res.private() || !h.says(res.text(), "nudge.too_soon") {
		t.Errorf("a second nudge within the hour: %s", res.text())
	}
	h.restart() // the last nudge's time is kept with the game
	if res := h.command(alice, chTiny, cmdGame, subNudge, nil); !res.private() {
		t.Errorf("a nudge within the hour after a restart went out: %s", res.text())
	}
	h.clock.Advance(time.Minute)
	if res := h.command(alice, chTiny, cmdGame, subNudge, nil); res.private() {
		t.Errorf("a nudge an hour later: %s", res.text())
	}
}

func TestReplaceInASecretPhaseKeepsTheSecretWithTheSeat(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 3"})
	mark := h.mark()
	// bob may not hand over alice's seat; alice may hand over her own
	if res := h.command(bob, chTiny, cmdGame, subReplace, map[string]any{optSeat: 1, optUser: dave.ID}); !res.private() || !h.says(res.text(), "seats.replace_who") {
		t.Fatalf("bob replacing alice: %s", res.text())
	}
	if res := h.command(alice, chTiny, cmdGame, subReplace, map[string]any{optSeat: 9, optUser: dave.ID}); !res.private() || !strings.Contains(res.text(), "seats P1 to P3") {
		t.Fatalf("a seat the game lacks: %s", res.text())
	}
	if res := h.command(alice, chTiny, cmdGame, subReplace, map[string]any{optSeat: 1, optUser: bob.ID}); !res.private() || !h.says(res.text(), "seats.already_plays") {
		t.Fatalf("handing a seat to a seated player: %s", res.text())
	}
	res := h.commandNaming(alice, chTiny, cmdGame, subReplace, map[string]any{optSeat: 1, optUser: dave.ID}, dave)
	if res.private() || !strings.Contains(res.text(), "Seat P1 of game") || !strings.Contains(res.text(), "from <@"+alice.ID+"> to <@"+dave.ID+">") {
		t.Fatalf("the hand-over: %s", res.text())
	}
	g := h.game(chTiny)
	if g.Seats[0].User != dave.ID || g.Seats[0].Name != dave.Name || len(g.Handovers) != 1 || g.Handovers[0].From.User != alice.ID || g.Handovers[0].By != alice.ID || g.Handovers[0].Resigned {
		t.Fatalf("after the hand-over: seats %+v handovers %+v", g.Seats, g.Handovers)
	}
	// the seat's secret stays with the seat: dave holds it (and may change
	// it), alice no longer does
	if res := h.command(alice, chTiny, cmdGame, subMe, nil); !h.says(res.text(), "me.watching") {
		t.Errorf("alice's view after handing over: %s", res.text())
	}
	if res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 1"}); !h.says(res.text(), "refuse.not_seated") {
		t.Errorf("alice acting after handing over: %s", res.text())
	}
	if res := h.command(dave, chTiny, cmdGame, subMe, nil); !strings.Contains(res.text(), "you are P1") {
		t.Errorf("dave's view: %s", res.text())
	}
	if res := h.command(dave, chTiny, cmdPlay, "", map[string]any{optAction: "pick 2"}); !h.says(res.text(), "play.played", "Action", "pick 2") {
		t.Errorf("dave changing the seat's pick: %s", res.text())
	}
	// the log names who held the seat at each action, and the hand-over
	logText := h.command(bob, chTiny, cmdGame, subLog, nil).text()
	for _, want := range []string{"P1 Alice: (a secret choice, changed before the reveal)", "P1 passed from Alice to Dave", "P1 Dave: (a secret choice)"} {
		if !strings.Contains(logText, want) {
			t.Errorf("the log lacks %q:\n%s", want, logText)
		}
	}
	if strings.Index(logText, "passed from") > strings.Index(logText, "P1 Dave") {
		t.Errorf("the hand-over is out of order:\n%s", logText)
	}
	if got := h.publicSince(mark); regexp.MustCompile(`pick [0-9]`).MatchString(got) {
		t.Errorf("a pick leaked during the hand-over:\n%s", got)
	}
	if strings.Contains(h.log(), "pick 3") {
		t.Errorf("the secret pick reached the log:\n%s", h.log())
	}
	// the log of the game records the hand-over through the handovers; a
	// restart keeps it
	h.restart()
	if g := h.game(chTiny); len(g.Handovers) != 1 || g.Seats[0].User != dave.ID {
		t.Fatalf("after a restart: %+v", g.Handovers)
	}
	mark = h.mark()
	pickAll(t, h, chTiny, bob)
	if got := h.publicSince(mark); !strings.Contains(got, "picks: P1 2, P2 1") {
		t.Errorf("the reveal: %s", got)
	}
}

func TestResignLetsAComputerTakeOverOrEndsTheGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 3"})
	v := h.game(chTiny).Version
	if res := h.command(eve, chTiny, cmdGame, subResign, nil); !res.private() || !h.says(res.text(), "refuse.not_seated") {
		t.Errorf("a spectator resigning: %s", res.text())
	}
	mark := h.mark()
	res := h.command(bob, chTiny, cmdGame, subResign, nil)
	if res.private() || !h.says(res.text(), "seats.resigned", "User", bob.ID, "Seat", 2) {
		t.Fatalf("bob's resignation: %s", res.text())
	}
	g := h.game(chTiny)
	if g.Seats[1].Computer == "" || len(g.Handovers) != 1 || !g.Handovers[0].Resigned || g.Handovers[0].From.User != bob.ID {
		t.Fatalf("after bob resigned: seats %+v handovers %+v", g.Seats, g.Handovers)
	}
	if g.Version != v+1 {
		t.Errorf("the computer did not pick for bob's seat: version %d, want %d", g.Version, v+1)
	}
	if got := h.publicSince(mark); !strings.Contains(got, "moves begin") && !strings.Contains(discordtest.MessageText(h.board(chTiny)), "moves") {
		t.Errorf("the game did not go on after the resignation:\n%s", got)
	}
	if res := h.command(bob, chTiny, cmdGame, subResign, nil); !h.says(res.text(), "refuse.not_seated") {
		t.Errorf("resigning twice: %s", res.text())
	}
	// alice, the last person at the table, resigns: the game is abandoned
	res = h.command(alice, chTiny, cmdGame, subResign, nil)
	if !res.private() || !h.says(res.text(), "seats.resigned_alone") {
		t.Fatalf("the last resignation: %s", res.text())
	}
	if _, err := h.store.Get(context.Background(), chTiny); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the game is still active: %v", err)
	}
	archived, err := h.store.GetByID(context.Background(), g.ID)
	if err != nil || archived.Status != storage.StatusAbandoned || len(archived.Handovers) != 2 {
		t.Fatalf("archived game: %+v, %v", archived, err)
	}
}

// A seat handed over while its secret choice is open is prompted where its
// new holder takes secret choices: by DM for a holder who chose DMs, even
// though the seat's earlier holder was sent the round's prompt already.
func TestReplaceInASecretPhasePromptsTheNewHolderByDM(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	h.command(dave, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=2"})
	h.command(carol, chTiny, cmdLobby, subJoin, nil)
	h.command(alice, chTiny, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	dmsTo := func(u tester) int {
		h.bot.Wait()
		n := 0
		for _, q := range h.fake.Requests() {
			if q.Kind == discordtest.DirectMessage && q.User == u.ID && len(q.CustomIDs()) == 1 {
				n++
			}
		}
		return n
	}
	if dmsTo(carol) != 1 {
		t.Fatalf("carol was sent %d secret prompts, want 1", dmsTo(carol))
	}
	res := h.commandNaming(carol, chTiny, cmdGame, subReplace, map[string]any{optSeat: 2, optUser: dave.ID}, dave)
	if res.private() {
		t.Fatalf("the hand-over: %s", res.text())
	}
	if got := dmsTo(dave); got != 1 {
		t.Errorf("dave, taking carol's seat before the reveal, was sent %d secret prompts by DM, want 1", got)
	}
}
