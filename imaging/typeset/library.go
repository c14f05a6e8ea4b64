package typeset

import (
	"bytes"
	"embed"
	"fmt"
	"unicode"

	"github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

//go:embed fonts/*.ttf fonts/*.otf
var fontFiles embed.FS

// fallbackFonts are the fonts tried after the Go fonts, in order. Noto
// Sans comes first, so Latin, Greek and Cyrillic the Go fonts lack (and
// combining marks) are drawn in it rather than in a CJK font's Latin; the
// symbol fonts come last.
func fallbackFonts() []string {
	return []string{
		"NotoSans-Regular.ttf",
		"NotoSansArabic-Regular.ttf",
		"NotoSansHebrew-Regular.ttf",
		"NotoSansArmenian-Regular.ttf",
		"NotoSansGeorgian-Regular.ttf",
		"NotoSansDevanagari-Regular.ttf",
		"NotoSansBengali-Regular.ttf",
		"NotoSansGurmukhi-Regular.ttf",
		"NotoSansGujarati-Regular.ttf",
		"NotoSansTamil-Regular.ttf",
		"NotoSansTelugu-Regular.ttf",
		"NotoSansKannada-Regular.ttf",
		"NotoSansMalayalam-Regular.ttf",
		"NotoSansThai-Regular.ttf",
		"NotoSansLao-Regular.ttf",
		"NotoSansKhmer-Regular.ttf",
		"NotoSansMyanmar-Regular.ttf",
		"NotoSansEthiopic-Regular.ttf",
		"NotoSansOriya-Regular.ttf",
		"NotoSansSinhala-Regular.ttf",
		"NotoSansMongolian-Regular.ttf",
		"NotoSansRunic-Regular.ttf",
		"NotoSansCJKsc-Regular.otf",
		"NotoSansSymbols2-Regular.ttf",
		"NotoSansSymbols-Regular.ttf",
		"NotoSansMath-Regular.ttf",
	}
}

// Library is the parsed fonts and emoji sheet. It is read-only once built
// and safe for concurrent use; draw with a Setter.
type Library struct {
	goRegular, goBold *truetype.Font
	goCover           []uint64 // bit set of the BMP runes both Go fonts draw on their own
	fonts             []*font.Font
	names             []string
	emoji             *atlas
}

// New parses the embedded fonts and emoji sheet, which takes a few tens
// of milliseconds, once.
func New() (*Library, error) {
	l := &Library{}
	var err error
	if l.goRegular, err = truetype.Parse(goregular.TTF); err != nil {
		return nil, fmt.Errorf("typeset: parse Go Regular: %w", err)
	}
	if l.goBold, err = truetype.Parse(gobold.TTF); err != nil {
		return nil, fmt.Errorf("typeset: parse Go Bold: %w", err)
	}
	for _, name := range fallbackFonts() {
		data, err := fontFiles.ReadFile("fonts/" + name)
		if err != nil {
			return nil, fmt.Errorf("typeset: %w", err)
		}
		ld, err := ot.NewLoader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("typeset: read %s: %w", name, err)
		}
		f, err := font.NewFont(ld)
		if err != nil {
			return nil, fmt.Errorf("typeset: parse %s: %w", name, err)
		}
		l.fonts = append(l.fonts, f)
		l.names = append(l.names, name)
	}
	if l.emoji, err = loadAtlas(); err != nil {
		return nil, err
	}
	l.goCover = make([]uint64, 0x10000/64)
	for r := rune(0x20); r < 0x10000; r++ {
		if l.goRegular.Index(r) == 0 || l.goBold.Index(r) == 0 {
			continue
		}
		// Marks are placed by the shaper, right-to-left letters need it,
		// and characters shown as pictures by default are emoji.
		if unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc) || rightToLeft(r) || l.emoji.pictureByDefault(r) {
			continue
		}
		l.goCover[r/64] |= 1 << (r % 64)
	}
	return l, nil
}

// goDraws reports whether the Go fonts draw r alone, unshaped.
func (l *Library) goDraws(r rune) bool {
	return r >= 0 && r < 0x10000 && l.goCover[r/64]&(1<<(r%64)) != 0
}

// fontDraws reports whether fallback font i has a glyph for r.
func (l *Library) fontDraws(i int, r rune) bool {
	_, ok := l.fonts[i].Cmap.Lookup(r)
	return ok
}

// Draws reports whether r can be drawn other than as a missing glyph: by a
// font, or as an emoji picture.
func (l *Library) Draws(r rune) bool { return l.textDraws(r) || l.emoji.has([]rune{r}) }

// textDraws reports whether a font draws r.
func (l *Library) textDraws(r rune) bool {
	if l.goRegular.Index(r) != 0 && l.goBold.Index(r) != 0 {
		return true
	}
	for i := range l.fonts {
		if l.fontDraws(i, r) {
			return true
		}
	}
	return false
}

// fontName is the file name of fallback font i, "Go" for the Go fonts.
func (l *Library) fontName(i int) string {
	if i < 0 || i >= len(l.names) {
		return "Go"
	}
	return l.names[i]
}

// plain reports whether the Go fonts draw all of s unshaped, the common
// case of Latin, Greek and Cyrillic text, which then needs no itemising.
func (l *Library) plain(s string) bool {
	for _, r := range s {
		if r < 0x7F && r >= 0x20 {
			continue
		}
		if !l.goDraws(r) {
			return false
		}
	}
	return true
}
