package imaging

import (
	"fmt"
	"image"
	"math"
	"testing"
)

// Colour-vision deficiencies simulated with the matrices of Machado,
// Oliveira and Fernandes (2009, "A physiologically-based model for
// simulation of color vision deficiency"), severity 1.0, applied to
// linear RGB.
var cvdViews = []struct {
	name string
	m    [3][3]float64
}{
	{"protanopia", [3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}},
	{"deuteranopia", [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}},
	{"tritanopia", [3][3]float64{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}},
}

// minSeatColorDistance is the least CIEDE2000 difference between two seat
// colours under each simulated view (and in full colour). About 2 is the
// least difference people notice side by side; 10 is told apart at a
// glance. The shapes carry the seat where colour cannot.
const minSeatColorDistance = 10

// Under each simulated colour-vision deficiency, every two seat colours
// still differ clearly.
func TestSeatColorsDifferUnderColorBlindness(t *testing.T) {
	views := append([]struct {
		name string
		m    [3][3]float64
	}{{"full colour", [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}}, cvdViews...)
	for _, v := range views {
		least, pair := math.Inf(1), ""
		for a := 0; a < maxSeats; a++ {
			for b := a + 1; b < maxSeats; b++ {
				d := ciede2000(lab(simulate(v.m, seatColor(a))), lab(simulate(v.m, seatColor(b))))
				if d < least {
					least, pair = d, fmt.Sprintf("%s and %s", seatColorKey(a), seatColorKey(b))
				}
				if d < minSeatColorDistance {
					t.Errorf("%s: %s and %s differ by %.1f (CIEDE2000), want at least %d", v.name, seatColorKey(a), seatColorKey(b), d, minSeatColorDistance)
				}
			}
		}
		t.Logf("%s: the closest seat colours are %s, %.1f apart", v.name, pair, least)
	}
}

// Every mark that shows an owner carries the owner's shape: for every two
// seats, the marks' shapes (the pixels in the mark's ink, whatever its
// colour) differ, so the marks tell the seats apart in grey too.
func TestEveryMarkHasItsSeatsShape(t *testing.T) {
	sp := testRenderer(t).sprites
	marks := map[string]func(seat int) (*image.RGBA, rgb){
		"pawn":    func(s int) (*image.RGBA, rgb) { return sp.pawn[s], inkOn(seatColor(s)) },
		"token":   func(s int) (*image.RGBA, rgb) { return sp.token[s], inkOn(seatColor(s)) },
		"mini":    func(s int) (*image.RGBA, rgb) { return sp.mini[s], inkOn(seatColor(s)) },
		"glance":  func(s int) (*image.RGBA, rgb) { return sp.glance[s], inkOn(seatColor(s)) },
		"covered": func(s int) (*image.RGBA, rgb) { return sp.covered[s], colWhite },
		"covered small": func(s int) (*image.RGBA, rgb) {
			return sp.coveredSm[s], colWhite
		},
	}
	for v := 0; v <= 6; v++ {
		marks[fmt.Sprintf("die %d", v)] = func(s int) (*image.RGBA, rgb) { return sp.die(s, v, false), inkOn(seatColor(s)) }
		marks[fmt.Sprintf("small die %d", v)] = func(s int) (*image.RGBA, rgb) { return sp.die(s, v, true), inkOn(seatColor(s)) }
	}
	for name, mark := range marks {
		for a := 0; a < maxSeats; a++ {
			for b := a + 1; b < maxSeats; b++ {
				ia, inkA := mark(a)
				ib, inkB := mark(b)
				if n := shapeDifference(ia, inkA, ib, inkB); n < 3 {
					t.Errorf("%s: the %s and %s marks' shapes differ in %d pixels, want at least 3", name, seatColorKey(a), seatColorKey(b), n)
				}
			}
		}
	}
}

// shapeDifference counts the pixels that are in their mark's ink in one
// of a and b but not the other.
func shapeDifference(a *image.RGBA, inkA rgb, b *image.RGBA, inkB rgb) int {
	in := func(img *image.RGBA, ink rgb, x, y int) bool {
		o := img.PixOffset(x, y)
		p := img.Pix[o : o+4]
		if p[3] < 0x80 {
			return false
		}
		d := absDiff(p[0], ink.r()) + absDiff(p[1], ink.g()) + absDiff(p[2], ink.b())
		return d < 90
	}
	n := 0
	r := a.Bounds().Intersect(b.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if in(a, inkA, x, y) != in(b, inkB, x, y) {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// simulate is c as seen through matrix m (in linear RGB), as linear RGB.
func simulate(m [3][3]float64, c rgb) [3]float64 {
	in := [3]float64{linear(c.r()), linear(c.g()), linear(c.b())}
	var out [3]float64
	for i := range out {
		for j := range in {
			out[i] += m[i][j] * in[j]
		}
		out[i] = math.Min(1, math.Max(0, out[i]))
	}
	return out
}

// linear is an sRGB channel as linear light.
func linear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// lab is linear sRGB as CIELAB (D65).
func lab(c [3]float64) [3]float64 {
	x := 0.4124564*c[0] + 0.3575761*c[1] + 0.1804375*c[2]
	y := 0.2126729*c[0] + 0.7151522*c[1] + 0.0721750*c[2]
	z := 0.0193339*c[0] + 0.1191920*c[1] + 0.9503041*c[2]
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x/0.95047), f(y), f(z/1.08883)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// ciede2000 is the CIEDE2000 colour difference of two CIELAB colours
// (Sharma, Wu and Dalal's formulation).
func ciede2000(p, q [3]float64) float64 {
	l1, a1, b1 := p[0], p[1], p[2]
	l2, a2, b2 := q[0], q[1], q[2]
	deg := math.Pi / 180
	c1, c2 := math.Hypot(a1, b1), math.Hypot(a2, b2)
	cm := (c1 + c2) / 2
	g := 0.5 * (1 - math.Sqrt(math.Pow(cm, 7)/(math.Pow(cm, 7)+math.Pow(25, 7))))
	a1p, a2p := (1+g)*a1, (1+g)*a2
	c1p, c2p := math.Hypot(a1p, b1), math.Hypot(a2p, b2)
	hue := func(b, a float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		h := math.Atan2(b, a) / deg
		if h < 0 {
			h += 360
		}
		return h
	}
	h1p, h2p := hue(b1, a1p), hue(b2, a2p)
	dl, dc := l2-l1, c2p-c1p
	var dh float64
	switch {
	case c1p*c2p == 0:
		dh = 0
	case math.Abs(h2p-h1p) <= 180:
		dh = h2p - h1p
	case h2p-h1p > 180:
		dh = h2p - h1p - 360
	default:
		dh = h2p - h1p + 360
	}
	dH := 2 * math.Sqrt(c1p*c2p) * math.Sin(dh/2*deg)
	lm, cmp := (l1+l2)/2, (c1p+c2p)/2
	var hm float64
	switch {
	case c1p*c2p == 0:
		hm = h1p + h2p
	case math.Abs(h1p-h2p) <= 180:
		hm = (h1p + h2p) / 2
	case h1p+h2p < 360:
		hm = (h1p + h2p + 360) / 2
	default:
		hm = (h1p + h2p - 360) / 2
	}
	tt := 1 - 0.17*math.Cos((hm-30)*deg) + 0.24*math.Cos(2*hm*deg) + 0.32*math.Cos((3*hm+6)*deg) - 0.20*math.Cos((4*hm-63)*deg)
	dTheta := 30 * math.Exp(-math.Pow((hm-275)/25, 2))
	rc := 2 * math.Sqrt(math.Pow(cmp, 7)/(math.Pow(cmp, 7)+math.Pow(25, 7)))
	sl := 1 + 0.015*math.Pow(lm-50, 2)/math.Sqrt(20+math.Pow(lm-50, 2))
	sc := 1 + 0.045*cmp
	sh := 1 + 0.015*cmp*tt
	rt := -math.Sin(2*dTheta*deg) * rc
	return math.Sqrt(math.Pow(dl/sl, 2) + math.Pow(dc/sc, 2) + math.Pow(dH/sh, 2) + rt*(dc/sc)*(dH/sh))
}

// The CIEDE2000 implementation agrees with Sharma, Wu and Dalal's test
// data.
func TestCIEDE2000(t *testing.T) {
	for _, tc := range []struct {
		p, q [3]float64
		want float64
	}{
		{[3]float64{50, 2.6772, -79.7751}, [3]float64{50, 0, -82.7485}, 2.0425},
		{[3]float64{50, -1, 2}, [3]float64{50, 0, 0}, 2.3669},
		{[3]float64{60.2574, -34.0099, 36.2677}, [3]float64{60.4626, -34.1751, 39.4387}, 1.2644},
		{[3]float64{22.7233, 20.0904, -46.6940}, [3]float64{23.0331, 14.9730, -42.5619}, 2.0373},
		{[3]float64{2.0776, 0.0795, -1.1350}, [3]float64{0.9033, -0.0636, -0.5514}, 0.9082},
	} {
		if got := ciede2000(tc.p, tc.q); math.Abs(got-tc.want) > 1e-3 {
			t.Errorf("ΔE00(%v, %v) = %.4f, want %.4f", tc.p, tc.q, got, tc.want)
		}
	}
}
