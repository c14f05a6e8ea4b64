package terminal_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/terminal"
)

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
		"P1 (you)",             // the view, from P1's side
		"1. move",              // numbered actions
		"save FILE",            // help
		"Topics: goal, moving", // rules without a topic
		"Bet spaces (1, 2, 3, 4/5/6)",
		`no topic "casino"`,
		`"fly" is not an action`, // the engine's reasons
		"spaces costs",
		"there is no action 99",
		"Script saved to " + script,
		"Game over. Winner: ",
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
	}, "move 3\nundo\nundo\nquit\n")
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
	}, "move 5\nkeep 1\nundo\nquit\n")
	if strings.Contains(out, "Undone") || !strings.Contains(out, "nothing to undo") {
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
