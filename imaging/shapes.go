package imaging

import (
	"math"

	"github.com/fogleman/gg"
)

// shape is a seat's mark, drawn on its pawns, tokens and legend so seats
// are told apart without relying on colour.
type shape int

const (
	shapeCircle shape = iota
	shapeSquare
	shapeTriangle
	shapeDiamond
	shapeStar
	shapeCross
)

func seatShape(seat int) shape { return shape(((seat % maxSeats) + maxSeats) % maxSeats) }

// pathShape adds sh, centred on (x, y) with radius r, as a path of dc.
func pathShape(dc *gg.Context, sh shape, x, y, r float64) {
	switch sh {
	case shapeCircle:
		dc.DrawCircle(x, y, r*0.85)
	case shapeSquare:
		s := r * 0.78
		dc.DrawRectangle(x-s, y-s, 2*s, 2*s)
	case shapeTriangle:
		dc.NewSubPath()
		for i := 0; i < 3; i++ {
			a := -math.Pi/2 + float64(i)*2*math.Pi/3
			dc.LineTo(x+r*1.05*math.Cos(a), y+r*0.15+r*1.05*math.Sin(a))
		}
		dc.ClosePath()
	case shapeDiamond: // a square on its corner, narrower than it is tall
		dc.NewSubPath()
		dc.LineTo(x, y-r)
		dc.LineTo(x+r*0.72, y)
		dc.LineTo(x, y+r)
		dc.LineTo(x-r*0.72, y)
		dc.ClosePath()
	case shapeStar:
		dc.NewSubPath()
		for i := 0; i < 10; i++ {
			a := -math.Pi/2 + float64(i)*math.Pi/5
			rr := r
			if i%2 == 1 {
				rr = r * 0.45
			}
			dc.LineTo(x+rr*math.Cos(a), y+rr*math.Sin(a))
		}
		dc.ClosePath()
	case shapeCross: // a plus: a hexagon read as a disc when small
		a, e := r*0.34, r*0.98
		dc.NewSubPath()
		for _, p := range [][2]float64{{-a, -e}, {a, -e}, {a, -a}, {e, -a}, {e, a}, {a, a}, {a, e}, {-a, e}, {-a, a}, {-e, a}, {-e, -a}, {-a, -a}} {
			dc.LineTo(x+p[0], y+p[1])
		}
		dc.ClosePath()
	}
}
