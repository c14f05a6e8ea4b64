package bot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/bot/interactions"
	"github.com/meeplegames/meeple/storage"
)

// endpointRun is an HTTP interactions endpoint serving the harness's bot,
// with the fake delivering interactions to it as Discord does.
type endpointRun struct {
	srv *httptest.Server
	ep  *interactions.Endpoint
}

// appKey is the application's key pair of the tests: the fake signs with
// the private half, the endpoint verifies with the public one.
var appKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{42}, ed25519.SeedSize))

// serveOverEndpoint serves h's bot (the current one, across restarts)
// on an interactions endpoint and points the fake's Interactions
// Endpoint URL at it, checked as the Developer Portal checks it.
func serveOverEndpoint(t *testing.T, h *harness) *endpointRun {
	t.Helper()
	return serveOverEndpointWith(t, h, nil)
}

// serveOverEndpointWith is serveOverEndpoint with the endpoint's options
// changed by tune first (when not nil).
func serveOverEndpointWith(t *testing.T, h *harness, tune func(*interactions.Options)) *endpointRun {
	t.Helper()
	o := interactions.Options{
		PublicKey: appKey.Public().(ed25519.PublicKey),
		Now:       h.clock.Now, // the fake signs with the harness's time
		// the bot's automatic defer runs on the harness's clock, which
		// stands still, so on a busy machine an answer may come after
		// Discord's 3 s; the acknowledgement's budget has tests of its own
		Wait: 30 * time.Second,
		Handler: func(ctx context.Context, i *discordgo.Interaction, a *interactions.Answer) {
			h.bot.HandleHTTPInteraction(ctx, i, a)
		},
	}
	if tune != nil {
		tune(&o)
	}
	ep, err := interactions.New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = ep.Server("")
	srv.Start()
	r := &endpointRun{srv: srv, ep: ep}
	t.Cleanup(func() {
		srv.Close()
		ep.Close()
	})
	h.fake.SetInteractionsEndpoint(srv.URL, appKey)
	if err := h.fake.CheckEndpoint(); err != nil {
		t.Fatal(err)
	}
	h.web = r
	return r
}

// interaction delivers raw to the endpoint and waits until the bot has
// finished with it (its follow-ups included).
func (r *endpointRun) interaction(h *harness, raw map[string]any) {
	h.t.Helper()
	if _, err := h.fake.PostInteraction(raw); err != nil {
		h.t.Fatal(err)
	}
	waitForHandlers(h.bot)
}

// checkInlineAnswers checks that the endpoint's replies carried the
// initial responses, and that only those with a file (which Discord
// takes only through the REST callback) went by REST.
func checkInlineAnswers(t *testing.T, h *harness) {
	t.Helper()
	inline, rest := 0, 0
	for _, q := range h.fake.Requests() {
		if q.Kind != discordtest.Callback {
			continue
		}
		if q.Path == discordtest.EndpointReply {
			inline++
			continue
		}
		rest++
		if len(q.Files) == 0 {
			t.Errorf("an initial response without a file went by REST (%s, type %d)", q.Path, q.Type)
		}
	}
	if inline == 0 {
		t.Fatal("no initial response went in the endpoint's reply")
	}
	t.Logf("initial responses: %d in the endpoint's reply, %d by REST (with an image)", inline, rest)
}

func TestCrystalPalaceThroughTheEndpoint(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a whole game")
	}
	h := newHarness(t, realRegistry(t), Config{Images: true, NoGateway: true}, realRenderer(t), plainText)
	serveOverEndpoint(t, h)
	playWholeGame(t, h, "8001", "crystalpalace", []tester{alice, bob, carol, dave})
	checkImages(t, h)
	checkInlineAnswers(t, h)
	prompts := 0
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.DirectMessage && h.says(q.Text(), "dm.prompt_menus") {
			prompts++
			if strings.Contains(q.Text(), "as text") {
				t.Fatalf("without the gateway a DM prompt asks for text nobody reads: %s", q.Text())
			}
		}
	}
	if prompts == 0 {
		t.Error("no secret prompt went by DM")
	}
}

func TestEightyDaysThroughTheEndpoint(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a whole game")
	}
	h := newHarness(t, realRegistry(t), Config{NoGateway: true}, nil, plainText)
	serveOverEndpoint(t, h)
	playWholeGame(t, h, "8002", "eightydays", []tester{alice, bob, carol, dave})
	checkInlineAnswers(t, h)
	checkRESTBudget(t, h, "eightydays")
}

// TestAnImageAnswerGoesThroughTheCallback asks for the board image through
// the endpoint: Discord takes no file in the endpoint's reply, so the
// answer with the image goes by REST (the callback, or an edit after a
// defer) and the reply is a 202 or the defer; the fake refuses anything
// else.
func TestAnImageAnswerGoesThroughTheCallback(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{Images: true, NoGateway: true}, realRenderer(t), plainText)
	serveOverEndpoint(t, h)
	const ch = "8003"
	h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: "crystalpalace"})
	h.command(bob, ch, cmdLobby, subJoin, nil)
	if res := h.command(alice, ch, cmdLobby, subStart, nil); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
	res := h.command(carol, ch, cmdGame, subBoard, nil)
	images := 0
	for _, q := range res.Requests {
		images += len(q.Files)
		if q.Path == discordtest.EndpointReply && len(q.Files) > 0 {
			t.Error("a file in the endpoint's reply")
		}
	}
	if images == 0 {
		t.Fatalf("/game board sent no image: %+v", res.Requests)
	}
}

// TestTheGatewayAndTheEndpointTogether runs the bot on the gateway (for
// DMs typed as text) while its interactions come through the endpoint.
func TestTheGatewayAndTheEndpointTogether(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	serveOverGateway(t, h)
	serveOverEndpoint(t, h)
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	openTinyTable(t, h, chTiny, alice, bob, carol)
	v := h.game(chTiny).Version
	h.bot.Wait() // carol's prompt is out before she answers it
	answered := false
	for _, q := range h.dm(carol, "1") {
		answered = answered || h.says(q.Text(), "play.played", "Action", "pick 1")
	}
	if !answered {
		t.Fatalf("carol's DM over the gateway got no answer")
	}
	res := h.command(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pick 2"})
	if !res.private() || !strings.Contains(res.text(), "pick 2") || res.Requests[0].Path != discordtest.EndpointReply {
		t.Fatalf("bob's pick through the endpoint: %s (%+v)", res.text(), res.Requests)
	}
	if got := h.game(chTiny).Version; got != v+2 {
		t.Errorf("version %d after two picks from %d", got, v)
	}
	if !h.bot.GatewayUp() {
		t.Error("GatewayUp is false while the gateway runs")
	}
}
