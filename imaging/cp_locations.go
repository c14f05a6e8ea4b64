package imaging

import (
	"fmt"
	"image"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

// cpLocation draws what changes on a location panel: the dice, the used
// action spaces, the display or possibilities, and notes.
func (c *canvas) cpLocation(v *cp.View, names []string, loc *cp.LocationView, rect image.Rectangle) {
	var notes []string
	if loc.NextDie != nil && seatIn(loc.NextDie.Owner, v.Players) {
		notes = append(notes, fmt.Sprintf("next: %s (%d)", names[loc.NextDie.Owner], loc.NextDie.Value))
	}
	if len(loc.Compensated) > 0 {
		notes = append(notes, "+1£ each: "+seatList(loc.Compensated))
	}
	if d := cpDeckNote(v, loc.Key); d != "" {
		notes = append(notes, d)
	}
	if loc.Key == "westminster" && v.Westminster.Choice != "" {
		notes = append(notes, "on V: "+v.Westminster.Choice)
	}
	if loc.Resolving || v.Resolving == loc.Key && loc.Key != "" {
		c.fill(image.Rect(rect.Min.X+2, rect.Min.Y+2, rect.Min.X+10, rect.Min.Y+cpHeadH), colHighlight)
		notes = append([]string{"RESOLVING"}, notes...)
	}
	if len(notes) > 0 {
		c.headNote(rect, strings.Join(notes, " · "), colHighlight)
	}
	y := rect.Min.Y + cpHeadH + 6
	next := loc.NextDie != nil
	for j, d := range loc.Dice {
		if !seatIn(d.Owner, v.Players) {
			continue
		}
		x := rect.Min.X + 10 + j*(cpSlot+8)
		if next && !d.Moved && d.Owner == loc.NextDie.Owner && d.Value == loc.NextDie.Value {
			// The die that acts next: ringed.
			c.outline(image.Rect(x-4, y-4, x+cpSlot+4, y+cpSlot+4), 3, colBad)
			next = false
		}
		if d.Moved {
			c.fill(image.Rect(x+3, y+3, x+cpSlot-3, y+cpSlot-3), colUsed)
			c.spriteCentered(c.r.sprites.die(int(d.Owner), d.Value, true), x+cpSlot/2, y+cpSlot/2)
			continue
		}
		c.spriteCentered(c.r.sprites.die(int(d.Owner), d.Value, false), x+cpSlot/2, y+cpSlot/2)
	}
	ay := y + cpSlot + cpSlotCap + 6
	for j, a := range loc.Actions {
		if !seatIn(a.Owner, v.Players) {
			continue
		}
		box := cpActionRect(rect, len(loc.Actions), j, ay)
		c.sprite(c.r.sprites.die(int(a.Owner), a.Value, true), box.Max.X-dieSmallSize-6, box.Min.Y+(cpActH-dieSmallSize)/2)
	}
	ly := ay + cpActH + 8 + cpLineH/2
	x0, w := rect.Min.X+10, rect.Dx()-20
	switch {
	case len(loc.Display) > 0:
		for i := range loc.Display {
			c.cpCardLine(&loc.Display[i], x0, ly+i*cpLineH, w, -1)
		}
	case loc.Key == "westminster":
		c.cpWestminster(v, x0, ly, w)
	case loc.Key == "times":
		c.cpTimes(v, x0, ly, w)
	default:
		c.cpPossibilities(v, loc, x0, ly, w)
	}
}

// cpDeckNote says how many cards are left to refill a display.
func cpDeckNote(v *cp.View, key string) string {
	switch key {
	case "patent":
		return fmt.Sprintf("deck %d", v.Decks.Patents)
	case "museum":
		return fmt.Sprintf("tiles %d", v.Decks.Research)
	case "reform":
		return fmt.Sprintf("deck %d", v.Decks.Characters)
	case "bank":
		if r := v.Round; r >= 1 && r <= len(v.Decks.SharesByRound) {
			return fmt.Sprintf("shares %d", v.Decks.SharesByRound[r-1])
		}
	}
	return ""
}

// seatList names seats as "P1, P3".
func seatList(seats []engine.Seat) string {
	s := make([]string, len(seats))
	for i, seat := range seats {
		s[i] = "P" + strconv.Itoa(int(seat)+1)
	}
	return strings.Join(s, ", ")
}

// cardColor is the chip colour of a kind of card.
func cardColor(card *cp.CardView) rgb {
	switch card.Kind {
	case "patent", "prototype":
		return colPatent
	case "character":
		return colCharacter
	case "share":
		return colShare
	case "research":
		if card.Color == "violet" {
			return colResearchV
		}
		return colResearchG
	}
	return colPanelAlt
}

// cpCardLine draws one card on offer on a line: chip, name, cost, VP and
// effect, in that order, the effect cut to fit. salaryCol, when not -1, is
// the salary colour the owner pays now, named after a character's salaries.
func (c *canvas) cpCardLine(card *cp.CardView, x, y, w, salaryCol int) {
	right := x + w
	if card.Kind == "" {
		c.text("— empty —", x+14, y, style{size: sizeSmall, color: colInkSoft})
		return
	}
	c.fill(image.Rect(x, y-9, x+8, y+9), cardColor(card))
	x += 14
	name := card.Name
	if card.Kind == "share" {
		name = "Share"
	}
	x += c.textFit(name, x, y, w/2-20, style{size: sizeSmall, bold: true, color: colInk}) + 8
	x += c.cpCost(card.Cost, x, y)
	if card.VP != 0 {
		x += c.text(strconv.Itoa(card.VP)+"VP", x, y, style{size: sizeSmall, bold: true, color: colVP}) + 8
	}
	var parts []string
	if e := cardEffect(card); e != "" {
		parts = append(parts, e)
	} else if card.Kind == "share" && card.Income != 0 {
		parts = append(parts, fmt.Sprintf("income %+d", card.Income))
	}
	if card.Link != "" {
		parts = append(parts, "↔ "+card.Link)
	}
	if len(card.Salary) > 0 {
		salary := "salary " + joinInts(card.Salary, "/")
		if salaryCol >= 0 && salaryCol < len(card.Salary) {
			salary = fmt.Sprintf("salary now %d£ (%s)", card.Salary[salaryCol], joinInts(card.Salary, "/"))
		}
		parts = append([]string{salary}, parts...)
	}
	if len(parts) > 0 && right-x > 20 {
		c.richText(strings.Join(parts, "; "), x, y, right-x, style{size: sizeSmall, color: colInkSoft})
	}
}

// cardEffect says what a card does: its instant and recurring effects, or
// its effect text when it has neither.
func cardEffect(card *cp.CardView) string {
	if parts := nonEmpty(card.Instant, card.Ability); len(parts) > 0 {
		return strings.Join(parts, "; ")
	}
	return strings.Trim(card.Effect, "; ")
}

// cpCost draws a cost as numbers and icons and returns its width.
func (c *canvas) cpCost(cost cp.Cost, x, y int) int {
	x0 := x
	st := style{size: sizeSmall, bold: true, color: colInk}
	if cost.Pounds > 0 {
		x += c.text(strconv.Itoa(cost.Pounds)+"£", x, y, st) + 6
	}
	for _, part := range []struct {
		n    int
		icon *image.RGBA
	}{{cost.Gears, c.r.sprites.gear}, {cost.Energy, c.r.sprites.energy}} {
		if part.n > 0 {
			x += c.text(strconv.Itoa(part.n), x, y, st) + 1
			c.sprite(part.icon, x, y-iconSize/2)
			x += iconSize + 6
		}
	}
	if x > x0 {
		x += 4
	}
	return x - x0
}

// cpWestminster lists the Westminster track with the players on each space.
func (c *canvas) cpWestminster(v *cp.View, x, y, w int) {
	for i := range v.Westminster.Spaces {
		ly := y + i*cpLineH
		var on []int
		for seat, pos := range v.Westminster.Positions {
			if pos == i {
				on = append(on, seat)
			}
		}
		for k, seat := range on {
			c.marker(seat, x+w-10-k*20, ly, markMini)
		}
	}
}

// cpTimes marks the current round's publisher condition.
func (c *canvas) cpTimes(v *cp.View, x, y, w int) {
	for i, r := range v.Publisher.Rounds {
		if r.Current {
			ly := y + i*cpLineH
			c.outline(image.Rect(x-4, ly-cpLineH/2, x+w+4, ly+cpLineH/2), 2, colInk)
		}
	}
}

// cpPossibilities lists the Port's or Waterloo's possibilities and who
// used them, and the Port's ticket.
func (c *canvas) cpPossibilities(v *cp.View, loc *cp.LocationView, x, y, w int) {
	for i, p := range loc.Possibilities {
		ly := y + i*cpLineH
		if p.Used {
			tw := c.fs.width(p.Text, style{size: sizeSmall})
			c.fill(image.Rect(x+14, ly, x+14+min(tw, w-60), ly+2), colInk)
			if seatIn(p.By, v.Players) {
				c.marker(int(p.By), x+w-10, ly, markMini)
				c.text("used", x+w-22, ly, style{size: sizeSmall, bold: true, color: colInk, align: alignRight})
			}
		}
	}
	if len(loc.TicketVP) > 0 {
		ly := y + len(loc.Possibilities)*cpLineH
		tx := x + c.fs.width(cpTicketText(loc), style{size: sizeSmall}) + 24
		c.text(fmt.Sprintf("%d left", loc.TicketsLeft), tx, ly, style{size: sizeSmall, bold: true, color: colInk})
		tx += 60
		for _, d := range loc.TicketDice {
			if seatIn(d.Owner, v.Players) && tx+dieSmallSize < x+w {
				c.spriteCentered(c.r.sprites.die(int(d.Owner), d.Value, true), tx+dieSmallSize/2, ly)
				tx += dieSmallSize + 4
			}
		}
	}
}

func cpTicketText(loc *cp.LocationView) string {
	return "Ticket: waive a die for " + joinInts(loc.TicketVP, "/") + " VP by year + pips"
}
