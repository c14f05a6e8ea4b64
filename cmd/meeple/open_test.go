package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// storedGame writes a database with one running 80 Days game in channel
// 100 and returns its path.
func storedGame(t *testing.T, dir string) string {
	t.Helper()
	reg, err := buildRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "meeple.db")
	s, err := boltdb.Open(db, reg, boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g := &storage.Game{Kind: "eightydays", Guild: "7", Channel: "100", Status: storage.StatusRunning,
		Setup: engine.Setup{Players: 2, Seed: 3}, Seats: []storage.Seat{{User: "1"}, {User: "2"}}}
	if err := s.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestReadingCommandsLeaveTheFileAlone: export and backup open the file
// read-only, so they work on a read-only file and leave it byte for byte
// as it was.
func TestReadingCommandsLeaveTheFileAlone(t *testing.T) {
	dir := t.TempDir()
	db := storedGame(t, dir)
	if err := os.Chmod(db, 0o400); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(db)
	if code, out, stderr := meeple("export", "-db", db, "-channel", "100"); code != 0 || !strings.HasPrefix(out, "# game eightydays") {
		t.Fatalf("export: exit %d, %q, %q", code, out, stderr)
	}
	if code, out, stderr := meeple("backup", "-db", db, "-out", filepath.Join(dir, "copy.db")); code != 0 || !strings.Contains(out, "1 games") {
		t.Fatalf("backup: exit %d, %q, %q", code, out, stderr)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Fatal("export and backup changed the database file")
	}
	config := filepath.Join(dir, "meeple.toml")
	os.WriteFile(config, []byte("database = \"meeple.db\"\n"), 0o600)
	if code, _, stderr := meeple("backup", "-db", db, "-out", config); code != 1 || !strings.Contains(stderr, "is not a Meeple database; refusing to replace it") {
		t.Fatalf("backup over a config file: exit %d, %q", code, stderr)
	}
	if data, _ := os.ReadFile(config); string(data) != "database = \"meeple.db\"\n" {
		t.Fatal("backup replaced the config file")
	}
}

// TestOnlyRunAndImportCreateADatabase: a mistyped path is reported, and
// only import (and run) create a file, saying so.
func TestOnlyRunAndImportCreateADatabase(t *testing.T) {
	dir := t.TempDir()
	typo := filepath.Join(dir, "typo.db")
	for _, args := range [][]string{
		{"backup", "-db", typo, "-out", filepath.Join(dir, "x.db")},
		{"export", "-db", typo, "-game", "1"},
	} {
		code, out, stderr := meeple(args...)
		if code != 1 || !strings.Contains(stderr, "no database at "+typo) || strings.Contains(out, "verified") {
			t.Errorf("meeple %s: exit %d, %q, %q; want no database at %s", args[0], code, out, stderr, typo)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("reading a missing database made files: %v", entries)
	}
	script := filepath.Join(dir, "game.txt")
	os.WriteFile(script, []byte("# game eightydays players 2 seed 1\n"), 0o600)
	db := filepath.Join(dir, "new.db")
	code, out, stderr := meeple("import", "-db", db, "-channel", "900000000000000005", "-script", script, "-seats", "111111111111111111,222222222222222222")
	if code != 0 || !strings.Contains(out, "creating a new database at "+db) {
		t.Fatalf("import into a new file: exit %d, %q, %q", code, out, stderr)
	}
	code, out, _ = meeple("import", "-db", db, "-channel", "900000000000000006", "-script", script, "-seats", "111111111111111111,222222222222222222")
	if code != 0 || strings.Contains(out, "creating") {
		t.Fatalf("import into an existing file: exit %d, %q", code, out)
	}
}

// TestOpenFailuresSayWhatTheyAre: a missing folder, a folder given as the
// file and a file that is not a database each get their own words, and
// none of them is called corrupt; a damaged file is, with the way to
// recover, and is left as it was.
func TestOpenFailuresSayWhatTheyAre(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, bytes.Repeat([]byte("some notes\n"), 1000), 0o600)
	db := storedGame(t, t.TempDir())
	data, _ := os.ReadFile(db)
	copy(data[2*4096:], bytes.Repeat([]byte{0xAB}, 64)) // page 2's header
	damaged := filepath.Join(dir, "damaged.db")
	os.WriteFile(damaged, data, 0o600)
	script := filepath.Join(dir, "game.txt") // a good script: the database is what fails
	os.WriteFile(script, []byte("# game eightydays players 2 seed 1\n"), 0o600)
	cases := []struct{ db, want string }{
		{filepath.Join(dir, "missing", "meeple.db"), "the folder " + filepath.Join(dir, "missing") + " does not exist"},
		{dir, "it is a folder"},
		{text, "not a Meeple database file"},
		{damaged, "corrupt database: page 2"},
	}
	for _, c := range cases {
		for _, cmd := range []string{"export", "backup", "import"} {
			args := []string{cmd, "-db", c.db}
			switch cmd {
			case "export":
				args = append(args, "-game", "1")
			case "backup":
				args = append(args, "-out", filepath.Join(dir, "out.db"))
			case "import":
				args = append(args, "-channel", "900000000000000009", "-script", script, "-seats", "111111111111111111,222222222222222222")
			}
			code, _, stderr := meeple(args...)
			if code != 1 || !strings.Contains(stderr, c.want) || (c.db != damaged && strings.Contains(stderr, "corrupt")) {
				t.Errorf("meeple %s -db %s: exit %d, %q; want %q", cmd, c.db, code, stderr, c.want)
			}
			if c.db == damaged && (!strings.Contains(stderr, "restore the newest backup") || !strings.Contains(stderr, "meeple export")) {
				t.Errorf("meeple %s of a damaged file: %q does not say how to recover", cmd, stderr)
			}
		}
	}
	if after, _ := os.ReadFile(damaged); !bytes.Equal(after, data) {
		t.Fatal("the commands changed the damaged file")
	}
	if _, err := os.Stat(filepath.Join(dir, "out.db")); !os.IsNotExist(err) {
		t.Fatalf("a refused backup wrote its copy: %v", err)
	}
}

// TestFinishedGameImportsIntoTheArchive imports a finished game with the
// times an export notes: it goes to the archive with the rules' result,
// its creation, action and finishing times, and leaves the channel free.
func TestFinishedGameImportsIntoTheArchive(t *testing.T) {
	reg, err := buildRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := reg.Lookup("eightydays")
	setup := engine.Setup{Players: 2, Seed: 9}
	state, _ := rules.New(setup)
	rng := engine.NewRNG(1)
	heuristic, _ := ai.Lookup(rules, "heuristic")
	played, err := ai.PlayOut(state, []engine.Player{heuristic, heuristic}, &rng, 10000)
	if err != nil || !state.Over() {
		t.Fatalf("playing a game to its end: %v, over %v", err, state.Over())
	}
	var script strings.Builder
	engine.WriteScript(&script, "eightydays", setup, nil)
	created := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	fmt.Fprintf(&script, "# created %s\n", created.Format(time.RFC3339Nano))
	for i, m := range played.Moves {
		fmt.Fprintf(&script, "%s  # at %s\n", m, created.Add(time.Duration(i+1)*time.Minute).Format(time.RFC3339Nano))
	}
	dir := t.TempDir()
	file, db := filepath.Join(dir, "game.txt"), filepath.Join(dir, "meeple.db")
	os.WriteFile(file, []byte(script.String()), 0o600)
	code, out, stderr := meeple("import", "-db", db, "-channel", "900000000000000005", "-script", file, "-seats", "111111111111111111,222222222222222222")
	if code != 0 || !strings.Contains(out, "went to the archive with its result") {
		t.Fatalf("import of a finished game: exit %d, %q, %q", code, out, stderr)
	}
	if code, _, stderr := meeple("export", "-db", db, "-channel", "900000000000000005"); code != 1 || !strings.Contains(stderr, "not found") {
		t.Fatalf("the finished game holds its channel: exit %d, %q", code, stderr)
	}
	s, err := boltdb.Open(db, reg, boltdb.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.GetByID(context.Background(), 1)
	s.Close()
	last := created.Add(time.Duration(len(played.Moves)) * time.Minute)
	want := state.Result()
	switch {
	case err != nil:
		t.Fatal(err)
	case g.Status != storage.StatusFinished || g.Result == nil || fmt.Sprint(g.Result.Scores) != fmt.Sprint(want.Scores) || fmt.Sprint(g.Result.Winners) != fmt.Sprint(want.Winners):
		t.Fatalf("imported game: status %s, result %+v; want finished with %+v", g.Status, g.Result, want)
	case !g.Created.Equal(created) || !g.Finished.Equal(last) || !g.Log[0].At.Equal(created.Add(time.Minute)):
		t.Fatalf("imported times: created %s, finished %s, first action %s", g.Created, g.Finished, g.Log[0].At)
	}
	code, exported, _ := meeple("export", "-db", db, "-game", "1")
	if code != 0 || !strings.Contains(exported, "# finished "+last.Format(time.RFC3339Nano)) {
		t.Fatalf("export of the archived game: exit %d\n%s", code, exported)
	}
	if code, out, _ := meeple("import", "-db", db, "-channel", "900000000000000005", "-script", file, "-seats", "111111111111111111,222222222222222222"); code != 0 || !strings.Contains(out, "game 2") {
		t.Fatalf("a second import of the same finished game: exit %d, %q", code, out)
	}
}

// TestRunRefusesWhatItCannotUse: run stops before it connects anywhere on
// a damaged database (leaving it as it was, and saying how to recover) and
// on a database in a missing folder (creating nothing).
func TestRunRefusesWhatItCannotUse(t *testing.T) {
	t.Setenv(tokenEnv, "bm90.a-real.token") // the form of a token: the database is what fails
	dir := t.TempDir()
	db := storedGame(t, t.TempDir())
	data, _ := os.ReadFile(db)
	copy(data[2*4096:], bytes.Repeat([]byte{0xAB}, 64))
	damaged := filepath.Join(dir, "damaged.db")
	os.WriteFile(damaged, data, 0o600)
	for _, c := range []struct{ db, want string }{
		{damaged, "restore the newest backup"},
		{filepath.Join(dir, "missing", "meeple.db"), "does not exist"},
	} {
		config := filepath.Join(dir, "meeple.toml")
		os.WriteFile(config, []byte(fmt.Sprintf("database = %q\n", c.db)), 0o600)
		code, _, stderr := meeple("run", "-config", config)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("run on %s: exit %d, %q; want %q", c.db, code, stderr, c.want)
		}
	}
	if after, _ := os.ReadFile(damaged); !bytes.Equal(after, data) {
		t.Fatal("run changed the damaged file")
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Fatalf("run made the missing folder: %v", err)
	}
}
