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
	shapeHexagon
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
	case shapeDiamond:
		dc.DrawRegularPolygon(4, x, y, r, 0)
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
	case shapeHexagon:
		dc.DrawRegularPolygon(6, x, y, r*0.92, 0)
	}
}
