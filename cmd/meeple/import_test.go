package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportRefusesBadIdsAndNamesTheIllegalLine: every mistake gets a
// short error saying what is wrong, and the database is not even created.
func TestImportRefusesBadIdsAndNamesTheIllegalLine(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "meeple.db")
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("# game eightydays players 3 seed 1\n"), 0o600)
	illegal := filepath.Join(dir, "illegal.txt")
	os.WriteFile(illegal, []byte("# game eightydays players 2 seed 1\n# a comment\n\nP2: fly to the moon\n"), 0o600)
	const (
		ann, bob = "111111111111111111", "222222222222222222"
		channel  = "900000000000000001"
	)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-channel", "notachannel", "-script", good, "-seats", ann + "," + bob + ",ai:random"}, `-channel is "notachannel", not a Discord id`},
		{[]string{"-channel", "12", "-script", good, "-seats", ann + "," + bob + ",ai:random"}, `-channel is "12", not a Discord id: an id is a number of 17 to 20 digits`},
		{[]string{"-channel", "123456789012345678901", "-script", good, "-seats", ann + "," + bob + ",ai:random"}, "not a Discord id"},
		{[]string{"-channel", channel, "-guild", "7", "-script", good, "-seats", ann + "," + bob + ",ai:random"}, `-guild is "7", not a Discord id`},
		{[]string{"-channel", channel, "-script", good, "-seats", "bob,2,ai:random"}, `-seats: seat 1 is "bob", not a Discord id`},
		{[]string{"-channel", channel, "-script", good, "-seats", ann + ",2,ai:random"}, `-seats: seat 2 is "2", not a Discord id`},
		{[]string{"-channel", channel, "-script", good, "-seats", ann + "," + ann + ",ai:random"}, "user " + ann + " is in seats 1 and 2"},
		{[]string{"-channel", channel, "-script", illegal, "-seats", ann + "," + bob}, `illegal.txt: line 4: P2 "fly to the moon" is refused: “fly” is not an action`},
	}
	for _, c := range cases {
		code, _, stderr := meeple(append([]string{"import", "-db", db}, c.args...)...)
		if code != 1 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("import %s: exit %d, %q; want one line with %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Fatalf("import %s created the database", strings.Join(c.args, " "))
		}
	}
	// the same seats in order, and two computers alike, are fine
	if code, out, stderr := meeple("import", "-db", db, "-channel", channel, "-script", good, "-seats", ann+",ai:random,ai:random"); code != 0 || !strings.Contains(out, "imported eightydays game 1") {
		t.Fatalf("a good import: exit %d, %q, %q", code, out, stderr)
	}
}
