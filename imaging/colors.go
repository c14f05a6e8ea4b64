package imaging

import "image/color"

// rgb is an opaque colour written as 0xRRGGBB, so the theme can be
// constants. It implements color.Color.
type rgb uint32

// RGBA implements color.Color.
func (c rgb) RGBA() (r, g, b, a uint32) {
	r = uint32(c>>16&0xFF) * 0x101
	g = uint32(c>>8&0xFF) * 0x101
	b = uint32(c&0xFF) * 0x101
	return r, g, b, 0xFFFF
}

func (c rgb) r() uint8 { return uint8(c >> 16) }
func (c rgb) g() uint8 { return uint8(c >> 8) }
func (c rgb) b() uint8 { return uint8(c) }

// nrgba converts c for the image and gg APIs that want a struct.
func (c rgb) nrgba() color.NRGBA { return color.NRGBA{c.r(), c.g(), c.b(), 0xFF} }

// The player colours in seat order are the Okabe-Ito palette, chosen to stay
// distinguishable under the common colour-vision deficiencies. Each seat also
// has its own shape (see shapes.go), so no piece is told apart by colour alone.
const (
	seatBlue   rgb = 0x0072B2
	seatOrange rgb = 0xE69F00
	seatGreen  rgb = 0x009E73
	seatPink   rgb = 0xCC79A7
	seatSky    rgb = 0x56B4E9
	seatRed    rgb = 0xD55E00
)

// maxSeats is the most seats an image tells apart; both games have at most six.
const maxSeats = 6

// seatColor returns seat's colour (seats counted from 0); anything outside
// the table is drawn in the covered grey.
func seatColor(seat int) rgb {
	switch seat {
	case 0:
		return seatBlue
	case 1:
		return seatOrange
	case 2:
		return seatGreen
	case 3:
		return seatPink
	case 4:
		return seatSky
	case 5:
		return seatRed
	}
	return colCovered
}

// seatColorName names seat's colour for legends, in the canvas's language.
func (c *canvas) seatColorName(seat int) string { return c.say("image.color." + seatColorKey(seat)) }

// seatColorKey names seat's colour in every language: "blue".
func seatColorKey(seat int) string {
	switch seatColor(seat) {
	case seatBlue:
		return "blue"
	case seatOrange:
		return "orange"
	case seatGreen:
		return "green"
	case seatPink:
		return "pink"
	case seatSky:
		return "sky"
	case seatRed:
		return "red"
	}
	return "grey"
}

// Theme colours. Every colour an image draws is one of these, a seat
// colour, or a tint or shade listed in baseColors, so the fixed palette
// holds it exactly.
const (
	colPaper     rgb = 0xF5EFE0 // page background
	colPanel     rgb = 0xFFFBF2 // boxes on the page
	colPanelAlt  rgb = 0xE8DFC8 // headers, alternate rows
	colInk       rgb = 0x1E1B18 // text and outlines
	colInkSoft   rgb = 0x5C554B // secondary text
	colRule      rgb = 0xB8AD94 // thin lines
	colWhite     rgb = 0xFFFFFF
	colCovered   rgb = 0x4A4540 // covered dice
	colGold      rgb = 0xC89B2C // pounds
	colVP        rgb = 0x7A2E8E // victory points
	colBad       rgb = 0xB02A1E // penalties, rumors
	colGood      rgb = 0x2E7D32 // gains
	colTitle     rgb = 0x2B3A55 // title bars
	colTitleInk  rgb = 0xF5EFE0 // text on title bars
	colHighlight rgb = 0xFFE082 // current round, whose turn
	colUsed      rgb = 0xCFC6B0 // spent action spaces

	colLayover     rgb = 0xA33B2A
	colPassepart   rgb = 0x5B8FC9
	colBet         rgb = 0x8E6BBF
	colPound       rgb = 0xE3B53B
	colPolice      rgb = 0x33456B
	colPlain       rgb = 0xDDD3BA
	colLondon      rgb = 0x1F5E3B
	colGear        rgb = 0x7D868C
	colEnergy      rgb = 0xF2C21B
	colNewspaper   rgb = 0xD9D4C7
	colResearchG   rgb = 0x8FBF7A
	colResearchV   rgb = 0xA98BC9
	colPatent      rgb = 0x9CC3E0
	colCharacter   rgb = 0xE0B08C
	colShare       rgb = 0xC9D79C
	colBlackMarket rgb = 0x3A3330
)

// baseColors lists every colour drawn, for the palette.
func baseColors() []rgb {
	c := []rgb{
		colPaper, colPanel, colPanelAlt, colInk, colInkSoft, colRule, colWhite, colCovered,
		colGold, colVP, colBad, colGood, colTitle, colTitleInk, colHighlight, colUsed,
		colLayover, colPassepart, colBet, colPound, colPolice, colPlain, colLondon,
		colGear, colEnergy, colNewspaper, colResearchG, colResearchV, colPatent,
		colCharacter, colShare, colBlackMarket,
	}
	for _, card := range []rgb{colResearchG, colResearchV, colPatent, colCharacter, colShare} {
		c = append(c, tint(card))
	}
	for seat := 0; seat < maxSeats; seat++ {
		s := seatColor(seat)
		c = append(c, s, seatTint(seat))
	}
	return c
}

// seatTint is a light version of seat's colour for row backgrounds.
func seatTint(seat int) rgb { return mix(seatColor(seat), colWhite, 0.7) }

// mix blends a towards b by t in [0, 1].
func mix(a, b rgb, t float64) rgb {
	l := func(x, y uint8) rgb { return rgb(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return l(a.r(), b.r())<<16 | l(a.g(), b.g())<<8 | l(a.b(), b.b())
}

// inkOn returns the text colour that reads on background c.
func inkOn(c rgb) rgb {
	y := 0.2126*float64(c.r()) + 0.7152*float64(c.g()) + 0.0722*float64(c.b())
	if y > 150 {
		return colInk
	}
	return colWhite
}
