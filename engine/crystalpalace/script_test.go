package crystalpalace

import (
	"bufio"
	"os"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// replayScript plays a testdata script whose first line is a script header.
func replayScript(t *testing.T, path string) *State {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	game, setup, ok := engine.ScriptHeader(sc.Text())
	if !ok || game != "crystalpalace" {
		t.Fatalf("%s: no script header", path)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	moves, err := engine.ReadScript(f)
	if err != nil {
		t.Fatal(err)
	}
	st, err := testRules(t).New(setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		if _, err := st.Apply(m.Seat, m.Action); err != nil {
			t.Fatalf("%s line %d %q: %v", path, m.Line, m.Action, err)
		}
	}
	return st.(*State)
}

func TestScriptOpening(t *testing.T) {
	s := replayScript(t, "testdata/opening.txt")
	v := s.view(engine.Spectator)
	if v.First != 1 || v.Order[0] != 1 {
		t.Errorf("first player %d, want P2", v.First+1)
	}
	for seat, p := range v.Seats {
		if p.Pounds != 27 || p.Newspapers != 1-seat {
			t.Errorf("P%d: %d pounds, %d newspapers; want 27 and %d", seat+1, p.Pounds, p.Newspapers, 1-seat)
		}
	}
	west := v.Locations[locWestminster].Dice[0]
	patent := v.Locations[locPatent].Dice[1]
	if west.Owner != 1 || west.Value != 6 || patent.Owner != 0 || patent.Value != 4 {
		t.Errorf("dice on the board: Westminster %+v, Patent Office %+v", west, patent)
	}
	if v.Phase != 2 || v.Turn != 1 || v.Seats[0].DiceLeft != 2 || v.Seats[1].DiceLeft != 2 {
		t.Errorf("phase %d turn P%d, dice left %d and %d", v.Phase, v.Turn+1, v.Seats[0].DiceLeft, v.Seats[1].DiceLeft)
	}
}
