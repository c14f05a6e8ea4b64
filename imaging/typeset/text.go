package typeset

import (
	"image"
	"image/color"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	xbidi "golang.org/x/text/unicode/bidi"
	"golang.org/x/text/unicode/norm"
)

// Width is the advance of text in pixels, rounded up.
func (s *Setter) Width(text string, st Style) int { return s.layout(text, st).width.Ceil() }

// Draw draws text in colour col with its start at x and its baseline at y
// and returns its width and the rectangle of the pictures and fallback
// glyphs it drew (Go-font text stays within the usual ascent and descent
// of the size, which the caller knows).
func (s *Setter) Draw(dst *image.RGBA, text string, x, y int, st Style, col color.Color) (int, image.Rectangle) {
	l := s.layout(text, st)
	return l.width.Ceil(), s.drawLine(dst, l, x, y, st, col)
}

// Missing lists the grapheme clusters of text that would be drawn as a
// missing glyph: characters no embedded font or emoji picture has.
func (s *Setter) Missing(text string) []string {
	return s.layout(text, Style{Size: 16}).missing
}

// ellipsis ends a shortened text.
const ellipsis = "…"

// Fit returns text shortened with an ellipsis until it is at most max
// pixels wide, cut between grapheme clusters (an emoji sequence or a
// letter and its accents stay whole), or "" when not even the ellipsis
// fits. The prefixes tried are measured without filling the cache.
func (s *Setter) Fit(text string, max int, st Style) string {
	if s.Width(text, st) <= max {
		return text
	}
	ends := clusterEnds(text)
	cut := func(n int) string { return shorten(text, ends, n) }
	measure := func(t string) int { return s.build(t, st).width.Ceil() }
	lo, hi := 0, len(ends)-1 // cut(lo) is the fallback; cut(hi+1) would be text itself
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if measure(cut(mid)) <= max {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 && measure(ellipsis) > max {
		return ""
	}
	return cut(lo)
}

// clusterEnds returns the byte offset at which each grapheme cluster of
// text ends.
func clusterEnds(text string) []int {
	var ends []int
	rest, state, end := text, -1, 0
	for len(rest) > 0 {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		end += len(cluster)
		ends = append(ends, end)
	}
	return ends
}

// shorten keeps the first n clusters of text (ends as clusterEnds gives
// them), trims space and adds an ellipsis. After right-to-left letters a
// right-to-left mark goes before the ellipsis so it shows at the cut end,
// on the left.
func shorten(text string, ends []int, n int) string {
	kept := ""
	if n > 0 {
		kept = strings.TrimSpace(text[:ends[n-1]])
	}
	if lastStrongRTL(kept) {
		return kept + "\u200F" + ellipsis
	}
	return kept + ellipsis
}

// lastStrongRTL reports whether the last letter of s with a direction
// is right to left.
func lastStrongRTL(s string) bool {
	for len(s) > 0 {
		r, w := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-w]
		p, _ := xbidi.LookupRune(r)
		switch p.Class() {
		case xbidi.R, xbidi.AL:
			return true
		case xbidi.L:
			return false
		}
	}
	return false
}

// Clean makes untrusted text such as a display name fit to draw: it
// composes letters and accents where Unicode has one character for both
// (NFC), drops control characters, invalid bytes and the formatting
// characters that would reorder the text around it (bidi embeddings,
// overrides and isolates), and trims spaces. Joiners and variation
// selectors, which emoji and some scripts need, stay.
func Clean(s string) string {
	s = norm.NFC.String(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			r = ' '
		case r < 0x20, r >= 0x7F && r <= 0x9F, r == '\uFFFD',
			r >= '\u202A' && r <= '\u202E', r >= '\u2066' && r <= '\u2069',
			r == '\u200E', r == '\u200F', r == '\u061C':
			continue
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// Truncate keeps the first n grapheme clusters of s and adds an ellipsis
// when it cut.
func Truncate(text string, n int) string {
	ends := clusterEnds(text)
	if len(ends) <= n {
		return text
	}
	return shorten(text, ends, n)
}

// Isolate wraps a text that holds right-to-left letters (a display name
// put into a sentence) in a first-strong isolate, so that the numbers and
// brackets after it in the sentence keep their order: "next: محمد (3)"
// instead of "next: (3) محمد". Other texts are returned as they are.
func Isolate(s string) string {
	for _, r := range s {
		if rightToLeft(r) {
			return "\u2068" + s + "\u2069"
		}
	}
	return s
}
