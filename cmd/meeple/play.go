package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/terminal"
)

// How many boards "meeple play" keeps in its temporary folder, and at
// most when asked (a whole game draws a few hundred).
const (
	defaultKeep = 3
	maxKeep     = 100_000
)

func runPlay(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return playGame(args, getenv, os.Stdin, stdout, stderr)
}

// playGame is "meeple play" reading the players' commands from stdin.
func playGame(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("play", stderr)
	gf := addGameFlags(fs)
	seed := fs.Lookup("seed")
	seed.Usage, seed.DefValue = "random seed; without it every game is new (its seed is printed at the start)", "0"
	seats := fs.String("seats", "", "who plays each seat, comma-separated: human or a computer player (easy, normal, strong, random); "+
		"missing seats are normal; default: human then normal")
	think := fs.Duration("think", 0, "thinking budget per decision of the normal and strong computer players; 0 for each level's own (normal 100ms, strong 1s)")
	images := fs.String("images", "", "folder for the board and mat pictures (default: a new temporary folder)")
	keep := fs.Int("keep", defaultKeep, fmt.Sprintf("how many of the latest boards (with their mats) to keep, 0 for all; "+
		"default %d in the temporary folder, all in a folder named with -images", defaultKeep))
	script := fs.String("script", "", "file the game's script is saved to (default: game.txt in the images folder)")
	lang := addLangFlag(fs, "the session's words")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := errors.Join(inRange("keep", *keep, 0, maxKeep), thinkInRange(*think)); err != nil {
		return err
	}
	if *images != "" && !flagSet(fs, "keep") {
		*keep = 0 // a folder the player named keeps every picture
	}
	printer, err := lang.printer(fs, getenv)
	if err != nil {
		return err
	}
	rules, setup, err := gf.setup()
	if err != nil {
		return err
	}
	if !flagSet(fs, "seed") {
		setup.Seed = uint64(time.Now().UnixNano())
	}
	kinds, err := seatKinds(*seats, setup.Players, ai.Names(rules))
	if err != nil {
		return err
	}
	// a setup the game refuses (a bad option) stops here, before any folder is made
	if _, err := rules.New(setup); err != nil {
		return worded(printer, rules, err)
	}
	dir := *images
	if dir == "" {
		if dir, err = os.MkdirTemp("", "meeple-play-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := *script
	if path == "" {
		path = filepath.Join(dir, "game.txt")
	}
	// find out now, not after the game, that the script cannot be saved
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		if *images == "" {
			os.Remove(dir) // the empty folder made for this game
		}
		return fmt.Errorf("-script: %w", err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	renderer, err := imaging.New()
	if err != nil {
		return err
	}
	return terminal.Play(terminal.Config{
		Rules: rules, Setup: setup, Seats: kinds, In: stdin, Out: stdout,
		Color: colorful(stdout, getenv), Clear: isTerminal(stdout), Echo: !isTerminal(stdin), Width: screenWidth(stdout, getenv),
		Images: dir, Renderer: renderer, Keep: *keep, Script: path, Words: printer, ThinkMS: int(think.Milliseconds()),
	})
}

// langFlag is a command's -lang: the language of what it writes.
type langFlag struct{ value *string }

// addLangFlag adds -lang to fs for the language of what. Its help shows
// no default value: the environment's (often "C" or "C.UTF-8") says
// nothing to a reader of -h.
func addLangFlag(fs *flag.FlagSet, what string) langFlag {
	return langFlag{fs.String("lang", "", "language of "+what+": en, de or fr (default: from $LC_ALL, $LC_MESSAGES or $LANG, else en)")}
}

// printer is the catalogue printer of the language given, else of the
// environment's locale (English for any other); a -lang Meeple does not
// speak is refused.
func (l langFlag) printer(fs *flag.FlagSet, getenv func(string) string) (*locale.Printer, error) {
	words, err := locale.New()
	if err != nil {
		return nil, err
	}
	if !flagSet(fs, "lang") {
		return words.For(posixLocale(getenv)), nil
	}
	printer := words.For(*l.value)
	if !strings.HasPrefix(strings.ToLower(*l.value), printer.Lang()) {
		return nil, badFlag("lang", *l.value, "give one of "+strings.Join(words.Languages(), ", "))
	}
	return printer, nil
}

// posixLocale is the locale POSIX gives messages: LC_ALL, else
// LC_MESSAGES, else LANG ("" when none is set).
func posixLocale(getenv func(string) string) string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if l := getenv(v); l != "" {
			return l
		}
	}
	return ""
}

// screenWidth is the width of the terminal w is, else $COLUMNS, else 0.
func screenWidth(w io.Writer, getenv func(string) string) int {
	if f, ok := fileOf(w); ok && isTerminal(f) {
		if n := terminal.ScreenWidth(f); n > 0 {
			return n
		}
	}
	n, _ := strconv.Atoi(getenv("COLUMNS"))
	return n
}

// seatKinds reads -seats: one entry per seat, each human or one of the
// computer players named in computers, the missing ones normal.
func seatKinds(list string, players int, computers []string) ([]string, error) {
	kinds := []string{terminal.Human}
	if strings.TrimSpace(list) != "" {
		kinds = strings.Split(list, ",")
	}
	if len(kinds) > players {
		return nil, fmt.Errorf("-seats names %d seats, the game has %d players", len(kinds), players)
	}
	for i := range kinds {
		kinds[i] = strings.ToLower(strings.TrimSpace(kinds[i]))
		if kinds[i] != terminal.Human && !slices.Contains(computers, kinds[i]) {
			return nil, fmt.Errorf("-seats: seat %d is %q; each seat is %s or a computer player: %s", i+1, kinds[i], terminal.Human, strings.Join(computers, ", "))
		}
	}
	for len(kinds) < players {
		kinds = append(kinds, "normal")
	}
	return kinds, nil
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// colorful reports whether w is a terminal that wants colours (NO_COLOR unset).
func colorful(w io.Writer, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" {
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether f writes to a terminal (a character
// device), through the redaction main puts around stdout and stderr.
func isTerminal(f any) bool {
	file, ok := fileOf(f)
	if !ok {
		return false
	}
	info, err := file.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// fileOf returns the file f is or writes to: main wraps stdout and stderr
// in redacting, and a terminal is known by the file beneath.
func fileOf(f any) (*os.File, bool) {
	if r, ok := f.(redacting); ok {
		f = r.w
	}
	file, ok := f.(*os.File)
	return file, ok
}
