package present

import (
	"strings"

	"github.com/rivo/uniseg"
)

// textWidth is the width in columns the text views fit: a terminal of
// 100 columns shows every line whole.
const textWidth = 100

// writeWithin writes the table's rows in aligned columns, two spaces
// apart, keeping them within width columns (0: no limit): the last cell
// of a longer row is broken at its spaces onto lines of its own, under
// its column.
func (t *table) writeWithin(b *strings.Builder, width int) {
	widths := t.widths()
	for _, row := range t.rows {
		var line strings.Builder
		for i, c := range row[:max(len(row)-1, 0)] {
			line.WriteString(c)
			line.WriteString(strings.Repeat(" ", widths[i]-visibleLen(c)+2))
		}
		indent := visibleLen(line.String())
		last := ""
		if len(row) > 0 {
			last = row[len(row)-1]
		}
		if width <= 0 || indent+visibleLen(last) <= width || width-indent < width/3 {
			b.WriteString(strings.TrimRight(line.String()+last, " ") + "\n")
			continue
		}
		parts := breakText(last, width-indent)
		b.WriteString(line.String() + parts[0] + "\n")
		for _, p := range parts[1:] {
			b.WriteString(strings.Repeat(" ", indent) + p + "\n")
		}
	}
}

// widths are the table's columns' widths: each its widest cell.
func (t *table) widths() []int {
	var widths []int
	for _, row := range t.rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], visibleLen(c))
		}
	}
	return widths
}

// narrow shortens the cells of column col below the header row, with
// "…", as far as needed for the table's rows to fit width columns (never
// below the header's width): a long name in a language that runs long
// ("Großbritannien" beside long headers) then costs its end, not a broken row.
func (t *table) narrow(col, width int) {
	widths := t.widths()
	if col >= len(widths) || len(t.rows) == 0 || col >= len(t.rows[0]) {
		return
	}
	total := 2 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	room := max(widths[col]-(total-width), visibleLen(t.rows[0][col]), 1)
	if total <= width || room >= widths[col] {
		return
	}
	for _, row := range t.rows[1:] {
		if col < len(row) && visibleLen(row[col]) > room {
			row[col] = clipTo(row[col], room)
		}
	}
}

// clipTo shortens plain text s to width columns, the last one "…",
// never splitting a grapheme cluster.
func clipTo(s string, width int) string {
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		w := g.Width()
		if used+w > width-1 {
			break
		}
		b.WriteString(g.Str())
		used += w
	}
	return strings.TrimRight(b.String(), " ") + "…"
}

// fitLines breaks each line of text longer than width columns at its
// spaces; the lines it adds are indented two columns past the line's own
// indentation.
func fitLines(text string, width int) string {
	var b strings.Builder
	lines := strings.SplitAfter(text, "\n")
	for _, line := range lines {
		body := strings.TrimSuffix(line, "\n")
		if visibleLen(body) <= width {
			b.WriteString(line)
			continue
		}
		indent := strings.Repeat(" ", len(body)-len(strings.TrimLeft(body, " "))+2)
		parts := breakText(body, width)
		b.WriteString(parts[0] + "\n")
		for _, p := range breakText(strings.Join(parts[1:], " "), width-len(indent)) {
			b.WriteString(indent + p + "\n")
		}
		if !strings.HasSuffix(line, "\n") {
			return strings.TrimSuffix(b.String(), "\n")
		}
	}
	return b.String()
}

// breakText breaks s at spaces into pieces of at most width visible
// columns, rather after a comma or semicolon when that keeps a piece at
// least 60% full; a word longer than width is a piece of its own. ANSI
// codes count for nothing.
func breakText(s string, width int) []string {
	var parts []string
	var cur []string // the words of the piece being filled
	curLen := 0
	for _, w := range strings.Split(s, " ") {
		n := visibleLen(w)
		if len(cur) > 0 && curLen+1+n > width {
			keep := len(cur)
			for i, kept := len(cur)-1, curLen; i > 0; i-- {
				kept -= visibleLen(cur[i]) + 1
				if kept*10 < width*6 {
					break
				}
				if strings.HasSuffix(StripANSI(cur[i-1]), ",") || strings.HasSuffix(StripANSI(cur[i-1]), ";") {
					keep = i
					break
				}
			}
			parts = append(parts, strings.Join(cur[:keep], " "))
			cur = append([]string(nil), cur[keep:]...)
			curLen = visibleLen(strings.Join(cur, " "))
		}
		if len(cur) > 0 {
			curLen++
		}
		cur = append(cur, w)
		curLen += n
	}
	return append(parts, strings.Join(cur, " "))
}
