package engine_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

func TestRNGIsDeterministicAndInRange(t *testing.T) {
	a, b := engine.NewRNG(42), engine.NewRNG(42)
	counts := make([]int, 6)
	for i := 0; i < 60000; i++ {
		x, y := a.Intn(6), b.Intn(6)
		if x != y {
			t.Fatalf("draw %d: same seed gave %d and %d", i, x, y)
		}
		counts[x]++
	}
	for v, c := range counts {
		if c < 9000 || c > 11000 {
			t.Errorf("value %d drawn %d times of 60000; want about 10000", v, c)
		}
	}
	c, d := engine.NewRNG(43), engine.NewRNG(42)
	if c.Uint64() == d.Uint64() {
		t.Error("different seeds gave the same first number")
	}
}

func TestScriptRoundTrip(t *testing.T) {
	setup := engine.Setup{Players: 3, Seed: 7, Options: map[string]string{"variant": "standard"}}
	moves := []engine.Move{{Seat: 0, Action: "dice 6 5 3 1"}, {Seat: 2, Action: "move 14"}}
	var buf bytes.Buffer
	if err := engine.WriteScript(&buf, "eightydays", setup, moves); err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(buf.String(), "\n")
	game, got, ok := engine.ScriptHeader(header)
	if !ok || game != "eightydays" || got.Players != 3 || got.Seed != 7 || got.Options["variant"] != "standard" {
		t.Fatalf("header %q read back as %q %+v %v", header, game, got, ok)
	}
	read, err := engine.ReadScript(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != 2 || read[0].Seat != 0 || read[0].Action != "dice 6 5 3 1" || read[1].Seat != 2 || read[1].Line != 3 {
		t.Fatalf("read back %+v", read)
	}
}

func TestReadScriptNamesTheBadLine(t *testing.T) {
	_, err := engine.ReadScript(strings.NewReader("# comment\nP1: pass\nX: pass\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 3:") {
		t.Fatalf("err = %v, want one naming line 3", err)
	}
	for _, bad := range []string{"P0: pass", "P1:", "pass", "Pone: pass"} {
		if _, err := engine.ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) accepted", bad)
		}
	}
}

func TestRuleErrorWrapsItsKind(t *testing.T) {
	err := engine.Refusef(engine.ErrIllegalAction, "space %d is taken", 14)
	if !errors.Is(err, engine.ErrIllegalAction) || errors.Is(err, engine.ErrNotYourTurn) {
		t.Fatalf("errors.Is mismatch for %v", err)
	}
	if err.Error() != "space 14 is taken" {
		t.Fatalf("message %q", err)
	}
	said := engine.RefuseWith(engine.ErrNotYourTurn, engine.Say("x.turn", engine.Who("Who", 1), engine.Num("N", 3), engine.Nested("Sub", engine.Say("x.sub", engine.Code("A", "place 5 bank 2")))))
	if !errors.Is(said, engine.ErrNotYourTurn) {
		t.Fatalf("errors.Is mismatch for %v", said)
	}
	if want := `not your turn: x.turn(Who=P2, N=3, Sub=x.sub(A="place 5 bank 2"))`; said.Error() != want {
		t.Fatalf("message %q, want %q", said, want)
	}
}

// A refused answer carries its reason and the valid answers as data: the
// first eight as a list of notation (engine.Typed), and how many more.
func TestRefuseAnswerListsValidAnswers(t *testing.T) {
	why := engine.Say("x.why")
	var rule *engine.RuleError
	few := engine.RefuseAnswer(engine.ErrIllegalAction, why, []string{"skip", "down 2"})
	if !errors.As(few, &rule) || rule.Say.ID != "engine.refuse.answers" || len(rule.Valid) != 2 {
		t.Fatalf("%v", few)
	}
	if a, _ := rule.Say.Arg("Valid"); a.Sub == nil || a.Sub.ID != "engine.typed.list" || len(a.Sub.Args) != 2 || a.Sub.Args[1].Sub.Args[0].S != "down 2" {
		t.Fatalf("valid %+v", a)
	}
	many := engine.RefuseAnswer(engine.ErrIllegalAction, why, []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"})
	if !errors.As(many, &rule) || rule.Say.ID != "engine.refuse.answers_more" {
		t.Fatalf("%v", many)
	}
	if a, _ := rule.Say.Arg("Count"); a.N != 2 {
		t.Fatalf("%d more, want 2", a.N)
	}
	if a, _ := rule.Say.Arg("Valid"); a.Sub == nil || len(a.Sub.Args) != 8 || a.Sub.Args[7].Sub.Args[0].S != "h" {
		t.Fatalf("valid %+v", a)
	}
	if none := engine.RefuseAnswer(engine.ErrIllegalAction, why, nil); !errors.As(none, &rule) || rule.Say.ID != "x.why" {
		t.Fatalf("%v", none)
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"P1: pass", "p12: move 3", "P1:", ":", "P-1: x", "P99999999999999999999: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, err := engine.ParseMove(line)
		if err != nil {
			return
		}
		again, err := engine.ParseMove(m.String())
		if err != nil || again.Seat != m.Seat || again.Action != m.Action {
			t.Fatalf("%q -> %q -> %+v, %v", line, m.String(), again, err)
		}
	})
}

func TestDescribeRefusalKeepsSecretsOut(t *testing.T) {
	reason := engine.Refusef(engine.ErrIllegalAction, "%q: you have 4 dice", "dice 6 6 6 6 6")
	cases := []struct {
		action string
		secret bool
		err    error
		want   string
	}{
		{"place 5 bank 2", false, engine.Refuse(engine.ErrIllegalAction, "space 2 is taken"), `P2 "place 5 bank 2": space 2 is taken`},
		{"dice 6 6 6 6 6", true, reason, `P2 "dice …", a secret choice: illegal action`},
		{"6 6 6 6 6", true, reason, `P2 "…", a secret choice: illegal action`},
		{"dice 6 6 6 6 6", true, errors.New("dice 6 6 6 6 6 broke"), `P2 "dice …", a secret choice: refused`},
		{"dice 6 6 6 6 6", true, engine.RefuseWith(engine.ErrIllegalAction, engine.Say("x.dice", engine.Code("Action", "dice 6 6 6 6 6"))), `P2 "dice …", a secret choice: illegal action`},
		{"place 5 bank 2", false, engine.RefuseWith(engine.ErrIllegalAction, engine.Say("x.taken", engine.Num("Space", 2))), `P2 "place 5 bank 2": illegal action: x.taken(Space=2)`},
	}
	for _, c := range cases {
		if got := engine.DescribeRefusal(1, c.action, c.secret, c.err); got != c.want {
			t.Errorf("%q: got %s, want %s", c.action, got, c.want)
		}
	}
}
