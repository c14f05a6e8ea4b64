package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
)

// series sums the samples of metric name in a /metrics body whose labels
// include every one of labels (written as the text format writes them:
// kind="command").
func series(body, name string, labels ...string) (sum float64, found bool) {
	for _, line := range strings.Split(body, "\n") {
		cut := strings.LastIndexByte(line, ' ') // label values may hold spaces
		if cut < 0 || strings.HasPrefix(line, "#") {
			continue
		}
		sample, value := line[:cut], line[cut+1:]
		metric, rest, _ := strings.Cut(sample, "{")
		have := "," + strings.TrimSuffix(rest, "}") + "," // ,kind="command",result="ok",
		if metric != name || slices.ContainsFunc(labels, func(l string) bool { return !strings.Contains(have, ","+l+",") }) {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		sum, found = sum+v, true
	}
	return sum, found
}

// settledMetrics scrapes url (a /metrics) until the sample of name with
// labels reads want, and returns that scrape: an interaction is counted
// once its handling ends, which is after its answer reached Discord
// (meeple_interaction_seconds is the last of its metrics to move).
func settledMetrics(t *testing.T, url string, want float64, name string, labels ...string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		code, body := httpGet(t, url)
		if got, _ := series(body, name, labels...); code == 200 && got == want {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s%v never read %v:\n%s", name, labels, want, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMeepleRunReportsReadinessAndMetrics runs "meeple run" on the
// gateway with metrics on: /healthz and /readyz answer while it runs, the
// metrics move over a short scripted game, and when the gateway goes down
// /readyz says not ready (with why) until the bot has resumed its session.
func TestMeepleRunReportsReadinessAndMetrics(t *testing.T) {
	t.Parallel() // it mostly waits on another process
	fake := discordtest.NewServer(discordtest.Options{})
	defer fake.Close()
	dir := t.TempDir()
	config := filepath.Join(dir, "config.toml")
	text := fmt.Sprintf(`database = %q
log_level = "debug"
application_id = %q
[render]
images = false
[discord]
rest_base_url = %q
gateway_url = %q
[http]
metrics = "127.0.0.1:0"
`, filepath.Join(dir, "meeple.db"), discordtest.BotID, fake.URL(), fake.GatewayURL())
	if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	p := startMeeple(t, []string{buildMeeple(t), "run", "-config", config}, nil, &logs)
	ops := "http://" + logAddress(t, &logs, "serving metrics and health")
	readyz := func(want int) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			code, body := httpGet(t, ops+"/readyz")
			if code == want {
				return body
			}
			if time.Now().After(deadline) {
				t.Fatalf("/readyz stayed %d %q, want %d\n%s", code, body, want, logs.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	scrape := func() string {
		t.Helper()
		code, body := httpGet(t, ops+"/metrics")
		if code != 200 {
			t.Fatalf("/metrics: %d", code)
		}
		return body
	}
	check := func(body, what string, want float64, name string, labels ...string) {
		t.Helper()
		if got, found := series(body, name, labels...); !found || got != want {
			t.Errorf("%s: %s%v = %v (found %v), want %v", what, name, labels, got, found, want)
		}
	}

	if code, body := httpGet(t, ops+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	readyz(200)
	body := scrape()
	check(body, "connected", 1, "meeple_gateway_up", `shard="0"`)
	check(body, "before any game", 0, "meeple_games", `game="crystalpalace"`)

	play := func(raw map[string]any, want string) {
		t.Helper()
		token, err := fake.SendInteraction(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := answer(t, fake, token); !strings.Contains(got, want) {
			t.Fatalf("answer %q lacks %q", got, want)
		}
	}
	play(slash("101", "3001", "lobby", "new", map[string]string{"game": "crystalpalace"}), "lobby")
	play(slash("102", "3001", "lobby", "join", nil), "joined")
	play(slash("103", "3001", "lobby", "join", nil), "joined")
	play(slash("102", "3001", "lobby", "start", nil), "has started")
	play(slash("104", "3002", "lobby", "new", map[string]string{"game": "eightydays"}), "lobby")
	body = settledMetrics(t, ops+"/metrics", 5, "meeple_interaction_seconds_count", `kind="command"`) // observed last
	check(body, "after the game", 5, "meeple_interactions_total", `kind="command"`, `result="ok"`)
	check(body, "after the game", 5, "meeple_interaction_answer_seconds_count", `kind="command"`)
	check(body, "after the game", 1, "meeple_games_started_total", `game="crystalpalace"`)
	check(body, "after the game", 1, "meeple_games", `game="crystalpalace"`, `status="running"`)
	check(body, "after the game", 0, "meeple_games", `game="crystalpalace"`, `status="lobby"`)
	check(body, "after the game", 1, "meeple_games", `game="eightydays"`, `status="lobby"`)
	check(body, "after the game", 2, "meeple_store_write_seconds_count", `op="create"`)
	if n, _ := series(body, "meeple_store_write_errors_total"); n != 0 {
		t.Errorf("%v failed store writes", n)
	}
	if n, _ := series(body, "meeple_discord_requests_total", `budget="interaction"`); n < 5 {
		t.Errorf("%v interaction calls counted, want at least the 5 answers", n)
	}
	if n, _ := series(body, "meeple_discord_requests_total", `budget="bot"`); n < 1 {
		t.Errorf("no bot-token call counted (the commands' registration is one)")
	}
	route := regexp.MustCompile(`route="([^"]*)"`)
	for _, m := range route.FindAllStringSubmatch(body, -1) {
		if strings.ContainsAny(m[1], "0123456789") {
			t.Errorf("a route label holds an id or a token: %s", m[1])
		}
	}

	fake.SetGatewayDown(true)
	if why := readyz(503); !strings.Contains(why, "neither the gateway nor the interactions endpoint is up") {
		t.Errorf("/readyz with the gateway down says %q", why)
	}
	if code, _ := httpGet(t, ops+"/healthz"); code != 200 {
		t.Errorf("/healthz with the gateway down: %d", code)
	}
	body = scrape()
	check(body, "gateway down", 0, "meeple_gateway_up", `shard="0"`)
	check(body, "gateway down", 1, "meeple_gateway_disconnects_total", `shard="0"`)

	fake.SetGatewayDown(false)
	readyz(200)
	body = scrape()
	check(body, "gateway back", 1, "meeple_gateway_up", `shard="0"`)
	check(body, "gateway back", 1, "meeple_gateway_resumes_total", `shard="0"`)
	play(slash("105", "3002", "lobby", "join", nil), "joined")
	body = settledMetrics(t, ops+"/metrics", 6, "meeple_interaction_seconds_count", `kind="command"`)
	check(body, "after the resume", 6, "meeple_interactions_total", `kind="command"`, `result="ok"`)
	if gw := fake.Gateway(); gw.Identifies != 1 || gw.Resumes != 1 {
		t.Errorf("the bot identified %d times and resumed %d, want 1 and 1", gw.Identifies, gw.Resumes)
	}

	p.stop(t)
	for _, v := range fake.Violations() {
		t.Errorf("Discord would refuse: %v", v)
	}
}
