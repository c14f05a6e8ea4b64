package imaging

import (
	"slices"
	"strings"
	"testing"
)

func TestFitShortensToWidth(t *testing.T) {
	f, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	fs := newFaceSet(f)
	st := style{size: sizeSmall}
	long := "The Reform Club Doubles the Wager on Phileas Fogg"
	full := fs.width(long, st)
	for _, max := range []int{full, full - 1, 200, 60, 12} {
		got := fs.fit(long, max, st)
		if w := fs.width(got, st); w > max {
			t.Errorf("fit(%d) = %q, %d pixels wide", max, got, w)
		}
		if max >= full && got != long {
			t.Errorf("fit(%d) = %q, want the whole text", max, got)
		}
		if max < full && got != "" && !strings.HasSuffix(got, "…") {
			t.Errorf("fit(%d) = %q, want an ellipsis", max, got)
		}
		// The longest prefix that fits: one rune more would not.
		if n := len([]rune(strings.TrimSuffix(got, "…"))); max < full && got != "" {
			r := []rune(long)
			for n < len(r) && r[n] == ' ' {
				n++
			}
			longer := strings.TrimSpace(string(r[:n+1])) + "…"
			if fs.width(longer, st) <= max {
				t.Errorf("fit(%d) = %q, but %q fits too", max, got, longer)
			}
		}
		if again := fs.fit(long, max, st); again != got {
			t.Errorf("fit(%d) not stable: %q then %q", max, got, again)
		}
	}
	if got := fs.fit(long, 2, st); got != "" {
		t.Errorf("fit(2) = %q, want nothing", got)
	}
}

func TestRichAtoms(t *testing.T) {
	r := testRenderer(t)
	c := &canvas{r: r, w: en(nil)}
	sp := r.sprites
	for _, tc := range []struct {
		in   string
		want []atom
	}{
		{"+2 gears, +1 energy", []atom{{{text: "+2"}, {icon: sp.gear}, {text: ","}}, {{text: "+1"}, {icon: sp.energy}}}},
		{"phase 6: +1 newspapers, +1 income", []atom{{{text: "phase"}}, {{text: "6:"}}, {{text: "+1"}, {icon: sp.paper}, {text: ","}}, {{text: "+1"}}, {{text: "income"}}}},
		{"1 energy and one", []atom{{{text: "1"}, {icon: sp.energy}}, {{text: "and"}}, {{text: "one"}}}},
		{"gears per energy", []atom{{{text: "gears"}}, {{text: "per"}}, {{text: "energy"}}}},
		{"tile; ↔\u00a0John\u00a0Snow", []atom{{{text: "tile;"}}, {{text: "↔\u00a0John\u00a0Snow"}}}},
		{"", nil},
	} {
		got := c.richAtoms(tc.in)
		if len(got) != len(tc.want) {
			t.Errorf("richAtoms(%q) = %v, want %v", tc.in, got, tc.want)
			continue
		}
		for i := range got {
			if !slices.Equal(got[i], tc.want[i]) {
				t.Errorf("richAtoms(%q)[%d] = %+v, want %+v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
}

// Wrapped text keeps every line within its width, keeps every word when
// the lines suffice, and says when it had to cut.
func TestWrapRich(t *testing.T) {
	r := testRenderer(t)
	c := &canvas{r: r, fs: newFaceSet(r.fonts), w: en(nil)}
	st := style{size: sizeSmall}
	text := "a violet research tile (blue box); +2 gears, +1 energy; Supercalifragilisticexpialidocious"
	for _, tc := range []struct{ first, rest, n int }{
		{2000, 2000, 1}, {300, 300, 2}, {120, 300, 3}, {200, 200, 1}, {40, 40, 2}, {5, 5, 1}, {-20, 300, 3},
	} {
		lines, cut := c.wrapRich(text, tc.first, tc.rest, tc.n, st)
		if len(lines) > tc.n {
			t.Fatalf("%+v: %d lines", tc, len(lines))
		}
		var words []string
		for i, line := range lines {
			limit := tc.rest
			if i == 0 {
				limit = tc.first
			}
			if line.width > max(limit, 0) {
				t.Errorf("%+v: line %d is %d pixels wide", tc, i, line.width)
			}
			w := 0
			for _, seg := range line.segs {
				if seg.icon == nil {
					words = append(words, seg.text)
					w += c.fs.width(seg.text, st)
				} else {
					w += iconSize + 2
				}
			}
			if w != line.width {
				t.Errorf("%+v: line %d says %d pixels, its runs take %d", tc, i, line.width, w)
			}
		}
		joined := strings.Join(words, " ")
		if cut != strings.Contains(joined, "…") && joined != "" {
			t.Errorf("%+v: cut %t but drew %q", tc, cut, joined)
		}
		if tc.first == 2000 && (cut || len(lines) != 1) {
			t.Errorf("%+v: cut a text that fits", tc)
		}
		if again, _ := c.wrapRich(text, tc.first, tc.rest, tc.n, st); len(again) != len(lines) {
			t.Errorf("%+v: the memo gives %d lines, the first wrap %d", tc, len(again), len(lines))
		}
	}
}
