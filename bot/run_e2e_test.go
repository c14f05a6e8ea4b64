package bot

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

// These tests run the bot as "meeple run" does, through Bot.Run: it
// connects to the fake's gateway (found through GET /gateway), identifies,
// registers its commands, and takes interactions and DMs from the
// websocket; the harness's helpers then dispatch over the gateway instead
// of calling the handlers.

// gatewayRun is a Bot.Run serving the harness's bot.
type gatewayRun struct {
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
	err    error
	// peers are other bots on the same fake and store (other shards),
	// waited for like the harness's own.
	peers []*Bot
}

// serveOverGateway starts Bot.Run on h's bot and waits for its session.
func serveOverGateway(t *testing.T, h *harness) *gatewayRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &gatewayRun{cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- h.bot.Run(ctx) }()
	if _, err := h.fake.WaitConnected(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	// the commands are registered before Run serves
	waitUntil(t, "command registration", func() bool { return countKind(h.fake, discordtest.Commands) == 1 })
	h.run = r
	t.Cleanup(func() { _ = r.stop(t) })
	return r
}

// stop cancels Run's context, as SIGTERM does in "meeple run", and returns
// what Run returned.
func (r *gatewayRun) stop(t *testing.T) error {
	r.once.Do(func() {
		r.cancel()
		select {
		case r.err = <-r.done:
		case <-time.After(20 * time.Second):
			t.Error("Run did not return after its context was cancelled")
		}
	})
	return r.err
}

// interaction dispatches raw over the gateway and waits until the bot has
// answered it and finished with it.
func (r *gatewayRun) interaction(h *harness, raw map[string]any, token string) {
	h.t.Helper()
	if err := h.fake.Dispatch("INTERACTION_CREATE", raw); err != nil {
		h.t.Fatal(err)
	}
	waitUntil(h.t, "the answer to "+token, func() bool {
		for _, q := range h.fake.Requests() {
			if q.Token == token && q.Kind == discordtest.Callback {
				return true
			}
		}
		return false
	})
	waitForHandlers(h.bot)
	for _, p := range r.peers {
		waitForHandlers(p)
		p.Wait()
	}
}

// message dispatches a DM over the gateway and waits for the bot's reply
// to it (a DM request after mark).
func (r *gatewayRun) message(h *harness, m *discordgo.Message, mark int) {
	h.t.Helper()
	if err := h.fake.Dispatch("MESSAGE_CREATE", m); err != nil {
		h.t.Fatal(err)
	}
	waitUntil(h.t, "the reply to a DM", func() bool {
		for _, q := range h.fake.Requests()[mark:] {
			if q.Kind == discordtest.DirectMessage && q.User == m.Author.ID {
				return true
			}
		}
		return false
	})
	waitForHandlers(h.bot)
	for _, p := range r.peers {
		waitForHandlers(p)
	}
}

// waitForHandlers returns once no handler is running: each holds the gate
// shared until it is done, so taking it whole waits for them.
func waitForHandlers(b *Bot) {
	b.gate.Lock()
	defer b.gate.Unlock()
}

func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func countKind(fake *discordtest.Server, k discordtest.Kind) int {
	n := 0
	for _, q := range fake.Requests() {
		if q.Kind == k && q.Status < 300 {
			n++
		}
	}
	return n
}

// playTinyRound has alice pick by /play, bob by DM, and both move (the
// table's computer player acts by itself).
func playTinyRound(t *testing.T, h *harness) {
	t.Helper()
	if res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 2"}); !h.says(res.text(), "play.played", "Action", "pick 2") {
		t.Fatalf("alice's pick: %s", res.text())
	}
	if got := h.dm(bob, "3"); len(got) != 1 || !strings.Contains(got[0].Text(), "pick 3") {
		t.Fatalf("bob's DM pick: %+v", got)
	}
	id := h.game(chTiny).ID
	for _, u := range []tester{alice, bob} { // the computer moves last, by itself
		board := h.board(chTiny)
		before := h.game(chTiny).Version
		h.click(u, chTiny, board.ID, mustComponent(t, board, "move 1"))
		if g, err := h.store.GetByID(context.Background(), id); err != nil || g.Version <= before {
			t.Fatalf("%s's move was not applied: %v", u.Name, err)
		}
	}
}

func TestRunPlaysAGameOverTheGateway(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	run := serveOverGateway(t, h)
	if st := h.fake.Gateway(); st.Identifies != 1 || st.Intents&discordgo.IntentsDirectMessages == 0 {
		t.Errorf("identify: %+v (DMs need the DIRECT_MESSAGES intent)", st)
	}
	openTinyTable(t, h, chTiny, alice, bob)
	id := h.game(chTiny).ID
	playTinyRound(t, h)
	if g, err := h.store.GetByID(context.Background(), id); err != nil || g.Status != storage.StatusFinished {
		t.Errorf("game after its one round: %+v %v", g, err)
	}
	if err := run.stop(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	for _, q := range h.fake.Requests() {
		if q.Status >= 400 {
			t.Errorf("Discord refused %s %s: %d %v", q.Method, q.Path, q.Status, q.Violations)
		}
	}
}

func TestRunResumesAndLosesNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	serveOverGateway(t, h)
	openTinyTable(t, h, chTiny, alice, bob)

	// the connection drops; an interaction sent meanwhile waits in the
	// session and arrives when the bot resumes
	h.fake.DropConnection()
	if _, err := h.fake.WaitDisconnected(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	if res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 2"}); !h.says(res.text(), "play.played", "Action", "pick 2") {
		t.Fatalf("pick sent while disconnected: %s", res.text())
	}
	// Discord asks for a reconnect; a DM sent right after still arrives
	if err := h.fake.RequestReconnect(); err != nil {
		t.Fatal(err)
	}
	if got := h.dm(bob, "3"); len(got) != 1 || !strings.Contains(got[0].Text(), "pick 3") {
		t.Fatalf("DM around a reconnect: %+v", got)
	}
	st := h.fake.Gateway()
	if st.Identifies != 1 || st.Resumes != 2 {
		t.Errorf("want one identify and two resumes: %+v", st)
	}
	// each interaction was answered once: none lost, none replayed twice
	answers := map[string]int{}
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.Callback {
			answers[q.Token]++
		}
	}
	for tok, n := range answers {
		if n != 1 {
			t.Errorf("interaction %s answered %d times", tok, n)
		}
	}
	// the computer picked at the start
	if g := h.game(chTiny); g.Version != 3 || g.Log[1].Action != "pick 2" || g.Log[2].Action != "pick 3" {
		t.Errorf("actions after the drop: version %d log %+v", g.Version, g.Log)
	}

	// a session Discord invalidates: the bot identifies again and goes on
	if err := h.fake.InvalidateSession(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "a second identify", func() bool { return h.fake.Gateway().Identifies == 2 })
	board := h.board(chTiny)
	h.click(alice, chTiny, board.ID, mustComponent(t, board, "move 1"))
	if g := h.game(chTiny); g.Version != 4 {
		t.Errorf("move after a new session: version %d", g.Version)
	}
}

func TestRunStopFinishesWorkInFlight(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	run := serveOverGateway(t, h)
	openTinyTable(t, h, chTiny, alice, bob)

	// alice's pick is in flight: its answer is held at Discord's door
	caught, release := h.fake.Hold(func(q discordtest.Request) bool { return q.Kind == discordtest.Callback })
	defer release()
	raw := map[string]any{"type": 2, "guild_id": testGuild, "channel_id": chTiny, "member": alice.member(),
		"data": map[string]any{"id": "1", "name": cmdPlay, "type": 1, "options": optionList(map[string]any{optAction: "pick 2"}, false, "")}}
	token, err := h.fake.SendInteraction(raw)
	if err != nil {
		t.Fatal(err)
	}
	<-caught // the pick reached its answer
	stopped := make(chan error, 1)
	go func() { stopped <- run.stop(t) }()
	select {
	case err := <-stopped:
		t.Fatalf("Run returned with an answer in flight: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	release()
	if err := <-stopped; err != nil {
		t.Errorf("Run: %v", err)
	}
	// the pick was acknowledged (the held callback), then answered in
	// the acknowledgement's place
	var ack, answer *discordtest.Request
	for _, q := range h.fake.Requests() {
		switch {
		case q.Token == token && q.Kind == discordtest.Callback:
			ack = &q
		case q.Token == token && q.Kind == discordtest.OriginalEdit:
			answer = &q
		}
	}
	if ack == nil || ack.Status != http.StatusNoContent {
		t.Fatalf("the acknowledgement in flight: %+v", ack)
	}
	if answer == nil || answer.Status != http.StatusOK || !strings.Contains(answer.Text(), "pick 2") {
		t.Fatalf("the answer in flight: %+v", answer)
	}
	if g := h.game(chTiny); g.Version != 2 || g.Log[1].Action != "pick 2" { // after the computer's pick
		t.Errorf("the action in flight: version %d", g.Version)
	}
	if _, err := h.fake.WaitDisconnected(30 * time.Second); err != nil {
		t.Error("the gateway connection stayed open after Run returned")
	}
}

// The bot keeps none of what the gateway tells of guilds (discordgo's
// state): it never reads it, and at thousands of guilds their channels,
// roles and emojis would be megabytes.
func TestRunKeepsNoGuildState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	serveOverGateway(t, h)
	guild := map[string]any{"id": h.guildID(), "name": "a server", "owner_id": alice.ID,
		"channels": []map[string]any{{"id": chTiny, "type": 0, "name": "games", "guild_id": h.guildID()}},
		"roles":    []map[string]any{{"id": h.guildID(), "name": "@everyone", "permissions": "0"}}}
	if err := h.fake.Dispatch("GUILD_CREATE", guild); err != nil {
		t.Fatal(err)
	}
	// events are taken in order: once a later interaction is answered, the
	// guild has been seen
	openTinyTable(t, h, chTiny, alice, bob)
	s := h.bot.send.Session()
	s.State.RLock()
	defer s.State.RUnlock()
	if len(s.State.Guilds) != 0 {
		t.Errorf("the session's state holds %d guilds", len(s.State.Guilds))
	}
}
