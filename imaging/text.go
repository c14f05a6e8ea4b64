package imaging

import (
	"fmt"
	"image"
	"strings"
	"unicode/utf8"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
)

// fonts are the parsed Go fonts. A *truetype.Font is read-only once parsed
// and safe to share; the faces made from it are not (they cache glyphs) and
// live in a faceSet, one per render.
type fonts struct {
	regular, bold *truetype.Font
}

func loadFonts() (fonts, error) {
	regular, err := truetype.Parse(goregular.TTF)
	if err != nil {
		return fonts{}, fmt.Errorf("imaging: parse Go Regular: %w", err)
	}
	bold, err := truetype.Parse(gobold.TTF)
	if err != nil {
		return fonts{}, fmt.Errorf("imaging: parse Go Bold: %w", err)
	}
	return fonts{regular: regular, bold: bold}, nil
}

// has reports whether the fonts draw r; anything else is shown as '?'.
func (f fonts) has(r rune) bool { return f.regular.Index(r) != 0 && f.bold.Index(r) != 0 }

// clean makes untrusted text (a player's display name) drawable: runes the
// fonts lack become '?', control characters go, and it is cut to max runes.
func (f fonts) clean(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == max {
			b.WriteRune('…')
			break
		}
		switch {
		case r < ' ' || r == utf8.RuneError:
			continue
		case !f.has(r):
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
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

type widthKey struct {
	face faceKey
	text string
}

type fitKey struct {
	widthKey
	max int
}

// maxWidths bounds the width memo of a face set; past it the memo restarts.
const maxWidths = 4096

// faceSet holds the font faces and measured widths of one render at a
// time. It is not safe for concurrent use; Renderer pools them.
type faceSet struct {
	fonts  fonts
	faces  map[faceKey]font.Face
	widths map[widthKey]fixed.Int26_6
	fits   map[fitKey]string // shortened texts, by text and width
	wraps  map[wrapKey]wrapped
	drawer font.Drawer
	src    image.Uniform
}

func newFaceSet(f fonts) *faceSet {
	return &faceSet{fonts: f, faces: map[faceKey]font.Face{}, widths: map[widthKey]fixed.Int26_6{}, fits: map[fitKey]string{}, wraps: map[wrapKey]wrapped{}}
}

func (fs *faceSet) face(k faceKey) font.Face {
	if f, ok := fs.faces[k]; ok {
		return f
	}
	ttf := fs.fonts.regular
	if k.bold {
		ttf = fs.fonts.bold
	}
	f := truetype.NewFace(ttf, &truetype.Options{Size: float64(k.size), Hinting: font.HintingFull})
	fs.faces[k] = f
	return f
}

// width returns the advance of s in the style's face, memoised.
func (fs *faceSet) width(s string, st style) int {
	k := widthKey{faceKey{st.bold, st.size}, s}
	if w, ok := fs.widths[k]; ok {
		return w.Ceil()
	}
	if len(fs.widths) >= maxWidths {
		clear(fs.widths)
	}
	w := font.MeasureString(fs.face(k.face), s)
	fs.widths[k] = w
	return w.Ceil()
}

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
	fs.src.C = st.color
	fs.drawer = font.Drawer{
		Dst:  dst,
		Src:  &fs.src,
		Face: fs.face(faceKey{st.bold, st.size}),
		Dot:  fixed.P(x, y+capHeight(st.size)/2),
	}
	fs.drawer.DrawString(s)
	fs.drawer.Dst = nil
	return w, image.Rect(x-2, y-int(st.size), x+w+2, y+int(st.size))
}

// fit shortens s with an ellipsis until it is at most max pixels wide,
// memoised: boards cut the same texts to the same widths every time.
func (fs *faceSet) fit(s string, max int, st style) string {
	if fs.width(s, st) <= max {
		return s
	}
	k := fitKey{widthKey{faceKey{st.bold, st.size}, s}, max}
	if t, ok := fs.fits[k]; ok {
		return t
	}
	if len(fs.fits) >= maxWidths {
		clear(fs.fits)
	}
	// Binary search for the longest prefix that fits with its ellipsis;
	// the prefixes are measured directly, not memoised.
	r := []rune(s)
	face := fs.face(k.face)
	cut := func(n int) string { return strings.TrimSpace(string(r[:n])) + "…" }
	lo, hi := 0, len(r)-1 // cut(lo) is the fallback; cut(hi+1) would be s itself
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if font.MeasureString(face, cut(mid)).Ceil() <= max {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	t := ""
	if lo > 0 || font.MeasureString(face, "…").Ceil() <= max {
		t = cut(lo)
	}
	fs.fits[k] = t
	return t
}
