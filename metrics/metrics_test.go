package metrics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
)

func newTest(t *testing.T) (*Metrics, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	m, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	return m, reg
}

func TestInstrumentsCountWhatTheyAreTold(t *testing.T) {
	m, _ := newTest(t)
	m.Interaction("command", "ok", 200*time.Millisecond, time.Second)
	m.Interaction("command", "closing", 0, time.Millisecond) // no answer went out
	m.REST("POST /channels/:id/messages", true, 200, "")
	m.REST("POST /channels/:id/messages", true, 429, "user")
	m.REST("PATCH /webhooks/:id/:token/messages/@original", false, 0, "")
	m.StoreWrite("commit", time.Millisecond, nil)
	m.StoreWrite("commit", time.Millisecond, errors.New("disk full"))
	m.Gateway(0, true)
	m.Gateway(0, false)
	m.Resumed(0)
	checks := []struct {
		name string
		got  float64
		want float64
	}{
		{"ok commands", testutil.ToFloat64(m.interactions.WithLabelValues("command", "ok")), 1},
		{"answers timed", float64(testutil.CollectAndCount(m.answer)), 1},
		{"bot-token 200s", testutil.ToFloat64(m.rest.WithLabelValues("POST /channels/:id/messages", "bot", "200")), 1},
		{"429s by scope", testutil.ToFloat64(m.rateLimited.WithLabelValues("POST /channels/:id/messages", "user")), 1},
		{"calls with no response", testutil.ToFloat64(m.rest.WithLabelValues("PATCH /webhooks/:id/:token/messages/@original", "interaction", "error")), 1},
		{"store errors", testutil.ToFloat64(m.storeErrors.WithLabelValues("commit")), 1},
		{"gateway up", testutil.ToFloat64(m.gatewayUp.WithLabelValues("0")), 0},
		{"disconnects", testutil.ToFloat64(m.disconnects.WithLabelValues("0")), 1},
		{"resumes", testutil.ToFloat64(m.resumes.WithLabelValues("0")), 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

func TestTheOperatorsEndpoints(t *testing.T) {
	m, reg := newTest(t)
	m.GameStarted("tiny")
	var notReady error
	counts := []GameCount{{"tiny", "running", 2}, {"tiny", "finished", 3}, {"other", "lobby", 1}}
	if err := CountGames(reg, []string{"tiny"}, []string{"lobby", "running", "finished"}, func() ([]GameCount, error) { return counts, nil }); err != nil {
		t.Fatal(err)
	}
	h := Handler(reg, func(context.Context) error { return notReady })
	if code, body := get(t, h, "/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, _ := get(t, h, "/readyz"); code != 200 {
		t.Errorf("/readyz when ready: %d", code)
	}
	notReady = errors.New("store: the database is open read-only")
	if code, body := get(t, h, "/readyz"); code != 503 || !strings.Contains(body, "read-only") {
		t.Errorf("/readyz when not ready: %d %q", code, body)
	}
	_, body := get(t, h, "/metrics")
	for _, want := range []string{`meeple_games_started_total{game="tiny"} 1`, `meeple_games{game="tiny",status="running"} 2`,
		`meeple_games{game="tiny",status="finished"} 3`, `meeple_games{game="tiny",status="lobby"} 0`, `meeple_games{game="other",status="lobby"} 1`} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(body, `game="other",status="running"`) {
		t.Error("/metrics reads 0 for a game it was not told of")
	}
	counts = nil
	if _, body := get(t, h, "/metrics"); !strings.Contains(body, `meeple_games{game="tiny",status="finished"} 0`) {
		t.Error("a count the store no longer has does not read 0")
	}
}

func TestTwoSetsOfInstrumentsNeedTwoRegistries(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := New(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := New(reg); err == nil {
		t.Error("registering the instruments twice in one registry succeeded")
	}
}

// served touches every instrument once and returns the metric families
// the registry then serves, Meeple's own, by name.
func served(t *testing.T) (map[string]*dto.MetricFamily, *prometheus.Registry) {
	t.Helper()
	m, reg := newTest(t)
	m.Interaction("command", "ok", time.Millisecond, time.Millisecond)
	m.REST("GET /gateway", true, 429, "global")
	m.PacerQueue(0)
	m.StoreWrite("commit", time.Millisecond, errors.New("x"))
	m.GameStarted("g")
	m.GameEnded("g", "finished")
	m.Rendered("board", time.Millisecond, 1)
	m.Gateway(0, false)
	m.Resumed(0)
	m.EndpointRequest("ping")
	if err := CountGames(reg, []string{"g"}, []string{"running"}, func() ([]GameCount, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, f := range families {
		out[f.GetName()] = f
	}
	if want := len(m.collectors()) + 2; len(out) != want { // + meeple_games, meeple_collector_up
		t.Fatalf("served %d metrics, want %d: touch every instrument in served()", len(out), want)
	}
	return out, reg
}

// TestTheDashboardAndAlertsNameServedMetrics reads the Grafana dashboard
// and the alert rules in deploy/ and checks that every meeple_ metric they
// query is one this package serves.
func TestTheDashboardAndAlertsNameServedMetrics(t *testing.T) {
	families, _ := served(t)
	name := regexp.MustCompile(`meeple_[a-z_]+`)
	for _, file := range []string{"../deploy/grafana/meeple.json", "../deploy/prometheus/meeple-alerts.yml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, n := range name.FindAllString(string(data), -1) {
			base := n
			for _, suffix := range []string{"_bucket", "_count", "_sum"} {
				base = strings.TrimSuffix(base, suffix)
			}
			found++
			if families[base] == nil {
				t.Errorf("%s queries %s, which Meeple does not serve", file, n)
			}
		}
		if found == 0 {
			t.Errorf("%s names no metric", file)
		}
	}
}

// TestTheDocsListEveryMetric reads the metrics table of
// docs/operations.md: every metric served has a row, every row names
// metrics served, and a row's labels column names exactly the labels of
// its metrics.
func TestTheDocsListEveryMetric(t *testing.T) {
	families, _ := served(t)
	data, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	code, aside := regexp.MustCompile("`([^`]+)`"), regexp.MustCompile(`\([^()]*\)`)
	documented := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `meeple_") {
			continue
		}
		cells := strings.Split(line, " | ")
		if len(cells) < 3 {
			t.Errorf("docs/operations.md: a metric row without a labels column: %s", line)
			continue
		}
		labels := map[string]bool{}
		for _, m := range code.FindAllStringSubmatch(cells[0], -1) {
			name := m[1]
			documented[name] = true
			f := families[name]
			if f == nil {
				t.Errorf("docs/operations.md lists %s, which Meeple does not serve", name)
				continue
			}
			for _, l := range f.GetMetric()[0].GetLabel() {
				labels[l.GetName()] = true
			}
		}
		listed := map[string]bool{} // the names outside the parentheses, which hold their values
		for _, m := range code.FindAllStringSubmatch(aside.ReplaceAllString(cells[1], ""), -1) {
			listed[m[1]] = true
		}
		if fmt.Sprint(slices.Sorted(maps.Keys(listed))) != fmt.Sprint(slices.Sorted(maps.Keys(labels))) {
			t.Errorf("docs/operations.md lists labels %v for %s, which has %v", slices.Sorted(maps.Keys(listed)), cells[0], slices.Sorted(maps.Keys(labels)))
		}
	}
	for name := range families {
		if !documented[name] {
			t.Errorf("Meeple serves %s, which docs/operations.md does not list", name)
		}
	}
}

// TestMetricsFollowPrometheusConventions runs Prometheus' own linter
// (counters end in _total, units in base units and in the name, help on
// every metric) and checks that every label is one whose values are few:
// no channel, guild, user or game id, which would make a series per
// community or player.
func TestMetricsFollowPrometheusConventions(t *testing.T) {
	families, reg := served(t)
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
	bounded := map[string]string{
		"kind":      "the interaction's type",
		"result":    "a fixed list per metric",
		"route":     "REST routes with every id and token replaced",
		"budget":    "bot or interaction",
		"collector": "the collectors that read when scraped",
		"status":    "HTTP status codes, or a game's four statuses",
		"scope":     "Discord's three 429 scopes",
		"op":        "the store's five writes",
		"game":      "the games this build plays",
		"image":     "the four images",
		"shard":     "the shards of one process",
	}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if _, ok := bounded[l.GetName()]; !ok {
					t.Errorf("%s has label %s, not one of the labels known to take few values", name, l.GetName())
				}
			}
		}
	}
}

// A collector that fails (the store is down) leaves its own metrics out
// of the scrape and says so in meeple_collector_up; every other metric is
// still served, with 200.
func TestAFailingCollectorLeavesTheRestServed(t *testing.T) {
	m, reg := newTest(t)
	m.GameStarted("tiny")
	down := errors.New("postgres: count games: connection refused")
	if err := CountGames(reg, []string{"tiny"}, []string{"running"}, func() ([]GameCount, error) { return nil, down }); err != nil {
		t.Fatal(err)
	}
	code, body := get(t, Handler(reg, func(context.Context) error { return nil }), "/metrics")
	if code != 200 || !strings.Contains(body, `meeple_games_started_total{game="tiny"} 1`) || !strings.Contains(body, `meeple_collector_up{collector="games"} 0`) {
		t.Fatalf("/metrics with the store down: %d\n%s", code, body)
	}
	if strings.Contains(body, "meeple_games{") {
		t.Error("/metrics serves game counts it could not read")
	}
}

// The counters' known series exist at 0 from the start, so that
// increase() sees their first errors.
func TestKnownSeriesStartAtZero(t *testing.T) {
	m, reg := newTest(t)
	m.Games([]string{"tiny"})
	m.Shards([]int{0, 1})
	_, body := get(t, Handler(reg, func(context.Context) error { return nil }), "/metrics")
	for _, want := range []string{
		`meeple_store_write_errors_total{op="commit"} 0`, `meeple_store_write_errors_total{op="update"} 0`,
		`meeple_interactions_total{kind="command",result="failed"} 0`, `meeple_interactions_total{kind="other",result="ok"} 0`,
		`meeple_endpoint_requests_total{result="forged"} 0`, `meeple_endpoint_requests_total{result="incomplete"} 0`,
		`meeple_games_started_total{game="tiny"} 0`, `meeple_games_ended_total{game="tiny",status="abandoned"} 0`,
		`meeple_gateway_disconnects_total{shard="1"} 0`, `meeple_gateway_resumes_total{shard="0"} 0`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics at the start lacks %s", want)
		}
	}
}
