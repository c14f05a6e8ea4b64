package bot

import (
	"context"
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/interactions"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/metrics"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/wording"
	"github.com/prometheus/client_golang/prometheus"
)

// stubPNG stands in for a board image: the metrics count its bytes.
var stubPNG = []byte("\x89PNG\r\n\x1a\n-a-board-")

type stubRenderer struct{}

func (stubRenderer) Board(any, *wording.Words) ([]byte, error)              { return stubPNG, nil }
func (stubRenderer) Glance(any, *wording.Words) ([]byte, error)             { return stubPNG, nil }
func (stubRenderer) Mat(any, *wording.Words) ([]byte, error)                { return stubPNG, nil }
func (stubRenderer) Scores(any, *wording.Words) ([]byte, error)             { return stubPNG, nil }
func (stubRenderer) Chart(imaging.Progress, *wording.Words) ([]byte, error) { return stubPNG, nil }

// value sums the registry's samples of a series written as /metrics shows
// it, with the labels to match: `meeple_games_started_total{game="tiny"}`.
// A histogram's name gives its sum, name_count its count.
func value(t *testing.T, reg *prometheus.Registry, series string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	name, labels, _ := strings.Cut(strings.TrimSuffix(series, "}"), "{")
	count := strings.HasSuffix(name, "_count")
	total := 0.0
	for _, f := range families {
		if f.GetName() != name && f.GetName()+"_count" != name {
			continue
		}
	samples:
		for _, m := range f.GetMetric() {
			for _, want := range strings.Split(labels, ",") {
				found := want == ""
				for _, l := range m.GetLabel() {
					found = found || want == l.GetName()+`="`+l.GetValue()+`"`
				}
				if !found {
					continue samples
				}
			}
			switch {
			case m.Counter != nil:
				total += m.GetCounter().GetValue()
			case m.Gauge != nil:
				total += m.GetGauge().GetValue()
			case m.Histogram != nil && count:
				total += float64(m.GetHistogram().GetSampleCount())
			case m.Histogram != nil:
				total += m.GetHistogram().GetSampleSum()
			}
		}
	}
	return total
}

// TestMetricsMoveOverAScriptedGame plays a tiny game through the
// endpoint with the metrics listening, and reads them back.
func TestMetricsMoveOverAScriptedGame(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, tinyRegistry(), Config{Images: true, NoGateway: true, Observer: m}, stubRenderer{}, nil)
	web := serveOverEndpoint(t, h)
	_ = web
	// the endpoint counts into the same metrics (as meeple run wires it)
	counted, err := interactions.New(interactions.Options{PublicKey: appKey.Public().(ed25519.PublicKey), Count: m.EndpointRequest, Now: h.clock.Now,
		Handler: func(ctx context.Context, i *discordgo.Interaction, a *interactions.Answer) {
			h.bot.HandleHTTPInteraction(ctx, i, a)
		}})
	if err != nil {
		t.Fatal(err)
	}
	web.srv.Config.Handler = counted
	if err := h.fake.CheckEndpoint(); err != nil {
		t.Fatal(err)
	}
	openTinyTable(t, h, chTiny, alice, bob, carol)
	who := seatUser(t, h.game(chTiny), []tester{alice, bob, carol})
	if res := h.command(eve, chTiny, cmdPlay, "", map[string]any{optAction: "pick 1"}); !h.says(res.text(), "refuse.not_seated") {
		t.Fatalf("a spectator's /play: %s", res.text())
	}
	moves := 0
	for ; moves < 50; moves++ {
		_, st, err := h.store.Load(context.Background(), chTiny)
		if err != nil {
			break // over
		}
		p := st.Prompts()[0]
		if res := h.command(who[p.Seat], chTiny, cmdPlay, "", map[string]any{optAction: p.Actions[0]}); !h.says(res.text(), "play.played") {
			t.Fatalf("/play %s: %s", p.Actions[0], res.text())
		}
	}
	h.bot.Wait()
	if _, err := h.store.Get(context.Background(), chTiny); err == nil {
		t.Fatal("the game did not end")
	}
	delivered := value(t, reg, `meeple_endpoint_requests_total{result="interaction"}`)
	checks := []struct {
		series   string
		min, max float64
	}{
		{`meeple_interactions_total`, delivered, delivered}, // every one handled, counted once
		{`meeple_interaction_answer_seconds_count`, delivered, delivered},
		{`meeple_interactions_total{kind="command",result="refused"}`, 1, 1},
		{`meeple_interactions_total{kind="command",result="ok"}`, float64(moves), float64(moves + 5)},
		{`meeple_interactions_total{kind="component",result="ok"}`, 4, 4}, // two joins, a computer, the start
		{`meeple_games_started_total{game="tiny"}`, 1, 1},
		{`meeple_games_ended_total{game="tiny",status="finished"}`, 1, 1},
		{`meeple_store_write_seconds_count{op="commit"}`, float64(moves + 1), 1000},
		{`meeple_store_write_errors_total{op="commit"}`, 0, 0},
		{`meeple_render_bytes_count`, 1, 1000}, // boards and glances
		// the new boards after the phases go out as the acting interaction's follow-ups
		{`meeple_discord_requests_total{route="POST /webhooks/:id/:token",budget="interaction",status="200"}`, 1, 1000},
		{`meeple_endpoint_requests_total{result="ping"}`, 1, 1},
		{`meeple_endpoint_requests_total{result="forged"}`, 1, 1},
		{`meeple_pacer_waiting_requests`, 0, 0},
	}
	for _, c := range checks {
		if got := value(t, reg, c.series); got < c.min || got > c.max {
			t.Errorf("%s = %v, want %v to %v", c.series, got, c.min, c.max)
		}
	}
	if n, images := value(t, reg, `meeple_render_bytes`), value(t, reg, `meeple_render_bytes_count`); n != images*float64(len(stubPNG)) {
		t.Errorf("%v bytes for %v images of %d", n, images, len(stubPNG))
	}
}

// TestReadiness: the store probe fails on a read-only store, and the
// gateway counts as down before Run and after a dropped connection.
func TestReadiness(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, tinyRegistry(), Config{Observer: m}, nil, nil)
	if err := h.bot.StoreWritable(context.Background()); err != nil {
		t.Fatalf("a writable store: %v", err)
	}
	if h.bot.GatewayUp() {
		t.Error("the gateway is up before Run")
	}
	run := serveOverGateway(t, h)
	waitUntil(t, "the gateway up", h.bot.GatewayUp)
	if up := value(t, reg, `meeple_gateway_up{shard="0"}`); up != 1 {
		t.Errorf("meeple_gateway_up %v while connected", up)
	}
	// a dropped connection: the shard goes down, resumes and is up again
	h.fake.DropConnection()
	waitUntil(t, "a resume", func() bool { return value(t, reg, `meeple_gateway_resumes_total{shard="0"}`) == 1 })
	waitUntil(t, "the gateway up again", h.bot.GatewayUp)
	if n := value(t, reg, `meeple_gateway_disconnects_total{shard="0"}`); n != 1 {
		t.Errorf("%v disconnects counted, want 1", n)
	}
	_ = run.stop(t)
	if h.bot.GatewayUp() {
		t.Error("the gateway is up after Run returned")
	}
	// the same file, read-only
	h.close()
	ro, err := boltdb.Open(h.path, h.reg, boltdb.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	b, err := New(Parts{Session: h.fake.NewSession(), Store: ro, Games: h.reg}, Config{Observer: m})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.StoreWritable(context.Background()); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("a read-only store: %v, want ErrReadOnly", err)
	}
}

// A player's refusal ("already seated", "not seated") is not a store
// write error: meeple_store_write_errors_total, which a critical alert
// watches, stays at 0.
func TestARefusalIsNotAStoreWriteError(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, tinyRegistry(), Config{Observer: m}, nil, nil)
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"})
	for _, c := range []struct {
		who  tester
		sub  string
		want string
	}{{alice, subJoin, "already"}, {bob, subLeave, "not"}} {
		if res := h.command(c.who, chTiny, cmdLobby, c.sub, nil); !res.private() || !strings.Contains(res.text(), c.want) {
			t.Fatalf("/lobby %s: %s", c.sub, res.text())
		}
	}
	h.bot.Wait()
	if n := value(t, reg, `meeple_store_write_seconds_count{op="update"}`); n < 2 {
		t.Fatalf("%v updates timed; want the two refused", n)
	}
	if n := value(t, reg, `meeple_store_write_errors_total`); n != 0 {
		t.Errorf("%v store write errors counted for two refusals", n)
	}
}

// fullStore is a store whose own write probe fails, as a bbolt store's
// does on a full disk, while a transaction that writes nothing passes.
type fullStore struct{ Store }

func (fullStore) Writable() error {
	return errors.New("no room for 1048576 bytes beside the file: no space left on device")
}

// The readiness probe asks the store's own write probe when it has one:
// a store that cannot write (a full disk) is not ready.
func TestReadinessAsksTheStoresWriteProbe(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	if err := h.bot.StoreWritable(context.Background()); err != nil {
		t.Fatalf("the bbolt store with room: %v", err)
	}
	b, err := New(Parts{Session: h.fake.NewSession(), Store: fullStore{h.store}, Games: h.reg}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.StoreWritable(context.Background()); err == nil || !strings.Contains(err.Error(), "no space") {
		t.Errorf("a store on a full disk: %v, want its probe's failure", err)
	}
}
