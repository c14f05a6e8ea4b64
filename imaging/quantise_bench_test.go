package imaging

import (
	"image"
	"testing"
)

// BenchmarkQuantise maps a whole 80 Days board frame to the palette.
func BenchmarkQuantise(b *testing.B) {
	r := testRenderer(b)
	c := r.begin(en(nil), edW, edHeight(6), nil, nil)
	for y := 0; y < c.img.Bounds().Dy(); y++ {
		for x := 0; x < c.img.Bounds().Dx(); x++ {
			o := c.img.PixOffset(x, y)
			c.img.Pix[o], c.img.Pix[o+1], c.img.Pix[o+2], c.img.Pix[o+3] = uint8(x), uint8(y), uint8(x^y), 0xFF
		}
	}
	dst := image.NewPaletted(c.img.Bounds(), r.pal.colors)
	b.SetBytes(int64(len(dst.Pix)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.pal.quantise(dst, c.img, c.img.Bounds())
	}
}
