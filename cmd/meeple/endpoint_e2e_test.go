package main

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
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
	fake := discordtest.NewServer(discordtest.Options{})
	defer fake.Close()
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, ed25519.SeedSize))
	run := startEndpointOnly(t, fake, key)
	cmd, stderr, exited := run.cmd, run.stderr, run.exited
	endpoint, ops := logAddress(t, stderr, "serving the interactions endpoint"), logAddress(t, stderr, "serving metrics and health")
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

// startEndpointOnly starts "meeple run" without the gateway, with the
// interactions endpoint (checked with key) and metrics on, against fake.
func startEndpointOnly(t *testing.T, fake *discordtest.Server, key ed25519.PrivateKey) *meepleProcess {
	t.Helper()
	bin := buildMeeple(t)
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
	return startMeeple(t, []string{bin, "run", "-config", config}, nil, &lockedBuffer{})
}

// TestForgedBodiesCostBoundedMemory sends 300 forged bodies of 1 MiB at
// once to the interactions endpoint of the real binary: its resident
// memory at its peak stays under 150 MB, and it stays up.
func TestForgedBodiesCostBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 300 MiB to the endpoint")
	}
	fake := discordtest.NewServer(discordtest.Options{})
	defer fake.Close()
	forger := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{6}, ed25519.SeedSize))
	run := startEndpointOnly(t, fake, ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, ed25519.SeedSize)))
	endpoint := logAddress(t, run.stderr, "serving the interactions endpoint")
	body := bytes.Repeat([]byte("x"), 1<<20)
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	head := fmt.Sprintf("POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nX-Signature-Timestamp: %s\r\nX-Signature-Ed25519: %s\r\n\r\n",
		len(body), stamp, hex.EncodeToString(ed25519.Sign(forger, append([]byte(stamp), body...))))
	// every request sends all of its body but the last byte, and only
	// when all of them have (or were refused), the last bytes go: a
	// server that buffers every body holds all 300 at once
	const n = 300
	var sent, done sync.WaitGroup
	sent.Add(n)
	release := make(chan struct{})
	answers := make(chan string, n)
	for range n {
		done.Go(func() {
			conn, err := net.Dial("tcp", endpoint)
			if err != nil {
				sent.Done()
				t.Error(err)
				return
			}
			defer conn.Close()
			_, err = conn.Write(append([]byte(head), body[:len(body)-1]...))
			sent.Done()
			<-release
			if err == nil {
				_, _ = conn.Write(body[len(body)-1:]) // the answer read below tells what happened
			}
			line, _ := bufio.NewReader(conn).ReadString('\n')
			answers <- strings.TrimSpace(line)
		})
	}
	sent.Wait()
	close(release)
	done.Wait()
	close(answers)
	for a := range answers {
		if strings.Contains(a, " 200 ") {
			t.Errorf("a forged body was taken: %s", a)
		}
	}
	mem, ok := residentMB(run.cmd.Process.Pid)
	if !ok {
		t.Fatal("no resident memory in /proc")
	}
	t.Logf("resident memory at its peak: %.0f MB", mem.peak)
	if mem.peak >= 150 {
		t.Errorf("resident memory reached %.0f MB under forged bodies, want under 150 MB", mem.peak)
	}
	if code, _ := httpGet(t, "http://"+logAddress(t, run.stderr, "serving metrics and health")+"/healthz"); code != 200 {
		t.Errorf("/healthz after the flood: %d", code)
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
