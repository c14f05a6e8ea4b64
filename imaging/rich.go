package imaging

import (
	"image"
	"strings"
)

// segment is a piece of rich text: words, or a resource icon.
type segment struct {
	text string
	icon *image.RGBA
}

// atom is what a line of rich text may not break inside: a word (words
// joined by no-break spaces count as one), or a number with the icon of
// its resource and the punctuation after it ("+2" gear-icon ",").
type atom []segment

// richAtoms turns "+2 gears, +1 energy" into the atoms "+2" gear-icon ","
// and "+1" energy-icon: a number followed by a resource word becomes the
// number and the resource's icon, which reads faster and takes a fifth of
// the room.
func (c *canvas) richAtoms(s string) []atom {
	var out []atom
	words := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' }) // a no-break space binds
	for i, w := range words {
		word := strings.TrimRight(w, ",;.)")
		if icon := c.r.sprites.resourceIcon(word); icon != nil && len(out) > 0 && endsWithDigit(words[i-1]) {
			last := append(out[len(out)-1], segment{icon: icon})
			if rest := w[len(word):]; rest != "" {
				last = append(last, segment{text: rest})
			}
			out[len(out)-1] = last
			continue
		}
		out = append(out, atom{{text: w}})
	}
	return out
}

// resourceIcon is the icon of a resource word in English, German or
// French (as the games' catalogues write them), or nil.
func (s *sprites) resourceIcon(word string) *image.RGBA {
	switch word {
	case "gear", "gears", "Zahnrad", "Zahnräder", "engrenage", "engrenages":
		return s.gear
	case "energy", "Energie", "énergie", "énergies":
		return s.energy
	case "newspaper", "newspapers", "Zeitung", "Zeitungen", "journal", "journaux":
		return s.paper
	}
	return nil
}

func endsWithDigit(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

// atomWidth is the width of an atom drawn in the style.
func (c *canvas) atomWidth(a atom, st style) int {
	w := 0
	for _, seg := range a {
		if seg.icon != nil {
			w += iconSize + 2
		} else {
			w += c.fs.width(seg.text, st)
		}
	}
	return w
}

// lineWidth is the width of a line of atoms, a space between each two.
func (c *canvas) lineWidth(line []atom, st style) int {
	w := 0
	for i, a := range line {
		if i > 0 {
			w += c.fs.width(" ", st)
		}
		w += c.atomWidth(a, st)
	}
	return w
}

// richLine is a line of wrapped rich text ready to draw: runs of words
// and icons, and its width.
type richLine struct {
	segs  []segment
	width int
}

// wrapKey names a wrapped text: the text, its face and the line widths.
type wrapKey struct {
	face        faceKey
	text        string
	first, rest int
	n           int
}

// wrapped is a memoised wrap.
type wrapped struct {
	lines []richLine
	cut   bool
}

// wrapRich flows s over at most n lines, the first first pixels wide and
// the others rest, breaking between atoms. It reports whether s had to be
// cut; the cut line then ends with an ellipsis. No line is wider than its
// width. Boards wrap the same texts every time, so it is memoised.
func (c *canvas) wrapRich(s string, first, rest, n int, st style) ([]richLine, bool) {
	k := wrapKey{faceKey{st.bold, st.size}, s, first, rest, n}
	if w, ok := c.fs.wraps[k]; ok {
		return w.lines, w.cut
	}
	if len(c.fs.wraps) >= maxWidths {
		clear(c.fs.wraps)
	}
	widths := make([]int, max(n, 0))
	for i := range widths {
		widths[i] = rest
	}
	if n > 0 {
		widths[0] = first
	}
	atoms, cut := c.wrapAtoms(s, widths, st)
	lines := make([]richLine, len(atoms))
	for i, line := range atoms {
		lines[i] = c.richRuns(line, st)
	}
	c.fs.wraps[k] = wrapped{lines, cut}
	return lines, cut
}

// richRuns joins a line's atoms into runs: the words between two icons
// become one text, drawn at once.
func (c *canvas) richRuns(line []atom, st style) richLine {
	var out richLine
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			out.segs = append(out.segs, segment{text: text.String()})
			text.Reset()
		}
	}
	for i, a := range line {
		if i > 0 {
			text.WriteByte(' ')
		}
		for _, seg := range a {
			if seg.icon != nil {
				flush()
				out.segs = append(out.segs, seg)
				continue
			}
			text.WriteString(seg.text)
		}
	}
	flush()
	for _, seg := range out.segs {
		if seg.icon != nil {
			out.width += iconSize + 2
		} else {
			out.width += c.fs.width(seg.text, st)
		}
	}
	return out
}

// wrapAtoms flows s over lines of the given widths, one line per width at
// most, and reports whether it had to cut.
func (c *canvas) wrapAtoms(s string, widths []int, st style) (lines [][]atom, cut bool) {
	atoms := c.richAtoms(s)
	if len(atoms) == 0 || len(widths) == 0 {
		return nil, false
	}
	space := c.fs.width(" ", st)
	lines = make([][]atom, 1, len(widths))
	used := 0
	for i, a := range atoms {
		w := c.atomWidth(a, st)
		n := len(lines) - 1
		switch {
		case len(lines[n]) == 0 && w <= widths[n]:
			lines[n], used = append(lines[n], a), w
			continue
		case len(lines[n]) > 0 && used+space+w <= widths[n]:
			lines[n], used = append(lines[n], a), used+space+w
			continue
		case n+1 < len(widths):
			lines = append(lines, nil)
			if w <= widths[n+1] {
				lines[n+1], used = []atom{a}, w
				continue
			}
			n++
		}
		// The atom fits on no line left: cut here.
		lines[n] = c.cutLine(lines[n], atoms[i:], widths[n], st)
		return lines, true
	}
	return lines, false
}

// cutLine ends a line that cannot take the rest: it drops atoms from its
// end until an ellipsis fits, or shortens a lone word to fit.
func (c *canvas) cutLine(line, rest []atom, width int, st style) []atom {
	ellipsis := c.fs.width("…", st)
	if len(line) == 0 && len(rest) > 0 && len(rest[0]) == 1 && rest[0][0].icon == nil {
		if t := c.fs.fit(rest[0][0].text, width, st); t != "" {
			return []atom{{{text: t}}}
		}
		return nil
	}
	for len(line) > 0 && c.lineWidth(line, st)+ellipsis > width {
		line = line[:len(line)-1]
	}
	if len(line) == 0 && ellipsis > width {
		return nil
	}
	if len(line) == 0 {
		return []atom{{{text: "…"}}}
	}
	last := append(atom(nil), line[len(line)-1]...)
	last = append(last, segment{text: "…"})
	return append(line[:len(line)-1:len(line)-1], last)
}

// drawRichLine draws a wrapped line from x and returns its width.
func (c *canvas) drawRichLine(line richLine, x, y int, st style) int {
	x0 := x
	for _, seg := range line.segs {
		if seg.icon != nil {
			c.sprite(seg.icon, x+1, y-iconSize/2)
			x += iconSize + 2
			continue
		}
		x += c.text(seg.text, x, y, st)
	}
	return x - x0
}

// richText draws s on one line with resource icons in place of resource
// words, cut with an ellipsis at max pixels, and returns the width drawn.
func (c *canvas) richText(s string, x, y, max int, st style) int {
	lines, cut := c.wrapRich(s, max, max, 1, st)
	if cut {
		c.noteCut(s)
	}
	if len(lines) == 0 {
		return 0
	}
	return c.drawRichLine(lines[0], x, y, st)
}

// richLines draws s flowed over lines lineH apart: the first starting at
// x1 with width w1, the others at x with width w, at most n lines in all.
// It returns how many lines it drew.
func (c *canvas) richLines(s string, x1, w1, x, w, y, lineH, n int, st style) int {
	lines, cut := c.wrapRich(s, w1, w, n, st)
	if cut {
		c.noteCut(s)
	}
	for i, line := range lines {
		lx := x
		if i == 0 {
			lx = x1
		}
		c.drawRichLine(line, lx, y+i*lineH, st)
	}
	return len(lines)
}
