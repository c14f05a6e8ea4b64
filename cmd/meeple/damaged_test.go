package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestEveryCommandRefusesWhatCheckRefuses damages one game record of a
// database (its pages stay sound: only the record's checksum tells) after
// a good nightly backup: check reports it naming the game record, and
// run, import, migrate and backup refuse the file with the same message
// and advice, changing nothing, the nightly backup included.
func TestEveryCommandRefusesWhatCheckRefuses(t *testing.T) {
	dir := t.TempDir()
	db := storedGame(t, dir)
	nightly := filepath.Join(dir, "nightly.db")
	if code, _, stderr := meeple("backup", "-db", db, "-out", nightly); code != 0 {
		t.Fatalf("the good backup: %s", stderr)
	}
	good, _ := os.ReadFile(nightly)
	raw, err := bolt.Open(db, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		k, v := b.Cursor().First()
		return b.Put(k, bytes.Replace(v, []byte(`"guild":"7"`), []byte(`"guild":"8"`), 1))
	})
	raw.Close()
	before, _ := os.ReadFile(db)

	config := filepath.Join(dir, "meeple.toml")
	os.WriteFile(config, []byte("database = \""+db+"\"\n"), 0o600)
	t.Setenv(tokenEnv, "x.y.z")
	code, out, _ := meeple("check", "-config", config)
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "database") {
			line = l
		}
	}
	const damage = "game record 1: checksum mismatch"
	const advice = "restore the newest backup"
	if code == 0 || !strings.HasPrefix(line, "FAIL") || !strings.Contains(line, damage) || !strings.Contains(line, advice) {
		t.Fatalf("check: exit %d, database line %q; want a failure naming %q with the advice", code, line, damage)
	}
	script := filepath.Join(dir, "game.txt")
	os.WriteFile(script, []byte("# game eightydays players 2 seed 3\n"), 0o600)
	for _, args := range [][]string{
		{"run", "-config", config},
		{"import", "-db", db, "-channel", "900000000000000005", "-script", script, "-seats", "111111111111111111,222222222222222222"},
		{"migrate", "-from", db, "-to", filepath.Join(dir, "new.db")},
		{"backup", "-db", db, "-out", nightly},
	} {
		code, _, stderr := meeple(args...)
		t.Logf("meeple %s: %s", args[0], stderr)
		if code == 0 || !strings.Contains(stderr, damage) || !strings.Contains(stderr, advice) {
			t.Errorf("meeple %s: exit %d, %q; want the refusal check gives", args[0], code, stderr)
		}
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("a command changed the damaged database")
	}
	if now, _ := os.ReadFile(nightly); !bytes.Equal(now, good) {
		t.Error("the refused backup changed the previous one")
	}
	if _, err := os.Stat(filepath.Join(dir, "new.db")); err == nil {
		t.Error("migrate left a new database behind")
	}
}
