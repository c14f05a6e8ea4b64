package imaging

import (
	"image"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// touch records that rect of the frame changed since the background.
func (c *canvas) touch(rect image.Rectangle) {
	if c.bg != nil {
		c.dirty.mark(rect)
	}
}

// fill paints rect with a flat colour.
func (c *canvas) fill(rect image.Rectangle, col rgb) {
	rect = rect.Intersect(c.img.Rect)
	if rect.Empty() {
		return
	}
	px := [4]uint8{col.r(), col.g(), col.b(), 0xFF}
	row := c.img.Pix[c.img.PixOffset(rect.Min.X, rect.Min.Y):]
	first := row[:4*rect.Dx()]
	for i := 0; i < len(first); i += 4 {
		copy(first[i:i+4], px[:])
	}
	for y := rect.Min.Y + 1; y < rect.Max.Y; y++ {
		row = row[c.img.Stride:]
		copy(row[:len(first)], first)
	}
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

// roundBox fills a rounded rectangle and outlines it with a line of the
// given width inside its edge; the corners' radius is that of the line's
// middle. Only its rim is rasterised; the inside is a flat fill.
func (c *canvas) roundBox(rect image.Rectangle, radius float64, fillCol, lineCol rgb, line float64) {
	rim := int(math.Ceil(radius+line)) + 1
	inner := rect.Inset(rim)
	if inner.Empty() {
		c.roundBoxPart(rect, rect, radius, fillCol, lineCol, line)
		return
	}
	for _, part := range [4]image.Rectangle{
		image.Rect(rect.Min.X, rect.Min.Y, rect.Max.X, inner.Min.Y),
		image.Rect(rect.Min.X, inner.Max.Y, rect.Max.X, rect.Max.Y),
		image.Rect(rect.Min.X, inner.Min.Y, inner.Min.X, inner.Max.Y),
		image.Rect(inner.Max.X, inner.Min.Y, rect.Max.X, inner.Max.Y),
	} {
		c.roundBoxPart(rect, part, radius, fillCol, lineCol, line)
	}
	c.fill(inner, fillCol)
}

// roundBoxPart draws the part within area of roundBox's rect.
func (c *canvas) roundBoxPart(rect, area image.Rectangle, radius float64, fillCol, lineCol rgb, line float64) {
	r, l := float32(radius), float32(line)
	x0, y0, x1, y1 := float32(rect.Min.X), float32(rect.Min.Y), float32(rect.Max.X), float32(rect.Max.Y)
	if line > 0 {
		c.fillRounded(area, x0, y0, x1, y1, r+l/2, lineCol)
	}
	c.fillRounded(area, x0+l, y0+l, x1-l, y1-l, max(0, r-l/2), fillCol)
}

// fillRounded fills, in colour col, the part within area of the rectangle
// from (x0, y0) to (x1, y1) with corners of radius r. The render's
// rasteriser keeps its buffers, so shapes allocate nothing.
func (c *canvas) fillRounded(area image.Rectangle, x0, y0, x1, y1, r float32, col rgb) {
	area = area.Intersect(c.img.Rect)
	if area.Empty() {
		return
	}
	z := &c.fs.shapes
	z.Reset(area.Dx(), area.Dy())
	dx, dy := float32(area.Min.X), float32(area.Min.Y)
	roundedRect(z, x0-dx, y0-dy, x1-dx, y1-dy, r)
	z.Draw(c.img, area, c.fs.ink(col), image.Point{})
	c.touch(area)
}

// fillPolygon fills, in colour col, the part within area of the polygon
// whose corners are the points xy (x, y, x, y, …).
func (c *canvas) fillPolygon(area image.Rectangle, col rgb, xy ...float32) {
	area = area.Intersect(c.img.Rect)
	if area.Empty() || len(xy) < 6 {
		return
	}
	z := &c.fs.shapes
	z.Reset(area.Dx(), area.Dy())
	dx, dy := float32(area.Min.X), float32(area.Min.Y)
	z.MoveTo(xy[0]-dx, xy[1]-dy)
	for i := 2; i+1 < len(xy); i += 2 {
		z.LineTo(xy[i]-dx, xy[i+1]-dy)
	}
	z.ClosePath()
	z.Draw(c.img, area, c.fs.ink(col), image.Point{})
	c.touch(area)
}

// roundedRect adds a rectangle from (x0, y0) to (x1, y1) with corners of
// radius r to z.
func roundedRect(z *vector.Rasterizer, x0, y0, x1, y1, r float32) {
	r = max(0, min(r, (x1-x0)/2, (y1-y0)/2))
	k := r * (1 - arcHandle) // a quarter circle's control points lie k from its corner
	z.MoveTo(x0+r, y0)
	z.LineTo(x1-r, y0)
	z.CubeTo(x1-k, y0, x1, y0+k, x1, y0+r)
	z.LineTo(x1, y1-r)
	z.CubeTo(x1, y1-k, x1-k, y1, x1-r, y1)
	z.LineTo(x0+r, y1)
	z.CubeTo(x0+k, y1, x0, y1-k, x0, y1-r)
	z.LineTo(x0, y0+r)
	z.CubeTo(x0, y0+k, x0+k, y0, x0+r, y0)
	z.ClosePath()
}

// arcHandle is the length of a cubic Bézier's handles, as a share of the
// radius, that best draws a quarter circle.
const arcHandle = 0.5523

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
