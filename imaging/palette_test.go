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
