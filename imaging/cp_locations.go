package imaging

import (
	"fmt"
	"image"
	"strconv"
	"strings"
	"sync"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/wording"
)

// cpLocation draws what changes on a location panel: the dice, the used
// action spaces, the display or possibilities, and notes.
// cardLines are the lines each card on display takes (the layout's).
func (c *canvas) cpLocation(v *cp.View, names []string, loc *cp.LocationView, rect image.Rectangle, cardLines []int) {
	if cpResolving(v, loc) {
		c.fill(image.Rect(rect.Min.X+2, rect.Min.Y+2, rect.Min.X+10, rect.Min.Y+cpHeadH), colHighlight)
	}
	c.headNote(rect, cpLocTitle(c.w, loc), c.cpLocNotes(v, names, loc), c.cpDeckNote(v, loc.Key), colHighlight)
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
		for i, card := range c.cpListedCards(loc) {
			n := 1
			if i < len(cardLines) {
				n = cardLines[i]
			}
			c.cpCardLine(&card, x0, ly, w, -1, n)
			ly += n * cpLineH
		}
	case loc.Key == "westminster":
		c.cpWestminster(v, x0, ly, w)
	case loc.Key == "times":
		c.cpTimes(v, x0, ly, w)
	default:
		c.cpPossibilities(v, loc, x0, ly, w)
	}
}

// cpResolving reports whether loc is the location phase 3 resolves now.
func cpResolving(v *cp.View, loc *cp.LocationView) bool {
	return loc.Resolving || v.Resolving == loc.Key && loc.Key != ""
}

// cpLocNotes are the notes of a location's header: whether it resolves,
// whose die acts next, who was compensated. (What Westminster's V offers
// is a line of the panel's list, where it has room.)
func (c *canvas) cpLocNotes(v *cp.View, names []string, loc *cp.LocationView) []string {
	var notes []string
	if cpResolving(v, loc) {
		notes = append(notes, c.say("cp.image.resolving"))
	}
	if loc.NextDie != nil && seatIn(loc.NextDie.Owner, v.Players) && int(loc.NextDie.Owner) < len(names) {
		notes = append(notes, c.say("cp.image.next_die", "Who", names[loc.NextDie.Owner], "N", loc.NextDie.Value))
	}
	if len(loc.Compensated) > 0 {
		notes = append(notes, c.say("cp.image.compensated", "Who", seatList(loc.Compensated)))
	}
	return notes
}

// cpListedCards are the cards a location's list shows: its display, then
// the top card of its face-up stack, named as such.
func (c *canvas) cpListedCards(loc *cp.LocationView) []cp.CardView {
	cards := make([]cp.CardView, len(loc.Display), len(loc.Display)+1)
	for i := range loc.Display {
		cards[i] = loc.Display[i]
		cards[i].Name = cpCardName(c.w, &cards[i])
	}
	if loc.StackTop == nil {
		return cards
	}
	top := *loc.StackTop
	top.Name = c.say("cp.image.stack", "Name", cpCardName(c.w, &top))
	return append(cards, top)
}

// cpCardName names a card in w's language: a patent, prototype,
// character or research tile by the content's name of it, else as the
// view names it.
func cpCardName(w *wording.Words, card *cp.CardView) string {
	prefix := ""
	switch card.Kind {
	case "patent":
		prefix = "patent:"
	case "prototype":
		prefix = "proto:"
	case "character":
		prefix = "char:"
	case "research":
		prefix = "research:"
	}
	if card.NameKey != "" {
		return itemOr(w, card.NameKey, card.Name)
	}
	if prefix == "" || card.ID == "" {
		return card.Name
	}
	return item(w, prefix+card.ID, card.Name)
}

// cpDeckNote says how many cards are left to refill a display.
func (c *canvas) cpDeckNote(v *cp.View, key string) string {
	switch key {
	case "patent":
		return c.say("cp.image.deck", "N", v.Decks.Patents)
	case "museum":
		return c.say("cp.image.tiles", "N", v.Decks.Research)
	case "club":
		return c.say("cp.image.deck", "N", v.Decks.Characters)
	case "bank":
		if r := v.Round; r >= 1 && r <= len(v.Decks.SharesByRound) {
			return c.say("cp.image.shares_left", "N", v.Decks.SharesByRound[r-1])
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

// cardLine is a card laid out on a list: the head (chip, name, cost and
// VP) on the first line, the effect after it, flowing on.
type cardLine struct {
	empty  bool
	name   string // fitted
	cost   []richLine
	vp     string
	effect string
	headW  int // the head's width with its gaps
}

// cardKey is what a card's laid-out line depends on: everything the view
// says of the card (hashed), the language, the width and the salary
// column shown.
type cardKey struct {
	lang         string
	card         layoutHash
	w, salaryCol int
}

// cardHash hashes every field of card that its line may show.
func cardHash(card *cp.CardView) layoutHash {
	h := newLayoutHash()
	for _, s := range []string{card.Kind, card.ID, card.Name, card.NameKey, card.Link, card.LinkKey, card.Effect, card.Instant, card.Ability, card.Color, card.Box} {
		h.str(s)
	}
	for _, n := range []int{card.Cost.Pounds, card.Cost.Gears, card.Cost.Energy, card.VP, card.Income, len(card.Salary)} {
		h.int(n)
	}
	for _, n := range card.Salary {
		h.int(n)
	}
	h.ints(card.VPByYear)
	h.text(card.EffectSay)
	h.text(card.InstantSay)
	h.text(card.AbilitySay)
	return h
}

// maxCards bounds a cardMemo; past it, it starts again empty.
const maxCards = 4096

// cardMemo keeps laid-out card lines across renders; it is safe for
// concurrent use. A board lays out some forty cards, each through the
// catalogue's templates, the same way on every render.
type cardMemo struct {
	mu sync.RWMutex
	m  map[cardKey]cardLine
}

func (m *cardMemo) get(k cardKey) (cardLine, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	l, ok := m.m[k]
	return l, ok
}

func (m *cardMemo) put(k cardKey, l cardLine) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= maxCards {
		m.m = make(map[cardKey]cardLine)
	}
	m.m[k] = l
}

// Styles of a card line: the name and cost, the VP, the effect.
func cardNameStyle() style   { return style{size: sizeSmall, bold: true, color: colInk} }
func cardVPStyle() style     { return style{size: sizeSmall, bold: true, color: colVP} }
func cardEffectStyle() style { return style{size: sizeSmall, color: colInkSoft} }

// layoutCard lays a card out on lines w pixels wide. salaryCol, when not
// -1, is the salary colour the owner pays now, named after a character's
// salaries. A card's text is the same on every render, so its layout is
// kept (see cardMemo).
func (c *canvas) layoutCard(card *cp.CardView, w, salaryCol int) cardLine {
	if card.Kind == "" {
		return cardLine{empty: true}
	}
	k := cardKey{lang: langKey(c.w), card: cardHash(card), w: w, salaryCol: salaryCol}
	if l, ok := c.r.cards.get(k); ok {
		return l
	}
	l := c.layoutCardText(card, w, salaryCol)
	c.r.cards.put(k, l)
	return l
}

// layoutCardText works out layoutCard's line.
func (c *canvas) layoutCardText(card *cp.CardView, w, salaryCol int) cardLine {
	name := card.Name
	if card.Kind == "share" {
		name = c.say("cp.image.share")
	}
	l := cardLine{name: c.fs.fit(name, w*3/5, cardNameStyle())}
	l.cost, _ = c.wrapRich(costText(card.Cost), w, w, 1, cardNameStyle())
	l.headW = 14 + c.fs.width(l.name, cardNameStyle()) + 8
	if len(l.cost) > 0 {
		l.headW += l.cost[0].width + 10
	}
	if card.VP != 0 {
		l.vp = c.say("cp.image.vp", "N", card.VP)
		l.headW += c.fs.width(l.vp, cardVPStyle()) + 8
	}
	var parts []string
	if e := cardEffect(c.w, card); e != "" {
		parts = append(parts, e)
	} else if card.Kind == "share" && card.Income != 0 {
		parts = append(parts, c.say("cp.image.card_income", "N", fmt.Sprintf("%+d", card.Income)))
	}
	if card.Link != "" {
		link := itemOr(c.w, card.LinkKey, card.Link)
		parts = append(parts, "↔\u00a0"+strings.ReplaceAll(link, " ", "\u00a0")) // never broken
	}
	if len(card.Salary) > 0 {
		salary := c.say("cp.image.salary", "Salaries", joinInts(card.Salary, "/"))
		if salaryCol >= 0 && salaryCol < len(card.Salary) {
			salary = c.say("cp.image.salary_now", "N", card.Salary[salaryCol], "Salaries", joinInts(card.Salary, "/"))
		}
		parts = append([]string{salary}, parts...)
	}
	l.effect = strings.Join(parts, "; ")
	return l
}

// wrapEffect flows a card's effect after its head and on to at most n
// lines in all, the later ones indented past the chip.
func (c *canvas) wrapEffect(l *cardLine, w, n int) []richLine {
	lines, _ := c.wrapRich(l.effect, w-l.headW, w-14, n, cardEffectStyle())
	return lines
}

// cardLines is how many lines a card needs to show whole, at most n.
func (c *canvas) cardLines(card *cp.CardView, w, n int) int {
	l := c.layoutCard(card, w, -1)
	return max(len(c.wrapEffect(&l, w, n)), 1)
}

// cpCardLine draws one card on at most n lines cpLineH apart: chip, name,
// cost, VP and effect, in that order, the effect cut only past the last.
func (c *canvas) cpCardLine(card *cp.CardView, x, y, w, salaryCol, n int) {
	l := c.layoutCard(card, w, salaryCol)
	if l.empty {
		c.text(c.say("cp.image.card_empty"), x+14, y, style{size: sizeSmall, color: colInkSoft})
		return
	}
	c.fill(image.Rect(x, y-9, x+8, y+9), cardColor(card))
	hx := x + 14
	hx += c.text(l.name, hx, y, cardNameStyle()) + 8
	if len(l.cost) > 0 {
		hx += c.drawRichLine(l.cost[0], hx, y, cardNameStyle()) + 10
	}
	if l.vp != "" {
		c.text(l.vp, hx, y, cardVPStyle())
	}
	for i, line := range c.wrapEffect(&l, w, n) {
		lx := x + 14
		if i == 0 {
			lx = x + l.headW
		}
		c.drawRichLine(line, lx, y+i*cpLineH, cardEffectStyle())
	}
}

// cardEffect says what a card does in w's language: its instant and
// recurring effects, or its effect text when it has neither.
func cardEffect(w *wording.Words, card *cp.CardView) string {
	if parts := nonEmpty(sayOr(w, card.InstantSay, card.Instant), sayOr(w, card.AbilitySay, card.Ability)); len(parts) > 0 {
		return strings.Join(parts, "; ")
	}
	return strings.Trim(sayOr(w, card.EffectSay, card.Effect), "; ")
}

// costText writes a cost as words the icons replace: "4£ 2 gears 1 energy".
func costText(cost cp.Cost) string {
	var parts []string
	if cost.Pounds > 0 {
		parts = append(parts, strconv.Itoa(cost.Pounds)+"£")
	}
	if cost.Gears > 0 {
		parts = append(parts, strconv.Itoa(cost.Gears)+" gears")
	}
	if cost.Energy > 0 {
		parts = append(parts, strconv.Itoa(cost.Energy)+" energy")
	}
	return strings.Join(parts, " ")
}

// cpWestminsterMarks is how far apart the markers on a Westminster line
// stand (a mini marker is 16 pixels wide).
const cpWestminsterMarks = 18

// cpWestminsterRoom is the room a Westminster line keeps right of its
// salary column for the markers of players players, all on one space,
// with a gap before them; at least three's.
func cpWestminsterRoom(players int) int {
	return 10 + (max(players, 3)-1)*cpWestminsterMarks + miniSize/2 + 8
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
			c.marker(seat, x+w-10-k*cpWestminsterMarks, ly, markMini)
		}
	}
}

// cpTimes marks the current round's publisher condition.
func (c *canvas) cpTimes(v *cp.View, x, y, w int) {
	ly := y
	for i, lines := range c.cpTimesLines(v) {
		n := max(len(lines), 1)
		if v.Publisher.Rounds[i].Current {
			c.outline(image.Rect(x-4, ly-cpLineH/2, x+w+4, ly-cpLineH/2+n*cpLineH), 2, colInk)
		}
		ly += n * cpLineH
	}
}

// cpPossibilityW is the width of a possibility's text: a location panel's
// list less the bullet and the "used" mark.
const cpPossibilityW = cpLocW - 20 - 14 - 62

// cpPossibilityLines wraps the Port's or Waterloo's possibilities, each
// over two lines at most.
func (c *canvas) cpPossibilityLines(loc *cp.LocationView) [][]richLine {
	out := make([][]richLine, len(loc.Possibilities))
	st := style{size: sizeSmall}
	for i, p := range loc.Possibilities {
		text := itemOr(c.w, p.TextKey, p.Text)
		if !p.Available {
			text += " " + c.say("cp.image.unavailable")
		}
		out[i], _ = c.wrapRich(text, cpPossibilityW, cpPossibilityW, 2, st)
	}
	return out
}

// cpPossibilities marks the Port's or Waterloo's possibilities used, and
// by whom, and the Port's ticket.
func (c *canvas) cpPossibilities(v *cp.View, loc *cp.LocationView, x, y, w int) {
	ly := y
	st := style{size: sizeSmall}
	for i, lines := range c.cpPossibilityLines(loc) {
		p := &loc.Possibilities[i]
		if p.Used && seatIn(p.By, v.Players) {
			c.marker(int(p.By), x+w-10, ly, markMini)
			c.text(c.say("cp.image.used"), x+w-22, ly, style{size: sizeSmall, bold: true, color: colInk, align: alignRight})
		}
		for _, line := range lines {
			if p.Used {
				c.fill(image.Rect(x+14, ly, x+14+line.width, ly+2), colInk)
			}
			ly += cpLineH
		}
		if len(lines) == 0 {
			ly += cpLineH
		}
	}
	if len(loc.TicketVP) > 0 {
		tx := x + c.fs.width(c.cpTicketText(loc), st) + 24
		left := c.say("cp.image.tickets_left", "N", loc.TicketsLeft)
		if lw := c.fs.width(left, style{size: sizeSmall, bold: true}); tx+lw > x+w {
			c.noteCut(c.cpTicketText(loc)) // the count would run past the panel
		}
		tx += c.text(left, tx, ly, style{size: sizeSmall, bold: true, color: colInk}) + 10
		for _, d := range loc.TicketDice {
			if seatIn(d.Owner, v.Players) && tx+dieSmallSize < x+w {
				c.spriteCentered(c.r.sprites.die(int(d.Owner), d.Value, true), tx+dieSmallSize/2, ly)
				tx += dieSmallSize + 4
			}
		}
	}
}

func (c *canvas) cpTicketText(loc *cp.LocationView) string {
	return c.say("cp.image.ticket", "VP", joinInts(loc.TicketVP, "/"))
}
