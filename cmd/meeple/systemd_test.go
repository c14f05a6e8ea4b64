package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
)

// templateUnit is the systemd template unit the docs tell operators to
// install for several processes.
const templateUnit = "../../deploy/systemd/meeple@.service"

// unitKey returns the value of key= in a unit file.
func unitKey(t *testing.T, unit, key string) string {
	t.Helper()
	for line := range strings.Lines(unit) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), key+"="); ok {
			return v
		}
	}
	t.Fatalf("%s has no %s=", templateUnit, key)
	return ""
}

// TestSystemdTemplateUnitRuns runs the template unit's ExecStart as
// systemd would for the instances meeple@0-1 and meeple@2 (%i replaced by
// the instance name), with the binary and config put in the test's places,
// on one PostgreSQL database (what the unit's EnvironmentFile names)
// against the fake Discord: the two processes connect the three shards
// between them and answer in guilds of each.
func TestSystemdTemplateUnitRuns(t *testing.T) {
	t.Parallel() // it mostly waits on other processes
	data, err := os.ReadFile(templateUnit)
	if err != nil {
		t.Fatal(err)
	}
	unit := string(data)
	exec := strings.Fields(unitKey(t, unit, "ExecStart"))
	if len(exec) == 0 || exec[0] != "/usr/local/bin/meeple" || !strings.Contains(unitKey(t, unit, "ExecStart"), "%i") {
		t.Fatalf("ExecStart %q: want /usr/local/bin/meeple with the instance name (%%i) as its shards", exec)
	}
	if env := unitKey(t, unit, "EnvironmentFile"); env != "/etc/meeple/env" {
		t.Errorf("EnvironmentFile=%s", env)
	}
	dsn := pg.Database(t)
	bin := buildMeeple(t)
	fake := discordtest.NewServer(discordtest.Options{})
	defer fake.Close()
	config := filepath.Join(t.TempDir(), "config.toml")
	text := fmt.Sprintf("application_id = %q\n[render]\nimages = false\n[discord]\nrest_base_url = %q\ngateway_url = %q\nshard_count = 3\n",
		discordtest.BotID, fake.URL(), fake.GatewayURL())
	if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	var procs []*meepleProcess
	var logs []*lockedBuffer
	for _, instance := range []string{"0-1", "2"} {
		var args []string
		for _, f := range exec {
			switch f {
			case "/usr/local/bin/meeple":
				f = bin
			case "/etc/meeple/config.toml":
				f = config
			}
			args = append(args, strings.ReplaceAll(f, "%i", instance))
		}
		l := &lockedBuffer{}
		logs = append(logs, l)
		procs = append(procs, startMeeple(t, args, []string{databaseEnv + "=" + dsn}, l))
	}
	all := []discordtest.Shard{{ID: 0, Count: 3}, {ID: 1, Count: 3}, {ID: 2, Count: 3}}
	if _, err := fake.WaitShards(60*time.Second, all...); err != nil {
		t.Fatalf("the shards did not connect: %v\n%s\n%s", err, logs[0], logs[1])
	}
	ans := watchAnswers(fake)
	for shard := range 3 {
		raw := slash("101", fmt.Sprint(3100+shard), "lobby", "new", map[string]string{"game": "eightydays"})
		raw["guild_id"] = strconv.FormatUint(uint64(3+shard)<<22, 10)
		if out, ok := ans.interact(fake, raw); !ok || !strings.Contains(joinText(out), "lobby") {
			t.Errorf("shard %d: /lobby new answered %q", shard, joinText(out))
		}
	}
	for _, p := range procs {
		p.stop(t)
	}
	for i, want := range [][]string{{"shard=0 shards=3", "shard=1 shards=3"}, {"shard=2 shards=3"}} {
		for _, w := range want {
			if !strings.Contains(logs[i].String(), w) {
				t.Errorf("process %d did not connect %s:\n%s", i, w, logs[i])
			}
		}
	}
	if n := fake.Gateway().Identifies; n != 3 {
		t.Errorf("%d identifies, want one per shard", n)
	}
}
