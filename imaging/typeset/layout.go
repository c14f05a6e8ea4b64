package typeset

import (
	"image"
	"unicode/utf8"

	"github.com/go-text/typesetting/bidi"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"github.com/golang/freetype/truetype"
	"github.com/rivo/uniseg"
	xfont "golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	xbidi "golang.org/x/text/unicode/bidi"
)

// Style is how a line is drawn: its size in pixels (the em) and weight.
// Only the Go fonts have a bold face; other fonts are emboldened.
type Style struct {
	Size int
	Bold bool
	// Sans draws the line in Noto Sans where the Go fonts would: its zero
	// has no dot, which a small figure's reader (and OCR) takes for an O.
	Sans bool
}

// Setter lays out and draws lines for one goroutine at a time, keeping
// what it worked out in byte-bounded caches: a board draws the same texts
// at the same sizes on every render.
type Setter struct {
	lib     *Library
	goFaces map[Style]xfont.Face
	faces   []*font.Face // per fallback font, made on first use
	shaper  shaping.HarfbuzzShaper
	para    bidi.Paragraph

	lines  budget[lineKey, *line]
	masks  budget[maskKey, *mask]
	emojis budget[emojiKey, *emojiImage]

	drawer xfont.Drawer
	src    image.Uniform
}

// Cache budgets of a Setter, in bytes (estimated).
const (
	lineBudget  = 512 << 10
	maskBudget  = 1 << 20
	emojiBudget = 512 << 10
)

// NewSetter returns a Setter drawing with the library's fonts.
func (l *Library) NewSetter() *Setter {
	return &Setter{
		lib:     l,
		goFaces: map[Style]xfont.Face{},
		faces:   make([]*font.Face, len(l.fonts)),
		lines:   newBudget[lineKey, *line](lineBudget),
		masks:   newBudget[maskKey, *mask](maskBudget),
		emojis:  newBudget[emojiKey, *emojiImage](emojiBudget),
	}
}

func (s *Setter) goFace(st Style) xfont.Face {
	if f, ok := s.goFaces[st]; ok {
		return f
	}
	ttf := s.lib.goRegular
	if st.Bold {
		ttf = s.lib.goBold
	}
	f := &knownAdvances{Face: truetype.NewFace(ttf, &truetype.Options{Size: float64(st.Size), Hinting: xfont.HintingFull})}
	s.goFaces[st] = f
	return f
}

// knownAdvances is a face that remembers its glyphs' advances. A
// truetype face loads and hints a glyph for every advance asked of it,
// and measuring the texts of a board asks for thousands.
type knownAdvances struct {
	xfont.Face
	advances map[rune]advance
}

type advance struct {
	width fixed.Int26_6
	ok    bool
}

func (f *knownAdvances) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	if a, known := f.advances[r]; known {
		return a.width, a.ok
	}
	w, ok := f.Face.GlyphAdvance(r)
	if f.advances == nil {
		f.advances = map[rune]advance{}
	}
	f.advances[r] = advance{w, ok}
	return w, ok
}

func (s *Setter) face(i int) *font.Face {
	if s.faces[i] == nil {
		s.faces[i] = font.NewFace(s.lib.fonts[i])
	}
	return s.faces[i]
}

// runKind says how a run is drawn.
type runKind uint8

const (
	runGo     runKind = iota // the Go fonts, unshaped, hinted
	runShaped                // a fallback font, shaped
	runEmoji                 // emoji pictures
	runNone                  // nothing visible (formatting characters)
)

// line is a laid-out line: its runs in visual order, left to right.
type line struct {
	width   fixed.Int26_6
	runs    []run
	missing []string // clusters drawn as a missing glyph
}

// run is a piece of a line drawn one way, x from the line's start.
type run struct {
	kind   runKind
	x      fixed.Int26_6
	text   string  // runGo
	font   int     // runShaped
	glyphs []glyph // runShaped
	cells  []int   // runEmoji
}

// glyph is a shaped glyph, placed from its run's start; y is up.
type glyph struct {
	id   font.GID
	x, y fixed.Int26_6
}

type lineKey struct {
	text  string
	style Style
}

// bytes estimates what a line holds in memory.
func (l *line) bytes() int {
	n := 64
	for _, r := range l.runs {
		n += 64 + len(r.text) + 16*len(r.glyphs) + 8*len(r.cells)
	}
	for _, m := range l.missing {
		n += 16 + len(m)
	}
	return n
}

// layout returns the laid-out line of text, from the cache when it can.
func (s *Setter) layout(text string, st Style) *line {
	k := lineKey{text, st}
	if l, ok := s.lines.get(k); ok {
		return l
	}
	l := s.build(text, st)
	s.lines.put(k, l, len(text)+l.bytes())
	return l
}

// build lays a line out.
func (s *Setter) build(text string, st Style) *line {
	if !st.Sans && s.lib.plain(text) {
		w := xfont.MeasureString(s.goFace(st), text)
		return &line{width: w, runs: []run{{kind: runGo, text: text}}}
	}
	rs := make([]rune, 0, len(text))
	for _, r := range text {
		if r >= 0x20 && (r < 0x7F || r > 0x9F) && r != '\uFFFD' {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return &line{}
	}
	items := s.itemise(rs, !st.Sans)
	reorder(items)
	l := &line{}
	for _, it := range items {
		r := run{kind: it.kind, x: l.width, font: it.font}
		var adv fixed.Int26_6
		switch it.kind {
		case runGo:
			r.text = goText(rs[it.start:it.end])
			adv = xfont.MeasureString(s.goFace(st), r.text)
		case runShaped:
			adv = s.shape(&r, rs, it, st, &l.missing)
		case runEmoji:
			r.cells = it.cells
			if it.level%2 == 1 {
				reverse(r.cells)
			}
			adv = fixed.I(len(r.cells) * emojiAdvance(st.Size))
		}
		if it.kind != runNone {
			l.runs = append(l.runs, r)
		}
		l.width += adv
	}
	return l
}

// shape shapes an item into r and returns its advance; clusters drawn
// with the missing glyph are added to missing.
func (s *Setter) shape(r *run, rs []rune, it item, st Style, missing *[]string) fixed.Int26_6 {
	dir := di.DirectionLTR
	if it.level%2 == 1 {
		dir = di.DirectionRTL
	}
	out := s.shaper.Shape(shaping.Input{
		Text:      rs,
		RunStart:  it.start,
		RunEnd:    it.end,
		Direction: dir,
		Face:      s.face(it.font),
		Size:      fixed.I(st.Size),
		Script:    it.script,
		Language:  language.DefaultLanguage(),
	})
	var pen fixed.Int26_6
	r.glyphs = make([]glyph, 0, len(out.Glyphs))
	for _, g := range out.Glyphs {
		if g.GlyphID == 0 {
			*missing = append(*missing, string(rs[g.TextIndex():min(g.TextIndex()+g.RunesCount(), len(rs))]))
		}
		r.glyphs = append(r.glyphs, glyph{id: g.GlyphID, x: pen + g.XOffset, y: g.YOffset})
		pen += g.Advance
	}
	return pen
}

// goText is the runes of a Go-font run without the invisible formatting
// characters the Go fonts have no glyph for.
func goText(rs []rune) string {
	out := make([]rune, 0, len(rs))
	for _, r := range rs {
		if !ignorable(r) {
			out = append(out, r)
		}
	}
	return string(out)
}

// item is a run of clusters drawn alike, before shaping: runes
// [start, end) of the line.
type item struct {
	start, end int
	kind       runKind
	font       int
	level      bidi.Level
	script     language.Script
	cells      []int
}

// itemise splits rs into items: grapheme clusters, each drawn as emoji or
// in the first font that has all its characters (the Go fonts first when
// goFirst), grouped by how they are drawn, their direction and script.
func (s *Setter) itemise(rs []rune, goFirst bool) []item {
	levels := s.levels(rs)
	var items []item
	prevFont := -2
	rest, state, end := string(rs), -1, 0
	for len(rest) > 0 {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		start := end
		end += utf8.RuneCountInString(cluster)
		text := rs[start:end]
		c := item{start: start, end: end, level: levels[start], script: clusterScript(text), font: -1}
		if cells, ok := s.lib.emojiCells(text); ok {
			c.kind, c.cells = runEmoji, cells
		} else {
			c.kind, c.font = s.lib.fontFor(text, c.level, c.script, prevFont, goFirst)
			prevFont = c.font
		}
		if n := len(items); n > 0 && c.kind == runNone {
			items[n-1].end = end // invisible: it goes with what precedes it
			continue
		}
		if n := len(items); n > 0 && items[n-1].kind == runNone {
			c.start = items[n-1].start
			items[n-1] = c
			continue
		}
		if n := len(items); n > 0 && items[n-1].joins(c) {
			last := &items[n-1]
			last.end = end
			last.cells = append(last.cells, c.cells...)
			if last.script == language.Common || last.script == language.Inherited {
				last.script = c.script
			}
			continue
		}
		items = append(items, c)
	}
	return items
}

// levels returns the embedding level of each rune of rs in a
// left-to-right paragraph. go-text's bidi resolves the levels but reports
// only runs of one direction, each with its first rune's level; within a
// left-to-right run a number that follows right-to-left letters is at
// level 2 (rules W2 and I1: it is read with them) and the rest at level 0,
// which levels works out from the characters' bidi classes, letters inside
// an isolate (a display name) not counting outside it.
func (s *Setter) levels(rs []rune) []bidi.Level {
	runs := s.para.Segment(rs, bidi.LeftToRight)
	levels := make([]bidi.Level, len(rs))
	classes := make([]xbidi.Class, len(rs))
	for i, r := range rs {
		p, _ := xbidi.LookupRune(r)
		classes[i] = p.Class()
	}
	afterRTL := false // the last strong letter seen is right to left
	var outer []bool  // afterRTL outside each open isolate
	for i := 0; i < runs.NumRuns(); i++ {
		run := runs.Run(i)
		for j := run.Start; j < run.End && j < len(rs); j++ {
			switch classes[j] {
			case xbidi.L:
				afterRTL = false
			case xbidi.R, xbidi.AL:
				afterRTL = true
			case xbidi.LRI, xbidi.FSI:
				outer, afterRTL = append(outer, afterRTL), false
			case xbidi.RLI:
				outer, afterRTL = append(outer, afterRTL), true
			case xbidi.PDI:
				if n := len(outer); n > 0 {
					outer, afterRTL = outer[:n-1], outer[n-1]
				}
			}
			levels[j] = run.Level
			if run.Level%2 == 0 {
				levels[j] = 0
				if afterRTL && numeric(classes, j) {
					levels[j] = 2
				}
			}
		}
	}
	return levels
}

// numeric reports whether the rune at i is part of a number: a digit, or
// a separator or sign next to one.
func numeric(classes []xbidi.Class, i int) bool {
	digit := func(j int) bool {
		return j >= 0 && j < len(classes) && (classes[j] == xbidi.EN || classes[j] == xbidi.AN)
	}
	switch classes[i] {
	case xbidi.EN, xbidi.AN:
		return true
	case xbidi.CS, xbidi.ES:
		return digit(i-1) && digit(i+1)
	case xbidi.ET:
		return digit(i-1) || digit(i+1)
	case xbidi.NSM:
		return i > 0 && numeric(classes, i-1)
	}
	return false
}

// joins reports whether cluster c continues item it.
func (it item) joins(c item) bool {
	if it.kind != c.kind || it.level != c.level || it.font != c.font {
		return false
	}
	return it.kind != runShaped || it.script == c.script || c.script == language.Common ||
		c.script == language.Inherited || it.script == language.Common || it.script == language.Inherited
}

// clusterScript is the script of a cluster's first character that has one.
func clusterScript(rs []rune) language.Script {
	for _, r := range rs {
		if sc := language.LookupScript(r); sc != language.Common && sc != language.Inherited {
			return sc
		}
	}
	if len(rs) > 0 {
		return language.LookupScript(rs[0])
	}
	return language.Common
}

// fontFor chooses how a text cluster is drawn: by the Go fonts when it is
// one character they draw in left-to-right text (and goFirst); else by the font of the
// cluster before when it is punctuation or space that font has (so a
// space between two Arabic words stays Arabic); else by the first
// fallback font that has all its characters, or failing that its first.
func (l *Library) fontFor(rs []rune, level bidi.Level, script language.Script, prev int, goFirst bool) (runKind, int) {
	var need []rune
	for _, r := range rs {
		if !ignorable(r) {
			need = append(need, r)
		}
	}
	if len(need) == 0 {
		return runNone, -1
	}
	if goFirst && len(need) == 1 && level%2 == 0 && l.goDraws(need[0]) {
		return runGo, -1
	}
	if (script == language.Common || script == language.Inherited) && prev >= 0 && l.fontHasAll(prev, need) {
		return runShaped, prev
	}
	for i := range l.fonts {
		if l.fontHasAll(i, need) {
			return runShaped, i
		}
	}
	for i := range l.fonts {
		if l.fontDraws(i, need[0]) {
			return runShaped, i
		}
	}
	return runShaped, 0
}

func (l *Library) fontHasAll(i int, rs []rune) bool {
	for _, r := range rs {
		if !l.fontDraws(i, r) {
			return false
		}
	}
	return true
}

// ignorable reports whether r is an invisible formatting character that
// needs no glyph: joiners, variation selectors, direction marks.
func ignorable(r rune) bool {
	switch {
	case r == '\u00AD', r == '\u034F', r == '\u061C', r >= '\u200B' && r <= '\u200F',
		r >= '\u202A' && r <= '\u202E', r >= '\u2060' && r <= '\u206F', r == '\uFEFF',
		r >= '\uFE00' && r <= '\uFE0F', r >= 0xE0000 && r <= 0xE0FFF:
		return true
	}
	return false
}

// rightToLeft reports whether r is a right-to-left letter.
func rightToLeft(r rune) bool {
	p, _ := xbidi.LookupRune(r)
	c := p.Class()
	return c == xbidi.R || c == xbidi.AL
}

// reorder puts items in visual order (rule L2 of the bidirectional
// algorithm): from the highest level down to the lowest odd one, every
// stretch of items at that level or above is reversed.
func reorder(items []item) {
	var hi, lowOdd bidi.Level = 0, 127
	for _, it := range items {
		hi = max(hi, it.level)
		if it.level%2 == 1 {
			lowOdd = min(lowOdd, it.level)
		}
	}
	for lvl := hi; lvl >= lowOdd && lvl > 0; lvl-- {
		for i := 0; i < len(items); {
			if items[i].level < lvl {
				i++
				continue
			}
			j := i
			for j < len(items) && items[j].level >= lvl {
				j++
			}
			reverse(items[i:j])
			i = j
		}
	}
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
