package imaging

import (
	"image"
	"image/draw"

	"github.com/fogleman/gg"
)

// touch records that rect of the frame changed since the background.
func (c *canvas) touch(rect image.Rectangle) {
	if c.bg != nil {
		c.dirty.mark(rect)
	}
}

// fill paints rect with a flat colour.
func (c *canvas) fill(rect image.Rectangle, col rgb) {
	draw.Draw(c.img, rect, image.NewUniform(col), image.Point{}, draw.Src)
	c.touch(rect)
}

// outline draws rect with a line of width w inside it.
func (c *canvas) outline(rect image.Rectangle, w int, col rgb) {
	c.fill(image.Rect(rect.Min.X, rect.Min.Y, rect.Max.X, rect.Min.Y+w), col)
	c.fill(image.Rect(rect.Min.X, rect.Max.Y-w, rect.Max.X, rect.Max.Y), col)
	c.fill(image.Rect(rect.Min.X, rect.Min.Y, rect.Min.X+w, rect.Max.Y), col)
	c.fill(image.Rect(rect.Max.X-w, rect.Min.Y, rect.Max.X, rect.Max.Y), col)
}

// box fills rect and outlines it in ink.
func (c *canvas) box(rect image.Rectangle, col rgb) {
	c.fill(rect, col)
	c.outline(rect, 1, colInk)
}

// text draws s with its capitals centred on y, anchored at x by the
// style's alignment, and returns its width.
func (c *canvas) text(s string, x, y int, st style) int {
	w, rect := c.fs.draw(c.img, s, x, y, st)
	c.touch(rect)
	return w
}

// textFit draws s shortened to at most max pixels.
func (c *canvas) textFit(s string, x, y, max int, st style) int {
	t := c.fs.fit(s, max, st)
	if t != s {
		c.noteCut(s)
	}
	return c.text(t, x, y, st)
}

// textShrink draws s in at most room pixels: in its style when it fits,
// else a size smaller (never under sizeSmall), then regular rather than
// bold, shortened only when even that is too wide. Labels in German and
// French run longer than in English; they shrink before they are cut.
func (c *canvas) textShrink(s string, x, y, room int, st style) int {
	for st.size > sizeSmall && c.fs.width(s, st) > room {
		st.size = max(sizeSmall, st.size-3)
	}
	if st.bold && c.fs.width(s, st) > room {
		st.bold = false
	}
	return c.textFit(s, x, y, room, st)
}

// textTwoLines draws s centred on y in at most room pixels: on one line
// when it fits, else wrapped over two lines 18 pixels apart (an action
// space's label: "+1" over "renom").
func (c *canvas) textTwoLines(s string, x, y, room int, st style) {
	if c.fs.width(s, st) <= room {
		c.text(s, x, y, st)
		return
	}
	lines, cut := c.wrapRich(s, room, room, 2, st)
	if cut {
		c.noteCut(s)
	}
	for i, line := range lines {
		c.drawRichLine(line, x, y-(len(lines)-1)*9+18*i, st)
	}
}

// noteCut tells the renderer's listener, if any, that s was cut.
func (c *canvas) noteCut(s string) {
	if c.r.cut != nil {
		c.r.cut(s)
	}
}

// sprite draws img with its top-left corner at (x, y).
func (c *canvas) sprite(img *image.RGBA, x, y int) {
	b := img.Bounds()
	dst := b.Add(image.Pt(x, y))
	draw.Draw(c.img, dst, img, b.Min, draw.Over)
	c.touch(dst)
}

// spriteCentered draws img centred on (x, y).
func (c *canvas) spriteCentered(img *image.RGBA, x, y int) {
	b := img.Bounds()
	c.sprite(img, x-b.Dx()/2, y-b.Dy()/2)
}

// gg returns a gg context drawing on the frame, for shapes that are not
// axis-aligned rectangles. Backgrounds use it; on a frame over a cached
// background it marks the whole frame as changed.
func (c *canvas) gg() *gg.Context {
	c.touch(c.img.Bounds())
	return gg.NewContextForRGBA(c.img)
}

// roundBox fills a rounded rectangle and outlines it.
func (c *canvas) roundBox(dc *gg.Context, rect image.Rectangle, radius float64, fillCol, lineCol rgb, line float64) {
	x, y := float64(rect.Min.X)+line/2, float64(rect.Min.Y)+line/2
	w, h := float64(rect.Dx())-line, float64(rect.Dy())-line
	dc.DrawRoundedRectangle(x, y, w, h, radius)
	dc.SetColor(fillCol)
	if line <= 0 {
		dc.Fill()
		return
	}
	dc.FillPreserve()
	dc.SetColor(lineCol)
	dc.SetLineWidth(line)
	dc.Stroke()
}

// markerSize picks a marker sprite.
type markerSize int

const (
	markPawn markerSize = iota
	markToken
	markMini
)

// marker draws seat's shape in its colour centred on (x, y): the legend's
// symbol for the seat.
func (c *canvas) marker(seat, x, y int, size markerSize) {
	sp := c.r.sprites
	img := sp.pawn[spriteSeat(seat)]
	switch size {
	case markToken:
		img = sp.token[spriteSeat(seat)]
	case markMini:
		img = sp.mini[spriteSeat(seat)]
	}
	c.spriteCentered(img, x, y)
}
