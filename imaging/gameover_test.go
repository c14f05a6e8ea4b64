package imaging

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

// A finished game names its winners where a running one names the phase,
// and never asks for dice to be chosen.
func TestCrystalPalaceGameOverNotes(t *testing.T) {
	s := findPosition(t, "cp3-end").play(t)
	for seat := 0; seat < s.Players(); seat++ {
		v := s.View(engine.Seat(seat)).(*cp.View)
		if !v.Over || v.Result == nil {
			t.Fatal("cp3-end is not over")
		}
		names := []string{"Ada", "Brunel", "Cole"}
		w := en(names)
		for _, note := range []string{cpNote(v, w, names), cpRoundNote(v, w, names)} {
			if strings.Contains(note, "phase") || !strings.HasPrefix(note, "Game over · ") || !strings.HasSuffix(note, " won") {
				t.Errorf("P%d: note %q, want the winners", seat+1, note)
			}
			for _, w := range v.Result.Winners {
				if !strings.Contains(note, names[w]) {
					t.Errorf("P%d: note %q does not name winner %s", seat+1, note, names[w])
				}
			}
		}
		c := &canvas{r: testRenderer(t), w: w}
		dice, blank, note := c.matDice(v, v.Private, &v.Seats[seat])
		if len(dice) != 0 || blank != 0 || strings.Contains(note, "not chosen") {
			t.Errorf("P%d: mat dice %v, %d blank, %q after the game", seat+1, dice, blank, note)
		}
	}
}

// Dice are "not chosen yet" in phase 1 only; afterwards the mat shows the
// round's dice as they are, the placed ones told apart, until phase 7.
func TestMatDiceByPhase(t *testing.T) {
	pub := &cp.PlayerView{Dice: 4}
	c := &canvas{r: testRenderer(t), w: en(nil)}
	for _, tc := range []struct {
		phase     int
		private   []int
		unplaced  []int
		placed    []int
		revealed  []int
		wantDice  int
		wantBlank int
		wantNote  string
	}{
		{1, nil, nil, nil, nil, 0, 4, "not chosen yet"},
		{1, []int{3, 5, 6, 1}, nil, nil, nil, 4, 0, "hidden from others"},
		{2, []int{3, 5, 6, 1}, []int{3, 5, 6, 1}, nil, []int{3, 5, 6, 1}, 4, 0, "revealed"},
		{2, []int{3, 5, 6, 1}, []int{3, 5}, []int{6, 1}, []int{3, 5, 6, 1}, 4, 0, "2 placed (white)"},
		{5, []int{3, 5, 6, 1}, nil, []int{3, 5, 6, 1}, []int{3, 5, 6, 1}, 4, 0, "4 placed (white)"},
		{6, nil, nil, nil, nil, 0, 0, "none left this round"},
	} {
		v := &cp.View{Phase: tc.phase}
		p := *pub
		p.DiceValues, p.Unplaced, p.Placed = tc.revealed, tc.unplaced, tc.placed
		dice, blank, note := c.matDice(v, &cp.PrivateView{Dice: tc.private, Unplaced: tc.unplaced, Placed: tc.placed}, &p)
		if len(dice) != tc.wantDice || blank != tc.wantBlank || note != tc.wantNote {
			t.Errorf("phase %d: %v, %d blank, %q; want %d dice, %d blank, %q", tc.phase, dice, blank, note, tc.wantDice, tc.wantBlank, tc.wantNote)
		}
	}
}
