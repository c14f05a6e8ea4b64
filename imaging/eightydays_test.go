package imaging

import (
	"image"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/eightydays"
)

// Every space of the route, the finish included, has a cell of its own
// inside the board, and every band label shows whole, in every language.
func TestEightyDaysCells(t *testing.T) {
	for _, lang := range catalogue(t).Languages() {
		t.Run(lang, func(t *testing.T) { testEightyDaysCells(t, lang) })
	}
}

func testEightyDaysCells(t *testing.T, lang string) {
	r := testRenderer(t)
	c := &canvas{r: r, fs: newFaceSet(r.fonts), w: wordsIn(t, lang, edRules(t), nil)}
	v := findPosition(t, "ed4-end").play(t).View(engine.Spectator).(*eightydays.View)
	board := image.Rect(0, 0, edW, edKeyY)
	seen := map[image.Rectangle]int{}
	for _, sp := range v.Track {
		cell := edCell(sp.Number)
		if !cell.In(board) {
			t.Errorf("space %d: cell %v outside the track %v", sp.Number, cell, board)
		}
		if other, ok := seen[cell]; ok {
			t.Errorf("spaces %d and %d share a cell", other, sp.Number)
		}
		seen[cell] = sp.Number
		label := edLabel(c.w, sp)
		if w := c.fs.width(label, style{size: sizeSmall}); w > edCellW-4 {
			t.Errorf("space %d: label %q is %d pixels wide", sp.Number, label, w)
		}
	}
	if len(seen) != edLondonEnd+1 {
		t.Errorf("%d cells for %d spaces", len(seen), edLondonEnd+1)
	}
	home := 0
	for _, p := range v.Players {
		for _, pawn := range p.Pawns {
			if pawn.Home {
				home++
			}
		}
	}
	if home == 0 {
		t.Error("ed4-end: nobody arrived; the finish goes untested")
	}
}

// A pending Bet says whether it pays, and a space that pays nothing in
// this game says so rather than "no pay yet".
func TestEightyDaysPendingBet(t *testing.T) {
	v := &eightydays.View{Track: make([]eightydays.SpaceView, 81), Players: make([]eightydays.PlayerView, 3)}
	v.Track[3] = eightydays.SpaceView{Number: 3, Kind: "bet", Bets: []int{4, 5, 6}}
	v.Track[4] = eightydays.SpaceView{Number: 4, Kind: "bet", Bets: []int{2}}
	for _, tc := range []struct {
		pawn eightydays.PawnView
		want string
	}{
		{eightydays.PawnView{Space: 3, Rank: 3, Pending: "bet", BetDead: true}, "bet 4·5·6 pays nothing with 3"},
		{eightydays.PawnView{Space: 4, Rank: 2, Pending: "bet", BetPays: 20}, "bet pays 20 £"},
		{eightydays.PawnView{Space: 4, Rank: 3, Pending: "bet"}, "bet on 2: no pay yet"},
	} {
		if got := edPending(v, en(nil), eightydays.PlayerView{Pawns: []eightydays.PawnView{tc.pawn}}); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.pawn, got, tc.want)
		}
	}
}
