package imaging

import (
	"image"
	"slices"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/wording"
)

// A glance is the picture posted with every board message: what a player
// must read without opening anything, drawn to be read at the sizes
// Discord shows it (within 486×350 on the desktop, some 300 pixels wide on
// a phone; see docs/architecture.md). It is GlanceWidth pixels wide, twice
// the desktop's width, so it is sharp on high-density screens, and never
// more than GlanceMaxHeight high: up to there the desktop's box is bound by
// its width, so a taller glance costs the desktop nothing.
const (
	GlanceWidth     = 1100
	GlanceMaxHeight = 880
)

// Figure is one headline number of a seat and what it counts: "VP" 12.
type Figure struct {
	Key   string // what the number counts, in every language: "pounds", "vp", "buzz", "income", "gears", "energy", "space", "place", "rumors"
	Label string // the same in the glance's language: "Pounds", "SP", "Feld", …
	Value string // the number as shown: "12", "a 12, b 30"
}

// String is the figure as a phrase: "VP 12".
func (f Figure) String() string { return f.Label + " " + f.Value }

// Glance is what a glance shows, read from a public view: where the game
// stands, who must decide what, and each seat's headline figures.
type Glance struct {
	Stage     string     // "Spring 1850: phase 3, take actions"
	Decisions []Decision // the open decisions, in seat order
	Seats     []GlanceSeat
	Over      bool
}

// Decision is an open decision: the seats that must make it and what it
// is. Seats deciding the same thing at once share one Decision.
type Decision struct {
	Seats []engine.Seat
	What  string
}

// GlanceSeat is one seat's line: its figures in the columns' order and
// notes such as "1st player" or "passed".
type GlanceSeat struct {
	Figures []Figure
	Notes   []string
	Active  bool // among the seats the game waits for, or a winner once over
}

// GlanceOf reads the glance of a public view: *crystalpalace.View or
// *eightydays.View (a value or a pointer), written in w's language (see
// Renderer.Board). It reads nothing private.
func GlanceOf(view any, w *wording.Words) (Glance, error) {
	switch v := pointerView(view).(type) {
	case *cp.View:
		if err := cpCheck(v); err != nil {
			return Glance{}, err
		}
		return cpGlance(v, w), nil
	case *eightydays.View:
		if err := edCheck(v); err != nil {
			return Glance{}, err
		}
		return edGlance(v, w), nil
	}
	return Glance{}, unsupported(view)
}

// cpGlance: pounds, VP, Buzz, income, gears and energy; the waiting seats
// and what for.
func cpGlance(v *cp.View, w *wording.Words) Glance {
	g := Glance{Stage: cpPhaseLabel(v, w), Over: v.Over}
	if g.Stage == "" || v.Over {
		g.Stage = cpRoundNote(v, w, nil)
	}
	if !v.Over && v.Round >= 1 && v.Round <= cpRounds {
		g.Stage = say(w, "cp.image.glance.round", "N", v.Round, "Of", cpRounds) + " · " + g.Stage
	}
	waiting := map[engine.Seat]bool{}
	for _, wv := range v.Waiting {
		if !seatIn(wv.Seat, v.Players) {
			continue
		}
		waiting[wv.Seat] = true
		g.Decisions = addDecision(g.Decisions, wv.Seat, cpWaitingLabel(w, wv))
	}
	var winners []engine.Seat
	if v.Result != nil {
		winners = v.Result.Winners
	}
	for seat, p := range v.Seats {
		s := GlanceSeat{Figures: []Figure{
			figure(w, "cp.image.glance.pounds", p.Pounds),
			figure(w, "cp.image.glance.vp", p.VP),
			figure(w, "cp.image.glance.buzz", p.Buzz),
			figure(w, "cp.image.glance.income", p.Income),
			figure(w, "cp.image.glance.gears", p.Gears),
			figure(w, "cp.image.glance.energy", p.Energy),
		}, Active: waiting[engine.Seat(seat)]}
		if v.Over {
			s.Active = slices.Contains(winners, engine.Seat(seat))
		}
		s.Notes = activeNote(w, s.Active, v.Over)
		if v.First == engine.Seat(seat) {
			s.Notes = append(s.Notes, say(w, "image.first_player"))
		}
		if p.Passed {
			s.Notes = append(s.Notes, say(w, "image.passed"))
		}
		g.Seats = append(g.Seats, s)
	}
	return g
}

// cpRounds is how many rounds a game of Crystal Palace has.
const cpRounds = 5

// edGlance: where each pawn stands and its place, pounds and Rumors; the
// traveller on turn and what their turn holds.
func edGlance(v *eightydays.View, w *wording.Words) Glance {
	g := Glance{Stage: edRoundNote(v, w), Over: v.Over}
	if v.Over {
		g.Stage = say(w, "image.game_over")
	}
	turn := engine.Spectator
	if !v.Over && int(v.Turn) >= 0 && int(v.Turn) < len(v.Players) {
		turn = v.Turn
		g.Decisions = addDecision(nil, turn, edDecision(v, w))
	}
	for seat, p := range v.Players {
		space, place := figure(w, "ed.image.glance.space", 0), Figure{Key: "place", Label: say(w, "image.place")}
		space.Value, place.Value = edSpacesAndPlaces(w, p)
		s := GlanceSeat{Figures: []Figure{
			space,
			place,
			figure(w, "ed.image.glance.pounds", p.Pounds),
			figure(w, "ed.image.glance.rumors", p.Rumors),
		}, Active: engine.Seat(seat) == turn || (v.Over && slices.Contains(v.Winners, engine.Seat(seat)))}
		s.Notes = activeNote(w, s.Active, v.Over)
		if v.First == engine.Seat(seat) {
			s.Notes = append(s.Notes, say(w, "ed.image.began"))
		}
		g.Seats = append(g.Seats, s)
	}
	return g
}

// edSpacesAndPlaces are where a traveller's pawns stand and their places
// in the race, each a pawn at a time ("a 12, b 30" and "3, 1"); a pawn
// in London or home has no place ("–"). The glance shows them in columns
// of their own: a place in brackets after its space read back badly, and
// so did an ordinal ("1st" as "ist", "5th" as "Sth") at a phone's size,
// where a bare number under "Place" reads back and means the same.
func edSpacesAndPlaces(w *wording.Words, p eightydays.PlayerView) (spaces, places string) {
	var sp, pl []string
	for _, pawn := range p.Pawns {
		where, place := strconv.Itoa(pawn.Space), strconv.Itoa(pawn.Rank)
		switch {
		case pawn.Home:
			where, place = say(w, "ed.image.home"), "–"
		case pawn.Space <= 0:
			where, place = say(w, "ed.image.london"), "–"
		}
		if pawn.Name != "" {
			where = say(w, "ed.image.pawn_where", "Pawn", pawn.Name, "Where", where)
		}
		sp, pl = append(sp, where), append(pl, place)
	}
	return strings.Join(sp, ", "), strings.Join(pl, ", ")
}

// figure is the headline number n, labelled by the message id
// ("cp.image.glance.vp"), whose last part is its key ("vp"). The ids are
// whole literals: building them allocated a string per figure per render.
func figure(w *wording.Words, id string, n int) Figure {
	return Figure{Key: id[strings.LastIndexByte(id, '.')+1:], Label: say(w, id), Value: strconv.Itoa(n)}
}

// edDecision is what the traveller on turn must do.
func edDecision(v *eightydays.View, w *wording.Words) string {
	if len(v.Drawn) > 0 {
		return say(w, "ed.image.keep")
	}
	if pending := edPending(v, w, v.Players[v.Turn]); pending != "–" {
		return say(w, "ed.image.move_pending", "Pending", pending)
	}
	return say(w, "ed.image.move")
}

// activeNote is the note of a seat the game waits for ("to play") or of
// a winner.
func activeNote(w *wording.Words, active, over bool) []string {
	switch {
	case active && over:
		return []string{say(w, "image.winner")}
	case active:
		return []string{say(w, "image.to_play")}
	}
	return nil
}

// addDecision adds seat to the decision with the same text, or a new one.
func addDecision(ds []Decision, seat engine.Seat, what string) []Decision {
	for i := range ds {
		if ds[i].What == what {
			ds[i].Seats = append(ds[i].Seats, seat)
			return ds
		}
	}
	return append(ds, Decision{Seats: []engine.Seat{seat}, What: what})
}

// Glance draws the glance of a public view (see GlanceOf) as a PNG, in
// the words of w (see Board).
func (r *Renderer) Glance(view any, w *wording.Words) ([]byte, error) {
	g, err := GlanceOf(view, w)
	if err != nil {
		return nil, err
	}
	var columns []string
	wide := 0
	switch pointerView(view).(type) {
	case *cp.View:
		// gears and energy, after these, go under them (see glanceSeat)
		columns = []string{say(w, "cp.image.glance.pounds"), say(w, "cp.image.glance.vp"), say(w, "cp.image.glance.buzz"), say(w, "cp.image.glance.income")}
	default:
		columns = []string{say(w, "ed.image.glance.space"), say(w, "image.place"), say(w, "ed.image.glance.pounds"), say(w, "ed.image.glance.rumors")}
		wide = glanceWide
	}
	return r.drawGlance(w, g, columns, wide, r.seatNames(w, len(g.Seats)))
}

// Sizes and geometry of a glance, in its pixels (twice the shown size on
// a desktop; a phone shows it some 300 pixels wide, a quarter and a bit,
// so what a player must read there is drawn large: names at 46 become 12
// pixels, figures at 54 become 15).
const (
	glanceStage  size = 38 // the stage line
	glanceBody   size = 32 // decisions
	glanceName   size = 46 // names
	glanceHead   size = 26 // column heads
	glanceNote   size = 34 // notes under names
	glanceFigure size = 54
	glancePawns  size = 44 // a figure of two pawns, one a line

	glanceMargin  = 24
	glanceStageH  = 60 // a line of the stage band
	glanceDecideH = 44 // a line of the decisions band
	glanceHeadH   = 44
	glanceRowH    = 112 // a seat's row, when the picture has room
	glanceRowMinH = 96  // a seat's row at the least, with six seats
	glanceTableX  = 56  // the table's left edge; the arrows point at it from the margin
	glanceBarW    = 14  // the seat's colour down the row's left edge
	glanceNameX   = glanceTableX + glanceBarW + 20
	glanceNotesX  = glanceNameX + glanceMarker + 14
	glanceFigX    = 460 // the figures' columns start here
	glanceWide    = 80  // how much wider 80 Days' first column is
	glanceMarker  = 40
)

// glanceColumnsX are the centres of the n figures' columns, right of the
// names, and the width of a column; the first is wide pixels wider (80
// Days' spaces: "London", "a 12").
func glanceColumnsX(n, wide int) (xs []int, colW int) {
	colW = (GlanceWidth - glanceMargin - glanceFigX - wide) / n
	xs = make([]int, n)
	x := glanceFigX
	for i := range xs {
		w := colW
		if i == 0 {
			w += wide
		}
		xs[i] = x + w/2
		x += w
	}
	return xs, colW
}

// drawGlance lays a glance out: the stage on a title band, the decisions
// under it, then a table of the seats, an arrow at each awaited one.
func (r *Renderer) drawGlance(w *wording.Words, g Glance, columns []string, wide int, names []string) ([]byte, error) {
	measure := &canvas{r: r, fs: r.faces.Get().(*faceSet), w: w}
	textW := GlanceWidth - 2*glanceMargin
	stage, _ := measure.wrapRich(g.Stage, textW, textW, 2, style{size: glanceStage, bold: true})
	decisions := glanceDecisions(w, g, names)
	var decided [][]richLine
	lines := 0
	for _, d := range decisions {
		l, _ := measure.wrapRich(d, textW, textW-40, 2, style{size: glanceBody})
		decided = append(decided, l)
		lines += len(l)
	}
	// A name has one line: a long one is shortened, so that the notes
	// under it ("to play") and the figures beside it always show.
	fitted := make([]string, len(g.Seats))
	nameW := glanceFigX - 16 - glanceNameX
	for i := range g.Seats {
		fitted[i] = measure.fs.fit(names[i], nameW, style{size: glanceName, bold: true})
		if fitted[i] != names[i] {
			measure.noteCut(names[i])
		}
	}
	r.faces.Put(measure.fs)

	stageH := max(len(stage), 1)*glanceStageH + 16
	decideH := lines*glanceDecideH + 20
	rest := stageH + decideH + glanceHeadH + glanceMargin
	rowH := glanceRowH
	if n := len(g.Seats); n > 0 {
		rowH = max(glanceRowMinH, min(glanceRowH, (GlanceMaxHeight-rest)/n))
	}
	h := min(rest+len(g.Seats)*rowH, GlanceMaxHeight)
	// Every pixel is painted once: paper where the bands and the table's
	// rows leave it.
	c := r.beginBare(w, GlanceWidth, h)
	top := stageH + decideH
	bottom := top + glanceHeadH + len(g.Seats)*rowH
	c.fill(image.Rect(0, stageH, GlanceWidth, top), colPaper)
	c.fill(image.Rect(0, top, glanceTableX, bottom), colPaper)
	c.fill(image.Rect(GlanceWidth-glanceMargin, top, GlanceWidth, bottom), colPaper)
	c.fill(image.Rect(0, bottom, GlanceWidth, h), colPaper)

	// The stage.
	c.fill(image.Rect(0, 0, GlanceWidth, stageH), colPanelAlt)
	c.fill(image.Rect(0, stageH-4, GlanceWidth, stageH), colTitle)
	for i, line := range stage {
		c.drawRichLine(line, glanceMargin, 8+glanceStageH/2+i*glanceStageH, style{size: glanceStage, bold: true, color: colInk})
	}
	// The decisions.
	y := stageH + 10 + glanceDecideH/2
	for _, l := range decided {
		for i, line := range l {
			x := glanceMargin
			if i > 0 {
				x += 40
			}
			c.drawRichLine(line, x, y, style{size: glanceBody, color: colInk})
			y += glanceDecideH
		}
	}
	// The table.
	xs, colW := glanceColumnsX(len(columns), wide)
	c.fill(image.Rect(glanceTableX, top, GlanceWidth-glanceMargin, top+glanceHeadH), colPanelAlt)
	head := style{size: glanceHead, bold: true, color: colInkSoft}
	c.text(c.say("image.player"), glanceNameX, top+glanceHeadH/2, head)
	for i, col := range columns {
		// centred in its column: as far as the nearer of its edges
		left, right := glanceFigX, GlanceWidth-glanceMargin
		if i > 0 {
			left = (xs[i-1] + xs[i]) / 2
		}
		if i+1 < len(xs) {
			right = (xs[i] + xs[i+1]) / 2
		}
		room := 2*min(xs[i]-left, right-xs[i]) - 8
		head.align = alignCenter
		c.textShrink(col, xs[i], top+glanceHeadH/2, room, head)
	}
	for seat, s := range g.Seats {
		c.glanceSeat(seat, s, fitted[seat], xs, colW, wide, top+glanceHeadH+seat*rowH, rowH)
	}
	c.fill(image.Rect(glanceTableX, bottom-2, GlanceWidth-glanceMargin, bottom), colRule)
	return c.finish()
}

// glanceSeat draws one seat's row, rowH high from y, as two lines that
// never overlap (tesseract lost whole rows when a mark spanned both): the
// name and the figures, with an arrow in the margin when the game waits
// for the seat; then the seat's marker (its colour and shape) and its
// notes, the one saying it must act first and in bold, with Crystal
// Palace's gears and energy at the right.
func (c *canvas) glanceSeat(seat int, s GlanceSeat, name string, xs []int, colW, wide, y, rowH int) {
	row := image.Rect(glanceTableX, y, GlanceWidth-glanceMargin, y+rowH)
	c.fill(row, colPanel)
	c.fill(image.Rect(row.Min.X, y, row.Max.X, y+2), colRule)
	c.fill(image.Rect(row.Min.X, y, row.Min.X+glanceBarW, row.Max.Y), seatColor(seat))
	nameY, noteY := y+rowH*3/10, y+rowH*3/4
	if s.Active {
		c.glanceArrow(nameY)
	}
	c.text(name, glanceNameX, nameY, style{size: glanceName, bold: true, color: colInk})
	c.spriteCentered(c.r.sprites.glance[spriteSeat(seat)], glanceNameX+glanceMarker/2, noteY)
	// Figures beyond the columns (Crystal Palace's gears and energy) stand
	// on the notes' line at its right, each after its label, far enough
	// apart to read as separate words ("Gears 0" ran into "GearsO").
	right := GlanceWidth - glanceMargin - 12
	for i := len(s.Figures) - 1; i >= len(xs); i-- {
		right -= c.text(s.Figures[i].Value, right, noteY, style{size: glanceNote, bold: true, sans: true, color: colInk, align: alignRight}) + 14
		right -= c.text(s.Figures[i].Label, right, noteY, style{size: glanceNote, color: colInkSoft, align: alignRight}) + 40
	}
	for _, f := range s.Figures {
		if strings.Contains(f.Value, ", ") { // two lines of pawns: the notes stay left of them
			right = min(right, glanceFigX-8)
		}
	}
	// The notes: the active one ("to play", "winner") first, in bold ink,
	// so that no other note pushes it out.
	x := glanceNotesX
	notes := append([]string{c.seatColorName(seat)}, s.Notes...)
	if s.Active && len(s.Notes) > 0 {
		x += c.textFit(s.Notes[0], x, noteY, right-x, style{size: glanceNote, bold: true, color: colInk})
		notes = append([]string{"", c.seatColorName(seat)}, s.Notes[1:]...)
	}
	if rest := strings.Join(notes, " · "); x < right {
		c.textShrink(rest, x, noteY, right-x, style{size: glanceNote, color: colInkSoft})
	}
	for i, f := range s.Figures {
		if i >= len(xs) {
			break
		}
		st := style{size: glanceFigure, bold: true, sans: true, color: colInk, align: alignCenter}
		room := colW - 8
		if i == 0 {
			room += wide
		}
		if first, second, two := strings.Cut(f.Value, ", "); two { // two pawns: one on each line
			st.size = glancePawns
			c.textShrink(first, xs[i], nameY, room, st)
			c.textShrink(second, xs[i], noteY, room, st)
			continue
		}
		c.textShrink(f.Value, xs[i], nameY, room, st)
	}
}

// glanceArrow draws, in the margin left of a row whose middle is at y, a
// solid arrow pointing at it: the mark of a seat the game waits for, which
// holds at a phone's size and needs no colour.
func (c *canvas) glanceArrow(y int) {
	const x0, x1, half = 10, glanceTableX - 8, 18
	area := image.Rect(x0, y-half, x1+1, y+half+1)
	c.fillPolygon(area, colInk, x0, float32(y-half), x1, float32(y), x0, float32(y+half))
}

// glanceDecisions are the decisions' lines: "Brunel: your die at Bank of
// England acts", "Ada, Cole: choose dice".
func glanceDecisions(w *wording.Words, g Glance, names []string) []string {
	if len(g.Decisions) == 0 {
		if g.Over {
			return []string{say(w, "image.glance.over")}
		}
		return []string{say(w, "image.glance.nobody")}
	}
	out := make([]string, 0, len(g.Decisions))
	for _, d := range g.Decisions {
		who := make([]string, 0, len(d.Seats))
		for _, s := range d.Seats {
			if seatIn(s, len(names)) {
				who = append(who, names[s])
			}
		}
		out = append(out, say(w, "image.glance.decision", "Who", and(w, who), "What", d.What))
	}
	return out
}
