package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// builtMeeple is this command compiled once for the whole test binary:
// every test that runs the real program shares it.
var builtMeeple = sync.OnceValues(func() (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", errNoGoTool
	}
	bin := filepath.Join(binDir, "meeple")
	// built as a person builds it, with the version control stamp
	// (TestVersionOfBuiltBinaryMatchesItsBuildInfo reads it) and none of
	// the flags the test run may have been given
	build := exec.Command(goTool, "build", "-buildvcs=auto", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// binDir holds builtMeeple; TestMain makes it and removes it at the end.
var binDir string

var errNoGoTool = errors.New("no go tool in PATH to build meeple with")

// buildMeeple returns the compiled command, building it at the first call.
func buildMeeple(t testing.TB) string {
	t.Helper()
	bin, err := builtMeeple()
	if errors.Is(err, errNoGoTool) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// slash is a slash command as the gateway delivers it.
func slash(user, channel, name, sub string, opts map[string]string) map[string]any {
	var options []map[string]any
	for k, v := range opts {
		options = append(options, map[string]any{"name": k, "type": 3, "value": v})
	}
	data := map[string]any{"id": "1", "name": name, "type": 1, "options": options}
	if sub != "" {
		data["options"] = []map[string]any{{"name": sub, "type": 1, "options": options}}
	}
	return map[string]any{"type": 2, "guild_id": "7000", "channel_id": channel, "data": data,
		"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user}, "permissions": "0"}}
}

// player returns a function that delivers an interaction with send and
// fails the test unless its answer holds want.
func player(t *testing.T, fake *discordtest.Server, send func(map[string]any) (string, error)) func(raw map[string]any, want string) {
	return func(raw map[string]any, want string) {
		t.Helper()
		token, err := send(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := answer(t, fake, token); !strings.Contains(got, want) {
			t.Fatalf("answer %q lacks %q", got, want)
		}
	}
}

// answer waits for the bot's answer to the interaction with token and
// returns what the user reads in it.
func answer(t *testing.T, fake *discordtest.Server, token string) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		for _, q := range fake.Requests() {
			if q.Token == token && q.Kind == discordtest.Callback {
				return q.Text()
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no answer to %s", token)
	return ""
}

// TestMeepleRunAgainstTheFakeDiscord builds the binary, runs "meeple run"
// against the fake Discord named in its config, opens and starts a game
// over the gateway, stops it with SIGTERM and reads the database it left.
func TestMeepleRunAgainstTheFakeDiscord(t *testing.T) {
	t.Parallel() // it mostly waits on other processes
	runAgainstTheFakeDiscord(t, filepath.Join(t.TempDir(), "meeple.db"), nil)
}

// TestMeepleRunOnPostgres is the same on a PostgreSQL database named by
// MEEPLE_DATABASE_URL, which wins over the config's database file. The
// variable holds a key=value connection string with a password (which the
// test server, trusting local users, does not ask for): the password
// never reaches the output.
func TestMeepleRunOnPostgres(t *testing.T) {
	t.Parallel() // it mostly waits on other processes
	dsn := dsnForms(t, pg.Database(t))["key=value"]
	runAgainstTheFakeDiscord(t, dsn, []string{databaseEnv + "=" + dsn})
}

// runAgainstTheFakeDiscord runs the test above on database, with env
// added to meeple's environment.
func runAgainstTheFakeDiscord(t *testing.T, database string, env []string) {
	bin := buildMeeple(t)
	fake := discordtest.NewServer(discordtest.Options{})
	defer fake.Close()
	dir := t.TempDir()
	db := database
	if env != nil {
		db = filepath.Join(dir, "unused.db") // the environment wins
	}
	config := filepath.Join(dir, "config.toml")
	text := fmt.Sprintf("database = %q\nlog_level = \"debug\"\napplication_id = %q\n[render]\nimages = false\n[discord]\nrest_base_url = %q\ngateway_url = %q\n",
		db, discordtest.BotID, fake.URL(), fake.GatewayURL())
	if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "-config", config)
	cmd.Env = append(append(os.Environ(), tokenEnv+"="+discordtest.Token), env...)
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
	if _, err := fake.WaitConnected(60 * time.Second); err != nil {
		t.Fatalf("meeple never connected: %v\n%s", err, stderr.String())
	}

	const channel = "3001"
	play := player(t, fake, fake.SendInteraction)
	play(slash("101", channel, "lobby", "new", map[string]string{"game": "crystalpalace"}), "lobby")
	play(slash("102", channel, "lobby", "join", nil), "joined")
	play(slash("103", channel, "lobby", "join", nil), "joined")
	play(slash("102", channel, "lobby", "start", nil), "has started")
	// a DM from someone with no game waiting is answered in the DM
	if _, err := fake.SendDM("105", "6 5 3 1"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for !dmAnswered(fake, "105") {
		if time.Now().After(deadline) {
			t.Fatal("the DM got no answer")
		}
		time.Sleep(10 * time.Millisecond)
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
	for _, want := range []string{"connected to Discord", "shutting down"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, discordtest.Token) {
		t.Error("the token was logged")
	}
	if strings.Contains(logs+stdout.String(), marker) {
		t.Errorf("the database password was printed:\n%s", logs)
	}
	if strings.Contains(logs, "level=ERROR") {
		t.Errorf("errors logged:\n%s", logs)
	}
	for _, q := range fake.Requests() {
		if q.Status >= 400 {
			t.Errorf("Discord refused %s %s: %d %v", q.Method, q.Path, q.Status, q.Violations)
		}
	}
	if fake.Gateway().Identifies != 1 {
		t.Errorf("gateway: %+v", fake.Gateway())
	}

	// the database holds the running game with its three seats
	reg, err := buildRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	store, err := openStore(database, reg, readFile, boltdb.Options{}, io.Discard)
	if err != nil {
		t.Fatalf("the database after SIGTERM: %v", err)
	}
	defer store.Close()
	g, err := store.Get(context.Background(), channel)
	if err != nil {
		t.Fatal(err)
	}
	if g.Kind != "crystalpalace" || g.Status != storage.StatusRunning || len(g.Seats) != 3 {
		t.Errorf("game in the database: kind %s status %s seats %d", g.Kind, g.Status, len(g.Seats))
	}
	if _, err := os.Stat(db); env != nil && err == nil {
		t.Errorf("meeple created the config's database file %s though %s named another", db, databaseEnv)
	}
}

func dmAnswered(fake *discordtest.Server, user string) bool {
	for _, q := range fake.Requests() {
		if q.Kind == discordtest.DirectMessage && q.User == user && q.Status < 300 {
			return true
		}
	}
	return false
}
