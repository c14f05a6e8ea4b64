package typeset

import (
	"image"
	"image/color"
	"image/draw"

	"github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
	xfont "golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// phases is how many horizontal sub-pixel positions a glyph is drawn at.
const phases = 4

type maskKey struct {
	font  int16
	id    font.GID
	style Style
	phase uint8
}

// mask is a rasterised glyph: its coverage and where its top-left pixel
// lies from the pen (whole pixels, y down).
type mask struct {
	img *image.Alpha
	off image.Point
}

// mask returns glyph id of fallback font f rasterised at the style's size
// and the given sub-pixel phase, or nil when it has no outline (a space).
func (s *Setter) mask(f int, id font.GID, st Style, phase int) *mask {
	k := maskKey{int16(f), id, st, uint8(phase)}
	if m, ok := s.masks.get(k); ok {
		return m
	}
	m := s.rasterise(f, id, st, phase)
	size := 32
	if m != nil {
		size += len(m.img.Pix)
	}
	s.masks.put(k, m, size)
	return m
}

func (s *Setter) rasterise(f int, id font.GID, st Style, phase int) *mask {
	face := s.face(f)
	outline, ok := face.GlyphDataOutline(id)
	if !ok || len(outline.Segments) == 0 {
		return nil
	}
	scale := float32(st.Size) / float32(face.Upem())
	dx := float32(phase) / phases
	minX, minY, maxX, maxY := float32(1e9), float32(1e9), float32(-1e9), float32(-1e9)
	for _, seg := range outline.Segments {
		for _, p := range seg.ArgsSlice() {
			x, y := p.X*scale+dx, -p.Y*scale
			minX, maxX = min(minX, x), max(maxX, x)
			minY, maxY = min(minY, y), max(maxY, y)
		}
	}
	bold := 0
	if st.Bold {
		bold = max(1, st.Size/20)
	}
	x0, y0 := floor(minX), floor(minY)
	w, h := ceil(maxX)-x0+1+bold, ceil(maxY)-y0+1
	if w <= 0 || h <= 0 || w > 8*st.Size || h > 8*st.Size {
		return nil
	}
	var z vector.Rasterizer
	z.Reset(w, h)
	px := func(p ot.SegmentPoint) (float32, float32) {
		return p.X*scale + dx - float32(x0), -p.Y*scale - float32(y0)
	}
	for _, seg := range outline.Segments {
		a := seg.Args
		switch seg.Op {
		case ot.SegmentOpMoveTo:
			z.MoveTo(px(a[0]))
		case ot.SegmentOpLineTo:
			z.LineTo(px(a[0]))
		case ot.SegmentOpQuadTo:
			x1, y1 := px(a[0])
			x2, y2 := px(a[1])
			z.QuadTo(x1, y1, x2, y2)
		case ot.SegmentOpCubeTo:
			x1, y1 := px(a[0])
			x2, y2 := px(a[1])
			x3, y3 := px(a[2])
			z.CubeTo(x1, y1, x2, y2, x3, y3)
		}
	}
	z.ClosePath()
	img := image.NewAlpha(image.Rect(0, 0, w, h))
	z.Draw(img, img.Bounds(), image.Opaque, image.Point{})
	embolden(img, bold)
	return &mask{img: img, off: image.Pt(x0, y0)}
}

// embolden thickens the strokes of a coverage mask by n pixels to the
// right: the fallback fonts have no bold face.
func embolden(img *image.Alpha, n int) {
	w := img.Rect.Dx()
	for y := 0; y < img.Rect.Dy(); y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w]
		for i := 0; i < n; i++ {
			for x := w - 1; x > 0; x-- {
				row[x] = max(row[x], row[x-1])
			}
		}
	}
}

func floor(f float32) int {
	i := int(f)
	if float32(i) > f {
		i--
	}
	return i
}

func ceil(f float32) int {
	i := int(f)
	if float32(i) < f {
		i++
	}
	return i
}

type emojiKey struct{ cell, side int }

type emojiImage struct{ img *image.RGBA }

// emoji returns emoji cell scaled to side pixels.
func (s *Setter) emoji(cell, side int) *image.RGBA {
	k := emojiKey{cell, side}
	if e, ok := s.emojis.get(k); ok {
		return e.img
	}
	img := s.lib.emoji.image(cell, side)
	s.emojis.put(k, &emojiImage{img}, 32+len(img.Pix))
	return img
}

// drawLine draws l with its start at x and its baseline at y in colour
// col and returns the rectangle of what it drew other than Go-font text
// (whose extent the caller knows from the style).
func (s *Setter) drawLine(dst *image.RGBA, l *line, x, y int, st Style, col color.Color) image.Rectangle {
	var touched image.Rectangle
	s.src.C = col
	src := &s.src
	origin := fixed.I(x)
	for _, r := range l.runs {
		switch r.kind {
		case runGo:
			s.drawer = xfont.Drawer{Dst: dst, Src: src, Face: s.goFace(st), Dot: fixed.Point26_6{X: origin + r.x, Y: fixed.I(y)}}
			s.drawer.DrawString(r.text)
			s.drawer.Dst = nil
		case runShaped:
			for _, g := range r.glyphs {
				pen := origin + r.x + g.x
				phase := int(pen&63) * phases / 64
				m := s.mask(r.font, g.id, st, phase)
				if m == nil {
					continue
				}
				at := image.Pt(pen.Floor(), y-g.y.Round()).Add(m.off)
				rect := m.img.Rect.Add(at)
				draw.DrawMask(dst, rect, src, image.Point{}, m.img, image.Point{}, draw.Over)
				touched = touched.Union(rect)
			}
		case runEmoji:
			side := emojiSide(st.Size)
			top := y - (st.Size*36+50)/100 - side/2
			left := (origin + r.x).Round()
			for i, cell := range r.cells {
				img := s.emoji(cell, side)
				rect := img.Rect.Add(image.Pt(left+i*emojiAdvance(st.Size), top))
				draw.Draw(dst, rect, img, image.Point{}, draw.Over)
				touched = touched.Union(rect)
			}
		}
	}
	return touched
}
