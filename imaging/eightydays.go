package imaging

import (
	"fmt"
	"image"
	"slices"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/wording"
)

// The space kinds and the finish, as eightydays.SpaceView documents them.
const (
	edKindLondon       = "london"
	edKindLayover      = "layover"
	edKindPassepartout = "passepartout"
	edKindBet          = "bet"
	edKindPound        = "pound"
	edKindPolice       = "police"
	edLondonEnd        = 80 // the last space: London again
)

// Geometry of the 80 Days board. The 81 spaces of the route (London the
// start, 1 to 79, London the finish) are laid out in reading order, nine
// to a row.
const (
	edW       = 1144
	edCols    = 9
	edRows    = 9
	edCellW   = 120
	edCellH   = 66
	edGap     = 4
	edBandH   = 24 // the coloured label band at the bottom of a cell
	edTrackX  = (edW - edCols*edCellW - (edCols-1)*edGap) / 2
	edTrackY  = titleHeight + 14
	edKeyY    = edTrackY + edRows*edCellH + (edRows-1)*edGap + 12
	edKeyH    = 54
	edTableY  = edKeyY + edKeyH + 14
	edHeadH   = 30
	edRowH    = 48
	edFooterH = 104
)

// Columns of the travellers' table, as x offsets from the track's left.
const (
	edColName   = 0
	edColSpace  = 272
	edColPounds = 400
	edColRumors = 490
	edColNext   = 610
	edColChars  = 830
)

func edHeight(players int) int {
	return edTableY + edHeadH + players*edRowH + edFooterH
}

// edCharsW is the width of the "Characters kept" column's text, and
// edCharsLineH the height of one of its lines.
const (
	edCharsW     = edW - 2*edTrackX - edColChars - 16
	edCharsLineH = 20
)

// travellerRows are the heights of the travellers' rows: a row grows to show
// every kept character with its effect, wrapped, never cut.
type travellerRows []int

// edRowHeights measures the rows of v's travellers.
func (c *canvas) edRowHeights(v *eightydays.View) travellerRows {
	rows := make(travellerRows, len(v.Players))
	for i, p := range v.Players {
		n := 0
		for _, line := range edCharacters(c.w, p.Characters) {
			l, _ := c.wrapRich(line, edCharsW, edCharsW-12, 8, style{size: sizeSmall})
			n += len(l)
		}
		pending, _ := c.edPendingWrap(edPending(v, c.w, p))
		rows[i] = max(edRowH, n*edCharsLineH+8, len(pending)*edPendingLineH+8)
	}
	return rows
}

// top is the y of row i, the table's bottom for i = len(rows).
func (rows travellerRows) top(i int) int {
	y := edTableY + edHeadH
	for _, h := range rows[:i] {
		y += h
	}
	return y
}

// edTitle is the board's title in the canvas's language.
func (c *canvas) edTitle() string { return c.say("game.eightydays.title") }

// edCell returns the rectangle of the cell showing space n: London the
// start at 0 and the finish at 80 have a cell each.
func edCell(n int) image.Rectangle {
	n = min(max(n, 0), edLondonEnd)
	col, row := n%edCols, n/edCols
	x := edTrackX + col*(edCellW+edGap)
	y := edTrackY + row*(edCellH+edGap)
	return image.Rect(x, y, x+edCellW, y+edCellH)
}

// edKindColor is the fill of a kind of space.
func edKindColor(sp eightydays.SpaceView) rgb {
	switch sp.Kind {
	case edKindLondon:
		return colLondon
	case edKindLayover:
		if sp.Red {
			return colBad
		}
		return colLayover
	case edKindPassepartout:
		return colPassepart
	case edKindBet:
		return colBet
	case edKindPound:
		return colPound
	case edKindPolice:
		return colPolice
	}
	return colPlain
}

// edLabel is the text in a space's band, in w's language.
func edLabel(w *wording.Words, sp eightydays.SpaceView) string {
	switch sp.Kind {
	case edKindLondon:
		if sp.Number == edLondonEnd {
			return say(w, "ed.image.space.finish")
		}
		return say(w, "ed.image.space.start")
	case edKindLayover:
		return itemOr(w, sp.CityKey, item(w, "city:"+strconv.Itoa(sp.Number), sp.City))
	case edKindPassepartout:
		return say(w, "ed.image.space.passepartout")
	case edKindBet:
		return say(w, "ed.image.space.bet", "Bets", joinInts(sp.Bets, "·"))
	case edKindPound:
		return say(w, "ed.image.space.pound")
	case edKindPolice:
		return say(w, "ed.image.space.police")
	}
	return sp.Kind
}

func joinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, sep)
}

// edLayoutKey names the static layer: the track's content and the number of
// travellers' rows.
func edLayoutKey(v *eightydays.View, w *wording.Words, rows travellerRows) string {
	h := newLayoutHash()
	for _, sp := range v.Track {
		h.int(sp.Number)
		h.str(sp.Kind)
		h.str(edLabel(w, sp))
		h.int(len(sp.Bets))
		for _, b := range sp.Bets {
			h.int(b)
		}
		h.bool(sp.Red)
	}
	for _, r := range rows {
		h.int(r)
	}
	return "80days/" + strconv.FormatUint(uint64(h), 16)
}

// eightyDaysBoard draws the public board of an 80 Days view.
func (r *Renderer) eightyDaysBoard(v *eightydays.View, w *wording.Words) ([]byte, error) {
	if err := edCheck(v); err != nil {
		return nil, err
	}
	players := len(v.Players)
	measure := &canvas{r: r, fs: r.faces.Get().(*faceSet), w: w}
	rows := measure.edRowHeights(v)
	r.faces.Put(measure.fs)
	height := rows.top(players) + edFooterH
	c := r.begin(w, edW, height, func() string { return edLayoutKey(v, w, rows) }, func(c *canvas) { c.edBackground(v, rows) })
	names := r.seatNames(w, players)
	note := edRoundNote(v, w)
	if v.Over {
		note = gameOverNote(w, v.Winners, names)
	} else if int(v.Turn) >= 0 && int(v.Turn) < players {
		note += " · " + c.say("ed.image.to_move", "Who", names[v.Turn])
	}
	c.titleBar(c.edTitle(), note)
	c.edPawns(v)
	c.edTravellers(v, names, rows)
	c.edFooter(v, rows)
	return c.finish()
}

// edRoundNote is the round and the variant: "Round 4 · two pawns".
func edRoundNote(v *eightydays.View, w *wording.Words) string {
	note := say(w, "ed.image.round", "N", v.Round)
	switch v.Variant {
	case "", "standard":
	case "two-pawns":
		note += " · " + say(w, "ed.image.two_pawns")
	default:
		note += " · " + v.Variant
	}
	return note
}

// edCheck refuses views the board cannot draw faithfully.
func edCheck(v *eightydays.View) error {
	if v == nil {
		return fmt.Errorf("%w: nil 80 Days view", ErrUnsupportedView)
	}
	if len(v.Players) < 1 || len(v.Players) > maxSeats {
		return fmt.Errorf("%w: 80 Days view with %d players", ErrUnsupportedView, len(v.Players))
	}
	if len(v.Track) != edLondonEnd+1 {
		return fmt.Errorf("%w: 80 Days track of %d spaces, want %d", ErrUnsupportedView, len(v.Track), edLondonEnd+1)
	}
	return nil
}

// edBackground draws what does not change during a game: the track, the
// key to the spaces and the travellers' table without its contents.
func (c *canvas) edBackground(v *eightydays.View, rows travellerRows) {
	c.titleBarStatic(c.edTitle())
	for _, sp := range v.Track {
		rect := edCell(sp.Number)
		kind := edKindColor(sp)
		c.roundBox(rect, 8, colPanel, colInk, 1.5)
		band := image.Rect(rect.Min.X+1, rect.Max.Y-edBandH, rect.Max.X-1, rect.Max.Y-1)
		c.fill(band, kind)
		label := style{size: sizeSmall, bold: sp.Kind == edKindLayover || sp.Kind == edKindLondon, color: inkOn(kind), align: alignCenter}
		text := edLabel(c.w, sp)
		if c.fs.width(text, label) > band.Dx()-2 {
			label.bold = false // a long city name: regular is narrower
		}
		c.textFit(text, band.Min.X+band.Dx()/2, band.Min.Y+band.Dy()/2, band.Dx()-2, label)
		if sp.Kind != edKindLondon {
			c.text(strconv.Itoa(sp.Number), rect.Min.X+8, rect.Min.Y+(edCellH-edBandH)/2, style{size: sizeLarge, bold: true, color: colInk})
		}
	}
	c.edKey()
	x0, y := edTrackX, edTableY
	right := edW - edTrackX
	c.fill(image.Rect(x0, y, right, y+edHeadH), colPanelAlt)
	head := style{size: sizeSmall, bold: true, color: colInkSoft}
	cols := []struct {
		x    int
		text string
	}{{edColName, c.say("ed.image.col.traveller")}, {edColSpace, c.say("ed.image.col.space")}, {edColPounds, c.say("ed.image.col.pounds")},
		{edColRumors, c.say("ed.image.col.rumors")}, {edColNext, c.say("ed.image.col.next")}, {edColChars, c.say("ed.image.col.characters")}}
	for i, h := range cols {
		room := right - x0 - h.x - 16
		if i+1 < len(cols) {
			room = cols[i+1].x - h.x - 14
		}
		c.textFit(h.text, x0+h.x+10, y+edHeadH/2, room, head)
	}
	for i := range v.Players {
		ry := rows.top(i)
		c.fill(image.Rect(x0, ry, right, ry+rows[i]), colPanel)
		c.fill(image.Rect(x0, ry, right, ry+1), colRule)
	}
	c.outline(image.Rect(x0, y, right, rows.top(len(rows))), 1, colInk)
}

// edKey draws what each kind of space does.
func (c *canvas) edKey() {
	keys := []struct {
		kind  eightydays.SpaceView
		name  string
		does  string
		width int // share of the row, in twentieths
	}{
		{eightydays.SpaceView{Kind: edKindLayover}, c.say("ed.image.key.layover"), c.say("ed.image.key.layover_does"), 4},
		{eightydays.SpaceView{Kind: edKindPassepartout}, c.say("ed.image.key.passepartout"), c.say("ed.image.key.passepartout_does"), 4},
		{eightydays.SpaceView{Kind: edKindBet}, c.say("ed.image.key.bet"), c.say("ed.image.key.bet_does"), 5},
		{eightydays.SpaceView{Kind: edKindPound}, c.say("ed.image.key.pound"), c.say("ed.image.key.pound_does"), 4},
		{eightydays.SpaceView{Kind: edKindPolice}, c.say("ed.image.key.police"), c.say("ed.image.key.police_does"), 3},
	}
	x := edTrackX
	for _, k := range keys {
		w := (edW - 2*edTrackX) * k.width / 20
		c.fill(image.Rect(x, edKeyY+6, x+18, edKeyY+edKeyH-6), edKindColor(k.kind))
		c.textFit(k.name, x+26, edKeyY+15, w-32, style{size: sizeSmall, bold: true, color: colInk})
		c.textFit(k.does, x+26, edKeyY+39, w-32, style{size: sizeSmall, color: colInkSoft})
		x += w
	}
}

// edPawns draws every pawn on its space, the space tinted in the owner's
// colour; London, the start and the finish (where arrived pawns are home),
// can hold several.
func (c *canvas) edPawns(v *eightydays.View) {
	var start, home []int
	for seat, p := range v.Players {
		for _, pawn := range p.Pawns {
			switch {
			case pawn.Space <= 0:
				start = append(start, seat)
				continue
			case pawn.Space >= edLondonEnd || pawn.Home:
				home = append(home, seat)
				continue
			}
			rect := edCell(pawn.Space)
			c.fill(image.Rect(rect.Min.X+3, rect.Min.Y+3, rect.Max.X-3, rect.Max.Y-edBandH), seatTint(seat))
			if !v.Over && int(v.Turn) == seat {
				c.outline(image.Rect(rect.Min.X+3, rect.Min.Y+3, rect.Max.X-3, rect.Max.Y-edBandH), 3, colInk)
			}
			mid := rect.Min.Y + (edCellH-edBandH)/2
			c.text(strconv.Itoa(pawn.Space), rect.Min.X+8, mid, style{size: sizeLarge, bold: true, color: colInk})
			x := rect.Max.X - pawnSize/2 - 6
			c.marker(seat, x, mid, markPawn)
			if pawn.Name != "" {
				c.text(pawn.Name, x-pawnSize/2-4, mid+10, style{size: sizeSmall, bold: true, color: colInk, align: alignRight})
			}
		}
	}
	c.edLondon(edCell(0), start)
	c.edLondon(edCell(edLondonEnd), home)
}

// edLondon draws the pawns in a London cell: tokens, four to a row, or
// small markers, six to a row, when more than four share it.
func (c *canvas) edLondon(rect image.Rectangle, seats []int) {
	perRow, step, size, rowH := 4, tokenSize+4, markToken, 0
	if len(seats) > perRow {
		perRow, step, size, rowH = 6, miniSize+3, markMini, 20
	}
	rows := (len(seats) + perRow - 1) / perRow
	top := rect.Min.Y + (edCellH-edBandH-(rows-1)*rowH)/2
	for i, seat := range seats {
		n := min(len(seats)-i/perRow*perRow, perRow) // markers on this row
		x := rect.Min.X + edCellW/2 - (n-1)*step/2 + (i%perRow)*step
		c.marker(seat, x, top+(i/perRow)*rowH, size)
	}
}

// edTravellers fills the travellers' table.
func (c *canvas) edTravellers(v *eightydays.View, names []string, rows travellerRows) {
	x0 := edTrackX
	for seat, p := range v.Players {
		y := rows.top(seat)
		mid := y + edRowH/2
		won := slices.Contains(v.Winners, engine.Seat(seat))
		if (!v.Over && int(v.Turn) == seat) || won {
			c.fill(image.Rect(x0+1, y+1, edW-edTrackX-1, y+rows[seat]-1), colHighlight)
		}
		c.fill(image.Rect(x0+1, y+1, x0+7, y+rows[seat]-1), seatColor(seat))
		c.marker(seat, x0+30, mid, markPawn)
		nameSt := style{size: sizeBody, bold: true, color: colInk}
		c.textFit(names[seat], x0+54, mid-9, edColSpace-64, nameSt)
		sub := c.seatColorName(seat)
		if v.First == engine.Seat(seat) {
			sub += " · " + c.say("ed.image.began")
		}
		switch {
		case won:
			sub = strings.ToUpper(c.say("image.winner"))
		case !v.Over && int(v.Turn) == seat:
			sub += " · " + c.say("image.to_play")
		}
		c.textFit(sub, x0+54, mid+13, edColSpace-64, style{size: sizeSmall, bold: won, color: colInkSoft})

		where := edWhere(c.w, p)
		for i, w := range where {
			ly := mid
			if len(where) > 1 {
				ly = mid - 11 + 22*i
			}
			c.textFit(w, x0+edColSpace+10, ly, edColPounds-edColSpace-14, style{size: sizeBody, bold: true, color: colInk})
		}
		c.text(strconv.Itoa(p.Pounds)+"£", x0+edColPounds+10, mid, style{size: sizeLarge, bold: true, color: colInk})
		c.edRumors(p.Rumors, x0+edColRumors+10, mid)
		c.edPendingLines(edPending(v, c.w, p), x0+edColNext+10, y+rows[seat]/2)
		c.edCharacterLines(p.Characters, x0+edColChars+10, y, rows[seat])

	}
}

// edPendingLineH is the line height of what a traveller's next turn holds.
const edPendingLineH = 20

// edPendingWrap wraps what a traveller's next turn holds to its column:
// up to three lines (two pawns' in German or French need them).
func (c *canvas) edPendingWrap(s string) ([]richLine, bool) {
	w := edColChars - edColNext - 16
	return c.wrapRich(s, w, w, 3, style{size: sizeSmall, color: colInk})
}

// edPendingLines draws what a traveller's next turn holds centred on y.
func (c *canvas) edPendingLines(s string, x, y int) {
	lines, cut := c.edPendingWrap(s)
	if cut {
		c.noteCut(s)
	}
	for i, line := range lines {
		c.drawRichLine(line, x, y-(len(lines)-1)*edPendingLineH/2+edPendingLineH*i, style{size: sizeSmall, color: colInk})
	}
}

// edRumors draws a Rumor count as a number and as cards.
func (c *canvas) edRumors(n, x, y int) {
	col := colGood
	if n > 0 {
		col = colBad
	}
	w := c.text(strconv.Itoa(n), x, y, style{size: sizeLarge, bold: true, color: col})
	for i := 0; i < n && i < 6; i++ {
		cx := x + w + 10 + i*11
		c.fill(image.Rect(cx, y-11, cx+9, y+11), colBad)
	}
}

// edWhere says where each of a traveller's pawns stands: "47 (2nd)",
// "home"; "a 12 (3rd)" when there are two.
func edWhere(w *wording.Words, p eightydays.PlayerView) []string {
	parts := make([]string, 0, len(p.Pawns))
	for _, pawn := range p.Pawns {
		var s string
		switch {
		case pawn.Home:
			s = say(w, "ed.image.home")
		case pawn.Space <= 0:
			s = say(w, "ed.image.london")
		default:
			s = say(w, "ed.image.where", "Space", pawn.Space, "Place", ordinal(w, pawn.Rank))
		}
		if pawn.Name != "" {
			s = say(w, "ed.image.pawn_where", "Pawn", pawn.Name, "Where", s)
		}
		parts = append(parts, s)
	}
	return parts
}

// edPending says what each pawn's space does on the owner's next turn.
func edPending(v *eightydays.View, w *wording.Words, p eightydays.PlayerView) string {
	var parts []string
	for _, pawn := range p.Pawns {
		var s string
		switch pawn.Pending {
		case "bet":
			var bets []int
			if pawn.Space > 0 && pawn.Space < len(v.Track) {
				bets = v.Track[pawn.Space].Bets
			}
			switch {
			case pawn.BetDead:
				s = say(w, "ed.image.bet_dead", "Bets", joinInts(bets, "·"), "N", len(v.Players))
			case pawn.BetPays > 0:
				s = say(w, "ed.image.bet_pays", "N", pawn.BetPays)
			case len(bets) > 0:
				s = say(w, "ed.image.bet_later", "Bets", joinInts(bets, "·"))
			default:
				s = say(w, "ed.image.bet")
			}
		case "pound":
			s = say(w, "ed.image.pound")
		case "police":
			s = say(w, "ed.image.police")
		case "leave":
			s = say(w, "ed.image.leave")
		case "":
			continue
		default:
			s = pawn.Pending
		}
		if pawn.Name != "" {
			s = say(w, "ed.image.pawn_pending", "Pawn", pawn.Name, "Pending", s)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "–"
	}
	out := parts[0]
	for _, part := range parts[1:] {
		out = say(w, "ed.image.pawns_pending", "A", out, "B", part)
	}
	return out
}

// edCharacters describes kept characters, one each: "Aouda: move 5£
// cheaper"; "–" for none.
func edCharacters(w *wording.Words, cards []eightydays.CardView) []string {
	if len(cards) == 0 {
		return []string{"–"}
	}
	lines := make([]string, 0, len(cards))
	for _, card := range cards {
		line := edCardName(w, card)
		if effect := sayOr(w, card.EffectSay, card.Effect); effect != "" {
			line += ": " + effect
		}
		lines = append(lines, line)
	}
	return lines
}

// edCharacterLines draws the kept characters in a row from y, h high:
// each character on a line of its own, its effect wrapped under it
// (indented), centred in the row.
func (c *canvas) edCharacterLines(cards []eightydays.CardView, x, y, h int) {
	st := style{size: sizeSmall, color: colInk}
	var all [][]richLine
	n := 0
	for _, line := range edCharacters(c.w, cards) {
		l, _ := c.wrapRich(line, edCharsW, edCharsW-12, 8, st)
		all = append(all, l)
		n += len(l)
	}
	ly := y + (h-n*edCharsLineH)/2 + edCharsLineH/2
	for _, l := range all {
		for i, line := range l {
			lx := x
			if i > 0 {
				lx += 12
			}
			c.drawRichLine(line, lx, ly, st)
			ly += edCharsLineH
		}
	}
}

// edFooter draws the deck, the discard, any cards being chosen between,
// and the cost of moving forwards.
func (c *canvas) edFooter(v *eightydays.View, rows travellerRows) {
	y := rows.top(len(rows)) + 24
	x := edTrackX
	body := style{size: sizeBody, color: colInk}
	bold := style{size: sizeBody, bold: true, color: colInk}
	x += c.text(c.say("ed.image.deck")+" ", x, y, bold)
	x += c.text(c.say("ed.image.deck_cards", "Count", v.DeckSize), x, y, body)
	x += 30
	x += c.text(c.say("ed.image.discard")+" ", x, y, bold)
	discard := strconv.Itoa(len(v.Discard))
	if n := len(v.Discard); n > 0 {
		discard += " · " + c.say("ed.image.top", "Name", edCardName(c.w, v.Discard[n-1]))
	}
	c.textFit(discard, x, y, edW-edTrackX-x, body)
	if len(v.Drawn) > 0 {
		y += 30
		x = edTrackX
		x += c.text(c.say("ed.image.drawn")+" ", x, y, bold)
		drawn := make([]string, len(v.Drawn))
		for i, card := range v.Drawn {
			drawn[i] = edCardName(c.w, card) + " (" + sayOr(c.w, card.EffectSay, card.Effect) + ")"
		}
		c.textFit(strings.Join(drawn, " / "), x, y, edW-edTrackX-x, body)
	}
	y += 30
	x = edTrackX
	x += c.text(c.say("ed.image.forward_cost")+" ", x, y, style{size: sizeSmall, bold: true, color: colInkSoft})
	cost := make([]string, 0, 12)
	for n := 1; n <= 12; n++ {
		cost = append(cost, fmt.Sprintf("%d:%d£", n, n*(n+1)/2))
	}
	c.text(strings.Join(cost, "  "), x, y, style{size: sizeSmall, color: colInkSoft})
}

// edCardName names a Passepartout card in w's language.
func edCardName(w *wording.Words, card eightydays.CardView) string {
	if card.NameKey != "" {
		return itemOr(w, card.NameKey, card.Name)
	}
	if card.ID == "" {
		return card.Name
	}
	return item(w, "card:"+card.ID, card.Name)
}
