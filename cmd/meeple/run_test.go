package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage/boltdb"
)

func TestRunWithoutTokenSaysWhatToDo(t *testing.T) {
	t.Setenv(tokenEnv, "")
	t.Chdir(t.TempDir())
	var out, errw bytes.Buffer
	if code := run(t.Context(), []string{"run"}, os.Getenv, &out, &errw); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	msg := errw.String()
	for _, want := range []string{tokenEnv, "meeple play"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Count(strings.TrimSpace(msg), "\n") > 0 {
		t.Errorf("message is not one short line: %q", msg)
	}
	if _, err := os.Stat(defaultDatabase); err == nil {
		t.Error("a database was created although the bot could not start")
	}
}

func TestExampleConfigLoads(t *testing.T) {
	c, err := loadConfig(filepath.Join("..", "..", "config.example.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Database != "meeple.db" || c.LogLevel != "info" || c.Deadlines.OnDeadline != "computer" {
		t.Errorf("example config: %+v", c)
	}
	if c.Deadlines.Turn == nil || c.Deadlines.Turn.Duration != 48*time.Hour || c.Deadlines.Reminder.Duration != 12*time.Hour {
		t.Errorf("deadlines: %+v", c.Deadlines)
	}
	if c.Render.Images == nil || !*c.Render.Images {
		t.Error("render.images not read")
	}
	if !c.Discord.endpoints().Default() {
		t.Errorf("the example points the bot away from Discord: %+v", c.Discord)
	}
}

func TestConfigZeroTurnsDeadlinesAndRemindersOff(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meeple.toml")
	if err := os.WriteFile(path, []byte("[deadlines]\nturn = \"24h\"\nreminder = \"0\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bot.Config
	c.Deadlines.apply(&b)
	if b.Deadline != 24*time.Hour || b.NoDeadline || b.Reminder != 0 || !b.NoReminder {
		t.Fatalf("reminder = \"0\" gave %+v", b)
	}
	c.Deadlines.Turn.Duration = 0
	c.Deadlines.apply(&b)
	if !b.NoDeadline {
		t.Fatalf("turn = \"0\" gave %+v", b)
	}
}

func TestConfigRefusesMistakes(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"unknown key":  "databse = \"x.db\"\n",
		"bad duration": "[deadlines]\nturn = \"two days\"\n",
		"bad policy":   "[deadlines]\non_deadline = \"skip\"\n",
		"bad level":    "log_level = \"loud\"\n",
		"bad REST URL": "[discord]\nrest_base_url = \"discord.example\"\n",
		"bad gateway":  "[discord]\ngateway_url = \"https://gateway.example\"\n",
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".toml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := loadConfig(path); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestTokenSources(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "token")
	if err := os.WriteFile(file, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(v string) func(string) string { return func(string) string { return v } }
	c := config{Token: "from-config", TokenFile: file}
	if got, _ := c.token(env("from-env")); got != "from-env" {
		t.Errorf("env should win, got %q", got)
	}
	if got, _ := c.token(env("")); got != "from-file" {
		t.Errorf("file should come next, got %q", got)
	}
	if got, _ := (config{Token: "from-config"}).token(env("")); got != "from-config" {
		t.Errorf("config token, got %q", got)
	}
	if _, err := (config{}).token(env("")); err != errNoToken {
		t.Errorf("no token: %v", err)
	}
}

func TestBackupsAreWrittenAndPruned(t *testing.T) {
	db, err := boltdb.Open(filepath.Join(t.TempDir(), "meeple.db"), engine.NewRegistry(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dir := filepath.Join(t.TempDir(), "backups")
	start := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	for n := 0; n < 4; n++ {
		path, err := writeBackup(db, dir, start.Add(time.Duration(n)*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		copied, err := boltdb.Open(path, engine.NewRegistry(), boltdb.Options{Verify: true})
		if err != nil {
			t.Fatalf("backup %s does not open: %v", path, err)
		}
		copied.Close()
	}
	if err := pruneBackups(dir, 2); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"meeple-20261122-050000.db", "meeple-20261122-060000.db"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("kept %v, want %v", names, want)
	}
}

// MEEPLE_DATABASE_URL names the database in place of the config's.
func TestDatabaseSources(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	c := config{Database: "meeple.db"}
	if got := c.database(env("postgres://db/meeple")); got != "postgres://db/meeple" {
		t.Errorf("env should win, got %q", got)
	}
	if got := c.database(env("")); got != "meeple.db" {
		t.Errorf("config's database, got %q", got)
	}
	if got := databaseName("postgres://meeple:pw@db/meeple"); got != "postgres://meeple:xxxxx@db/meeple" {
		t.Errorf("databaseName kept the password: %q", got)
	}
}

// TestRunChecksTheTokensFormFirst: a malformed token stops run with the
// same words as meeple check, before any database is created.
func TestRunChecksTheTokensFormFirst(t *testing.T) {
	t.Chdir(t.TempDir())
	for token, want := range map[string]string{
		"abc.def":         "the token from MEEPLE_DISCORD_TOKEN has 2 parts separated by dots; a bot token has 3",
		"abc":             "the token from MEEPLE_DISCORD_TOKEN has no dots; a bot token is 3 parts separated by dots",
		"abc.d ef.ghi":    "has a character other than letters, digits, - and _ in part 2",
		"\"abc.def.ghi\"": "has a character other than letters, digits, - and _ in part 1",
		"abc..ghi":        "has an empty part 2",
	} {
		t.Setenv(tokenEnv, token)
		var out, errw bytes.Buffer
		code := run(t.Context(), []string{"run"}, os.Getenv, &out, &errw)
		msg := errw.String()
		if code != 1 || !strings.Contains(msg, want) || !strings.Contains(msg, "Reset Token") || strings.Contains(msg, token) {
			t.Errorf("token %q: exit %d, %q; want %q without the token", token, code, msg, want)
		}
		check := preflight("", func(k string) string { return map[string]string{tokenEnv: token}[k] })
		if check[1].name != "token" || check[1].ok || !strings.Contains(msg, check[1].detail) {
			t.Errorf("run and check differ on %q: %q vs %+v", token, msg, check[1])
		}
		if _, err := os.Stat(defaultDatabase); err == nil {
			t.Fatal("a database was created for a malformed token")
		}
	}
}

// TestAStuckShutdownEndsTheProcess: a shutdown still going when the
// limit has passed since the context ended ends the process, and the log
// says what it was closing.
func TestAStuckShutdownEndsTheProcess(t *testing.T) {
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	var closing stage
	closing.set("the bot's work in flight")
	limit, asked, exited := make(chan time.Time), make(chan time.Duration, 1), make(chan struct{})
	stopped := shutdownDeadline(ctx, &closing, log, func(d time.Duration) <-chan time.Time { asked <- d; return limit }, func() { close(exited) })
	defer stopped()
	select {
	case <-asked:
		t.Fatal("the limit started before the context ended")
	default:
	}
	cancel()
	if d := <-asked; d != shutdownLimit {
		t.Errorf("the limit is %v, want %v", d, shutdownLimit)
	}
	limit <- time.Time{}
	<-exited
	if !strings.Contains(logs.String(), `closing="the bot's work in flight"`) {
		t.Errorf("the log does not say what was cut short: %s", logs.String())
	}
}
