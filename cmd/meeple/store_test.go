package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage"
)

// meeple runs the command line and returns its exit code, stdout and stderr.
func meeple(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestBackupCopiesAndVerifies(t *testing.T) {
	dir := t.TempDir()
	db, out := filepath.Join(dir, "meeple.db"), filepath.Join(dir, "backup.db")
	s, _, err := openStore(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := storage.GuildSettings{TurnDeadline: 36 * time.Hour, GamesChannel: "42"}
	if err := s.PutGuildSettings("7", want); err != nil {
		t.Fatal(err)
	}
	s.Close()

	code, stdout, stderr := meeple("backup", "-db", db, "-out", out)
	if code != 0 || !strings.Contains(stdout, "verified") {
		t.Fatalf("backup: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	cp, _, err := openStore(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if got, _ := cp.GuildSettings("7"); got.TurnDeadline != want.TurnDeadline || got.GamesChannel != "42" {
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
		{[]string{"backup", "-out", db}, 1, "-db is required"},
		{[]string{"backup", "-db", db, "-out", db}, 1, "is the database itself"},
		{[]string{"backup", "-db", garbage, "-out", filepath.Join(dir, "x.db")}, 1, garbage},
		{[]string{"export", "-db", db}, 2, "give -channel or -game"},
		{[]string{"export", "-db", db, "-channel", "1", "-game", "2"}, 2, "give -channel or -game"},
		{[]string{"export", "-db", db, "-channel", "1"}, 1, "not found"},
		{[]string{"export", "-db", db, "-game", "9"}, 1, "not found"},
		{[]string{"import", "-db", db, "-channel", "1"}, 2, "-script are required"},
		{[]string{"import", "-db", db, "-channel", "1", "-script", headerless}, 1, "header"},
		{[]string{"import", "-db", db, "-channel", "1", "-script", unknown}, 1, `unknown game "chess"`},
		{[]string{"import", "-db", db, "-channel", "1", "-script", filepath.Join(dir, "none.txt")}, 1, "no such file"},
	}
	for _, c := range cases {
		code, _, stderr := meeple(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("meeple %s: exit %d, stderr %q; want exit %d mentioning %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
	}
}
