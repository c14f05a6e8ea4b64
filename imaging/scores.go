package imaging

import (
	"image"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/wording"
)

// scoreSheet is what a final-scores image shows, whatever the game.
type scoreSheet struct {
	title   string   // "Crystal Palace · final scores"
	total   string   // the label of the totals row: "Total VP"
	sources []string // breakdown keys in the order to list them; others follow sorted
	labels  map[string]string
	notes   []string // one per seat, under the name ("Japan"); may be nil
	signed  bool     // the rows add up to the total: show +N and – for zero
	result  engine.Result
	names   []string
	w       *wording.Words
}

// Score-sheet geometry.
const (
	scoreLabelW = 280
	scoreColW   = 170
	scoreRowH   = 40
	scoreHeadH  = 118
	scoreMargin = 20
)

// sourceOrder returns the breakdown keys present in the result, known ones
// first in the sheet's order, then the rest sorted.
func (s *scoreSheet) sourceOrder() []string {
	present := map[string]bool{}
	for _, b := range s.result.Breakdown {
		for k := range b {
			present[k] = true
		}
	}
	var keys []string
	for _, k := range s.sources {
		if present[k] {
			keys = append(keys, k)
			delete(present, k)
		}
	}
	rest := make([]string, 0, len(present))
	for k := range present {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	return append(keys, rest...)
}

func (s *scoreSheet) label(key string) string {
	if l, ok := s.labels[key]; ok {
		return l
	}
	l := strings.ReplaceAll(key, "_", " ")
	if l == "" {
		return l
	}
	return strings.ToUpper(l[:1]) + l[1:]
}

// ranks gives each seat's place (1 = best), ties sharing a place.
func ranks(scores []int) []int {
	out := make([]int, len(scores))
	for i, si := range scores {
		out[i] = 1
		for _, sj := range scores {
			if sj > si {
				out[i]++
			}
		}
	}
	return out
}

// drawScores draws the sheet: one column per seat in seat order, one row
// per source, the totals and the places at the bottom; winners highlighted.
func (r *Renderer) drawScores(s *scoreSheet) ([]byte, error) {
	players := len(s.result.Scores)
	keys := s.sourceOrder()
	w := max(scoreLabelW+players*scoreColW+2*scoreMargin, 900)
	h := titleHeight + scoreMargin + scoreHeadH + (len(keys)+2)*scoreRowH + scoreMargin + 8
	c := r.begin(s.w, w, h, nil, nil)
	note := c.say("image.scores_over")
	if !s.result.Over {
		note = c.say("image.scores_running")
	}
	c.titleBar(s.title, note)

	x0 := scoreMargin + scoreLabelW
	top := titleHeight + scoreMargin
	tableBottom := top + scoreHeadH + (len(keys)+2)*scoreRowH
	place := ranks(s.result.Scores)
	for seat := 0; seat < players; seat++ {
		x := x0 + seat*scoreColW
		col := image.Rect(x, top, x+scoreColW, tableBottom)
		if slices.Contains(s.result.Winners, engine.Seat(seat)) {
			c.fill(col, colHighlight)
		} else {
			c.fill(col, colPanel)
		}
		c.fill(image.Rect(x, top, x+scoreColW, top+8), seatColor(seat))
		cx := x + scoreColW/2
		c.marker(seat, cx, top+36, markPawn)
		c.textFit(s.names[seat], cx, top+72, scoreColW-10, style{size: sizeBody, bold: true, color: colInk, align: alignCenter})
		if seat < len(s.notes) && s.notes[seat] != "" {
			c.textFit(s.notes[seat], cx, top+98, scoreColW-10, style{size: sizeSmall, color: colInkSoft, align: alignCenter})
		}
	}
	label := style{size: sizeBody, color: colInk}
	y := top + scoreHeadH
	for i, k := range keys {
		if i > 0 {
			c.fill(image.Rect(scoreMargin, y, x0+players*scoreColW, y+1), colRule)
		}
		c.textFit(s.label(k), scoreMargin+10, y+scoreRowH/2, scoreLabelW-20, label)
		for seat := 0; seat < players; seat++ {
			v := 0
			if seat < len(s.result.Breakdown) {
				v = s.result.Breakdown[seat][k]
			}
			st := style{size: sizeLarge, color: colInk, align: alignCenter}
			text := strconv.Itoa(v)
			switch {
			case !s.signed:
			case v < 0:
				st.color = colBad
			case v == 0:
				st.color, text = colInkSoft, "–"
			case v > 0:
				text = "+" + text
			}
			c.text(text, x0+seat*scoreColW+scoreColW/2, y+scoreRowH/2, st)
		}
		y += scoreRowH
	}
	c.fill(image.Rect(scoreMargin, y, x0+players*scoreColW, y+3), colInk)
	c.textFit(s.total, scoreMargin+10, y+scoreRowH/2+2, scoreLabelW-20, style{size: sizeLarge, bold: true, color: colInk})
	for seat := 0; seat < players; seat++ {
		cx := x0 + seat*scoreColW + scoreColW/2
		c.text(strconv.Itoa(s.result.Scores[seat]), cx, y+scoreRowH/2+2, style{size: sizeHuge, bold: true, color: colInk, align: alignCenter})
		st := style{size: sizeLarge, bold: true, color: colInkSoft, align: alignCenter}
		text := ordinal(s.w, place[seat])
		if slices.Contains(s.result.Winners, engine.Seat(seat)) {
			st.color, text = colGood, strings.ToUpper(c.say("image.winner"))
		}
		c.textFit(text, cx, y+scoreRowH+scoreRowH/2, scoreColW-10, st)
	}
	c.text(c.say("image.place"), scoreMargin+10, y+scoreRowH+scoreRowH/2, style{size: sizeBody, color: colInkSoft})
	c.outline(image.Rect(scoreMargin, top, x0+players*scoreColW, tableBottom), 2, colInk)
	return c.finish()
}
