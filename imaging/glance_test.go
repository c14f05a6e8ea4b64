package imaging

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// A name of any length or script takes one line of a glance: it is
// shortened, and the notes under it (the seat's colour, "to play") still
// show, as for a short name.
func TestLongNamesKeepTheirNotes(t *testing.T) {
	r := testRenderer(t)
	s := findPosition(t, "cp4-midgame").play(t)
	long := []string{strings.Repeat("Abcdefgh", 4), strings.Repeat("龍", 32), "Ada", "Brunel"}
	var cut []string
	r.cut = func(text string) { cut = append(cut, text) }
	defer func() { r.cut = nil }()
	data, err := r.Glance(s.View(engine.Spectator), en(long))
	if err != nil {
		t.Fatal(err)
	}
	if len(cut) < 2 {
		t.Errorf("the long names were not shortened: cut %q", cut)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	g, err := GlanceOf(s.View(engine.Spectator), en(long))
	if err != nil {
		t.Fatal(err)
	}
	// Four seats leave the rows their full height. The notes are on the
	// row's second line, after the marker; an arrow in the margin, on the
	// name's line, marks the seat to act (and only it).
	top := img.Bounds().Dy() - glanceMargin - len(g.Seats)*glanceRowH
	for seat, s := range g.Seats {
		y := top + seat*glanceRowH
		noteY, nameY := y+glanceRowH*3/4, y+glanceRowH*3/10
		notes := image.Rect(glanceNotesX, noteY-14, glanceNotesX+80, noteY+14)
		col := colInkSoft
		if s.Active { // "to play" comes first, in ink
			col = colInk
		}
		if n := pixelsOf(img, notes, col); n < 10 {
			t.Errorf("seat %d (%q): no notes under the name (%d pixels in their colour)", seat, long[seat], n)
		}
		arrow := pixelsOf(img, image.Rect(0, nameY-10, glanceTableX, nameY+10), colInk)
		if s.Active != (arrow > 100) {
			t.Errorf("seat %d (active %v): %d pixels of an arrow in the margin", seat, s.Active, arrow)
		}
	}
}

// pixelsOf counts the pixels of rect in img that are exactly col.
func pixelsOf(img image.Image, rect image.Rectangle, col rgb) int {
	n := 0
	wr, wg, wb, _ := col.RGBA()
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r == wr && g == wg && b == wb {
				n++
			}
		}
	}
	return n
}
