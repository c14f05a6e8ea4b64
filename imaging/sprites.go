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
	miniSize     = 16 // markers stacked on crowded tracks
)

// neutralSeat indexes the sprites drawn in no player's colour.
const neutralSeat = maxSeats

// sprites are the pieces drawn once per Renderer and copied onto every
// frame. They are read-only after newSprites.
type sprites struct {
	dice      [maxSeats + 1][7]*image.RGBA // [seat][value]; value 0 is a blank die
	diceSmall [maxSeats + 1][7]*image.RGBA
	covered   [maxSeats + 1]*image.RGBA // a die whose value is still secret
	coveredSm [maxSeats + 1]*image.RGBA
	pawn      [maxSeats + 1]*image.RGBA
	token     [maxSeats + 1]*image.RGBA
	mini      [maxSeats + 1]*image.RGBA
	glance    [maxSeats + 1]*image.RGBA // markers in a glance's table
	gear      *image.RGBA               // resource icons, iconSize
	energy    *image.RGBA
	paper     *image.RGBA // a newspaper
}

// iconSize is the size of the resource icons drawn after numbers.
const iconSize = 16

// drawIcons draws the resource icons.
func (s *sprites) drawIcons() {
	p := float64(iconSize)
	dc, img := newSpriteContext(iconSize, iconSize)
	for i := 0; i < 8; i++ { // teeth
		dc.Push()
		dc.RotateAbout(float64(i)*0.785, p/2, p/2)
		dc.DrawRectangle(p/2-1.8, 0.5, 3.6, p-1)
		dc.Pop()
	}
	dc.SetColor(colGear)
	dc.Fill()
	dc.DrawCircle(p/2, p/2, p*0.34)
	dc.Fill()
	dc.DrawCircle(p/2, p/2, p*0.13)
	dc.SetColor(colWhite)
	dc.Fill()
	s.gear = img

	dc, img = newSpriteContext(iconSize, iconSize)
	dc.MoveTo(p*0.62, 0.5)
	dc.LineTo(p*0.18, p*0.58)
	dc.LineTo(p*0.48, p*0.58)
	dc.LineTo(p*0.36, p-0.5)
	dc.LineTo(p*0.84, p*0.4)
	dc.LineTo(p*0.54, p*0.4)
	dc.ClosePath()
	dc.SetColor(colEnergy)
	dc.FillPreserve()
	dc.SetColor(colInk)
	dc.SetLineWidth(1)
	dc.Stroke()
	s.energy = img

	dc, img = newSpriteContext(iconSize, iconSize)
	dc.DrawRectangle(1.5, 2.5, p-3, p-5)
	dc.SetColor(colNewspaper)
	dc.FillPreserve()
	dc.SetColor(colInk)
	dc.SetLineWidth(1)
	dc.Stroke()
	for _, y := range []float64{5.5, 8.5, 11.5} {
		dc.DrawLine(4, y, p-4, y)
	}
	dc.Stroke()
	s.paper = img
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
			s.dice[seat][v] = drawDie(dieSize, body, seat, v)
			s.diceSmall[seat][v] = drawDie(dieSmallSize, body, seat, v)
		}
		s.covered[seat] = drawCovered(fs, dieSize, body, seat)
		s.coveredSm[seat] = drawCovered(fs, dieSmallSize, body, seat)
		s.pawn[seat] = drawMarker(pawnSize, body, seat)
		s.token[seat] = drawMarker(tokenSize, body, seat)
		s.mini[seat] = drawMarker(miniSize, body, seat)
		s.glance[seat] = drawMarker(glanceMarker, body, seat)
	}
	s.drawIcons()
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

// drawDie draws seat's die showing value: its pips are the seat's shape,
// so whose die it is reads without its colour; a blank die (value 0)
// shows the shape once, large. The neutral die has round pips.
func drawDie(px int, body rgb, seat, value int) *image.RGBA {
	dc, img := newSpriteContext(px, px)
	p := float64(px)
	dc.DrawRoundedRectangle(1.5, 1.5, p-3, p-3, p*0.18)
	dc.SetColor(body)
	dc.FillPreserve()
	dc.SetColor(colInk)
	dc.SetLineWidth(2)
	dc.Stroke()
	dc.SetColor(inkOn(body))
	lo, mid, hi := p*0.28, p*0.5, p*0.72
	pip := func(x, y float64) {
		if seat >= maxSeats {
			dc.DrawCircle(x, y, p*0.085)
		} else {
			pathShape(dc, seatShape(seat), x, y, p*0.105)
		}
		dc.Fill()
	}
	if value == 0 && seat < maxSeats {
		pathShape(dc, seatShape(seat), mid, mid, p*0.24)
		dc.Fill()
	}
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
// owner's colour as a thick rim, a question mark and the owner's shape.
func drawCovered(fs *faceSet, px int, rim rgb, seat int) *image.RGBA {
	dc, img := newSpriteContext(px, px)
	p := float64(px)
	line := p / 9
	dc.DrawRoundedRectangle(line/2+0.5, line/2+0.5, p-line-1, p-line-1, p*0.18)
	dc.SetColor(colCovered)
	dc.FillPreserve()
	dc.SetColor(rim)
	dc.SetLineWidth(line)
	dc.Stroke()
	sz := sizeLarge
	if px < dieSize {
		sz = sizeSmall
	}
	qx := px / 2
	if seat < maxSeats {
		qx = px * 35 / 100
		pathShape(dc, seatShape(seat), p*0.68, p*0.5, p*0.15)
		dc.SetColor(colWhite)
		dc.Fill()
	}
	_, _ = fs.draw(img, "?", qx, px/2, style{size: sz, bold: true, color: colWhite, align: alignCenter})
	return img
}

// coveredDie returns the sprite of seat's die whose value is secret.
func (s *sprites) coveredDie(seat int, small bool) *image.RGBA {
	if small {
		return s.coveredSm[spriteSeat(seat)]
	}
	return s.covered[spriteSeat(seat)]
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
