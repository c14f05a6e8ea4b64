package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// numericFlag is a line of a subcommand's -h output naming a numeric flag.
var numericFlag = regexp.MustCompile(`(?m)^  -([a-z-]+) (int|uint|float|duration)\b`)

// TestEveryNumericFlagIsRangeChecked finds every numeric flag of every
// subcommand in its -h text and gives it a negative and a huge value: each
// is refused with exit status 2 in one line naming the flag, before any
// work is done.
func TestEveryNumericFlagIsRangeChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "game.txt")
	os.WriteFile(script, []byte("# game eightydays players 3 seed 1\n"), 0o600)
	// what each command needs besides the flag under test
	needs := map[string][]string{
		"replay": {"-script", script},
		"render": {"-script", script, "-out", filepath.Join(dir, "out")},
		"export": {"-db", filepath.Join(dir, "meeple.db")},
	}
	// flags whose whole range is valid: any seed is a seed, any game id a
	// game id (a missing one is "not found")
	anyValue := map[string]bool{"seed": true, "game": true}
	checked := 0
	for name := range commands() {
		var help, errs bytes.Buffer
		run(t.Context(), []string{name, "-h"}, os.Getenv, &help, &errs)
		for _, m := range numericFlag.FindAllStringSubmatch(errs.String()+help.String(), -1) {
			flagName := m[1]
			values := []string{"-5"}
			if !anyValue[flagName] {
				values = append(values, "99999999999")
			}
			for _, v := range values {
				args := append([]string{name, "-" + flagName, v}, needs[name]...)
				var out, errs bytes.Buffer
				code := run(t.Context(), args, os.Getenv, &out, &errs)
				if code != 2 || !strings.Contains(errs.String(), "-"+flagName) || out.Len() > 0 {
					t.Errorf("meeple %s: exit %d, stdout %q, stderr %q; want exit 2 naming -%s", strings.Join(args, " "), code, out.String(), errs.String(), flagName)
				}
				checked++
			}
		}
	}
	if checked < 15 {
		t.Fatalf("only %d values tried: the -h texts were not read", checked)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Fatal("a refused render made its folder")
	}
	if _, err := os.Stat(filepath.Join(dir, "meeple.db")); !os.IsNotExist(err) {
		t.Fatal("a refused export made a database")
	}
}

func TestRenderNamesMustMatchTheSeats(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	for names, want := range map[string]string{
		"a,b,c,d,e,f,g": "-names is 7 names: the game has 4 players; give one name for each, in seat order",
		"Ann":           "-names is 1 name: the game has 4 players",
		"a,,c,d":        `-names is "a,,c,d": the name of seat 2 is blank`,
	} {
		code, stdout, stderr := meeple("render", "-game", "crystalpalace", "-players", "4", "-names", names, "-out", out)
		if code != 2 || !strings.Contains(stderr, want) || stdout != "" {
			t.Errorf("-names %s: exit %d, %q; want %q", names, code, stderr, want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a refused render made its folder")
	}
	if code, stdout, stderr := meeple("render", "-game", "eightydays", "-players", "2", "-names", "Ann,Bob", "-out", out); code != 0 || !strings.Contains(stdout, "board.png") {
		t.Fatalf("two names for two players: exit %d, %q", code, stderr)
	}
}
