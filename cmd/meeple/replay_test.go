package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeScript(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReplayPrintsTheFinalState(t *testing.T) {
	// Seed 1 seats P2 first: P2 moves 3 spaces, then P1 moves 5.
	script := writeScript(t, "# two opening moves\nP2: move 3\nP1: move 5\n")
	status, stdout, stderr := meeple("replay", "-game", "eightydays", "-players", "2", "-seed", "1", "-script", script)
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	var out replayOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if out.Game != "eightydays" || out.Players != 2 || out.Actions != 2 || out.Over || len(out.State) == 0 {
		t.Fatalf("unexpected summary: %+v", out)
	}
}

func TestReplayStopsAtTheIllegalLine(t *testing.T) {
	// Seed 1 seats P2 first; line 3 moves P1 onto the space P2 occupies.
	script := writeScript(t, "P2: move 3\n\nP1: move 3\nP2: move 4\n")
	status, stdout, stderr := meeple("replay", "-game", "eightydays", "-players", "2", "-seed", "1", "-script", script)
	if status != 1 {
		t.Fatalf("status %d, want 1 (stdout %q)", status, stdout)
	}
	if !strings.Contains(stderr, "line 3") || !strings.Contains(stderr, "move 3") {
		t.Fatalf("stderr %q does not name line 3 and its action", stderr)
	}
}

func TestCommandLineMistakes(t *testing.T) {
	script := writeScript(t, "P1: move 3\n")
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"replay"}, 2, "-script is required"},
		{[]string{"replay", "-game", "chess", "-script", script}, 1, `unknown game "chess"`},
		{[]string{"replay", "-game", "eightydays", "-players", "9", "-script", script}, 2, "-players is 9: Around the World in 80 Days is for 2 to 6 players"},
		{[]string{"replay", "-game", "eightydays", "-script", "/no/such/file"}, 1, "no such file"},
		{[]string{"replay", "-game", "eightydays", "-players", "2", "-script", writeScript(t, "P3: move 3\n")}, 1, "P3 is not seated"},
		{[]string{"simulate", "-game", "eightydays", "-players", "3", "-ai", "random,random"}, 1, "-ai names 2 players"},
		{[]string{"simulate", "-game", "eightydays", "-ai", "genius"}, 1, `no computer player "genius"`},
		{[]string{"simulate", "-options", "nonsense"}, 1, "want name=value"},
		{[]string{"simulate", "extra"}, 2, `unexpected argument "extra"`},
	} {
		status, _, stderr := meeple(tc.args...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("meeple %v: status %d, stderr %q; want status %d and %q", tc.args, status, stderr, tc.status, tc.want)
		}
	}
}

func TestSimulateSummarisesGames(t *testing.T) {
	status, stdout, stderr := meeple("simulate", "-game", "eightydays", "-players", "3", "-games", "5", "-seed", "3", "-ai", "heuristic")
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	var sum simulateSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if sum.Games != 5 || sum.Finished+sum.Stalled != 5 || sum.Actions == 0 || sum.MeanTurns <= 0 {
		t.Fatalf("implausible summary: %+v", sum)
	}
	wins := 0
	for _, w := range sum.WinsBySeat {
		wins += w
	}
	if wins < sum.Finished {
		t.Fatalf("%d finished games but only %d wins", sum.Finished, wins)
	}
}

func TestReplayTakesTheSetupFromTheScriptHeader(t *testing.T) {
	// The header names a 3-player game with seed 9; flags are not needed,
	// and a flag given on the command line wins over the header.
	script := writeScript(t, "# game eightydays players 3 seed 9\n")
	status, stdout, stderr := meeple("replay", "-script", script)
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	var out replayOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Game != "eightydays" || out.Players != 3 || out.Seed != 9 {
		t.Fatalf("header not adopted: %+v", out)
	}
	status, stdout, _ = meeple("replay", "-script", script, "-seed", "4")
	if err := json.Unmarshal([]byte(stdout), &out); status != 0 || err != nil || out.Seed != 4 {
		t.Fatalf("-seed 4 did not win over the header: status %d, %+v", status, out)
	}
}
