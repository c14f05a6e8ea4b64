package imaging

import (
	"testing"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

// The mat's own numbers agree with the content's.
func TestMatNumbersMatchContent(t *testing.T) {
	c, err := cp.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	e := c.Tracks.Economy
	if e.RepaidVP != matRepaidVP || e.EmptySpaceVP != matEmptyVP || e.NotePounds != matNotePounds {
		t.Errorf("content says repaid %d VP, empty %d VP, note %d£; the mat says %d, %d, %d",
			e.RepaidVP, e.EmptySpaceVP, e.NotePounds, matRepaidVP, matEmptyVP, matNotePounds)
	}
}

// Every line a research space can show fits inside the space whole: every
// loan of the content, unpaid or repaid, on or beside the mat; notes;
// empty spaces; every research tile's name; and the effects of the tiles
// the golden games show, on their two lines; in every language.
func TestMatSlotTextFits(t *testing.T) {
	for _, lang := range catalogue(t).Languages() {
		t.Run(lang, func(t *testing.T) { testMatSlotTextFits(t, lang) })
	}
}

func testMatSlotTextFits(t *testing.T, lang string) {
	r := testRenderer(t)
	c := &canvas{r: r, fs: newFaceSet(r.fonts), w: wordsIn(t, lang, cpRules(t), nil)}
	content, err := cp.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	w := matSlotW(matW-2*matMargin) - 2*matSlotPad
	bold := style{size: sizeSmall, bold: true}
	fits := func(text string) {
		t.Helper()
		if got := c.fs.width(text, bold); got > w {
			t.Errorf("%q is %d pixels wide; a research space holds %d", text, got, w)
		}
	}
	var slots []cp.SlotView
	for _, loan := range content.Loans {
		slots = append(slots, cp.SlotView{Kind: "loan", LoanVP: loan.VP}, cp.SlotView{Kind: "loan", LoanVP: loan.VP, Repaid: true})
	}
	if len(content.Loans) == 0 {
		t.Fatal("the content has no loans")
	}
	slots = append(slots, cp.SlotView{Kind: "note"}, cp.SlotView{Kind: "empty"})
	for _, s := range slots {
		for _, beside := range []bool{false, true} {
			for _, line := range c.matSlotLines(&s, beside) {
				fits(line)
			}
		}
	}
	for _, tile := range content.Research {
		fits(cpCardName(c.w, &cp.CardView{Kind: "research", ID: tile.ID, Name: tile.Name}))
	}
	effects := 0
	for _, p := range positions(t) {
		if p.rules.Name() != "crystalpalace" {
			continue
		}
		s := p.play(t)
		for seat := 0; seat < s.Players(); seat++ {
			v := s.View(engine.Seat(seat)).(*cp.View)
			var tiles []*cp.CardView
			for _, slot := range v.Private.Research {
				if slot.Tile != nil {
					tiles = append(tiles, slot.Tile)
				}
			}
			for i := range v.Locations[1].Display {
				if card := &v.Locations[1].Display[i]; card.Kind == "research" {
					tiles = append(tiles, card)
				}
			}
			for _, tile := range tiles {
				effects++
				if lines, cut := c.wrapRich(cardEffect(c.w, tile), w, w, 2, bold); cut {
					t.Errorf("%s: effect %q does not fit two lines: %v", tile.Name, cardEffect(c.w, tile), lines)
				}
			}
		}
	}
	if effects == 0 {
		t.Error("no research tile effects seen")
	}
}
