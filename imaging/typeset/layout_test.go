package typeset

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// runsOf describes a line's runs in visual order: "go:Ada ",
// "Arabic:علي" (the runes shaped), "emoji:1" (the number of pictures).
func runsOf(s *Setter, text string) []string {
	rs := []rune(text)
	items := s.itemise(rs, true)
	reorder(items)
	var out []string
	for _, it := range items {
		switch it.kind {
		case runGo:
			out = append(out, "go:"+goText(rs[it.start:it.end]))
		case runShaped:
			name := strings.TrimSuffix(strings.TrimPrefix(s.lib.fontName(it.font), "NotoSans"), "-Regular.ttf")
			out = append(out, name+":"+string(rs[it.start:it.end]))
		case runEmoji:
			out = append(out, "emoji:"+strings.Repeat("*", len(it.cells)))
		}
	}
	return out
}

// Clusters go to the font or picture that draws them, and runs come out
// in visual order: right-to-left runs inside left-to-right text, numbers
// read with the letters before them, a display name isolated.
func TestRunsInVisualOrder(t *testing.T) {
	s := testLibrary(t).NewSetter()
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Ada Lovelace", []string{"go:Ada Lovelace"}},
		{"Ada 🎲", []string{"go:Ada ", "emoji:*"}},
		{"Ada علي", []string{"go:Ada ", "Arabic:علي"}},
		{"علي to move", []string{"Arabic:علي", "go: to move"}},
		{"محمد 2", []string{"go:2", "Arabic:محمد "}},
		{"next: \u2068محمد\u2069 (3)", []string{"go:next: ", "Arabic:محمد\u2069", "go: (3)"}},
		{"שרה 12 to move", []string{"go:12", "Hebrew:שרה ", "go: to move"}},
		{"李雷 to move", []string{"CJKsc-Regular.otf:李雷", "go: to move"}},
		{"e\u0301lodie", []string{":e\u0301", "go:lodie"}},
		{"🇫🇷 Zoé", []string{"emoji:*", "go: Zoé"}},
		{"👩‍👩‍👧 fam", []string{"emoji:*", "go: fam"}},
		{"#️⃣1️⃣", []string{"emoji:**"}},
		{"👍🏽", []string{"emoji:*"}},
		{"🧑🏻‍🤝‍🧑🏿", []string{"emoji:*"}},
		{"♥ and ♥\uFE0F", []string{"go:♥ and ", "emoji:*"}},
		{"राहुल", []string{"Devanagari:राहुल"}},
	} {
		got := runsOf(s, tc.text)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: runs %q, want %q", tc.text, got, tc.want)
		}
	}
}

// Arabic letters are joined: shaped together, they take other glyphs
// than alone; right to left, the first letter is drawn rightmost.
func TestArabicJoins(t *testing.T) {
	s := testLibrary(t).NewSetter()
	word := s.layout("علي", Style{Size: 24})
	if len(word.runs) != 1 || len(word.runs[0].glyphs) != 3 {
		t.Fatalf("علي: runs %+v", word.runs)
	}
	for i, letter := range []string{"ع", "ل", "ي"} {
		alone := s.layout(letter, Style{Size: 24}).runs[0].glyphs[0].id
		joined := word.runs[0].glyphs[2-i].id // visual order: the first letter is last
		if alone == joined {
			t.Errorf("%s has its isolated glyph %d inside the word", letter, alone)
		}
	}
}

// A combining accent sits over its letter, not after it.
func TestCombiningMarkOverLetter(t *testing.T) {
	s := testLibrary(t).NewSetter()
	st := Style{Size: 24}
	plain, accented := s.layout("e", st), s.layout("e\u0301", st)
	if accented.width != s.layout("\u00e9", st).width && accented.width > plain.width+plain.width/4 {
		t.Errorf("e + U+0301 is %v wide, e alone %v", accented.width, plain.width)
	}
	if m := s.Missing("e\u0301"); len(m) > 0 {
		t.Errorf("e + U+0301: missing %q", m)
	}
}

// Shortening cuts only between grapheme clusters, never inside an emoji
// sequence or between a letter and its accents, and keeps within the width.
func TestShorteningKeepsClustersWhole(t *testing.T) {
	s := testLibrary(t).NewSetter()
	st := Style{Size: 19, Bold: true}
	for _, name := range names(t) {
		ends := clusterEnds(name)
		boundary := map[int]bool{0: true}
		for _, e := range ends {
			boundary[e] = true
		}
		check := func(how, got string) {
			kept := strings.TrimSuffix(strings.TrimSuffix(got, ellipsis), "\u200F")
			if !strings.HasPrefix(name, kept) || !utf8.ValidString(kept) {
				t.Fatalf("%s %q = %q: not a prefix", how, name, got)
			}
			// TrimSpace may end the kept text at a space inside the cut;
			// what is kept must still end on a cluster boundary or a space.
			if !boundary[len(kept)] && !strings.HasPrefix(name[len(kept):], " ") {
				t.Errorf("%s %q = %q: cut inside a cluster", how, name, got)
			}
		}
		for n := 1; n < len(ends); n++ {
			got := Truncate(name, n)
			check("Truncate", got)
			if k := len(clusterEnds(strings.TrimSuffix(got, ellipsis))); k > n+1 {
				t.Errorf("Truncate(%q, %d) = %q: %d clusters", name, n, got, k)
			}
		}
		full := s.Width(name, st)
		for _, max := range []int{full - 1, full * 2 / 3, full / 2, full / 3, 30} {
			got := s.Fit(name, max, st)
			if got == "" {
				continue
			}
			check("Fit", got)
			if w := s.Width(got, st); w > max {
				t.Errorf("Fit(%q, %d) = %q, %d pixels wide", name, max, got, w)
			}
		}
	}
	if got := Truncate("👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧", 2); got != "👩‍👩‍👧👩‍👩‍👧…" {
		t.Errorf("Truncate families = %q", got)
	}
	if got := Truncate("שרה כהן", 3); got != "שרה\u200F…" {
		t.Errorf("Truncate Hebrew = %q, want the ellipsis after a right-to-left mark", got)
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"  e\u0301lodie ":       "élodie",
		"\x00\x1b[31mred\u202e": "[31mred",
		"a\u2067b\u2069c":       "abc",
		"👩‍👩‍👧\tfam":            "👩‍👩‍👧 fam",
		"♥\uFE0F":               "♥\uFE0F",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkLayoutUncached(b *testing.B) {
	s := testLibrary(b).NewSetter()
	texts := []string{"Ada 🎲", "李雷 to move", "محمد", "Élodie", "👩‍👩‍👧 fam", "Ada Lovelace"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.build(texts[i%len(texts)], Style{Size: 19})
	}
}

// A Sans line is drawn in Noto Sans where the Go fonts would draw it (a
// figure's zero without its dot), and measured as drawn.
func TestSansLinesAreNotoSans(t *testing.T) {
	s := testLibrary(t).NewSetter()
	st := Style{Size: 40, Bold: true}
	if l := s.layout("10", st); len(l.runs) != 1 || l.runs[0].kind != runGo {
		t.Fatalf("a plain line is not the Go fonts': %+v", l.runs)
	}
	st.Sans = true
	l := s.layout("10", st)
	if len(l.runs) != 1 || l.runs[0].kind != runShaped || s.lib.fontName(l.runs[0].font) != "NotoSans-Regular.ttf" {
		t.Fatalf("a Sans line is not Noto Sans: %+v", l.runs)
	}
	if w := s.Width("10", st); w <= 0 || w != l.width.Ceil() {
		t.Errorf("a Sans line is %d wide, laid out %d", w, l.width.Ceil())
	}
}
