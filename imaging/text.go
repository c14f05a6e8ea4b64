package imaging

import (
	"fmt"
	"image"

	"github.com/meeplegames/meeple/imaging/typeset"
	"golang.org/x/image/vector"
)

// fonts draws text in every script: the Go fonts for Latin, Greek and
// Cyrillic, embedded Noto fonts for the rest, Twemoji pictures for emoji
// (package typeset). It is read-only once built and safe to share; the
// setters that draw with it cache what they lay out and live in a faceSet,
// one per render.
type fonts struct {
	lib *typeset.Library
}

func loadFonts() (fonts, error) {
	lib, err := typeset.New()
	if err != nil {
		return fonts{}, fmt.Errorf("imaging: %w", err)
	}
	return fonts{lib: lib}, nil
}

// has reports whether the fonts draw r other than as a missing glyph.
func (f fonts) has(r rune) bool { return f.lib.Draws(r) }

// clean makes untrusted text (a player's display name) drawable: control
// and bidi-formatting characters go, accents are composed, and it is cut
// to max grapheme clusters (what a reader counts as characters: an emoji
// sequence or a letter with its accents is one) with an ellipsis.
func (f fonts) clean(s string, max int) string {
	return typeset.Truncate(typeset.Clean(s), max)
}

// size is a font size in pixels. Images are drawn for a phone: nothing is
// smaller than sizeSmall.
type size int

const (
	sizeSmall size = 16
	sizeBody  size = 19
	sizeLarge size = 24
	sizeHuge  size = 32
)

// style is how a piece of text is drawn.
type style struct {
	size  size
	bold  bool
	sans  bool // Noto Sans rather than the Go fonts, for figures: its zero has no dot
	color rgb
	align align
}

// align is the horizontal anchor of a text's x.
type align int

const (
	alignLeft align = iota
	alignCenter
	alignRight
)

type faceKey struct {
	bold bool
	size size
}

type fitKey struct {
	face faceKey
	text string
	max  int
}

// maxWidths bounds the fit and wrap memos of a face set; past it a memo
// restarts.
const maxWidths = 4096

// faceSet lays out, measures and draws the text of one render at a time,
// through a typeset.Setter, which caches laid-out lines, glyphs and emoji
// within a byte budget; it memoises shortened and wrapped texts on top. It
// is not safe for concurrent use; Renderer pools them.
type faceSet struct {
	set    *typeset.Setter
	shapes vector.Rasterizer      // fills the render's rounded boxes
	inks   map[rgb]*image.Uniform // their colours
	fits   map[fitKey]string      // shortened texts, by text and width
	wraps  map[wrapKey]wrapped
}

func newFaceSet(f fonts) *faceSet {
	return &faceSet{set: f.lib.NewSetter(), fits: map[fitKey]string{}, wraps: map[wrapKey]wrapped{}, inks: map[rgb]*image.Uniform{}}
}

func (st style) typeset() typeset.Style {
	return typeset.Style{Size: int(st.size), Bold: st.bold, Sans: st.sans}
}

// width returns the advance of s in the style's face.
func (fs *faceSet) width(s string, st style) int { return fs.set.Width(s, st.typeset()) }

// capHeight is the height of a capital letter of the size, which centres
// text on a line.
func capHeight(s size) int { return int(float64(s)*0.72 + 0.5) }

// draw writes s onto dst with its vertical centre (of capitals) at y and
// its horizontal anchor at x, and returns its width and a rectangle holding
// every pixel it may have touched.
func (fs *faceSet) draw(dst *image.RGBA, s string, x, y int, st style) (int, image.Rectangle) {
	w := fs.width(s, st)
	switch st.align {
	case alignCenter:
		x -= w / 2
	case alignRight:
		x -= w
	}
	_, drawn := fs.set.Draw(dst, s, x, y+capHeight(st.size)/2, st.typeset(), fs.ink(st.color))
	return w, image.Rect(x-2, y-int(st.size), x+w+2, y+int(st.size)).Union(drawn)
}

// fit shortens s with an ellipsis until it is at most max pixels wide,
// cutting between grapheme clusters, memoised: boards cut the same texts
// to the same widths every time.
func (fs *faceSet) fit(s string, max int, st style) string {
	if fs.width(s, st) <= max {
		return s
	}
	k := fitKey{faceKey{st.bold, st.size}, s, max}
	if t, ok := fs.fits[k]; ok {
		return t
	}
	if len(fs.fits) >= maxWidths {
		clear(fs.fits)
	}
	t := fs.set.Fit(s, max, st.typeset())
	fs.fits[k] = t
	return t
}

// ink is colour col as an image to draw with, kept for the next shapes.
func (fs *faceSet) ink(col rgb) *image.Uniform {
	u, ok := fs.inks[col]
	if !ok {
		u = image.NewUniform(col)
		fs.inks[col] = u
	}
	return u
}
