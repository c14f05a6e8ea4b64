package eightydays

import "testing"

// BenchmarkHeuristicTable builds the heuristic's table for the standard
// game, which happens once per process on the first heuristic move.
func BenchmarkHeuristicTable(b *testing.B) {
	c, err := DefaultContent()
	if err != nil {
		b.Fatal(err)
	}
	r := NewRules(c)
	for i := 0; i < b.N; i++ {
		r.plan1(limitLondon)
	}
}

func TestHeuristicTableKnowsTheWayHome(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	pl := NewRules(c).planner()
	for _, tc := range []struct {
		space, pounds, rumors, turns int
	}{
		{76, 10, 0, 1}, // 4 spaces for 10 £, arriving with nothing
		{76, 20, 0, 1}, // 10 £ left: still allowed
		{79, 1, 0, 1},  // one space for 1 £
		{77, 3, 0, 2},  // back to Liverpool (76) for 10 £, then 4 spaces for 10 £
	} {
		if got := pl.turns(limitLondon, tc.space, tc.pounds, tc.rumors) / turnScore; got != tc.turns {
			t.Errorf("from %d with %d £ and %d Rumors: %d turns, want %d", tc.space, tc.pounds, tc.rumors, got, tc.turns)
		}
	}
	// a penniless traveller must first go back for money
	if got := pl.turns(limitLondon, 79, 0, 0) / turnScore; got < 2 {
		t.Errorf("from 79 with nothing: %d turns", got)
	}
	// with 21 £ left the move into London is refused, so it takes longer
	if got := pl.turns(limitLondon, 76, 31, 0) / turnScore; got < 2 {
		t.Errorf("from 76 with 31 £: %d turns, want at least 2", got)
	}
	// a Rumor in hand needs a Police visit first
	if with, without := pl.turns(limitLondon, 70, 30, 1), pl.turns(limitLondon, 70, 30, 0); with <= without {
		t.Errorf("a Rumor costs no turns: %d vs %d", with, without)
	}
}
