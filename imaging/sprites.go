package imaging

import (
	"image"

	"github.com/fogleman/gg"
)

// Sprite sizes in pixels.
const (
	dieSize      = 40 // dice on the board
	dieSmallSize = 28 // dice in summaries
	pawnSize     = 34 // pawns and big markers
	tokenSize    = 24 // markers on tracks
)

// neutralSeat indexes the sprites drawn in no player's colour.
const neutralSeat = maxSeats

// sprites are the pieces drawn once per Renderer and copied onto every
// frame. They are read-only after newSprites.
type sprites struct {
	dice      [maxSeats + 1][7]*image.RGBA // [seat][value]; value 0 is a blank die
	diceSmall [maxSeats + 1][7]*image.RGBA
	covered   [maxSeats + 1]*image.RGBA // a die whose value is still secret
	pawn      [maxSeats + 1]*image.RGBA
	token     [maxSeats + 1]*image.RGBA
}

func newSprites(f fonts) *sprites {
	s := &sprites{}
	fs := newFaceSet(f)
	for seat := 0; seat <= maxSeats; seat++ {
		body := seatColor(seat)
		if seat == neutralSeat {
			body = colWhite
		}
		for v := 0; v <= 6; v++ {
			s.dice[seat][v] = drawDie(dieSize, body, v)
			s.diceSmall[seat][v] = drawDie(dieSmallSize, body, v)
		}
		s.covered[seat] = drawCovered(fs, body)
		s.pawn[seat] = drawMarker(pawnSize, body, seat)
		s.token[seat] = drawMarker(tokenSize, body, seat)
	}
	return s
}

// die returns the sprite of seat's die showing value (0 blank), or the
// neutral one for a seat outside the table.
func (s *sprites) die(seat, value int, small bool) *image.RGBA {
	seat = spriteSeat(seat)
	if value < 0 || value > 6 {
		value = 0
	}
	if small {
		return s.diceSmall[seat][value]
	}
	return s.dice[seat][value]
}

func spriteSeat(seat int) int {
	if seat < 0 || seat >= maxSeats {
		return neutralSeat
	}
	return seat
}

func newSpriteContext(w, h int) (*gg.Context, *image.RGBA) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	return gg.NewContextForRGBA(img), img
}

func drawDie(px int, body rgb, value int) *image.RGBA {
	dc, img := newSpriteContext(px, px)
	p := float64(px)
	dc.DrawRoundedRectangle(1.5, 1.5, p-3, p-3, p*0.18)
	dc.SetColor(body)
	dc.FillPreserve()
	dc.SetColor(colInk)
	dc.SetLineWidth(2)
	dc.Stroke()
	dc.SetColor(inkOn(body))
	r := p * 0.085
	lo, mid, hi := p*0.28, p*0.5, p*0.72
	pip := func(x, y float64) { dc.DrawCircle(x, y, r); dc.Fill() }
	if value%2 == 1 {
		pip(mid, mid)
	}
	if value >= 2 {
		pip(lo, hi)
		pip(hi, lo)
	}
	if value >= 4 {
		pip(lo, lo)
		pip(hi, hi)
	}
	if value == 6 {
		pip(lo, mid)
		pip(hi, mid)
	}
	return img
}

// drawCovered draws a die hidden under its owner's chest: dark, with the
// owner's colour as a thick rim and a question mark.
func drawCovered(fs *faceSet, rim rgb) *image.RGBA {
	dc, img := newSpriteContext(dieSize, dieSize)
	p := float64(dieSize)
	dc.DrawRoundedRectangle(2.5, 2.5, p-5, p-5, p*0.18)
	dc.SetColor(colCovered)
	dc.FillPreserve()
	dc.SetColor(rim)
	dc.SetLineWidth(5)
	dc.Stroke()
	_, _ = fs.draw(img, "?", dieSize/2, dieSize/2, style{size: sizeLarge, bold: true, color: colWhite, align: alignCenter})
	return img
}

// drawMarker draws a disc in the seat's colour with the seat's shape on it.
func drawMarker(px int, body rgb, seat int) *image.RGBA {
	dc, img := newSpriteContext(px, px)
	p := float64(px)
	dc.DrawCircle(p/2, p/2, p/2-1.5)
	dc.SetColor(body)
	dc.FillPreserve()
	dc.SetColor(colInk)
	dc.SetLineWidth(2)
	dc.Stroke()
	if seat < maxSeats {
		pathShape(dc, seatShape(seat), p/2, p/2, p*0.26)
		dc.SetColor(inkOn(body))
		dc.Fill()
	}
	return img
}
