package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// meeple runs the command line and returns its exit code, stdout and stderr.
func meeple(args ...string) (int, string, string) {
	return meepleIn(os.Getenv, args...)
}

// meepleIn is meeple in the environment getenv reads (see environ).
func meepleIn(getenv func(string) string, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, getenv, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestBackupCopiesAndVerifies(t *testing.T) {
	dir := t.TempDir()
	db, out := filepath.Join(dir, "meeple.db"), filepath.Join(dir, "backup.db")
	s, err := boltdb.Open(db, engine.NewRegistry(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := storage.GuildSettings{TurnDeadline: 36 * time.Hour, GamesChannel: "42"}
	if err := s.PutGuildSettings(context.Background(), "7", want); err != nil {
		t.Fatal(err)
	}
	s.Close()

	code, stdout, stderr := meeple("backup", "-db", db, "-out", out)
	if code != 0 || !strings.Contains(stdout, "verified") {
		t.Fatalf("backup: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	cp, err := boltdb.Open(out, engine.NewRegistry(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if got, _ := cp.GuildSettings(context.Background(), "7"); got.TurnDeadline != want.TurnDeadline || got.GamesChannel != "42" {
		t.Fatalf("settings in the copy: %+v", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("backup left stray files: %v", entries)
	}
}

func TestStoreCommandsRefuseBadInput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "meeple.db")
	headerless := filepath.Join(dir, "moves.txt")
	if err := os.WriteFile(headerless, []byte("P1: roll\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(dir, "chess.txt")
	if err := os.WriteFile(unknown, []byte("# game chess players 2 seed 1\nP1: e4\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := boltdb.Open(db, engine.NewRegistry(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("not a database "), 500), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"backup", "-db", db}, 2, "-out is required"},
		{[]string{"backup", "-out", db}, 1, "-db (or -config, or $MEEPLE_DATABASE_URL) is required"},
		{[]string{"backup", "-db", db, "-out", db}, 1, "is the database itself"},
		{[]string{"backup", "-db", garbage, "-out", filepath.Join(dir, "x.db")}, 1, garbage},
		{[]string{"export", "-db", db}, 2, "give -channel or -game"},
		{[]string{"export", "-db", db, "-channel", "1", "-game", "2"}, 2, "give -channel or -game"},
		{[]string{"export", "-db", db, "-channel", "1"}, 1, "not found"},
		{[]string{"export", "-db", db, "-game", "9"}, 1, "not found"},
		{[]string{"import", "-db", db, "-channel", "1", "-seats", "1,2"}, 2, "-seats are required"},
		{[]string{"import", "-db", db, "-channel", "1", "-script", headerless}, 2, "-seats are required"},
		{[]string{"import", "-db", db, "-channel", "900000000000000001", "-seats", "111111111111111111,222222222222222222", "-script", headerless}, 1, "header"},
		{[]string{"import", "-db", db, "-channel", "900000000000000001", "-seats", "111111111111111111,222222222222222222", "-script", unknown}, 1, `unknown game "chess"`},
		{[]string{"import", "-db", db, "-channel", "900000000000000001", "-seats", "111111111111111111,222222222222222222", "-script", filepath.Join(dir, "none.txt")}, 1, "no such file"},
	}
	for _, c := range cases {
		code, _, stderr := meeple(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("meeple %s: exit %d, stderr %q; want exit %d mentioning %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
	}
}

// TestImportExportReplayRoundTrip plays part of each real game, imports
// its script into a database, exports it again (byte for byte the same
// script) and replays the export: the replayed state is the stored one.
func TestImportExportReplayRoundTrip(t *testing.T) {
	t.Parallel()
	reg, err := buildRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "meeple.db")
	for i, name := range reg.Names() {
		rules, _ := reg.Lookup(name)
		setup := engine.Setup{Players: 3, Seed: uint64(11 + i)}
		state, err := rules.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRNG(5)
		played, err := ai.PlayOut(state, []engine.Player{ai.Random{}, ai.Random{}, ai.Random{}}, &rng, 80)
		if err != nil || len(played.Moves) == 0 {
			t.Fatalf("%s: playing: %v", name, err)
		}
		var script bytes.Buffer
		if err := engine.WriteScript(&script, name, setup, played.Moves); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(file, script.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		channel := fmt.Sprintf("1000000000000000%02d", i)
		code, stdout, stderr := meeple("import", "-db", db, "-channel", channel, "-guild", "700000000000000007", "-script", file, "-seats", "111111111111111111,222222222222222222,ai:random")
		if code != 0 || !strings.Contains(stdout, fmt.Sprintf("%d actions", len(played.Moves))) {
			t.Fatalf("%s: import: exit %d, %q, %q", name, code, stdout, stderr)
		}
		if code, _, stderr := meeple("import", "-db", db, "-channel", channel, "-script", file, "-seats", "111111111111111111,222222222222222222,333333333333333333"); code != 1 || !strings.Contains(stderr, "already has an active game") {
			t.Fatalf("%s: second import into the channel: exit %d, %q", name, code, stderr)
		}
		code, exported, stderr := meeple("export", "-db", db, "-channel", channel)
		moves, err := engine.ReadScript(strings.NewReader(exported))
		if code != 0 || err != nil || !strings.HasPrefix(exported, strings.SplitAfter(script.String(), "\n")[0]) || fmt.Sprint(stripLines(moves)) != fmt.Sprint(played.Moves) {
			t.Fatalf("%s: export: exit %d, %q, %v\ngot\n%s\nwant the moves of\n%s", name, code, stderr, err, exported, script.String())
		}
		// The export, imported and exported again, is the same script, times and all.
		reexport := filepath.Join(dir, name+".export.txt")
		os.WriteFile(reexport, []byte(exported), 0o600)
		if code, _, stderr := meeple("import", "-db", db, "-channel", channel+"0", "-script", reexport, "-seats", "111111111111111111,222222222222222222,ai:random"); code != 0 {
			t.Fatalf("%s: import of the export: exit %d, %q", name, code, stderr)
		}
		if code, again, stderr := meeple("export", "-db", db, "-channel", channel+"0"); code != 0 || again != exported {
			t.Fatalf("%s: export of the imported export: exit %d, %q\ngot\n%s\nwant\n%s", name, code, stderr, again, exported)
		}
		code, replayed, stderr := meeple("replay", "-game", name, "-players", "3", "-seed", fmt.Sprint(setup.Seed), "-script", file)
		if code != 0 {
			t.Fatalf("%s: replay of the export: exit %d, %q", name, code, stderr)
		}
		var out replayOutput
		if err := json.Unmarshal([]byte(replayed), &out); err != nil {
			t.Fatal(err)
		}
		want, _ := state.Encode()
		if !jsonEqual(out.State, want) {
			t.Fatalf("%s: the replayed export's state differs from the played state", name)
		}
		s, err := boltdb.Open(db, reg, boltdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g, loaded, err := s.Load(context.Background(), channel)
		s.Close()
		if err != nil || g.Seats[0].User != "111111111111111111" || g.Seats[2].Computer != "random" || g.Guild != "700000000000000007" {
			t.Fatalf("%s: stored game %+v, %v", name, g, err)
		}
		if got, _ := loaded.Encode(); !bytes.Equal(got, want) {
			t.Fatalf("%s: the stored state differs from the played state", name)
		}
	}
	// A script with an illegal action is refused at that action and stores nothing.
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("# game eightydays players 2 seed 1\nP1: fly to the moon\n"), 0o600)
	if code, _, stderr := meeple("import", "-db", db, "-channel", "900000000000000900", "-script", bad, "-seats", "111111111111111111,222222222222222222"); code != 1 || !strings.Contains(stderr, "line 2") {
		t.Fatalf("import of an illegal action: exit %d, %q", code, stderr)
	}
	if code, _, stderr := meeple("export", "-db", db, "-channel", "900000000000000900"); code != 1 || !strings.Contains(stderr, "not found") {
		t.Fatalf("a refused import left a game: exit %d, %q", code, stderr)
	}
	if code, _, stderr := meeple("import", "-db", db, "-channel", "900000000000000901", "-script", bad, "-seats", "111111111111111111,ai:genius"); code != 1 || !strings.Contains(stderr, "genius") {
		t.Fatalf("import with an unknown computer player: exit %d, %q", code, stderr)
	}
	for _, seats := range []string{"111111111111111111", "111111111111111111,222222222222222222,333333333333333333", "111111111111111111,"} {
		if code, _, stderr := meeple("import", "-db", db, "-channel", "900000000000000901", "-script", bad, "-seats", seats); code != 1 || !strings.Contains(stderr, "seat") {
			t.Fatalf("import with -seats %q: exit %d, %q", seats, code, stderr)
		}
	}
}

// stripLines drops the script line numbers ReadScript notes.
func stripLines(moves []engine.Move) []engine.Move {
	for i := range moves {
		moves[i].Line = 0
	}
	return moves
}

// jsonEqual compares two JSON documents by value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
