package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

func TestRenderWritesBoardAndMats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(script, []byte("# nothing played yet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		game    string
		players string
		names   string
		want    []string
	}{
		{"crystalpalace", "3", "Ada,Brunel,Cole", []string{"board.png", "glance.png", "mat-p1.png", "mat-p2.png", "mat-p3.png"}},
		{"eightydays", "4", "Ada,Brunel,Cole,Dora", []string{"board.png", "glance.png"}},
	} {
		out := filepath.Join(dir, tc.game)
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), []string{"render", "-game", tc.game, "-players", tc.players, "-seed", "9", "-script", script,
			"-names", tc.names, "-out", out}, os.Getenv, &stdout, &stderr)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.game, code, stderr.String())
		}
		entries, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != len(tc.want) {
			t.Errorf("%s: wrote %d files, want %v", tc.game, len(entries), tc.want)
		}
		for _, name := range tc.want {
			data, err := os.ReadFile(filepath.Join(out, name))
			if err != nil {
				t.Fatalf("%s: %v", tc.game, err)
			}
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				t.Errorf("%s/%s: not a PNG: %v", tc.game, name, err)
			}
			if !strings.Contains(stdout.String(), name) {
				t.Errorf("%s: output does not list %s:\n%s", tc.game, name, stdout.String())
			}
		}
	}
}

func TestRenderRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("P1: fly to the moon\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"render", "-game", "eightydays", "-players", "3"},                                                  // no -out
		{"render", "-game", "chess", "-out", filepath.Join(dir, "x")},                                       // unknown game
		{"render", "-game", "eightydays", "-players", "3", "-script", bad, "-out", filepath.Join(dir, "y")}, // refused action
	} {
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), args, os.Getenv, &stdout, &stderr); code == 0 {
			t.Errorf("%v: exit 0, want a failure", args)
		}
		if stderr.Len() == 0 {
			t.Errorf("%v: no message on stderr", args)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "y")); !os.IsNotExist(err) {
		t.Errorf("a refused script still created the output folder (%v)", err)
	}
}

func TestRenderWritesScoresOfAFinishedGame(t *testing.T) {
	t.Parallel()
	reg, err := buildRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := reg.Lookup("eightydays")
	if err != nil {
		t.Fatal(err)
	}
	setup := engine.Setup{Players: 3, Seed: 4}
	state, err := rules.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	player, err := ai.Lookup(rules, "heuristic")
	if err != nil {
		t.Fatal(err)
	}
	rng := engine.NewRNG(setup.Seed)
	out, err := ai.PlayOut(state, []engine.Player{player, player, player}, &rng, 5000)
	if err != nil || !state.Over() {
		t.Fatalf("playout: over=%t, %v", state.Over(), err)
	}
	dir := t.TempDir()
	var script bytes.Buffer
	if err := engine.WriteScript(&script, rules.Name(), setup, out.Moves); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "game.txt")
	if err := os.WriteFile(path, script.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"render", "-game", "eightydays", "-players", "3", "-seed", "4", "-script", path,
		"-out", filepath.Join(dir, "out")}, os.Getenv, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, name := range []string{"board.png", "scores.png"} {
		data, err := os.ReadFile(filepath.Join(dir, "out", name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
