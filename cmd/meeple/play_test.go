package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlayCommandPlaysEightyDaysToTheEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var out, errs bytes.Buffer
	input := strings.NewReader("rules police\nmove 99\n" + strings.Repeat("1\n", 3000))
	err := playGame([]string{"-game", "eightydays", "-players", "3", "-seats", "human,heuristic,random", "-seed", "9", "-images", dir}, os.Getenv, input, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	text := out.String()
	for _, want := range []string{"Around the World in 80 Days: 3 players, seed 9", "Police spaces", "the track ends in London", "Game over."} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// a board at the start, after every round, before the person's turn
	// when the game has changed since the last one, at the end; and the
	// final scores
	boards, _ := filepath.Glob(filepath.Join(dir, "board-*.png"))
	rounds, turns := strings.Count(text, "— round "), strings.Count(text, "P1> ")
	if len(boards) < rounds+2 || len(boards) > rounds+2+turns || len(boards) != strings.Count(text, "board: ") {
		t.Errorf("%d board pictures for %d new rounds and %d prompts", len(boards), rounds, turns)
	}
	if _, err := os.Stat(filepath.Join(dir, "scores.png")); err != nil {
		t.Error(err)
	}
	script, err := os.ReadFile(filepath.Join(dir, "game.txt"))
	if err != nil || !strings.HasPrefix(string(script), "# game eightydays players 3 seed 9") {
		t.Fatalf("script: %v %q", err, script)
	}
	// the saved script replays with meeple replay
	var replayed bytes.Buffer
	if code := run(t.Context(), []string{"replay", "-game", "eightydays", "-players", "3", "-seed", "9", "-script", filepath.Join(dir, "game.txt")}, os.Getenv, &replayed, &errs); code != 0 {
		t.Fatalf("replay exit %d: %s", code, errs.String())
	}
	if !strings.Contains(replayed.String(), `"over": true`) {
		t.Fatal("the replayed game is not over")
	}
}

func TestPlayCommandRefusesBadSeats(t *testing.T) {
	t.Parallel()
	var out, errs bytes.Buffer
	for _, args := range [][]string{
		{"-game", "eightydays", "-players", "2", "-seats", "human,random,random"},
		{"-game", "eightydays", "-players", "2", "-seats", "human,oracle"},
		{"-game", "nosuchgame"},
	} {
		args = append(args, "-images", t.TempDir())
		if err := playGame(args, os.Getenv, strings.NewReader(""), &out, &errs); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
	// the error names the seat and the choices
	err := playGame([]string{"-game", "eightydays", "-players", "3", "-seats", "human,,heurstic", "-images", t.TempDir()}, os.Getenv, strings.NewReader(""), &out, &errs)
	if err == nil || err.Error() != `-seats: seat 2 is ""; each seat is human or a computer player: easy, heuristic, normal, random, strong` {
		t.Errorf("empty seat: %v", err)
	}
	// a refused setup leaves no folder behind
	images := filepath.Join(t.TempDir(), "pictures")
	if err := playGame([]string{"-game", "eightydays", "-players", "2", "-options", "variant=two-pawn", "-images", images}, os.Getenv, strings.NewReader(""), &out, &errs); err == nil {
		t.Error("bad variant accepted")
	}
	if _, err := os.Stat(images); !os.IsNotExist(err) {
		t.Errorf("the pictures folder was made for a refused game: %v", err)
	}
	// a script that cannot be written is refused before the game starts
	err = playGame([]string{"-game", "eightydays", "-script", filepath.Join(t.TempDir(), "no", "such", "x.txt"), "-images", t.TempDir()}, os.Getenv, strings.NewReader("move 4\n"), &out, &errs)
	if err == nil || !strings.HasPrefix(err.Error(), "-script: ") {
		t.Errorf("unwritable script: %v", err)
	}
	// capitals are fine
	if err := playGame([]string{"-game", "eightydays", "-players", "2", "-seats", "HUMAN, Random", "-images", t.TempDir()}, os.Getenv, strings.NewReader("quit\n"), &out, &errs); err != nil {
		t.Errorf("HUMAN, Random: %v", err)
	}
}

// TestPlayKeepsTheLatestPicturesInItsTemporaryFolder: without -images a
// whole game leaves three boards and the scores, not hundreds.
func TestPlayKeepsTheLatestPicturesInItsTemporaryFolder(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var out, errs bytes.Buffer
	if err := playGame([]string{"-game", "eightydays", "-players", "2", "-seats", "random,random", "-seed", "4"}, os.Getenv, strings.NewReader(""), &out, &errs); err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	folders, _ := filepath.Glob(filepath.Join(tmp, "meeple-play-*"))
	if len(folders) != 1 {
		t.Fatalf("folders %v", folders)
	}
	boards, _ := filepath.Glob(filepath.Join(folders[0], "board-*.png"))
	if drawn := strings.Count(out.String(), "board: "); len(boards) != defaultKeep || drawn < 10 || !strings.Contains(out.String(), "(the latest 3 kept)") {
		t.Fatalf("%d boards drawn, %d kept", drawn, len(boards))
	}
	if code := run(t.Context(), []string{"play", "-keep", "-2"}, os.Getenv, &out, &errs); code != 2 || !strings.Contains(errs.String(), "-keep is -2: give a number from 0 to 100000") {
		t.Fatalf("-keep -2: exit %d, %q", code, errs.String())
	}
}

func TestPlayTakesALanguage(t *testing.T) {
	t.Parallel()
	var out, errs strings.Builder
	err := playGame([]string{"-game", "eightydays", "-players", "2", "-seats", "human,random", "-images", t.TempDir(), "-lang", "fr"}, os.Getenv, strings.NewReader("help\n"), &out, &errs)
	if err != nil || !strings.Contains(out.String(), "help liste les commandes") || !strings.Contains(out.String(), "Commandes (tapées") {
		t.Fatalf("-lang fr: %v\n%s", err, out.String())
	}
	out.Reset()
	german := environ(map[string]string{"LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"})
	if err := playGame([]string{"-game", "eightydays", "-players", "2", "-seats", "human,random", "-images", t.TempDir()}, german, strings.NewReader(""), &out, &errs); err != nil ||
		!strings.Contains(out.String(), "help zeigt die Befehle") {
		t.Fatalf("LANG=de_DE.UTF-8: %v\n%s", err, out.String())
	}
	// -h names where the default comes from, not the environment's value
	posix := environ(map[string]string{"LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"})
	var help strings.Builder
	if code := run(t.Context(), []string{"play", "-h"}, posix, &help, &help); code != 2 || !strings.Contains(help.String(), "(default: from $LC_ALL, $LC_MESSAGES or $LANG, else en)") ||
		strings.Contains(help.String(), "C.UTF-8") {
		t.Errorf("play -h: exit %d\n%s", code, help.String())
	}
	for _, bad := range []string{"es", "klingon", "x"} {
		var flagErr *flagError
		if err := playGame([]string{"-game", "eightydays", "-images", t.TempDir(), "-lang", bad}, os.Getenv, strings.NewReader(""), &out, &errs); !errors.As(err, &flagErr) {
			t.Errorf("-lang %s: %v, want a command-line mistake", bad, err)
		}
	}
}
