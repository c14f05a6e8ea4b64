package typeset

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"strings"
	"testing"
)

// Every test name is drawn with real glyphs and pictures: no cluster
// falls back to the missing glyph, none becomes '?'.
func TestEveryNameDraws(t *testing.T) {
	s := testLibrary(t).NewSetter()
	list := names(t)
	if len(list) < 200 {
		t.Fatalf("only %d test names", len(list))
	}
	for _, name := range list {
		if m := s.Missing(name); len(m) > 0 {
			t.Errorf("%q: missing glyphs for %q", name, m)
		}
		// At the glyph level: no shaped glyph is .notdef, and no '?'
		// appears that the name does not hold.
		for _, r := range s.layout(name, Style{Size: 19}).runs {
			for _, g := range r.glyphs {
				if g.id == 0 {
					t.Errorf("%q: a .notdef glyph in %s", name, s.lib.fontName(r.font))
				}
			}
			if strings.Count(r.text, "?") > strings.Count(name, "?") {
				t.Errorf("%q drawn as %q", name, r.text)
			}
		}
	}
	if *sample != "" {
		writeSample(t, s, list, *sample)
	}
}

func writeSample(t *testing.T, s *Setter, list []string, path string) {
	const cols, rowH, colW = 4, 34, 380
	rows := (len(list) + cols - 1) / cols
	img := image.NewRGBA(image.Rect(0, 0, cols*colW, rows*rowH+10))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{0xFA, 0xF6, 0xEE, 0xFF}), image.Point{}, draw.Src)
	for i, name := range list {
		x, y := 10+(i/rows)*colW, 28+(i%rows)*rowH
		st := Style{Size: 19, Bold: i%3 == 0}
		s.Draw(img, s.Fit(name, colW-20, st), x, y, st, color.RGBA{0x22, 0x22, 0x22, 0xFF})
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// A Library is shared: setters on several goroutines lay out and draw the
// same names at once and agree (run with -race).
func TestSettersShareTheLibrary(t *testing.T) {
	l := testLibrary(t)
	list := names(t)
	widths := make([][]int, 3)
	done := make(chan int)
	for g := range widths {
		go func() {
			s := l.NewSetter()
			img := image.NewRGBA(image.Rect(0, 0, 400, 40))
			for _, name := range list {
				widths[g] = append(widths[g], s.Width(name, Style{Size: 19}))
				s.Draw(img, name, 0, 30, Style{Size: 19, Bold: true}, color.Black)
			}
			done <- g
		}()
	}
	for range widths {
		<-done
	}
	for g := 1; g < len(widths); g++ {
		for i := range list {
			if widths[g][i] != widths[0][i] {
				t.Errorf("%q: %d pixels wide on one goroutine, %d on another", list[i], widths[0][i], widths[g][i])
			}
		}
	}
}

func BenchmarkNewLibrary(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := New(); err != nil {
			b.Fatal(err)
		}
	}
}
