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
// must read without opening anything, drawn to be read at the size Discord
// shows a message's lone image attachment (550×350 on the desktop, see
// docs/architecture.md). It is drawn at twice that scale, GlanceWidth
// pixels wide and never more than GlanceMaxHeight high, so it is sharp on
// high-density screens and shrinks by exactly two on others.
const (
	GlanceWidth     = 1100
	GlanceMaxHeight = 700
)

// Figure is one headline number of a seat and what it counts: "VP" 12.
type Figure struct {
	Key   string // what the number counts, in every language: "pounds", "vp", "buzz", "income", "space", "rumors"
	Label string // the same in the glance's language: "Pounds", "SP", "Feld", …
	Value string // the number as shown: "12", "30 (2nd)"
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

// cpGlance: pounds, VP, Buzz and income; the waiting seats and what for.
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
			figure(w, "cp", "pounds", p.Pounds),
			figure(w, "cp", "vp", p.VP),
			figure(w, "cp", "buzz", p.Buzz),
			figure(w, "cp", "income", p.Income),
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

// edGlance: where each pawn stands, pounds and Rumors; the traveller on
// turn and what their turn holds.
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
		space := figure(w, "ed", "space", 0)
		space.Value = strings.Join(edWhere(w, p), ", ")
		s := GlanceSeat{Figures: []Figure{
			space,
			figure(w, "ed", "pounds", p.Pounds),
			figure(w, "ed", "rumors", p.Rumors),
		}, Active: engine.Seat(seat) == turn || (v.Over && slices.Contains(v.Winners, engine.Seat(seat)))}
		s.Notes = activeNote(w, s.Active, v.Over)
		if v.First == engine.Seat(seat) {
			s.Notes = append(s.Notes, say(w, "ed.image.began"))
		}
		g.Seats = append(g.Seats, s)
	}
	return g
}

// figure is the headline number n, counting key in game's words ("cp" or
// "ed").
func figure(w *wording.Words, game, key string, n int) Figure {
	return Figure{Key: key, Label: say(w, game+".image.glance."+key), Value: strconv.Itoa(n)}
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
	switch pointerView(view).(type) {
	case *cp.View:
		columns = []string{say(w, "cp.image.glance.pounds"), say(w, "cp.image.glance.vp"), say(w, "cp.image.glance.buzz"), say(w, "cp.image.glance.income")}
	default:
		columns = []string{say(w, "ed.image.col.space"), say(w, "ed.image.glance.pounds"), say(w, "ed.image.glance.rumors")}
	}
	return r.drawGlance(w, g, columns, r.seatNames(w, len(g.Seats)))
}

// Sizes and geometry of a glance, in its pixels (twice the shown size).
const (
	glanceStage  size = 38 // the stage line
	glanceBody   size = 32 // decisions
	glanceName   size = 36 // names and figures
	glanceSmall  size = 26 // column heads and notes under names
	glanceFigure size = 42

	glanceMargin  = 24
	glanceStageH  = 60 // a line of the stage band
	glanceDecideH = 44 // a line of the decisions band
	glanceHeadH   = 44
	glanceRowH    = 80
	glanceNameX   = glanceMargin + 116
	glanceMarker  = 52
)

// glanceColumnsX are the centres of the figures' columns, right of the names.
func glanceColumnsX(n int) []int {
	wide := 0 // 80 Days' first column holds "a 12 (3rd), b 30 (1st)"
	if n == 3 {
		wide = 120
	}
	colW := (GlanceWidth - glanceMargin - 440 - wide) / n
	xs := make([]int, n)
	x := 440
	for i := range xs {
		w := colW
		if i == 0 {
			w += wide
		}
		xs[i] = x + w/2
		x += w
	}
	return xs
}

// drawGlance lays a glance out: the stage on a title band, the decisions
// under it, then a table of the seats, the awaited ones highlighted.
func (r *Renderer) drawGlance(w *wording.Words, g Glance, columns []string, names []string) ([]byte, error) {
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
	nameW := glanceColumnsX(len(columns))[0] - 70 - glanceNameX
	for i := range g.Seats {
		fitted[i] = measure.fs.fit(names[i], nameW, style{size: glanceName, bold: true})
		if fitted[i] != names[i] {
			measure.noteCut(names[i])
		}
	}
	r.faces.Put(measure.fs)

	stageH := max(len(stage), 1)*glanceStageH + 16
	decideH := lines*glanceDecideH + 20
	h := stageH + decideH + glanceHeadH + len(g.Seats)*glanceRowH + glanceMargin
	h = min(h, GlanceMaxHeight)
	c := r.begin(w, GlanceWidth, h, nil, nil)

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
	top := stageH + decideH
	xs := glanceColumnsX(len(columns))
	c.fill(image.Rect(glanceMargin, top, GlanceWidth-glanceMargin, top+glanceHeadH), colPanelAlt)
	head := style{size: glanceSmall, bold: true, color: colInkSoft}
	c.text(c.say("image.player"), glanceNameX, top+glanceHeadH/2, head)
	for i, col := range columns {
		// centred in its column: as far as the nearer of its edges
		left, right := 440, GlanceWidth-glanceMargin
		if i > 0 {
			left = (xs[i-1] + xs[i]) / 2
		}
		if i+1 < len(xs) {
			right = (xs[i] + xs[i+1]) / 2
		}
		room := 2*min(xs[i]-left, right-xs[i]) - 8
		c.textShrink(col, xs[i], top+glanceHeadH/2, room, style{size: glanceSmall, bold: true, color: colInkSoft, align: alignCenter})
	}
	for seat, s := range g.Seats {
		c.glanceSeat(seat, s, fitted[seat], xs, top+glanceHeadH+seat*glanceRowH)
	}
	bottom := top + glanceHeadH + len(g.Seats)*glanceRowH
	c.fill(image.Rect(glanceMargin, bottom-2, GlanceWidth-glanceMargin, bottom), colRule)
	return c.finish()
}

// glanceSeat draws one seat's row from y: its colour and shape, its name
// (shortened to one line) with its colour's name and notes under it, and
// its figures.
func (c *canvas) glanceSeat(seat int, s GlanceSeat, name string, xs []int, y int) {
	row := image.Rect(glanceMargin, y, GlanceWidth-glanceMargin, y+glanceRowH)
	bg := colPanel
	if s.Active {
		bg = colPanelAlt
	}
	c.fill(row, bg)
	c.fill(image.Rect(row.Min.X, y, row.Max.X, y+2), colRule)
	c.fill(image.Rect(row.Min.X, y, row.Min.X+14, row.Max.Y), seatColor(seat))
	mid := y + glanceRowH/2
	c.spriteCentered(c.r.sprites.glance[spriteSeat(seat)], glanceMargin+14+38, mid)
	c.text(name, glanceNameX, mid-15, style{size: glanceName, bold: true, color: colInk})
	notes := append([]string{c.seatColorName(seat)}, s.Notes...)
	c.textFit(strings.Join(notes, " · "), glanceNameX, mid+25, GlanceWidth-glanceMargin-8-glanceNameX, style{size: glanceSmall, color: colInkSoft})
	for i, f := range s.Figures {
		if i >= len(xs) {
			break
		}
		st := style{size: glanceFigure, bold: true, color: colInk, align: alignCenter}
		if f.Key == "vp" {
			st.color = colVP
		}
		parts := strings.Split(f.Value, ", ")
		if len(parts) > 1 { // two pawns: one a line
			st.size = glanceSmall + 4
			for j, p := range parts {
				c.text(p, xs[i], mid-17+34*j, st)
			}
			continue
		}
		if c.fs.width(f.Value, st) > 240 {
			st.size = glanceBody
		}
		c.text(f.Value, xs[i], mid-15, st)
	}
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
