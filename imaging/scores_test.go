package imaging

import (
	"testing"

	"github.com/meeplegames/meeple/engine"
)

func TestScoreSheetGolden(t *testing.T) {
	r := testRenderer(t)
	sheet := &scoreSheet{
		title:   "Test game · final scores",
		total:   "Total VP",
		signed:  true,
		sources: []string{"prototypes", "characters", "loans"},
		labels:  map[string]string{"loans": "Loans (paid/unpaid)"},
		notes:   []string{"Japan", "Spain", "Italy"},
		names:   r.seatNames(en([]string{"alice", "Bob the Builder of Everything", "🙂carol"}), 3),
		w:       en(nil),
		result: engine.Result{
			Over:    true,
			Scores:  []int{41, 57, 57},
			Winners: []engine.Seat{1, 2},
			Breakdown: []map[string]int{
				{"prototypes": 20, "characters": 16, "loans": -5, "buzz": 10},
				{"prototypes": 31, "characters": 30, "loans": -10, "buzz": 6},
				{"prototypes": 40, "characters": 21, "buzz": 0, "research_spaces": -4},
			},
		},
	}
	got, err := r.drawScores(sheet)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "scores-sheet", got)
}

func TestRanks(t *testing.T) {
	got := ranks([]int{10, 30, 30, 5})
	want := []int{3, 1, 1, 4}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ranks = %v, want %v", got, want)
		}
	}
}
