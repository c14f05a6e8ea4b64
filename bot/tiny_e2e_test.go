package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

const chTiny = "3001"

// openTinyTable opens a lobby in ch, seats the users and a computer, and
// starts in join order.
func openTinyTable(t *testing.T, h *harness, ch string, users ...tester) {
	t.Helper()
	res := h.command(users[0], ch, cmdLobby, subNew, map[string]any{optGame: "tiny", optOptions: "rounds=1"})
	if res.private() || !strings.Contains(res.text(), "Tiny Game — lobby") {
		t.Fatalf("lobby: %s", res.text())
	}
	lobby := h.game(ch).Messages[roleLobby]
	if lobby == "" {
		t.Fatal("lobby message id not kept")
	}
	for _, u := range users[1:] {
		m, _ := h.fake.Message(lobby)
		res := h.click(u, ch, lobby, mustComponent(t, m, "Join"))
		if !res.updated() || !strings.Contains(res.text(), "<@"+u.ID+">") {
			t.Fatalf("join by %s: %s", u.Name, res.text())
		}
	}
	m, _ := h.fake.Message(lobby)
	h.click(users[0], ch, lobby, mustComponent(t, m, "Add computer"))
	m, _ = h.fake.Message(lobby)
	res = h.click(users[1], ch, lobby, mustComponent(t, m, "Start (join order)"))
	if !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
	if g := h.game(ch); g.Status != storage.StatusRunning || len(g.Seats) != len(users)+1 {
		t.Fatalf("after start: %+v", g)
	}
}

func TestTinyGameFromLobbyToScores(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	// carol wants secret prompts by DM; bob too, but his DMs are closed
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	h.command(bob, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM, optPings: false})
	h.fake.RefuseDMs(bob.ID)
	start := h.mark()
	openTinyTable(t, h, chTiny, alice, bob, carol)

	board := h.board(chTiny)
	secretBtn := mustComponent(t, board, "Choose secretly")
	public := h.publicSince(start)
	for _, want := range []string{"round 1 · picks", "<@" + bob.ID + ">, I could not send you a DM"} {
		if !strings.Contains(public, want) {
			t.Errorf("public messages lack %q:\n%s", want, public)
		}
	}
	// carol got her prompt by DM, with a select menu
	var carolDM []discordtest.Request
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.DirectMessage && q.User == carol.ID {
			carolDM = append(carolDM, q)
		}
	}
	if len(carolDM) != 1 || !strings.Contains(carolDM[0].Text(), "pick a number in secret") || len(carolDM[0].CustomIDs()) != 1 {
		t.Fatalf("carol's DM prompt: %+v", carolDM)
	}

	// a spectator cannot open the secret form
	if res := h.click(eve, chTiny, board.ID, secretBtn); !res.private() || !h.says(res.text(), "refuse.not_seated") {
		t.Errorf("spectator's click: %s", res.text())
	}
	// alice: the button opens a form; she submits "2"
	mark := h.mark()
	res := h.click(alice, chTiny, board.ID, secretBtn)
	if res.callbackType() != discordgo.InteractionResponseModal {
		t.Fatalf("secret button answered %v: %s", res.callbackType(), res.text())
	}
	res = h.submit(alice, chTiny, res.Requests[0].CustomID, "2")
	if !res.privatelySays(h, "play.played", "Action", "pick 2") {
		t.Fatalf("alice's pick: %s", res.text())
	}
	// carol answers her DM with free text, then changes her mind
	dms := h.dm(carol, " 1 ")
	if len(dms) != 1 || !strings.Contains(dms[0].Text(), "pick 1") {
		t.Fatalf("carol's DM answer: %+v", dms)
	}
	v := h.game(chTiny).Version
	dms = h.dm(carol, "3")
	if len(dms) != 1 || !strings.Contains(dms[0].Text(), "pick 3") || h.game(chTiny).Version != v+1 {
		t.Fatalf("carol's change by DM: %+v", dms)
	}
	// bob uses /play (private); autocomplete offers his picks
	if got := h.autocomplete(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pi"}, optAction); len(got) != 3 || got[0] != "pick 1" {
		t.Errorf("autocomplete: %v", got)
	}
	res = h.command(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pick 1"})
	// his answer is private; the new board his pick revealed follows it publicly
	if !res.privatelySays(h, "play.played", "Action", "pick 1") {
		t.Fatalf("bob's pick: %s", res.text())
	}
	public = h.publicSince(mark)
	for _, secret := range []string{"pick 2", "pick 3", "pick 1", "you picked"} {
		if strings.Contains(strings.Split(public, "picks: ")[0], secret) {
			t.Errorf("secret %q appeared in public before the reveal:\n%s", secret, public)
		}
	}
	if !strings.Contains(public, "picks: P1 2, P2 1, P3 3") {
		t.Errorf("no reveal in public:\n%s", public)
	}

	// moves: buttons on the new board
	board = h.board(chTiny)
	move := mustComponent(t, board, "move 2")
	if res := h.click(eve, chTiny, board.ID, move); !h.says(res.text(), "refuse.not_seated") || !res.private() {
		t.Errorf("spectator's move: %s", res.text())
	}
	if res := h.click(bob, chTiny, board.ID, move); !strings.Contains(res.text(), "it is not your turn to move") {
		t.Errorf("out-of-turn move got: %s", res.text())
	}
	if res := h.click(alice, chTiny, board.ID, move); res.callbackType() != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Fatalf("alice's move: %v %s", res.callbackType(), res.text())
	}
	// the same (now stale) button again: refused, nothing applied twice
	v = h.game(chTiny).Version
	if res := h.click(alice, chTiny, board.ID, move); !h.says(res.text(), "refuse.stale_click") {
		t.Errorf("stale click: %s", res.text())
	}
	if h.game(chTiny).Version != v {
		t.Error("a stale click changed the game")
	}
	board = h.board(chTiny)
	h.click(bob, chTiny, board.ID, mustComponent(t, board, "move 1"))
	board = h.board(chTiny)
	mark = h.mark()
	h.click(carol, chTiny, board.ID, mustComponent(t, board, "move 2"))
	// the computer moved last and the game ended (one round)
	if _, err := h.store.Get(context.Background(), chTiny); err == nil {
		t.Fatal("the game is still active after its last move")
	}
	final := h.publicSince(mark)
	if !h.says(final, "board.final", "Game", "Tiny Game") || !strings.Contains(final, "🏆") {
		t.Errorf("no final scores:\n%s", final)
	}
	// turn notices go out as the acting interaction's follow-ups (outside
	// the REST budget) and stay: nothing is posted to be deleted again
	sent := 0
	for _, q := range h.fake.Requests() {
		if strings.HasPrefix(strings.TrimSpace(q.Text()), "Your move") && (q.Kind == discordtest.ChannelSend || q.Kind == discordtest.Followup && !q.Ephemeral()) {
			sent++
		}
		if q.Kind == discordtest.MessageDelete {
			t.Errorf("a message was deleted: %s", q.Path)
		}
	}
	if sent < 3 {
		t.Errorf("%d turn notices sent", sent)
	}
	stats, err := h.store.Stats(context.Background(), alice.ID)
	if err != nil || len(stats) != 1 || stats[0].Played != 1 {
		t.Errorf("alice's stats: %+v %v", stats, err)
	}
	for _, secret := range []string{"pick 2", "pick 3", "pick 1"} {
		if strings.Contains(h.log(), secret) {
			t.Errorf("secret %q in the log:\n%s", secret, h.log())
		}
	}
}
