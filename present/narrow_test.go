package present

import (
	"strings"
	"testing"
)

// TestANarrowedColumnKeepsTheRowWhole: a table wider than its width
// shortens the chosen column's cells with "…" (not its header, never
// inside a grapheme) so that no row breaks; a table that fits is left as
// it is.
func TestANarrowedColumnKeepsTheRowWhole(t *testing.T) {
	build := func() *table {
		tb := &table{}
		tb.add("name", "nation", "figures")
		tb.add("Ada", "Großbritannien", strings.Repeat("9 ", 10))
		tb.add("Bo", "USA", strings.Repeat("9 ", 10))
		tb.add("Cy", "Ñandú e\u0301toile", strings.Repeat("9 ", 10))
		return tb
	}
	tb := build()
	tb.narrow(1, 30)
	var b strings.Builder
	tb.writeWithin(&b, 30)
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if visibleLen(line) > 30 {
			t.Errorf("line of %d columns: %q", visibleLen(line), line)
		}
	}
	if got := tb.rows[1][1]; got != "Großb…" {
		t.Errorf("the long nation reads %q", got)
	}
	if tb.rows[2][1] != "USA" || tb.rows[0][1] != "nation" {
		t.Errorf("a short cell or the header changed: %q %q", tb.rows[2][1], tb.rows[0][1])
	}
	wide := build()
	wide.narrow(1, 100)
	if wide.rows[1][1] != "Großbritannien" {
		t.Errorf("a table that fits was narrowed: %q", wide.rows[1][1])
	}
}
