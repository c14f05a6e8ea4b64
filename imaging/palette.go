package imaging

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"slices"
	"sync"
)

// lutBits is how many bits of each channel index the quantising table.
const lutBits = 6

// palette is the fixed colour table every image is encoded with, and a
// lookup table from a 6-bit-per-channel colour to its nearest palette
// index. It is built once per process and read-only afterwards.
type palette struct {
	colors color.Palette
	lut    []uint8 // 1<<(3*lutBits) entries
}

// themePalette is the palette every Renderer of the process shares.
var themePalette = sync.OnceValue(newPalette)

// newPalette builds the palette from the theme: every base colour exactly,
// the blends antialiasing produces between ink, paper and the base colours,
// and a coarse colour cube for anything else, at most 256 entries in all.
func newPalette() *palette {
	seen := map[rgb]bool{}
	var cols []rgb
	add := func(c rgb) {
		if !seen[c] && len(cols) < 256 {
			seen[c] = true
			cols = append(cols, c)
		}
	}
	base := baseColors()
	for _, c := range base {
		add(c)
	}
	// Text and outlines are ink (or white) over every colour: their
	// antialiased edges are blends of the two.
	for _, c := range base {
		for _, t := range []float64{0.25, 0.5, 0.75} {
			add(mix(c, colInk, t))
		}
	}
	for _, c := range base {
		if inkOn(c) == colWhite {
			for _, t := range []float64{0.33, 0.66} {
				add(mix(c, colWhite, t))
			}
		}
	}
	for _, v := range []rgb{0x00, 0x55, 0xAA, 0xFF} {
		for _, u := range []rgb{0x00, 0x55, 0xAA, 0xFF} {
			for _, w := range []rgb{0x00, 0x55, 0xAA, 0xFF} {
				add(v<<16 | u<<8 | w)
			}
		}
	}
	p := &palette{colors: make(color.Palette, len(cols)), lut: make([]uint8, 1<<(3*lutBits))}
	for i, c := range cols {
		p.colors[i] = c.nrgba()
	}
	p.fillLUT(cols, len(base))
	return p
}

// fillLUT maps each cell of the lookup table to the palette colour nearest
// its centre, then maps the cells of the first nbase colours (the theme's)
// to them exactly.
//
// Distance is weighted towards green, where the eye is most sensitive,
// and ties go to the lower index. The colours are searched in order of
// green outwards from the cell's, stopping once green alone is further
// than the best found, which visits a few of them rather than all.
func (p *palette) fillLUT(cols []rgb, nbase int) {
	const levels = 1 << lutBits
	const half = 1 << (7 - lutBits)
	type entry struct{ r, g, b, i int }
	byGreen := make([]entry, len(cols))
	for i, c := range cols {
		byGreen[i] = entry{int(c.r()), int(c.g()), int(c.b()), i}
	}
	slices.SortStableFunc(byGreen, func(a, b entry) int { return a.g - b.g })
	for gi := 0; gi < levels; gi++ {
		g := gi<<(8-lutBits) + half
		// The colours from above on have green at least g; those before it, less.
		above, _ := slices.BinarySearchFunc(byGreen, g, func(e entry, g int) int { return e.g - g })
		for ri := 0; ri < levels; ri++ {
			r := ri<<(8-lutBits) + half
			for bi := 0; bi < levels; bi++ {
				b := bi<<(8-lutBits) + half
				best, bestD := 0, 1<<30
				// Up the greens from above, then down from the one before it.
				for _, step := range [2]int{1, -1} {
					for k := above + min(step, 0); k >= 0 && k < len(byGreen); k += step {
						e := byGreen[k]
						dg := 4 * (g - e.g) * (g - e.g)
						if dg > bestD {
							break
						}
						dr, db := r-e.r, b-e.b
						if d := 2*dr*dr + dg + 3*db*db; d < bestD || d == bestD && e.i < best {
							best, bestD = e.i, d
						}
					}
				}
				p.lut[lutIndex(uint8(r), uint8(g), uint8(b))] = uint8(best)
			}
		}
	}
	for i := nbase - 1; i >= 0; i-- {
		c := cols[i]
		p.lut[lutIndex(c.r(), c.g(), c.b())] = uint8(i)
	}
}

func lutIndex(r, g, b uint8) int {
	const s = 8 - lutBits
	return int(r>>s)<<(2*lutBits) | int(g>>s)<<lutBits | int(b>>s)
}

// quantise writes the colours of src within rect as palette indices into
// dst, which must have src's bounds (at the origin) and p's colours. src is
// treated as opaque.
func (p *palette) quantise(dst *image.Paletted, src *image.RGBA, rect image.Rectangle) {
	b := rect.Intersect(src.Bounds())
	w := b.Dx()
	lut := p.lut[:1<<(3*lutBits)]
	const shift, mask = 8 - lutBits, 1<<lutBits - 1
	var above, aboveD []byte
	for y := b.Min.Y; y < b.Max.Y; y++ {
		s := src.Pix[y*src.Stride+4*b.Min.X : y*src.Stride+4*b.Max.X]
		d := dst.Pix[y*dst.Stride+b.Min.X : y*dst.Stride+b.Min.X+w]
		// A row the same as the one above (between lines of text, across
		// a band) takes its indices; comparing costs far less than mapping.
		if above != nil && bytes.Equal(s, above) {
			copy(d, aboveD)
			continue
		}
		above, aboveD = s, d
		// Most of a row repeats the pixel before it (backgrounds, panels):
		// it then takes the same index without a look-up.
		last, idx := uint32(0), lut[0] // black's index, if the row starts black
		for x := range d {
			// R, G and B are the low three bytes; keep the top lutBits of each.
			px := binary.LittleEndian.Uint32(s[4*x:]) & 0xFFFFFF
			if px != last {
				i := (px>>shift)&mask<<(2*lutBits) | (px>>(8+shift))&mask<<lutBits | (px>>(16+shift))&mask
				last, idx = px, lut[i&(1<<(3*lutBits)-1)]
			}
			d[x] = idx
		}
	}
}
