package imaging

import (
	"image"
	"image/color"
	"testing"
)

func TestPaletteKeepsThemeColoursExact(t *testing.T) {
	p := newPalette()
	if n := len(p.colors); n > 256 {
		t.Fatalf("palette has %d colours, want at most 256", n)
	}
	src := image.NewRGBA(image.Rect(0, 0, 1, 1))
	dst := image.NewPaletted(src.Bounds(), p.colors)
	for _, c := range baseColors() {
		src.Set(0, 0, c)
		p.quantise(dst, src, src.Bounds())
		got := color.NRGBAModel.Convert(p.colors[dst.Pix[0]]).(color.NRGBA)
		if got != c.nrgba() {
			t.Errorf("theme colour %06x quantised to %v", uint32(c), got)
		}
	}
}

func TestPaletteNearestForOtherColours(t *testing.T) {
	p := newPalette()
	src := image.NewRGBA(image.Rect(0, 0, 1, 1))
	dst := image.NewPaletted(src.Bounds(), p.colors)
	// A blend of ink over paper halfway lands near its blend entry.
	half := mix(colInk, colPaper, 0.5)
	src.Set(0, 0, half)
	p.quantise(dst, src, src.Bounds())
	got := color.NRGBAModel.Convert(p.colors[dst.Pix[0]]).(color.NRGBA)
	for _, d := range []int{int(got.R) - int(half.r()), int(got.G) - int(half.g()), int(got.B) - int(half.b())} {
		if d < -12 || d > 12 {
			t.Fatalf("mid-grey %06x quantised to %v, too far", uint32(half), got)
		}
	}
}

// quantise's shortcuts (a pixel like the one before it, a row like the
// one above) give every pixel its look-up table's index: rows of runs,
// repeated rows, black at a row's start, and a part of the image.
func TestQuantiseShortcutsMatchEachPixel(t *testing.T) {
	p := newPalette()
	src := image.NewRGBA(image.Rect(0, 0, 64, 40))
	rng := uint32(7)
	for y := 0; y < 40; y++ {
		for x := 0; x < 64; x++ {
			var c color.RGBA
			switch {
			case y%5 == 4: // the row above again
				c = src.RGBAAt(x, y-1)
			case x < 3 && y%3 == 0: // black first
				c = color.RGBA{A: 0xFF}
			case x%7 != 0 && x > 0: // the pixel before again
				c = src.RGBAAt(x-1, y)
			default:
				rng = rng*1664525 + 1013904223
				c = color.RGBA{uint8(rng >> 24), uint8(rng >> 16), uint8(rng >> 8), 0xFF}
			}
			src.SetRGBA(x, y, c)
		}
	}
	// each pixel's entry in the look-up table, read directly
	want := func(x, y int) uint8 {
		c := src.RGBAAt(x, y)
		const shift = 8 - lutBits
		return p.lut[int(c.R>>shift)<<(2*lutBits)|int(c.G>>shift)<<lutBits|int(c.B>>shift)]
	}
	for _, rect := range []image.Rectangle{src.Bounds(), image.Rect(5, 3, 50, 33)} {
		dst := image.NewPaletted(src.Bounds(), p.colors)
		p.quantise(dst, src, rect)
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			for x := rect.Min.X; x < rect.Max.X; x++ {
				if got := dst.ColorIndexAt(x, y); got != want(x, y) {
					t.Fatalf("%v: pixel (%d, %d) %v quantised to %d, its entry is %d", rect, x, y, src.RGBAAt(x, y), got, want(x, y))
				}
			}
		}
	}
}

// fillLUT's pruned search gives every cell the colour a search of the
// whole palette gives: the nearest, the lower index on a tie.
func TestLookUpTableHoldsTheNearestColour(t *testing.T) {
	p := newPalette()
	cols := make([]rgb, len(p.colors))
	for i, c := range p.colors {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		cols[i] = rgb(n.R)<<16 | rgb(n.G)<<8 | rgb(n.B)
	}
	exact := map[int]bool{}
	for _, c := range baseColors() {
		exact[lutIndex(c.r(), c.g(), c.b())] = true
	}
	const half = 1 << (7 - lutBits)
	for cell, got := range p.lut {
		if exact[cell] {
			continue
		}
		r := cell>>(2*lutBits)<<(8-lutBits) + half
		g := cell>>lutBits&(1<<lutBits-1)<<(8-lutBits) + half
		b := cell&(1<<lutBits-1)<<(8-lutBits) + half
		best, bestD := 0, 1<<30
		for i, c := range cols {
			dr, dg, db := r-int(c.r()), g-int(c.g()), b-int(c.b())
			if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
				best, bestD = i, d
			}
		}
		if int(got) != best {
			t.Fatalf("cell %06x maps to colour %d, want the nearest, %d", r<<16|g<<8|b, got, best)
		}
	}
}
