package imaging

// SeatMark is how the pictures mark a seat, for the texts that go with
// them: the same colour and the same shape, so that a line of text and a
// picture name a seat alike.
type SeatMark struct {
	Color    int    // 0xRRGGBB
	ColorKey string // the colour's name in every language: "blue" (image.color.*)
	Symbol   string // the seat's shape as one character: "●", "■", "▲", …
}

// MarkOf is seat's mark (seats counted from 0).
func MarkOf(seat int) SeatMark {
	return SeatMark{Color: int(seatColor(seat)), ColorKey: seatColorKey(seat), Symbol: shapeSymbols[seatShape(seat)]}
}

// shapeSymbols are the shapes as characters, in the order of shape.
var shapeSymbols = [...]string{
	shapeCircle:   "●",
	shapeSquare:   "■",
	shapeTriangle: "▲",
	shapeDiamond:  "◆",
	shapeStar:     "★",
	shapeCross:    "✚",
}
