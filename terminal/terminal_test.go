package terminal_test

import (
	"bytes"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/terminal"
	"github.com/meeplegames/meeple/wording"
)

// pictures is the real renderer the bot uses.
func pictures(t *testing.T) terminal.Renderer {
	t.Helper()
	r, err := imaging.New()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func eightyDays(t *testing.T) engine.Rules {
	t.Helper()
	c, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return eightydays.NewRules(c)
}

// play runs a session on input and returns it with its output.
func play(t *testing.T, cfg terminal.Config, input string) (*terminal.Session, string) {
	t.Helper()
	var out bytes.Buffer
	cfg.In, cfg.Out, cfg.Echo = strings.NewReader(input), &out, true
	if cfg.Script == "" {
		cfg.Script = filepath.Join(t.TempDir(), "game.txt")
	}
	s, err := terminal.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	return s, out.String()
}

// replay applies a saved script to a new game and returns the state.
func replay(t *testing.T, rules engine.Rules, path string) engine.State {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, _ := os.ReadFile(path)
	header, _, _ := strings.Cut(string(data), "\n")
	game, setup, ok := engine.ScriptHeader(header)
	if !ok || game != rules.Name() {
		t.Fatalf("script header %q", header)
	}
	moves, err := engine.ReadScript(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := rules.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		if _, err := s.Apply(m.Seat, m.Action); err != nil {
			t.Fatalf("replaying %v: %v", m, err)
		}
	}
	return s
}

// sameState fails unless the replayed state equals the played one.
func sameState(t *testing.T, replayed, played engine.State) {
	t.Helper()
	a, _ := replayed.Encode()
	b, _ := played.Encode()
	if !bytes.Equal(a, b) {
		t.Fatal("the saved script does not replay to the game as played")
	}
}

func TestFullEightyDaysGameWithBadInputInTheMiddle(t *testing.T) {
	rules := eightyDays(t)
	script := filepath.Join(t.TempDir(), "saved.txt")
	input := "help\nrules\nrules bet\nrules casino\nfly 3\nmove 80\n99\nlog\nview\nsave " + script + "\n" + strings.Repeat("1\n", 3000)
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 3, Seed: 11},
		Seats: []string{terminal.Human, "heuristic", "random"},
	}, input)
	for _, want := range []string{
		"P1 (you)",                       // the view, from P1's side
		"1. move",                        // numbered actions
		"save FILE",                      // help
		"Topics: overview, goal, moving", // rules without a topic
		"Bet spaces (1, 2, 3, 4/5/6)",
		`no topic "casino"`,
		"“fly” is not an action", // the engine's reasons
		"spaces costs",
		"there is no action 99",
		"Script saved to " + script,
		"Game over. Winner: ",
		"The game is over. Press Enter (or type quit) to leave.\n1\n", // one more line read, not left to the shell
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !s.State().Over() {
		t.Fatal("the game did not end")
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour codes in plain output")
	}
	// the script saved at the end replays to the same final state
	final := replay(t, rules, s.Config().Script)
	sameState(t, final, s.State())
	if !final.Over() {
		t.Fatal("replayed game not over")
	}
}

func TestEndOfInputSavesTheScriptAndStops(t *testing.T) {
	rules := eightyDays(t)
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 2, Seed: 3},
		Seats: []string{terminal.Human, "random"},
	}, "1\n1\n")
	if !strings.Contains(out, "End of input.") || !strings.Contains(out, "Script saved to") {
		t.Fatalf("output:\n%s", out)
	}
	if s.State().Over() {
		t.Fatal("the game cannot be over")
	}
	moves := s.Moves()
	humans := 0
	for _, m := range moves {
		if m.Seat == 0 {
			humans++
		}
	}
	if humans < 2 {
		t.Fatalf("moves %v: want both typed actions", moves)
	}
	sameState(t, replay(t, rules, s.Config().Script), s.State())
}

func TestUndoTakesBackTheLastActionUntilSomethingIsRevealed(t *testing.T) {
	rules := eightyDays(t)
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 2, Seed: 1},
		Seats: []string{terminal.Human, "random"},
	}, "undo\nmove 3\nundo\nundo\nquit\n")
	if !strings.Contains(out, "nothing to undo: you have not played yet") {
		t.Fatalf("undo before playing:\n%s", out)
	}
	if !strings.Contains(out, "Undone: back to before your last action.") {
		t.Fatalf("no undo:\n%s", out)
	}
	if !strings.Contains(out, "nothing to undo") {
		t.Fatal("a second undo must be refused")
	}
	for _, m := range s.Moves() {
		if m.Seat == 0 {
			t.Fatalf("P1's move survived the undo: %v", s.Moves())
		}
	}
	// drawing a card reveals it: no undo past it
	_, out = play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 2, Seed: 1},
		Seats: []string{terminal.Human, "random"},
	}, "move 5\nundo\nkeep 1\nquit\n")
	if strings.Contains(out, "Undone") || !strings.Contains(out, "nothing to undo: something hidden was revealed since your last action") {
		t.Fatalf("undo after a card was drawn:\n%s", out)
	}
}

func TestHotSeatHandsTheKeyboardOver(t *testing.T) {
	rules := eightyDays(t)
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 3, Seed: 4},
		Seats: []string{terminal.Human, terminal.Human, "heuristic"},
	}, strings.Repeat("1\n", 4000))
	if !strings.Contains(out, "Pass the keyboard to P1") || !strings.Contains(out, "Pass the keyboard to P2") {
		t.Fatal("no hand-over between the two people")
	}
	if !s.State().Over() {
		t.Fatalf("hot-seat game did not end:\n%s", out[max(0, len(out)-2000):])
	}
	// each person's view names them as "you" only after their hand-over
	for _, chunk := range strings.Split(out, "Pass the keyboard to ")[1:] {
		who := chunk[:2]
		other := map[string]string{"P1": "P2", "P2": "P1"}[who]
		if strings.Contains(chunk, other+" (you)") {
			t.Fatalf("after handing over to %s the screen shows %s's view", who, other)
		}
	}
}

func TestQuitSavesAndColourIsOptional(t *testing.T) {
	rules := eightyDays(t)
	_, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 2, Seed: 2}, Color: true,
		Seats: []string{terminal.Human, "heuristic"},
	}, "quit\n")
	if !strings.Contains(out, "\x1b[") || !strings.Contains(out, "Script saved to") {
		t.Fatalf("coloured quit:\n%s", out)
	}
}

func TestBadConfiguration(t *testing.T) {
	rules := eightyDays(t)
	for _, cfg := range []terminal.Config{
		{Rules: rules, Setup: engine.Setup{Players: 2}, Seats: []string{terminal.Human}},
		{Rules: rules, Setup: engine.Setup{Players: 2}, Seats: []string{terminal.Human, "genius"}},
		{Rules: rules, Setup: engine.Setup{Players: 9}, Seats: make([]string, 9)},
	} {
		cfg.In, cfg.Out = strings.NewReader(""), &bytes.Buffer{}
		if _, err := terminal.New(cfg); err == nil {
			t.Errorf("%v accepted", cfg.Seats)
		}
	}
}

func crystalPalace(t *testing.T) engine.Rules {
	t.Helper()
	c, err := crystalpalace.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return crystalpalace.NewRules(c)
}

func TestFullCrystalPalaceGameAgainstComputers(t *testing.T) {
	rules := crystalPalace(t)
	dir := t.TempDir()
	input := "dice 7 7 7 7\nrules\n99999\n" + strings.Repeat("1\n", 3000)
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 3, Seed: 5},
		Seats: []string{terminal.Human, "heuristic", "random"}, Images: dir, Renderer: pictures(t),
	}, input)
	if !s.State().Over() {
		t.Fatalf("the game did not end:\n%s", out[max(0, len(out)-3000):])
	}
	for _, want := range []string{"Crystal Palace", "Your mat", "choose the values of ", "✗ ", "there is no action 99999", "Topics: ", "Game over. Winner: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	sameState(t, replay(t, rules, s.Config().Script), s.State())
	boards, _ := filepath.Glob(filepath.Join(dir, "board-*.png"))
	mats, _ := filepath.Glob(filepath.Join(dir, "mat-P1-*.png"))
	glances, _ := filepath.Glob(filepath.Join(dir, "glance-*.png"))
	if len(boards) < 3*5 || len(mats) != len(boards) || len(glances) != len(boards) {
		t.Fatalf("%d boards, %d glances and %d mats for a 5-round game; want one of each at the start and after every phase", len(boards), len(glances), len(mats))
	}
	if !strings.Contains(out, "glance: "+glances[0]) {
		t.Errorf("the output does not name the glance %s", glances[0])
	}
	for _, path := range []string{boards[0], glances[len(glances)-1], mats[len(mats)-1], filepath.Join(dir, "scores.png")} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 400 {
			t.Fatalf("%s is only %v", path, b)
		}
	}
}

func TestHotSeatSecretDiceStayHidden(t *testing.T) {
	rules := crystalPalace(t)
	input := "\ndice 5 4 3 2\n\ndice 6 6 1 1\nquit\n"
	_, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 3, Seed: 8}, Clear: true,
		Seats: []string{terminal.Human, terminal.Human, "heuristic"},
	}, input)
	if strings.Count(out, "\x1b[2J") < 2 {
		t.Fatal("the screen is not cleared between the two people")
	}
	_, p2, ok := strings.Cut(out, "Pass the keyboard to P2")
	if !ok {
		t.Fatalf("no hand-over to P2:\n%s", out)
	}
	before, _, ok := strings.Cut(p2, "P2> dice 6 6 1 1")
	if !ok {
		t.Fatalf("P2 was not asked for dice:\n%s", p2)
	}
	if strings.Contains(before, "5 4 3 2") {
		t.Fatalf("P2's screen shows P1's secret dice before the reveal:\n%s", before)
	}
	if !strings.Contains(before, "P2 (you)") || !strings.Contains(before, "Your mat") {
		t.Fatalf("P2 does not see their own view:\n%s", before)
	}
	// once everyone has chosen, the dice are revealed to all
	if !strings.Contains(p2, "5 4 3 2") {
		t.Fatal("the reveal never showed P1's dice")
	}
}

func TestTypedActionsAreSavedInCanonicalText(t *testing.T) {
	rules := eightyDays(t)
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 2, Seed: 1},
		Seats: []string{terminal.Human, "random"},
	}, "  MOVE   3 \nquit\n")
	data, err := os.ReadFile(s.Config().Script)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\nP1: move 3\n") {
		t.Fatalf("script:\n%s", data)
	}
	// the saved message gives the whole command that replays it
	if !strings.Contains(out, "meeple replay -game eightydays -players 2 -seed 1 -script "+s.Config().Script) {
		t.Fatalf("no replay command:\n%s", out)
	}
}

func TestActionsSayWhatTheyCostAndTyposPointToHelp(t *testing.T) {
	_, out := play(t, terminal.Config{
		Rules: eightyDays(t), Setup: engine.Setup{Players: 2, Seed: 1},
		Seats: []string{terminal.Human, "random"},
	}, "hlep\nquit\n")
	// London to space 3 is 3 spaces: 6 £
	if !regexp.MustCompile(`\d\. move 3 +pay 6 £ · Bet 4/5/6\n`).MatchString(out) {
		t.Fatalf("move 3 not described:\n%s", out)
	}
	_, after, _ := strings.Cut(out, "P1> hlep\n")
	if !strings.HasPrefix(after, "✗ “hlep” is not an action") || !strings.Contains(after, "help lists the commands") {
		t.Fatalf("after a typo:\n%s", after)
	}
	if strings.Count(after, "1. move") != 0 {
		t.Fatal("a typo lists every action again")
	}
}

func TestLongListsFitTheScreenAndKeepPass(t *testing.T) {
	input := "rules\nrules  Dice\ndice 6 5 3 1\nquit\n"
	_, out := play(t, terminal.Config{
		Rules: crystalPalace(t), Setup: engine.Setup{Players: 3, Seed: 7}, Width: 100,
		Seats: []string{terminal.Human, "heuristic", "heuristic"},
	}, input)
	_, topics, _ := strings.Cut(out, "P1> rules\n")
	topics, _, _ = strings.Cut(topics, "P1> ")
	for _, line := range strings.Split(topics, "\n") {
		if len([]rune(line)) > 100 {
			t.Errorf("the topics run off the screen: %q", line)
		}
	}
	// a word that is no topic finds the topics that speak of it
	if !regexp.MustCompile(`No topic "dice"; these mention it: [^\n]*phase 1`).MatchString(out) {
		t.Errorf("rules dice:\n%s", out)
	}
	_, place, ok := strings.Cut(out, "place a die or pass:\n")
	if !ok {
		t.Fatalf("no placement prompt:\n%s", out)
	}
	place, _, _ = strings.Cut(place, "P1> ")
	for _, line := range strings.Split(place, "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("line of %d characters on a 100-character screen: %q", n, line)
		}
	}
	if !regexp.MustCompile(`\d+\. pass\b`).MatchString(place) {
		t.Errorf("pass is not listed:\n%s", place)
	}
	if !strings.Contains(place, "more: type the action itself, e.g. place ") {
		t.Errorf("no word on the actions not listed:\n%s", place)
	}
	if rows := strings.Count(place, "\n"); rows > 15+5 { // 15 rows, a note, the free actions
		t.Errorf("%d lines of actions", rows)
	}
}

func TestHotSeatClearsTheScrollbackAndRecapsWhatHappened(t *testing.T) {
	input := "\ndice 5 4 3 2\n\ndice 6 6 1 1\n\nquit\n"
	_, out := play(t, terminal.Config{
		Rules: crystalPalace(t), Setup: engine.Setup{Players: 3, Seed: 8}, Clear: true,
		Seats: []string{terminal.Human, terminal.Human, "heuristic"},
	}, input)
	if strings.Count(out, "\x1b[3J") < 3 {
		t.Fatal("the scrollback, which holds the last person's dice, is not cleared")
	}
	// the third hand-over comes after the reveal: P1 reads it there
	parts := strings.Split(out, "Pass the keyboard to ")
	if len(parts) < 4 {
		t.Fatalf("%d hand-overs", len(parts)-1)
	}
	third := parts[3]
	if !strings.Contains(third, "Since the last hand-over:") || !strings.Contains(third, "dice revealed: P1: 5 4 3 2; P2: 6 6 1 1") {
		t.Fatalf("no recap of the reveal after the hand-over:\n%s", third)
	}
}

func TestPicturesShowTheGameAsThePersonDecides(t *testing.T) {
	rules := eightyDays(t)
	dir := t.TempDir()
	r := pictures(t)
	s, _ := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 3, Seed: 42}, Images: dir, Renderer: r,
		Seats: []string{terminal.Human, "heuristic", "heuristic"},
	}, "move 4\nquit\n")
	boards, _ := filepath.Glob(filepath.Join(dir, "board-*.png"))
	if len(boards) == 0 {
		t.Fatal("no board")
	}
	last, err := os.ReadFile(boards[len(boards)-1])
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"P1", "P2 heuristic", "P3 heuristic"}
	now, err := r.Board(s.State().View(engine.Spectator), englishWords(t, rules, names))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(last, now) {
		t.Fatalf("the last of %d boards is not the game P1 was asked about", len(boards))
	}
}

// TestUndoThenTheSameMoveGetsTheSameComputerChoices plays a move, takes it
// back and plays it again: the computers answer as they did the first
// time, in both games, so undo cannot fish for better computer moves.
func TestUndoThenTheSameMoveGetsTheSameComputerChoices(t *testing.T) {
	for _, tc := range []struct {
		rules       engine.Rules
		before, act string
	}{
		{eightyDays(t), "", "move 3\n"},
		{crystalPalace(t), "1\n", "1\n"},
	} {
		t.Run(tc.rules.Name(), func(t *testing.T) {
			cfg := terminal.Config{Rules: tc.rules, Setup: engine.Setup{Players: 3, Seed: 7}, Seats: []string{terminal.Human, "random", "random"}}
			once, _ := play(t, cfg, tc.before+tc.act+"quit\n")
			twice, out := play(t, cfg, tc.before+tc.act+"undo\n"+tc.act+"quit\n")
			if !strings.Contains(out, "Undone") {
				t.Fatalf("the move was not undone:\n%s", out)
			}
			a, b := once.Moves(), twice.Moves()
			if len(a) < 3 || !slices.Equal(a, b) {
				t.Fatalf("after undo and the same move the computers chose\n%v\nthe first time\n%v", b, a)
			}
		})
	}
}

// TestAComputerGameIsTheSimulatedOne lets computers play a whole game in
// the terminal: it is move for move the game ai.PlayOutAt (and so meeple
// simulate) plays with the same seed.
func TestAComputerGameIsTheSimulatedOne(t *testing.T) {
	// heuristic travellers always come home; random ones may not
	for _, tc := range []struct {
		rules    engine.Rules
		computer string
	}{{eightyDays(t), "heuristic"}, {crystalPalace(t), "random"}} {
		rules := tc.rules
		t.Run(rules.Name(), func(t *testing.T) {
			setup := engine.Setup{Players: 3, Seed: 9}
			s, _ := play(t, terminal.Config{Rules: rules, Setup: setup, Seats: []string{tc.computer, tc.computer, tc.computer}}, "")
			if !s.State().Over() {
				t.Fatal("the computers did not finish")
			}
			state, err := rules.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			player, err := ai.Lookup(rules, tc.computer)
			if err != nil {
				t.Fatal(err)
			}
			out, err := ai.PlayOutAt(state, []engine.Player{player, player, player}, setup.Seed, 0, 100000)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out.Moves, s.Moves()) {
				t.Fatalf("the terminal played %d actions, the play-out %d, and they differ", len(s.Moves()), len(out.Moves))
			}
		})
	}
}

// A refused placement says why and does not reprint the long list.
func TestRefusedPlacementDoesNotReprintTheList(t *testing.T) {
	_, out := play(t, terminal.Config{
		Rules: crystalPalace(t), Setup: engine.Setup{Players: 2, Seed: 3},
		Seats: []string{terminal.Human, "heuristic"},
	}, "dice 6 1 1 1\nplace 6 westminster 9\nquit\n")
	_, after, ok := strings.Cut(out, "P1> place 6 westminster 9\n")
	if !ok {
		t.Fatalf("the placement was not asked for:\n%s", out)
	}
	after, _, _ = strings.Cut(after, "P1>")
	if !strings.HasPrefix(after, "✗ ") || strings.Contains(after, "1. ") {
		t.Fatalf("after a refused placement:\n%s", after)
	}
}

// listedAction is an entry of a list of numbered actions.
var listedAction = regexp.MustCompile(`\d+\. dice [1-6]( [1-6])*`)

// withoutActionLists is out without the lists of actions offered, which
// hold every possible dice choice.
func withoutActionLists(out string) string {
	return listedAction.ReplaceAllString(out, "")
}

// scriptLines are the moves of a saved script, without its comments.
func scriptLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

func TestHotSeatSaveLeavesOutTheOtherSeatsSecretDice(t *testing.T) {
	rules := crystalPalace(t)
	dir := t.TempDir()
	early, late := filepath.Join(dir, "early.txt"), filepath.Join(dir, "late.txt")
	// P1 chooses, P2 saves twice, ends the input at its own prompt: the
	// quit script is P2's too
	input := "\ndice 6 6 1 1\n\nsave " + early + "\nsave " + late + "\nlog all\nview\n"
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 2, Seed: 7},
		Seats: []string{terminal.Human, terminal.Human},
	}, input)
	_, p2, _ := strings.Cut(out, "Pass the keyboard to P2")
	if strings.Contains(withoutActionLists(p2), "6 6 1 1") {
		t.Fatalf("P2's screen (log, view, save) shows P1's dice:\n%s", p2)
	}
	for _, path := range []string{early, late, s.Config().Script} {
		if lines := scriptLines(t, path); len(lines) != 0 {
			t.Fatalf("%s holds %q before the reveal", path, lines)
		}
		data, _ := os.ReadFile(path)
		if !strings.Contains(string(data), "1 action by P1 left out: secret until the reveal") {
			t.Fatalf("%s does not say what it leaves out:\n%s", path, data)
		}
		// it replays to the secret phase, P1 still to choose
		st := replay(t, rules, path)
		if ps := st.Prompts(); len(ps) != 2 || !ps[0].Secret {
			t.Fatalf("%s replays to %v", path, ps)
		}
	}
	if !strings.Contains(out, "1 action by P1 left out (secret: the game ends before its reveal)") {
		t.Fatalf("the quit save does not say what it left out:\n%s", out)
	}
}

func TestASavedScriptIsWrittenInFullOnceTheDiceAreRevealed(t *testing.T) {
	rules := crystalPalace(t)
	dir := t.TempDir()
	saved := filepath.Join(dir, "saved.txt")
	input := "\ndice 6 6 1 1\n\nsave " + saved + "\ndice 5 4 3 2\nquit\n"
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 2, Seed: 7},
		Seats: []string{terminal.Human, terminal.Human},
	}, input)
	if !strings.Contains(out, saved+" now holds the revealed choices too") {
		t.Fatalf("no word of the rewritten script:\n%s", out)
	}
	// the file is the game as it was when saved: P1's choice, not P2's later one
	if got := scriptLines(t, saved); !slices.Equal(got, []string{"P1: dice 6 6 1 1"}) {
		t.Fatalf("after the reveal the script holds %q", got)
	}
	data, _ := os.ReadFile(saved)
	if strings.Contains(string(data), "left out") {
		t.Fatalf("the full script still says something is left out:\n%s", data)
	}
	want, err := rules.New(engine.Setup{Players: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := want.Apply(0, "dice 6 6 1 1"); err != nil {
		t.Fatal(err)
	}
	sameState(t, replay(t, rules, saved), want)
	// the quit script, after the reveal, holds everything
	sameState(t, replay(t, rules, s.Config().Script), s.State())
}

func TestASoloPlayerCannotReadTheComputersDiceFromTheScript(t *testing.T) {
	rules := crystalPalace(t)
	saved := filepath.Join(t.TempDir(), "saved.txt")
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 3, Seed: 5},
		Seats: []string{terminal.Human, "heuristic", "random"},
	}, "save "+saved+"\n")
	computers := 0
	for _, m := range s.Moves() {
		if m.Seat != 0 && strings.HasPrefix(m.Action, "dice ") {
			computers++
			if strings.Contains(withoutActionLists(out), strings.TrimPrefix(m.Action, "dice ")) {
				t.Fatalf("the screen shows %v", m)
			}
		}
	}
	if computers != 2 {
		t.Fatalf("the computers chose %d times before P1 was asked; want 2", computers)
	}
	for _, path := range []string{saved, s.Config().Script} {
		if lines := scriptLines(t, path); len(lines) != 0 {
			t.Fatalf("%s holds the computers' choices %q", path, lines)
		}
		data, _ := os.ReadFile(path)
		if !strings.Contains(string(data), "2 actions by P2 heuristic, P3 random left out") {
			t.Fatalf("%s:\n%s", path, data)
		}
	}
}

// TestSaveNotesFitTheScreen: the note of the secret actions a save leaves
// out wraps to the screen in every language.
func TestSaveNotesFitTheScreen(t *testing.T) {
	words, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	const width = 60
	dir := t.TempDir()
	saved := filepath.Join(dir, "a-rather-long-folder-name", "and-a-long-script-name.txt")
	if err := os.MkdirAll(filepath.Dir(saved), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, lang := range words.Languages() {
		_, out := play(t, terminal.Config{
			Rules: crystalPalace(t), Setup: engine.Setup{Players: 3, Seed: 5}, Words: words.For(lang), Width: width,
			Script: filepath.Join(dir, "game.txt"),
			Seats:  []string{terminal.Human, "heuristic", "random"},
		}, "save "+saved+"\nquit\n")
		_, notes, _ := strings.Cut(out, "save "+saved+"\n")
		if notes == "" {
			t.Fatalf("%s: no save:\n%s", lang, out)
		}
		for _, line := range strings.Split(notes, "\n") {
			if strings.Contains(line, dir) {
				continue // a path and the command to replay it stay whole, to be copied
			}
			if n := len([]rune(line)); n > width {
				t.Errorf("%s: a line of %d characters on a %d-character screen: %q", lang, n, width, line)
			}
		}
	}
}

// TestThreePeopleEachSeeOnlyTheirOwnChoice: the third person to choose
// saves a script without the first two choices.
func TestThreePeopleEachSeeOnlyTheirOwnChoice(t *testing.T) {
	rules := crystalPalace(t)
	saved := filepath.Join(t.TempDir(), "saved.txt")
	_, _ = play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 3, Seed: 5},
		Seats: []string{terminal.Human, terminal.Human, terminal.Human},
	}, "\ndice 6 6 1 1\n\ndice 5 4 3 2\n\nsave "+saved+"\n")
	data, _ := os.ReadFile(saved)
	if lines := scriptLines(t, saved); len(lines) != 0 || !strings.Contains(string(data), "2 actions by P1, P2 left out") {
		t.Fatalf("P3's script:\n%s", data)
	}
}

func TestOnlyTheLatestPicturesAreKept(t *testing.T) {
	rules := crystalPalace(t)
	dir := t.TempDir()
	s, out := play(t, terminal.Config{
		Rules: rules, Setup: engine.Setup{Players: 2, Seed: 5}, Keep: 2,
		Seats: []string{terminal.Human, "heuristic"}, Images: dir, Renderer: pictures(t),
	}, strings.Repeat("1\n", 3000))
	if !s.State().Over() || !strings.Contains(out, "(the latest 2 kept)") {
		t.Fatalf("the game did not end, or does not say what it keeps:\n%s", out[:min(len(out), 2000)])
	}
	boards, _ := filepath.Glob(filepath.Join(dir, "board-*.png"))
	mats, _ := filepath.Glob(filepath.Join(dir, "mat-*.png"))
	glances, _ := filepath.Glob(filepath.Join(dir, "glance-*.png"))
	if strings.Count(out, "board: ") < 10 || len(boards) != 2 || len(mats) != 2 || len(glances) != 2 {
		t.Fatalf("%d boards drawn; %v and %v kept", strings.Count(out, "board: "), boards, mats)
	}
	// the kept ones are the latest, each board with its mat
	last := strings.LastIndex(out, "board: ")
	if !strings.Contains(out[last:], boards[1]) || strings.TrimPrefix(filepath.Base(mats[1]), "mat-P1-") != strings.TrimPrefix(filepath.Base(boards[1]), "board-") {
		t.Fatalf("kept %v and %v", boards, mats)
	}
	if _, err := os.Stat(filepath.Join(dir, "scores.png")); err != nil {
		t.Fatal(err)
	}
	if _, err := terminal.New(terminal.Config{Rules: rules, Setup: engine.Setup{Players: 2}, Seats: []string{"human", "human"},
		In: strings.NewReader(""), Out: io.Discard, Keep: -1}); err == nil {
		t.Fatal("keeping -1 pictures is accepted")
	}
}

// TestAMissedRulesTopicListsTheGamesTopics: the two games have topics of
// their own; asking one game for the other's lists this game's.
func TestAMissedRulesTopicListsTheGamesTopics(t *testing.T) {
	for _, tc := range []struct {
		rules engine.Rules
		ask   string
		want  []string
	}{
		{eightyDays(t), "westminster", []string{`no topic "westminster" and none mentions it. Around the World in 80 Days's topics: overview, goal, moving,`}},
		{eightyDays(t), "overview", []string{"Around the World in 80 Days in brief"}},
		{crystalPalace(t), "london", []string{`No topic "london"; these mention it:`, "Crystal Palace's topics: overview, phases,"}},
		{crystalPalace(t), "overview", []string{"Crystal Palace"}},
		{eightyDays(t), "goal", []string{"The goal"}},
	} {
		_, out := play(t, terminal.Config{Rules: tc.rules, Setup: engine.Setup{Players: 2, Seed: 1}, Seats: []string{terminal.Human, "random"}, Width: 300},
			"rules "+tc.ask+"\nquit\n")
		for _, want := range tc.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s, rules %s: output lacks %q", tc.rules.Title(), tc.ask, want)
			}
		}
	}
}

// TestTheSessionSpeaksTheChosenLanguage plays a few commands in German and
// in French: the session's own words change, refusals' reasons too, the
// commands typed do not.
func TestTheSessionSpeaksTheChosenLanguage(t *testing.T) {
	words, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{locale.German, []string{"help zeigt die Befehle", "Befehle (werden in jeder Sprache gleich getippt)", "es gibt keine Aktion 999", "79 Felder weit zu ziehen kostet", "Ende der Eingabe."}},
		{locale.French, []string{"help liste les commandes", "Commandes (tapées de la même façon", "il n’y a pas d’action 999", "avancer de 79 cases coûte", "Fin de l’entrée."}},
	} {
		_, out := play(t, terminal.Config{Rules: eightyDays(t), Setup: engine.Setup{Players: 2, Seed: 7}, Seats: []string{terminal.Human, "random"},
			Words: words.For(tc.lang)}, "help\n999\nmove 79\n")
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the session never says %q:\n%s", tc.lang, w, out)
			}
		}
		for _, english := range []string{"Commands:", "End of input.", "there is no action", "spaces costs"} {
			if strings.Contains(out, english) {
				t.Errorf("%s: the session says %q", tc.lang, english)
			}
		}
	}
}

// TestRulesOverviewInEveryLanguage: `rules overview` shows each game's
// overview in the session's language, found by its typed name; the topic's
// title in that language finds it too.
func TestRulesOverviewInEveryLanguage(t *testing.T) {
	words, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range []engine.Rules{crystalPalace(t), eightyDays(t)} {
		prefix := map[string]string{"crystalpalace": "cp", "eightydays": "ed"}[rules.Name()]
		for _, lang := range words.Languages() {
			p := words.For(lang)
			title, text := p.T(prefix+".topic.overview.title"), p.T(prefix+".topic.overview.text")
			_, out := play(t, terminal.Config{Rules: rules, Setup: engine.Setup{Players: 2, Seed: 1}, Seats: []string{terminal.Human, "random"},
				Words: p, Width: 1000}, "rules overview\nrules "+strings.ToUpper(title)+"\nquit\n")
			if strings.Count(out, title) != 2 || strings.Count(out, text) != 2 {
				t.Errorf("%s %s: rules overview and rules %q do not both show the overview:\n%s", rules.Name(), lang, title, out)
			}
		}
	}
}

// englishWords are English words for pictures of a game of rules.
func englishWords(t *testing.T, rules engine.Rules, names []string) *wording.Words {
	t.Helper()
	words, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	return wording.ForRules(words.For(locale.English), rules, names)
}
