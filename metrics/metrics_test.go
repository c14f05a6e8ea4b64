package metrics

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
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
	active, total := 2, 5
	if err := CountGames(reg, func() (int, int, error) { return active, total, nil }); err != nil {
		t.Fatal(err)
	}
	h := Handler(reg, func() error { return notReady })
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
	for _, want := range []string{`meeple_games_started_total{game="tiny"} 1`, `meeple_games{state="active"} 2`, `meeple_games{state="archived"} 3`} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
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

// TestTheDashboardAndAlertsNameServedMetrics reads the Grafana dashboard
// and the alert rules in deploy/ and checks that every meeple_ metric they
// query is one this package serves.
func TestTheDashboardAndAlertsNameServedMetrics(t *testing.T) {
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
	if err := CountGames(reg, func() (int, int, error) { return 0, 0, nil }); err != nil {
		t.Fatal(err)
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, f := range families {
		served[f.GetName()] = true
	}
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
			if !served[base] {
				t.Errorf("%s queries %s, which Meeple does not serve", file, n)
			}
		}
		if found == 0 {
			t.Errorf("%s names no metric", file)
		}
	}
}
