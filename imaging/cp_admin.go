package imaging

import (
	"fmt"
	"image"
	"strconv"
	"strings"

	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

// cpLocationStatic draws the fixed lines of the panels without a display:
// Westminster's track, the London Times' conditions, the possibilities.
func (c *canvas) cpLocationStatic(v *cp.View, loc *cp.LocationView, rect image.Rectangle, y int) {
	x, w := rect.Min.X+10, rect.Dx()-20
	body := style{size: sizeSmall, color: colInk}
	bold := style{size: sizeSmall, bold: true, color: colInk}
	switch {
	case len(loc.Display) > 0:
	case loc.Key == "westminster":
		for i, sp := range v.Westminster.Spaces {
			ly := y + i*cpLineH
			c.text(c.cpWestminsterName(v, i), x, ly, bold)
			bonus := sayOr(c.w, sp.BonusSay, sp.Bonus)
			if bonus == "" {
				bonus = "–"
			}
			// the salary column right of the bonus, left of room for every
			// player's marker (cpWestminster)
			salary := c.say("cp.image.salary_col", "N", sp.Salary+1)
			soft := style{size: sizeSmall, color: colInkSoft}
			sx := x + w - cpWestminsterRoom(len(v.Westminster.Positions)) - c.fs.width(salary, soft)
			c.richText(bonus, x+60, ly, sx-8-x-60, body)
			c.text(salary, sx, ly, soft)
		}
		if v.Westminster.Choice != "" {
			ly := y + len(v.Westminster.Spaces)*cpLineH
			c.richText(c.say("cp.image.again_on_v", "Choice", sayOr(c.w, v.Westminster.ChoiceSay, v.Westminster.Choice)), x, ly, w, body)
		}
	case loc.Key == "times":
		ly := y
		for i, lines := range c.cpTimesLines(v) {
			c.text(fmt.Sprintf("R%d", i+1), x, ly, bold)
			for _, line := range lines {
				c.drawRichLine(line, x+36, ly, body)
				ly += cpLineH
			}
			if len(lines) == 0 {
				ly += cpLineH
			}
		}
	default:
		ly := y
		for i, lines := range c.cpPossibilityLines(loc) {
			st := body
			if !loc.Possibilities[i].Available {
				st.color = colRule
			}
			c.text("•", x+2, ly, st)
			for _, line := range lines {
				c.drawRichLine(line, x+14, ly, st)
				ly += cpLineH
			}
			if len(lines) == 0 {
				ly += cpLineH
			}
		}
		if len(loc.TicketVP) > 0 {
			c.text(c.cpTicketText(loc), x, ly, style{size: sizeSmall, color: colInkSoft})
		}
	}
}

// cpTimesLines wraps the London Times' condition of each round over two
// lines at most.
func (c *canvas) cpTimesLines(v *cp.View) [][]richLine {
	w := cpLocW - 20 - 40
	out := make([][]richLine, len(v.Publisher.Rounds))
	for i, r := range v.Publisher.Rounds {
		levels := make([]string, len(r.Levels))
		for j, l := range r.Levels {
			levels[j] = fmt.Sprintf("%d+:\u00a0%d", l.Min, l.Buzz)
		}
		text := c.say("cp.image.times_line", "Condition", sayOr(c.w, r.TextSay, r.Text), "Levels", strings.Join(levels, ", "))
		var cut bool
		if out[i], cut = c.wrapRich(text, w, w, 2, style{size: sizeSmall}); cut {
			c.noteCut(text)
		}
	}
	return out
}

// cpBackgroundAdmin draws the fixed parts of the administration board.
func (c *canvas) cpBackgroundAdmin(v *cp.View, l *cpLayout) {
	soft := style{size: sizeSmall, color: colInkSoft}

	rect := l.rightBox["market"]
	c.roundBox(rect, 10, colPanel, colInk, 1.5)
	c.panelHead(rect, c.say("cp.image.black_market"))
	spaces := v.BlackMarket.Spaces
	for i := range spaces {
		sp := spaces[len(spaces)-1-i] // top tier first
		ly := rect.Min.Y + cpHeadH + 6 + i*cpLineH + cpLineH/2
		if v.BlackMarket.BannerTier > 0 && sp.Tier >= v.BlackMarket.BannerTier {
			c.fill(image.Rect(rect.Min.X+6, ly-cpLineH/2+1, rect.Min.X+12, ly+cpLineH/2-1), colEnergy)
		}
		c.text(strconv.Itoa(sp.Tier), rect.Min.X+18, ly, style{size: sizeSmall, bold: true, color: colInk})
		c.text(strconv.Itoa(sp.Cost)+"£", rect.Min.X+44, ly, style{size: sizeSmall, bold: true, color: colBad})
	}
	ly := rect.Min.Y + cpHeadH + 6 + len(spaces)*cpLineH + cpLineH/2
	c.fill(image.Rect(rect.Min.X+6, ly-8, rect.Min.X+12, ly+8), colEnergy)
	c.textFit(c.say("cp.image.market_rule", "N", v.BlackMarket.BannerTier), rect.Min.X+18, ly, rect.Dx()-18-70, soft)

	rect = l.rightBox["buzz"]
	c.roundBox(rect, 10, colPanel, colInk, 1.5)
	c.panelHead(rect, c.say("cp.image.buzz_track"))
	for n := 0; n <= v.Buzz.Length; n++ {
		c.cpBuzzCell(cpBuzzRect(rect, n), n, false, "", false)
	}
	rows := (v.Buzz.Length + 10) / 10
	ly = rect.Min.Y + cpHeadH + 6 + rows*cpBuzzCell + 8 + cpLineH/2
	x := rect.Min.X + 24 + c.text(c.say("cp.image.flyers"), rect.Min.X+24, ly, soft) + 10
	for _, col := range []string{"blue", "green", "violet"} {
		c.fill(image.Rect(x, ly-3, x+16, ly+3), flyerColor(col))
		x += 22
	}
	c.fill(image.Rect(x+8, ly-8, x+24, ly+8), colHighlight)
	c.outline(image.Rect(x+8, ly-8, x+24, ly+8), 1, colRule)
	c.text(c.say("cp.image.posters"), x+30, ly, soft)

	rect = l.rightBox["income"]
	c.roundBox(rect, 10, colPanel, colInk, 1.5)
	c.panelHead(rect, c.say("cp.image.income_track"))
	for i, sp := range v.Income.Spaces {
		cell := cpIncomeRect(rect, i)
		fillCol := colPanelAlt
		if sp.Red {
			fillCol = colBad
		}
		c.fill(cell, fillCol)
		c.outline(cell, 1, colRule)
		c.text(strconv.Itoa(sp.Income), cell.Min.X+cell.Dx()/2, cell.Min.Y+cell.Dy()/2, style{size: sizeBody, bold: true, color: inkOn(fillCol), align: alignCenter})
	}

	rect = l.rightBox["supply"]
	c.roundBox(rect, 10, colPanel, colInk, 1.5)
	c.panelHead(rect, c.say("cp.image.supply"))

	rect = l.rightBox["waiting"]
	c.roundBox(rect, 10, colPanel, colInk, 1.5)
	c.panelHead(rect, c.say("cp.image.waiting"))
}

// cpMarketEffects writes what each Black Market space does in phase 6.
func (c *canvas) cpMarketEffects(v *cp.View, rect image.Rectangle) {
	spaces := v.BlackMarket.Spaces
	for i := range spaces {
		sp := spaces[len(spaces)-1-i] // top tier first
		ly := rect.Min.Y + cpHeadH + 6 + i*cpLineH + cpLineH/2
		c.richText(c.say("cp.image.market_effect", "Effect", sayOr(c.w, sp.EffectSay, sp.Effect)), rect.Min.X+84, ly, rect.Dx()-84-50, style{size: sizeSmall, color: colInk})
	}
}

// cpBuzzSpaces redraws the Buzz track's spaces that hold a poster or a
// flyer, and writes the end-of-game VP by rank after the legend.
func (c *canvas) cpBuzzSpaces(v *cp.View, rect image.Rectangle) {
	flyers := map[int]string{}
	for _, f := range v.Buzz.Flyers {
		flyers[f.Space] = f.Color
	}
	posters := map[int]bool{}
	for _, p := range v.Buzz.Posters {
		posters[p.Space] = true
	}
	for n := 0; n <= v.Buzz.Length; n++ {
		if col, ok := flyers[n]; ok || posters[n] {
			c.cpBuzzCell(cpBuzzRect(rect, n), n, posters[n], col, ok)
		}
	}
	rows := (v.Buzz.Length + 10) / 10
	ly := rect.Min.Y + cpHeadH + 6 + rows*cpBuzzCell + 8 + cpLineH/2
	soft := style{size: sizeSmall, color: colInkSoft}
	x := rect.Min.X + 24 + c.fs.width(c.say("cp.image.flyers"), soft) + 10 + 3*22 + 30 + c.fs.width(c.say("cp.image.posters"), soft) // past the legend
	c.textFit(c.say("cp.image.buzz_end", "VP", joinInts(v.Buzz.RankVP, "/")), rect.Max.X-10, ly, rect.Max.X-10-x-12, style{size: sizeSmall, color: colInkSoft, align: alignRight})
}

// cpBuzzCell draws Buzz track space n: highlighted when it holds a poster,
// with a strip of the flyer's colour when it holds one (hasFlyer).
func (c *canvas) cpBuzzCell(cell image.Rectangle, n int, poster bool, flyer string, hasFlyer bool) {
	fillCol := colPanelAlt
	if poster {
		fillCol = colHighlight
	}
	c.fill(cell, fillCol)
	c.outline(cell, 1, colRule)
	if hasFlyer {
		c.fill(image.Rect(cell.Min.X+1, cell.Min.Y+1, cell.Max.X-1, cell.Min.Y+6), flyerColor(flyer))
	}
	c.text(strconv.Itoa(n), cell.Min.X+4, cell.Min.Y+15, style{size: sizeSmall, bold: poster, color: colInkSoft})
}

// cpBuzzRect is the cell of Buzz track space n, ten to a row.
func cpBuzzRect(panel image.Rectangle, n int) image.Rectangle {
	x := panel.Min.X + 10 + (n%10)*cpBuzzCell
	y := panel.Min.Y + cpHeadH + 6 + (n/10)*cpBuzzCell
	return image.Rect(x, y, x+cpBuzzCell, y+cpBuzzCell)
}

// cpIncomeRect is the cell of income space i, bottom space leftmost.
func cpIncomeRect(panel image.Rectangle, i int) image.Rectangle {
	x := panel.Min.X + 10 + i*cpIncomeCell
	y := panel.Min.Y + cpHeadH + 6
	return image.Rect(x, y, x+cpIncomeCell, y+cpIncomeCell)
}

func flyerColor(name string) rgb {
	switch name {
	case "blue":
		return colPassepart
	case "green":
		return colGood
	case "violet":
		return colResearchV
	}
	return colRule
}

// cpMarket places the assistants and counts the gears left.
func (c *canvas) cpMarket(v *cp.View, rect image.Rectangle) {
	spaces := v.BlackMarket.Spaces
	for i := range spaces {
		sp := spaces[len(spaces)-1-i]
		if seatIn(sp.Owner, v.Players) {
			ly := rect.Min.Y + cpHeadH + 6 + i*cpLineH + cpLineH/2
			c.marker(int(sp.Owner), rect.Max.X-24, ly, markMini)
		}
	}
	ly := rect.Min.Y + cpHeadH + 6 + len(spaces)*cpLineH + cpLineH/2
	c.text(fmt.Sprintf("%d/%d", v.BlackMarket.Gears, v.BlackMarket.GearSpaces), rect.Max.X-50, ly, style{size: sizeSmall, bold: true, color: colInk, align: alignRight})
	c.sprite(c.r.sprites.gear, rect.Max.X-46, ly-iconSize/2)
}

// cpBuzz places the players on the Buzz track and lists posters and tickets.
func (c *canvas) cpBuzz(v *cp.View, rect image.Rectangle) {
	stacks := map[int]int{}
	for seat, pos := range v.Buzz.Positions {
		if pos < 0 || pos > v.Buzz.Length {
			continue
		}
		cell := cpBuzzRect(rect, pos)
		k := stacks[pos]
		stacks[pos]++
		// Up to five markers: three along the bottom, two above them on the
		// right, clear of the space's number.
		slots := [...]image.Point{{9, -9}, {22, -9}, {35, -9}, {22, -22}, {35, -22}}
		at := slots[min(k, len(slots)-1)]
		c.marker(seat, cell.Min.X+at.X, cell.Max.Y+at.Y, markMini)
	}
	rows := (v.Buzz.Length + 10) / 10
	ly := rect.Min.Y + cpHeadH + 6 + rows*cpBuzzCell + 8 + cpLineH + cpLineH/2
	x := rect.Min.X + 10
	soft := style{size: sizeSmall, color: colInkSoft}
	bold := style{size: sizeSmall, bold: true, color: colInk}
	for _, p := range v.Buzz.Posters {
		if len(p.Tokens) == 0 {
			continue
		}
		x += c.text(c.say("cp.image.poster", "N", p.Space), x, ly, bold) + 4
		for _, seat := range p.Tokens {
			if seatIn(seat, v.Players) {
				c.marker(int(seat), x+miniSize/2, ly, markMini)
				x += miniSize + 2
			}
		}
		x += 10
	}
	if x == rect.Min.X+10 {
		c.textFit(c.say("cp.image.no_posters"), x, ly, rect.Dx()-20, soft)
	}
	ly += cpLineH
	x = rect.Min.X + 10
	x += c.text(c.say("cp.image.tickets"), x, ly, bold) + 6
	names := []string{"I", "II", "III"}
	for i, name := range names {
		x += c.text(name, x, ly, soft) + 3
		if i < len(v.Buzz.Tickets) && seatIn(v.Buzz.Tickets[i], v.Players) {
			c.marker(int(v.Buzz.Tickets[i]), x+miniSize/2, ly, markMini)
		} else {
			c.text("–", x, ly, soft)
		}
		x += miniSize + 12
	}
}

// cpIncome places the players under their income spaces.
func (c *canvas) cpIncome(v *cp.View, rect image.Rectangle) {
	stacks := map[int]int{}
	for seat, pos := range v.Income.Positions {
		if pos < 0 || pos >= len(v.Income.Spaces) {
			continue
		}
		cell := cpIncomeRect(rect, pos)
		k := stacks[pos]
		stacks[pos]++
		c.marker(seat, cell.Min.X+cell.Dx()/2, cell.Max.Y+4+miniSize/2+k*(miniSize-5), markMini)
	}
}

// cpSupply lists the round tracker, the Pocket Watch, the decks and who
// the game waits for.
func (c *canvas) cpSupply(v *cp.View, names []string, rect image.Rectangle) {
	w := c.w
	x := rect.Min.X + 10
	y := rect.Min.Y + cpHeadH + 6 + cpLineH/2
	bold := style{size: sizeSmall, bold: true, color: colInk}
	body := style{size: sizeSmall, color: colInk}
	x += c.text(c.say("cp.image.round"), x, y, bold) + 8
	for r := 1; r <= 5; r++ {
		cell := image.Rect(x, y-10, x+24, y+10)
		if r == v.Round {
			c.fill(cell, colHighlight)
			c.outline(cell, 2, colInk)
		}
		c.text(strconv.Itoa(r), x+12, y, style{size: sizeSmall, bold: r == v.Round, color: colInk, align: alignCenter})
		x += 28
	}
	c.textFit(cpRoundNote(v, w, names), x+10, y, rect.Max.X-x-20, body)
	y += cpLineH
	x = rect.Min.X + 10
	x += c.text(c.say("cp.image.watch"), x, y, bold) + 8
	watch := c.say("cp.image.watch_supply")
	if seatIn(v.PocketWatch.Holder, v.Players) {
		watch = names[v.PocketWatch.Holder]
		if v.PocketWatch.Side != "" {
			watch += " (" + v.PocketWatch.Side + ")"
		}
	}
	if text := sayOr(c.w, v.PocketWatch.TextSay, v.PocketWatch.Text); text != "" {
		watch += ": " + text
	}
	y += (c.richLines(watch, x, rect.Max.X-x-10, rect.Min.X+10, rect.Dx()-20, y, cpLineH, 2, body) - 1) * cpLineH
	y += cpLineH
	d := v.Decks
	c.textFit(c.say("cp.image.decks", "Patents", d.Patents, "Characters", d.Characters, "Research", d.Research),
		rect.Min.X+10, y, rect.Dx()-20, body)
	y += cpLineH
	c.textFit(c.say("cp.image.violet", "Blue", d.VioletBlue, "Orange", d.VioletOrange, "Loans", d.Loans),
		rect.Min.X+10, y, rect.Dx()-20, body)
	y += cpLineH
	x = rect.Min.X + 10
	x += c.text(c.say("cp.image.turn_order"), x, y, bold) + 8
	if len(v.Order) == 0 {
		c.textFit(c.say("cp.image.turn_order_unset"), x, y, rect.Max.X-10-x, style{size: sizeSmall, color: colInkSoft})
	}
	for i, seat := range v.Order {
		if !seatIn(seat, v.Players) {
			continue
		}
		if i > 0 {
			x += c.text("→", x, y, body) + 4
		}
		c.marker(int(seat), x+miniSize/2, y, markMini)
		x += miniSize + 4
		if i == 0 {
			x += c.textFit(names[seat], x, y, 110, body) + 6
		}
	}
}

// cpWaitingNameW is the most a name takes on the waiting list.
const cpWaitingNameW = 140

// cpWaitingLines wraps what each open decision waits for, after its
// seat's marker and name, on up to three lines (one per seat at most).
func (c *canvas) cpWaitingLines(v *cp.View, names []string) [][]richLine {
	var out [][]richLine
	st := style{size: sizeSmall}
	indent := 10 + miniSize + 6
	w := cpRightW - indent - 10
	for i, wv := range v.Waiting {
		if i == v.Players {
			break
		}
		first := w
		if seatIn(wv.Seat, v.Players) && int(wv.Seat) < len(names) {
			first -= min(c.fs.width(names[wv.Seat], style{size: sizeSmall, bold: true}), cpWaitingNameW) + 8
		}
		lines, cut := c.wrapRich(cpWaitingLabel(c.w, wv), first, w, 3, st)
		if cut {
			c.noteCut(cpWaitingLabel(c.w, wv))
		}
		out = append(out, lines)
	}
	return out
}

// cpWaiting lists the open decisions: who, and what for (never the
// secret content), each over the lines wrapped by cpWaitingLines.
func (c *canvas) cpWaiting(v *cp.View, names []string, wrapped [][]richLine, rect image.Rectangle) {
	y := rect.Min.Y + cpHeadH + 6 + cpLineH/2
	if len(v.Waiting) == 0 {
		text := c.say("cp.image.nobody")
		if v.Over {
			text = c.say("cp.image.nobody_over")
		}
		c.text(text, rect.Min.X+10, y, style{size: sizeSmall, color: colInkSoft})
		return
	}
	for i, wv := range v.Waiting {
		if i == v.Players || i >= len(wrapped) {
			break
		}
		x := rect.Min.X + 10
		if seatIn(wv.Seat, v.Players) {
			c.marker(int(wv.Seat), x+miniSize/2, y, markMini)
			x += miniSize + 6
			x += c.textFit(names[wv.Seat], x, y, cpWaitingNameW, style{size: sizeSmall, bold: true, color: colInk}) + 8
		}
		if len(wrapped[i]) == 0 {
			y += cpLineH
		}
		for j, line := range wrapped[i] {
			lx := x
			if j > 0 {
				lx = rect.Min.X + 10 + miniSize + 6
			}
			c.drawRichLine(line, lx, y, style{size: sizeSmall, color: colInk})
			y += cpLineH
		}
	}
}

// cpWestminsterName names Westminster space i: "start" for the starting
// star, else its numeral, in the canvas's language.
func (c *canvas) cpWestminsterName(v *cp.View, i int) string {
	ws := v.Westminster.Spaces
	if i <= 0 || i >= len(ws) || ws[i].Name == "star" || ws[i].Name == "" {
		return c.say("cp.image.start")
	}
	return item(c.w, "west:"+strconv.Itoa(i), ws[i].Name)
}
