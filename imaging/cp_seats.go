package imaging

import (
	"image"
	"slices"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

// cpColumn is a column of the player table.
type cpColumn struct {
	title string
	x     int
}

// Player table columns, absolute x.
const (
	cpColName   = cpMargin + 10
	cpColPounds = 264
	cpColGears  = 330
	cpColEnergy = 402
	cpColNews   = 476
	cpColVP     = 546
	cpColDice   = 610
	cpColLoans  = 806
	cpColTracks = 872
	cpColCards  = 1104
)

func (c *canvas) cpSeatColumns() []cpColumn {
	return []cpColumn{
		{c.say("image.player"), cpColName}, {c.say("cp.image.col.pounds"), cpColPounds}, {c.say("cp.image.col.gears"), cpColGears},
		{c.say("cp.image.col.energy"), cpColEnergy}, {c.say("cp.image.col.news"), cpColNews}, {c.say("cp.image.col.vp"), cpColVP},
		{c.say("cp.image.col.dice"), cpColDice}, {c.say("cp.image.col.loans"), cpColLoans},
		{c.say("cp.image.col.tracks"), cpColTracks}, {c.say("cp.image.col.cards"), cpColCards},
	}
}

// cpSeats fills the player table: one row per seat in seat order.
func (c *canvas) cpSeats(v *cp.View, names []string, tableY int) {
	waiting := map[int]string{}
	for _, w := range v.Waiting {
		if seatIn(w.Seat, v.Players) {
			waiting[int(w.Seat)] = cpWaitingLabel(c.w, w)
		}
	}
	big := style{size: sizeLarge, bold: true, color: colInk}
	small := style{size: sizeSmall, color: colInkSoft}
	for seat := range v.Seats {
		p := &v.Seats[seat]
		y := tableY + cpTableH + seat*cpSeatH
		l1, l2, l3 := y+19, y+41, y+59
		won := v.Result != nil && slices.Contains(v.Result.Winners, engine.Seat(seat))
		if int(v.Turn) == seat && !v.Over || won {
			c.fill(image.Rect(cpMargin+1, y+1, cpW-cpMargin-1, y+cpSeatH-1), colHighlight)
		}
		c.fill(image.Rect(cpMargin+1, y+1, cpMargin+7, y+cpSeatH-1), seatColor(seat))
		c.marker(seat, cpColName+18, y+cpSeatH/2, markPawn)
		nameW := cpSeatNameW
		w := c.textFit(names[seat], cpColName+42, l1, nameW, style{size: sizeBody, bold: true, color: colInk})
		if colour := c.seatColorName(seat); w+8+c.fs.width(colour, small) <= nameW {
			c.text(colour, cpColName+42+w+8, l1, small)
		}
		c.richLines(c.cpSeatNotes(v, p, seat, won), cpColName+42, nameW, cpColName+42, nameW, l2, l3-l2, 2, small)

		c.text(strconv.Itoa(p.Pounds), cpColPounds, l1, big)
		c.cpCount(p.Gears, c.r.sprites.gear, cpColGears, l1)
		c.cpCount(p.Energy, c.r.sprites.energy, cpColEnergy, l1)
		c.cpCount(p.Newspapers, c.r.sprites.paper, cpColNews, l1)
		c.text(strconv.Itoa(p.VP), cpColVP, l1, style{size: sizeLarge, bold: true, color: colVP})
		if p.Watch {
			c.textFit(c.say("cp.image.watch_short"), cpColPounds, l2, cpColGears-cpColPounds-6, small)
		}
		c.textFit(c.say("cp.image.assistants", "N", p.Assistants, "Market", p.Market), cpColGears, l2, cpColDice-cpColGears-10, small)

		c.cpSeatDice(v, p, seat, l1, l2, waiting[seat])

		loanCol := colInk // Loans counts the unpaid ones
		if p.Loans > 0 {
			loanCol = colBad
		}
		c.text(strconv.Itoa(p.Loans), cpColLoans, l1, style{size: sizeLarge, bold: true, color: loanCol})
		if p.Repaid > 0 {
			c.textFit(c.say("cp.image.repaid", "N", p.Repaid), cpColLoans, l2, cpColTracks-cpColLoans-6, small)
		}

		west := c.cpWestminsterName(v, p.Westminster)
		tw := cpColCards - cpColTracks - 10
		c.textShrink(c.say("cp.image.tracks", "Buzz", p.Buzz, "Income", p.Income), cpColTracks, l1, tw, style{size: sizeBody, bold: true, color: colInk})
		filled := 0
		for _, r := range p.Research {
			if r.Kind != "empty" && r.Kind != "" {
				filled++
			}
		}
		c.textFit(c.say("cp.image.westminster", "Space", west, "Filled", filled, "Spaces", len(p.Research)), cpColTracks, l2, tw, small)

		right := cpW - cpMargin - 8 - cpColCards
		cards := style{size: sizeSmall, color: colInk}
		// Characters before shares: shares keep at least their count.
		charsT, sharesT := c.say("cp.image.cards.characters"), c.say("cp.image.cards.shares")
		chars := c.cardGroup(charsT, p.Characters, right-c.fs.width(" · "+c.cardGroup(sharesT, p.Shares, 0, cards), cards), cards)
		chars += " · " + c.cardGroup(sharesT, p.Shares, right-c.fs.width(chars+" · ", cards), cards)
		for i, line := range []string{
			c.cardGroup(c.say("cp.image.cards.patents"), p.Patents, right, cards),
			c.cardGroup(c.say("cp.image.cards.prototypes"), p.Prototypes, right, cards),
			chars,
		} {
			c.textFit(line, cpColCards, y+14+i*21, right, cards)
		}
	}
}

// cpSeatNameW is the width of a player's name and the notes under it.
const cpSeatNameW = cpColPounds - cpColName - 52

// cpSeatNotes is what the two lines under a player's name say: nation and
// objective level, then their role this round (winner, first player,
// passed), if any.
func (c *canvas) cpSeatNotes(v *cp.View, p *cp.PlayerView, seat int, won bool) string {
	var role []string
	switch {
	case won:
		role = append(role, strings.ToUpper(c.say("image.winner")))
	case v.First == engine.Seat(seat) && !v.Over:
		role = append(role, c.say("image.first_player"))
	}
	if p.Passed && !v.Over {
		role = append(role, c.say("image.passed"))
	}
	nation := c.say("cp.image.objective_short", "Nation", itemOr(c.w, p.NationKey, p.Nation), "N", p.Objective)
	if len(role) == 0 {
		return nation
	}
	// a role is never broken across the lines
	return nation + " · " + strings.ReplaceAll(strings.Join(role, " · "), " ", "\u00a0")
}

// cpCount draws a resource count with its icon.
func (c *canvas) cpCount(n int, icon *image.RGBA, x, y int) {
	w := c.text(strconv.Itoa(n), x, y, style{size: sizeLarge, bold: true, color: colInk})
	c.sprite(icon, x+w+3, y-iconSize/2)
}

// cpSeatDice shows a seat's dice: covered while values are secret (and
// whether the seat has chosen), revealed values afterwards.
func (c *canvas) cpSeatDice(v *cp.View, p *cp.PlayerView, seat, l1, l2 int, waitingFor string) {
	small := style{size: sizeSmall, color: colInkSoft}
	x := cpColDice
	step := dieSmallSize + 3
	var note []string
	switch {
	case p.DiceValues != nil:
		// Dice still to place in the seat's colour, placed ones white.
		for _, d := range p.Unplaced {
			c.spriteCentered(c.r.sprites.die(seat, d, true), x+dieSmallSize/2, l1)
			x += step
		}
		placed := p.Placed
		for _, d := range placed {
			c.spriteCentered(c.r.sprites.die(-1, d, true), x+dieSmallSize/2, l1)
			x += step
		}
		if p.DiceLeft > 0 && v.Phase == 2 && !v.Over {
			note = append(note, c.say("cp.image.to_place", "N", p.DiceLeft))
		}
		if len(placed) > 0 {
			note = append(note, c.say("cp.image.placed", "N", len(placed)))
		}
	case p.Submitted:
		for i := 0; i < p.Dice; i++ {
			c.spriteCentered(c.r.sprites.coveredDie(seat, true), x+dieSmallSize/2, l1)
			x += step
		}
		note = append(note, c.say("cp.image.chosen"))
	default:
		for i := 0; i < p.Dice; i++ {
			c.spriteCentered(c.r.sprites.die(seat, 0, true), x+dieSmallSize/2, l1)
			x += step
		}
		if waitingFor != "" {
			note = append(note, c.say("cp.image.choosing"))
		}
	}
	if p.NewDice > 0 {
		note = append(note, c.say("cp.image.next_round", "N", p.NewDice))
	}
	if p.TicketDice > 0 {
		note = append(note, c.say("cp.image.on_tickets", "N", p.TicketDice))
	}
	if len(note) > 0 {
		w := cpColLoans - cpColDice - 10
		c.richLines(strings.Join(note, " · "), cpColDice, w, cpColDice, w, l2, 18, 2, small)
	}
}

// cardGroup lists cards by name in at most w pixels: "Patents (2):
// Telegraph, Crane", or as many names as fit and how many more ("Patents
// (5): Telegraph, Crane +3 more"), or only the count.
func (c *canvas) cardGroup(title string, cards []cp.CardView, w int, st style) string {
	if len(cards) == 0 {
		return c.say("cp.image.group_none", "Title", title)
	}
	if cards[0].Kind == "share" { // shares have no names: their count
		return c.say("cp.image.group", "Title", title, "N", len(cards))
	}
	names := make([]string, len(cards))
	for i := range cards {
		names[i] = cpCardName(c.w, &cards[i])
		if names[i] == "" {
			names[i] = c.say("cp.image.vp", "N", cards[i].VP)
		}
	}
	head := c.say("cp.image.group", "Title", title, "N", len(cards))
	for n := len(names); n > 0; n-- {
		text := head + ": " + strings.Join(names[:n], ", ")
		if n < len(names) {
			text += " " + c.say("cp.image.group_more", "N", len(names)-n)
		}
		if c.fs.width(text, st) <= w {
			return text
		}
	}
	return head
}
