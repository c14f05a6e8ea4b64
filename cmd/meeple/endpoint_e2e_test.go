package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
)

// TestMeepleRunServesTheEndpointAndMetrics runs "meeple run" without the
// gateway, on the interactions endpoint alone, with metrics on: the fake
// checks the endpoint as the Developer Portal does and plays a few
// interactions through it; /healthz, /readyz and /metrics answer while
// the bot runs; SIGTERM stops it cleanly.
func TestMeepleRunServesTheEndpointAndMetrics(t *testing.T) {
	t.Parallel()
	bin := buildMeeple(t)
	fake := discordtest.NewServer(discordtest.Options{})
	defer fake.Close()
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, ed25519.SeedSize))
	dir := t.TempDir()
	config := filepath.Join(dir, "config.toml")
	text := fmt.Sprintf(`database = %q
log_level = "debug"
application_id = %q
[render]
images = false
[discord]
rest_base_url = %q
gateway = false
[http]
listen = "127.0.0.1:0"
public_key = %q
metrics = "127.0.0.1:0"
`, filepath.Join(dir, "meeple.db"), discordtest.BotID, fake.URL(), hex.EncodeToString(key.Public().(ed25519.PublicKey)))
	if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "-config", config)
	cmd.Env = append(os.Environ(), tokenEnv+"="+discordtest.Token)
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			_ = cmd.Process.Kill()
			<-exited
		}
	}()
	endpoint, ops := logAddress(t, &stderr, "serving the interactions endpoint"), logAddress(t, &stderr, "serving metrics and health")
	fake.SetInteractionsEndpoint("http://"+endpoint+"/interactions", key)
	if err := fake.CheckEndpoint(); err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) { t.Helper(); return httpGet(t, "http://"+ops+path) }
	if code, body := get("/healthz"); code != 200 {
		t.Errorf("/healthz: %d %s", code, body)
	}
	// ready once the commands are registered and the endpoint listens
	deadline := time.Now().Add(20 * time.Second)
	for code, _ := get("/readyz"); code != 200; code, _ = get("/readyz") {
		if time.Now().After(deadline) {
			t.Fatalf("/readyz never became ready: %d", code)
		}
		time.Sleep(20 * time.Millisecond)
	}
	const channel = "3001"
	play := player(t, fake, fake.PostInteraction)
	play(slash("101", channel, "lobby", "new", map[string]string{"game": "crystalpalace"}), "lobby")
	play(slash("102", channel, "lobby", "join", nil), "joined")
	play(slash("102", channel, "lobby", "start", nil), "has started")
	body := settledMetrics(t, "http://"+ops+"/metrics", 3, "meeple_interaction_seconds_count", `kind="command"`)
	for _, want := range []string{
		`meeple_interactions_total{kind="command",result="ok"} 3`,
		`meeple_endpoint_requests_total{result="interaction"} 3`,
		`meeple_endpoint_requests_total{result="ping"} 1`,
		`meeple_games_started_total{game="crystalpalace"} 1`,
		`meeple_games{game="crystalpalace",status="running"} 1`, `meeple_games{game="eightydays",status="lobby"} 0`,
		`go_goroutines`, `process_resident_memory_bytes`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		stopped = true
		if err != nil {
			t.Fatalf("meeple run exited with %v\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("meeple run did not stop after SIGTERM\n%s", stderr.String())
	}
	logs := stderr.String()
	if strings.Contains(logs, "level=ERROR") {
		t.Errorf("errors logged:\n%s", logs)
	}
	for _, v := range fake.Violations() {
		t.Errorf("Discord would refuse: %v", v)
	}
	if fake.Gateway().Identifies != 0 {
		t.Errorf("meeple connected to the gateway though [discord] gateway = false")
	}
}

// logAddress waits for the log line msg="what" address=… of a server
// meeple run started, and returns the address.
func logAddress(t *testing.T, log *lockedBuffer, what string) string {
	t.Helper()
	re := regexp.MustCompile(`msg="` + what + `" address=(\S+)`)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(log.String()); m != nil {
			return m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %q in the log:\n%s", what, log.String())
	return ""
}

// httpGet GETs url and returns the status and the body.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
