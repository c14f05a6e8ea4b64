package imaging

import (
	"fmt"
	"hash/fnv"
	"image"
	"image/draw"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/wording"
)

// Geometry of the Crystal Palace board: the eight locations in two columns
// on the left, the administration board on the right, one row per player
// at the bottom.
const (
	cpW       = 1460
	cpMargin  = 14
	cpLocW    = 468
	cpGap     = 12
	cpRightX  = cpMargin + 2*cpLocW + cpGap + 14
	cpRightW  = cpW - cpRightX - cpMargin
	cpTop     = titleHeight + 12
	cpHeadH   = 32 // panel headers
	cpSlot    = 46 // a dice placement space
	cpSlotCap = 20 // the caption under it
	cpActH    = 42 // action spaces
	cpLineH   = 23 // one line of a panel's list
	cpRowGap  = 10
	cpSeatH   = 70 // a player's row: three lines
	cpTableH  = 30 // the player table's header
)

// cpTitle is the board's title in the canvas's language.
func (c *canvas) cpTitle() string { return c.say("game.crystalpalace.title") }

// cpLayout is where things go on a board; it depends only on the view's
// static parts (player count and content), like the background.
type cpLayout struct {
	locRect   []image.Rectangle // by location index
	cardLines [][]int           // by location index: the lines of each card on display
	tableY    int
	height    int
	rightBox  map[string]image.Rectangle
	waiting   [][]richLine // the open decisions' labels, wrapped
}

// cpCardLines is how many list lines a card on display may take: its
// name, cost and VP, with its effect flowing on to the second.
const cpCardLines = 3

// cpBodyLines is how many list lines a location's panel needs, given the
// lines of each card on display.
func (c *canvas) cpBodyLines(v *cp.View, loc *cp.LocationView, cardLines []int) int {
	switch {
	case len(loc.Display) > 0:
		n := 0
		for _, k := range cardLines {
			n += k
		}
		return n
	case loc.Key == "westminster":
		if v.Westminster.Choice != "" {
			return len(v.Westminster.Spaces) + 1 // what V offers again
		}
		return len(v.Westminster.Spaces)
	case loc.Key == "times":
		n := 0
		for _, lines := range c.cpTimesLines(v) {
			n += max(len(lines), 1)
		}
		return n
	case len(loc.Possibilities) > 0:
		n := 0
		for _, lines := range c.cpPossibilityLines(loc) {
			n += max(len(lines), 1)
		}
		if len(loc.TicketVP) > 0 {
			n++
		}
		return n
	}
	return 1
}

func cpLocHeight(lines int) int {
	return cpHeadH + 6 + cpSlot + cpSlotCap + 6 + cpActH + 8 + lines*cpLineH + 8
}

// newCPLayout places the panels; c measures the text that wraps, names
// are the seats' names (the waiting list wraps after them).
func (c *canvas) newCPLayout(v *cp.View, names []string) *cpLayout {
	l := &cpLayout{rightBox: map[string]image.Rectangle{}}
	l.waiting = c.cpWaitingLines(v, names)
	waitingLines := 0
	for _, lines := range l.waiting {
		waitingLines += max(len(lines), 1)
	}
	for _, loc := range v.Locations {
		cards := c.cpListedCards(&loc)
		lines := make([]int, len(cards))
		for j := range cards {
			lines[j] = c.cardLines(&cards[j], cpLocW-20, cpCardLines)
		}
		l.cardLines = append(l.cardLines, lines)
	}
	y := cpTop
	for i := 0; i < len(v.Locations); i += 2 {
		lines := c.cpBodyLines(v, &v.Locations[i], l.cardLines[i])
		if i+1 < len(v.Locations) {
			lines = max(lines, c.cpBodyLines(v, &v.Locations[i+1], l.cardLines[i+1]))
		}
		h := cpLocHeight(lines)
		for j := i; j < i+2 && j < len(v.Locations); j++ {
			x := cpMargin + (j-i)*(cpLocW+cpGap)
			l.locRect = append(l.locRect, image.Rect(x, y, x+cpLocW, y+h))
		}
		y += h + cpRowGap
	}
	leftBottom := y
	// The administration board, top to bottom.
	ry := cpTop
	add := func(name string, h int) {
		l.rightBox[name] = image.Rect(cpRightX, ry, cpRightX+cpRightW, ry+h)
		ry += h + cpRowGap
	}
	add("market", cpHeadH+6+len(v.BlackMarket.Spaces)*cpLineH+cpLineH+8)
	buzzRows := (v.Buzz.Length + 1 + 9) / 10
	add("buzz", cpHeadH+6+buzzRows*cpBuzzCell+8+3*cpLineH+8)
	add("income", cpHeadH+6+cpIncomeCell+8+3*miniSize+8)
	add("supply", cpHeadH+6+6*cpLineH+8) // the Pocket Watch may take two lines
	add("waiting", cpHeadH+6+max(waitingLines, v.Players)*cpLineH+8)
	l.tableY = max(leftBottom, ry) + 4
	l.height = l.tableY + cpTableH + v.Players*cpSeatH + cpMargin
	return l
}

// Track cell sizes on the administration board.
const (
	cpBuzzCell   = 44
	cpIncomeCell = 32
)

// cpLayoutKey names the static layer by what shapes it: the player count,
// the panels' geometry and the fixed parts of the spaces drawn in it. What
// varies between games with the same geometry (texts, conditions, effects,
// flyers and posters) is drawn over it by cpGameLayer, so games share it.
func cpLayoutKey(v *cp.View, w *wording.Words, l *cpLayout) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%d|%d|%v|%v|", v.Players, l.height, l.tableY, l.locRect, l.rightBox)
	for _, loc := range v.Locations {
		fmt.Fprintf(h, "%s|%d|%s;", cpLocTitle(w, &loc), len(loc.Actions), cpDiceKey(loc.Dice))
	}
	for _, s := range v.BlackMarket.Spaces {
		fmt.Fprintf(h, "%d,%d;", s.Tier, s.Cost)
	}
	fmt.Fprintf(h, "%d|%d|", v.BlackMarket.BannerTier, v.Buzz.Length)
	for _, s := range v.Income.Spaces {
		fmt.Fprintf(h, "%d,%t;", s.Income, s.Red)
	}
	return fmt.Sprintf("cp/%x", h.Sum64())
}

// cpCheck refuses views the board cannot draw faithfully.
func cpCheck(v *cp.View) error {
	switch {
	case v == nil:
		return fmt.Errorf("%w: nil Crystal Palace view", ErrUnsupportedView)
	case v.Players < 1 || v.Players > maxSeats || len(v.Seats) != v.Players:
		return fmt.Errorf("%w: Crystal Palace view with %d players and %d seats", ErrUnsupportedView, v.Players, len(v.Seats))
	case len(v.Locations) == 0:
		return fmt.Errorf("%w: Crystal Palace view without locations", ErrUnsupportedView)
	}
	return nil
}

// crystalPalaceBoard draws the public board. It never reads v.Private, and
// shows dice values only where the view makes them public (placed dice,
// revealed values), so every seat's view draws the same picture.
func (r *Renderer) crystalPalaceBoard(v *cp.View, w *wording.Words) ([]byte, error) {
	if err := cpCheck(v); err != nil {
		return nil, err
	}
	measure := &canvas{r: r, fs: r.faces.Get().(*faceSet), w: w}
	names := r.seatNames(w, v.Players)
	l := measure.newCPLayout(v, names)
	r.faces.Put(measure.fs)
	c := r.begin(w, cpW, l.height, func() string { return cpLayoutKey(v, w, l) }, func(c *canvas) { c.cpBackground(v, l) })
	c.cpGameLayer(v, l)
	c.titleBar(c.cpTitle(), cpNote(v, w, names))
	for i := range v.Locations {
		c.cpLocation(v, names, &v.Locations[i], l.locRect[i], l.cardLines[i])
	}
	c.cpMarket(v, l.rightBox["market"])
	c.cpBuzz(v, l.rightBox["buzz"])
	c.cpIncome(v, l.rightBox["income"])
	c.cpSupply(v, names, l.rightBox["supply"])
	c.cpWaiting(v, names, l.waiting, l.rightBox["waiting"])
	c.cpSeats(v, names, l.tableY)
	return c.finish()
}

// cpNote is the title bar's note: round, phase and who is awaited, or the
// winners once the game is over.
func cpNote(v *cp.View, w *wording.Words, names []string) string {
	if v.Over {
		return cpRoundNote(v, w, names)
	}
	note := cpPhaseLabel(v, w)
	if note == "" {
		note = cpRoundNote(v, w, names)
	}
	if t := int(v.Turn); t >= 0 && t < len(names) {
		note += " · " + say(w, "cp.image.to_play", "Who", names[t])
	}
	return note
}

// cpRoundNote is where the game stands: "Spring 1851 · phase 6 of 7", or
// "Game over · Ada won" once it has ended.
func cpRoundNote(v *cp.View, w *wording.Words, names []string) string {
	if v.Over {
		var winners []engine.Seat
		if v.Result != nil {
			winners = v.Result.Winners
		}
		return gameOverNote(w, winners, names)
	}
	return say(w, "cp.image.phase", "Round", cpRoundName(v, w), "N", v.Phase)
}

// cpRoundName names the view's round ("Spring 1849") by the content's
// name of it in w's language.
func cpRoundName(v *cp.View, w *wording.Words) string {
	return item(w, "year:"+strconv.Itoa(v.Round-1), v.RoundName)
}

// cpPhaseLabel says where the game stands as the game's log does: "Spring
// 1849: phase 2, place dice", written from the view's round and phase in
// w's language; "" for a phase the game does not name.
func cpPhaseLabel(v *cp.View, w *wording.Words) string {
	if v.Phase < 1 || v.Phase > 7 || v.Over {
		return ""
	}
	if !v.LabelSay.IsZero() {
		return w.Say(v.LabelSay)
	}
	return w.Say(engine.Say("cp.phase.label", engine.Code("Year", cpRoundName(v, w)), engine.Num("Phase", v.Phase),
		engine.Msg("Name", "cp.phase."+strconv.Itoa(v.Phase), 0)))
}

// cpWaitingLabel is what an open decision waits for, in w's language.
func cpWaitingLabel(w *wording.Words, wv cp.WaitingView) string {
	return sayOr(w, wv.Text, wv.Kind)
}

func seatIn(seat engine.Seat, n int) bool { return int(seat) >= 0 && int(seat) < n }

// cpBackground draws the static layer: panels, headers, empty dice and
// action spaces, track cells and the player table's frame.
func (c *canvas) cpBackground(v *cp.View, l *cpLayout) {
	c.titleBarStatic(c.cpTitle())
	for i := range v.Locations {
		rect := l.locRect[i]
		piece := c.cpPanelPiece(&v.Locations[i], rect.Dy())
		draw.Draw(c.img, rect.Inset(-cpPiecePad), piece, image.Point{}, draw.Src)
	}
	c.cpBackgroundAdmin(v, l)
	// The player table.
	y := l.tableY
	c.fill(image.Rect(cpMargin, y, cpW-cpMargin, y+cpTableH), colPanelAlt)
	head := style{size: sizeSmall, bold: true, color: colInkSoft}
	cols := c.cpSeatColumns()
	for i, h := range cols {
		room := cpW - cpMargin - 8 - h.x
		if i+1 < len(cols) {
			room = cols[i+1].x - h.x - 6
		}
		c.textFit(h.title, h.x, y+cpTableH/2, room, head)
	}
	for i := 0; i < v.Players; i++ {
		ry := y + cpTableH + i*cpSeatH
		c.fill(image.Rect(cpMargin, ry, cpW-cpMargin, ry+cpSeatH), colPanel)
		c.fill(image.Rect(cpMargin, ry, cpW-cpMargin, ry+1), colRule)
	}
	c.outline(image.Rect(cpMargin, y, cpW-cpMargin, y+cpTableH+v.Players*cpSeatH), 1, colInk)
}

// cpPiecePad is the paper kept around a cached panel, so its antialiased
// edges are whole; less than half the gap between panels.
const cpPiecePad = 2

// cpPanelPiece is the static layer of a location panel h pixels high, with
// cpPiecePad of paper around it. Boards whose rows differ in height share
// the panels, so a board of a new geometry only assembles its background.
func (c *canvas) cpPanelPiece(loc *cp.LocationView, h int) *image.RGBA {
	key := fmt.Sprintf("cp-panel/%d/%s/%d/%v", h, cpLocTitle(c.w, loc), len(loc.Actions), cpDiceKey(loc.Dice))
	return c.r.piece(c.w, key, cpLocW+2*cpPiecePad, h+2*cpPiecePad, func(pc *canvas) {
		pc.cpPanelStatic(loc, image.Rect(cpPiecePad, cpPiecePad, cpPiecePad+cpLocW, cpPiecePad+h))
	})
}

// cpDiceKey is what the static layer shows of a panel's dice spaces.
func cpDiceKey(dice []cp.DiceSpaceView) string {
	var b strings.Builder
	for _, d := range dice {
		fmt.Fprintf(&b, "%d,%d,%t;", d.Min, d.Fee, d.Assistant)
	}
	return b.String()
}

// cpPanelStatic draws a location panel's frame, header, empty dice spaces
// with their minimum, fee and assistant, and empty action spaces.
func (c *canvas) cpPanelStatic(loc *cp.LocationView, rect image.Rectangle) {
	c.roundBox(rect, 10, colPanel, colInk, 1.5)
	c.panelHead(rect, cpLocTitle(c.w, loc))
	y := rect.Min.Y + cpHeadH + 6
	for j, d := range loc.Dice {
		x := rect.Min.X + 10 + j*(cpSlot+8)
		slot := image.Rect(x, y, x+cpSlot, y+cpSlot)
		c.roundBox(slot, 7, colPanelAlt, colRule, 1.5)
		c.text(strconv.Itoa(d.Min), x+cpSlot/2, y+cpSlot/2, style{size: sizeLarge, bold: true, color: colInkSoft, align: alignCenter})
		cap := ""
		if d.Fee > 0 {
			cap = strconv.Itoa(d.Fee) + "£"
		}
		cy := y + cpSlot + cpSlotCap/2 + 1
		cx := x + 2
		if cap != "" {
			cx += c.text(cap, cx, cy, style{size: sizeSmall, bold: true, color: colBad}) + 4
		}
		if d.Assistant {
			c.assistantIcon(cx+7, cy)
		}
	}
	ay := y + cpSlot + cpSlotCap + 6
	for j := range loc.Actions {
		c.roundBox(cpActionRect(rect, len(loc.Actions), j, ay), 6, colPanelAlt, colRule, 1.5)
	}
}

// cpGameLayer draws what is fixed for a game but differs between games
// with the same layout, over the shared static layer and before anything
// that changes during play: the action spaces' texts, the panels' fixed
// lists, the Black Market's effects and the Buzz track's flyers and posters.
func (c *canvas) cpGameLayer(v *cp.View, l *cpLayout) {
	for i := range v.Locations {
		loc := &v.Locations[i]
		rect := l.locRect[i]
		ay := rect.Min.Y + cpHeadH + 6 + cpSlot + cpSlotCap + 6
		for j := range loc.Actions {
			c.cpActionText(&loc.Actions[j], cpActionRect(rect, len(loc.Actions), j, ay))
		}
		c.cpLocationStatic(v, loc, rect, ay+cpActH+8+cpLineH/2)
	}
	c.cpMarketEffects(v, l.rightBox["market"])
	c.cpBuzzSpaces(v, l.rightBox["buzz"])
}

// cpActionText labels an action space with its bonus or cost, compactly
// so a die fits beside it.
func (c *canvas) cpActionText(a *cp.ActionSpaceView, box image.Rectangle) {
	x, y := box.Min.X+8, box.Min.Y+cpActH/2
	st := style{size: sizeSmall, bold: true, color: colInk}
	if a.Pounds == 0 && a.Newspapers == 0 && a.Buzz == 0 {
		text := sayOr(c.w, a.TextSay, a.Text)
		if text == "" {
			text = c.say("cp.image.free")
			st = style{size: sizeSmall, color: colInkSoft}
		}
		c.textTwoLines(text, x, y, box.Dx()-dieSmallSize-14, st)
		return
	}
	if a.Pounds != 0 {
		if a.Pounds < 0 {
			st.color = colBad
		}
		x += c.text(fmt.Sprintf("%+d£", a.Pounds), x, y, st) + 6
	}
	st.color = colInk
	if a.Newspapers != 0 {
		x += c.text(fmt.Sprintf("%+d", a.Newspapers), x, y, st) + 1
		c.sprite(c.r.sprites.paper, x, y-iconSize/2)
		x += iconSize + 6
	}
	if a.Buzz != 0 {
		c.textTwoLines(c.say("cp.image.buzz_space", "N", fmt.Sprintf("%+d", a.Buzz)), x, y, box.Max.X-dieSmallSize-8-x, st)
	}
}

// cpActionRect is the j-th of n action spaces of a location panel.
func cpActionRect(panel image.Rectangle, n, j, y int) image.Rectangle {
	const gap = 8
	w := min(150, (panel.Dx()-20-(n-1)*gap)/max(n, 1))
	x := panel.Min.X + 10 + j*(w+gap)
	return image.Rect(x, y, x+w, y+cpActH)
}

// panelHead draws a panel's header band with its title.
func (c *canvas) panelHead(rect image.Rectangle, title string) {
	band := image.Rect(rect.Min.X+2, rect.Min.Y+2, rect.Max.X-2, rect.Min.Y+cpHeadH)
	c.fill(band, colTitle)
	c.text(title, band.Min.X+10, band.Min.Y+band.Dy()/2, style{size: sizeBody, bold: true, color: colTitleInk})
}

// headNote writes notes on the right of a panel's header titled title,
// in the room the title leaves, and the extra note after them (a deck
// count matters less than whose die acts next). Notes that do not fit
// whole are left out, never cut.
func (c *canvas) headNote(rect image.Rectangle, title string, notes []string, extra string, col rgb) {
	st := style{size: sizeSmall, bold: true, color: col, align: alignRight}
	room := c.headRoom(rect.Dx(), title)
	if note := c.fitNotes(append(notes[:len(notes):len(notes)], extra), room, st); note != "" {
		c.text(note, rect.Max.X-12, rect.Min.Y+2+(cpHeadH-2)/2, st)
	}
}

// headRoom is the room a panel w pixels wide leaves for notes after title.
func (c *canvas) headRoom(w int, title string) int {
	return w - 2 - 10 - c.fs.width(title, style{size: sizeBody, bold: true}) - 16 - 12
}

// fitNotes joins, in order of importance, the notes that fit room whole.
func (c *canvas) fitNotes(notes []string, room int, st style) string {
	out := ""
	for _, n := range notes {
		switch {
		case n == "":
		case out == "" && c.fs.width(n, st) <= room:
			out = n
		case out != "" && c.fs.width(out+" · "+n, st) <= room:
			out += " · " + n
		}
	}
	return out
}

// cpLocTitle is a location panel's title: "3  Bank of England", named
// in w's language.
func cpLocTitle(w *wording.Words, loc *cp.LocationView) string {
	return fmt.Sprintf("%d  %s", loc.Number, itemOr(w, loc.NameKey, item(w, "loc:"+loc.Key, loc.Name)))
}

// assistantIcon draws the assistant symbol (a little figure) centred on (x, y).
func (c *canvas) assistantIcon(x, y int) {
	fx, fy := float32(x), float32(y)
	c.fillRounded(image.Rect(x-4, y-9, x+4, y-1), fx-3.5, fy-8.5, fx+3.5, fy-1.5, 3.5, colInk) // the head
	c.fillRounded(image.Rect(x-6, y-1, x+6, y+8), fx-5.5, fy-0.5, fx+5.5, fy+7.5, 3, colInk)   // the body
}
