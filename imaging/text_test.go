package imaging

import (
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

func TestRichSegments(t *testing.T) {
	r := testRenderer(t)
	c := &canvas{r: r}
	sp := r.sprites
	for _, tc := range []struct {
		in   string
		want []segment
	}{
		{"+2 gears, +1 energy", []segment{{text: "+2"}, {icon: sp.gear}, {text: ", +1"}, {icon: sp.energy}}},
		{"phase 6: +1 newspapers, +1 income", []segment{{text: "phase 6: +1"}, {icon: sp.paper}, {text: ", +1 income"}}},
		{"1 energy and one green bonus", []segment{{text: "1"}, {icon: sp.energy}, {text: " and one green bonus"}}},
		{"gears per energy", []segment{{text: "gears per energy"}}},
		{"", nil},
	} {
		got := c.richSegments(tc.in)
		if len(got) != len(tc.want) {
			t.Errorf("richSegments(%q) = %v, want %v", tc.in, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("richSegments(%q)[%d] = %+v, want %+v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
}
