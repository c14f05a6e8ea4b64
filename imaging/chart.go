package imaging

import (
	"image"
	"strconv"

	"github.com/fogleman/gg"
	"github.com/meeplegames/meeple/wording"
)

// Progress is what a game report's chart shows: every seat's score at the
// start and at the end of each round.
type Progress struct {
	Kind   string  // the game (an engine.Rules name), which names the scores
	Rounds []int   // the points' rounds, 0 for the start, in order
	Scores [][]int // Scores[i][seat] is seat's score at Rounds[i]
}

// Chart geometry, in its pixels: drawn, like the glance, twice the size
// Discord shows a message's own image at (550 pixels wide), so that its
// smallest words are some 13 pixels high there and still 10 on a phone.
const (
	ChartWidth  = 1100
	ChartHeight = 640

	chartTitleH       = 72
	chartMargin       = 28
	chartLegendW      = 330
	chartAxisW        = 84  // the scores' labels left of the plot
	chartAxisH        = 100 // the rounds' labels and caption under it
	chartLabel   size = 28
	chartName    size = 32
	chartTitle   size = 38
	chartLine         = 6.0
	chartMarkR        = 13.0
	// chartMarks is about how many marks a line carries at most: every
	// point of a short game, every second or third of a long race.
	chartMarks = 14
)

// Chart draws p as a line chart of each seat's score over the rounds, in
// w's words (the seats' names, the game's and the axes' labels). Each
// seat's line is its colour and carries its shape at its points, and the
// legend gives the shape, the name and the last score, so no line is told
// apart by colour alone.
func (r *Renderer) Chart(p Progress, w *wording.Words) ([]byte, error) {
	if len(p.Rounds) == 0 || len(p.Rounds) != len(p.Scores) {
		return nil, unsupported(p)
	}
	players := len(p.Scores[0])
	for _, s := range p.Scores {
		if len(s) != players || players == 0 || players > maxSeats {
			return nil, unsupported(p)
		}
	}
	names := r.seatNames(w, players)
	c := r.begin(w, ChartWidth, ChartHeight, nil, nil)
	c.fill(image.Rect(0, 0, ChartWidth, chartTitleH), colTitle)
	c.textFit(say(w, "image.chart.title", "Game", say(w, "game."+p.Kind+".title")), chartMargin, chartTitleH/2, ChartWidth-2*chartMargin,
		style{size: chartTitle, bold: true, color: colTitleInk})

	plot := image.Rect(chartMargin+chartAxisW, chartTitleH+chartMargin+40, ChartWidth-chartLegendW-chartMargin, ChartHeight-chartAxisH)
	lo, hi := scoreRange(p.Scores)
	step := niceStep(hi - lo)
	lo, hi = floorTo(lo, step), ceilTo(hi, step)
	if hi == lo {
		hi = lo + step
	}
	first, last := p.Rounds[0], p.Rounds[len(p.Rounds)-1]
	if last == first {
		last = first + 1
	}
	x := func(round int) float64 {
		return float64(plot.Min.X) + float64(round-first)*float64(plot.Dx())/float64(last-first)
	}
	y := func(score int) float64 {
		return float64(plot.Max.Y) - float64(score-lo)*float64(plot.Dy())/float64(hi-lo)
	}

	// the grid and the scores' labels; the axis's name above them
	c.fill(plot, colPanel)
	for v := lo; v <= hi; v += step {
		yy := int(y(v))
		c.fill(image.Rect(plot.Min.X, yy-1, plot.Max.X, yy+1), colRule)
		c.text(strconv.Itoa(v), plot.Min.X-12, yy, style{size: chartLabel, color: colInkSoft, align: alignRight})
	}
	c.textFit(say(w, "image.chart.axis."+p.Kind), chartMargin, plot.Min.Y-34, plot.Dx()+chartAxisW,
		style{size: chartLabel, bold: true, color: colInk})
	// the rounds' labels, thinned to fit, and the axis's name under them
	every := max(1, (len(p.Rounds)+chartMarks-1)/chartMarks)
	for i, round := range p.Rounds {
		if i%every != 0 && i != len(p.Rounds)-1 {
			continue
		}
		label := strconv.Itoa(round)
		if round == 0 {
			label = say(w, "image.chart.start")
		}
		c.text(label, int(x(round)), plot.Max.Y+34, style{size: chartLabel, color: colInkSoft, align: alignCenter})
	}
	c.text(say(w, "image.chart.rounds"), plot.Min.X+plot.Dx()/2, plot.Max.Y+78, style{size: chartLabel, bold: true, color: colInk, align: alignCenter})
	c.outline(plot, 2, colInk)

	// the lines, then their marks over every line
	dc := gg.NewContextForRGBA(c.img)
	for seat := range players {
		dc.SetColor(seatColor(seat).nrgba())
		dc.SetLineWidth(chartLine)
		dc.SetLineJoin(gg.LineJoinRound)
		dc.SetLineCap(gg.LineCapRound)
		for i, round := range p.Rounds {
			dc.LineTo(x(round), y(p.Scores[i][seat]))
		}
		dc.Stroke()
	}
	for seat := range players {
		for i, round := range p.Rounds {
			if i%every != 0 && i != len(p.Rounds)-1 {
				continue
			}
			mark(dc, seat, x(round), y(p.Scores[i][seat]), chartMarkR)
		}
	}

	// the legend: shape, name and last score, best first
	final := p.Scores[len(p.Scores)-1]
	order := make([]int, players)
	for i := range order {
		order[i] = i
	}
	for i := 1; i < players; i++ { // a stable insertion sort: few seats
		for j := i; j > 0 && final[order[j]] > final[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	lx := ChartWidth - chartLegendW + 8
	rowH := min(80, plot.Dy()/max(players, 1))
	for n, seat := range order {
		cy := plot.Min.Y + rowH/2 + n*rowH
		mark(dc, seat, float64(lx+18), float64(cy), chartMarkR+4)
		score := strconv.Itoa(final[seat])
		sw := c.text(score, ChartWidth-chartMargin, cy, style{size: chartName, bold: true, color: colInk, align: alignRight})
		c.textFit(names[seat], lx+46, cy, chartLegendW-46-sw-chartMargin-16, style{size: chartName, color: colInk})
	}
	return c.finish()
}

// mark draws seat's shape filled with its colour and outlined in ink.
func mark(dc *gg.Context, seat int, x, y, r float64) {
	pathShape(dc, seatShape(seat), x, y, r)
	dc.SetColor(seatColor(seat).nrgba())
	dc.FillPreserve()
	dc.SetColor(colInk.nrgba())
	dc.SetLineWidth(2.5)
	dc.Stroke()
}

// scoreRange is the lowest and highest score of any seat, 0 included.
func scoreRange(scores [][]int) (lo, hi int) {
	for _, s := range scores {
		for _, v := range s {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return lo, hi
}

// niceStep is a round step for a scale over span that draws at most
// about six lines: 1, 2, 5, 10, 20, 50, …
func niceStep(span int) int {
	step := 1
	for {
		for _, k := range []int{1, 2, 5} {
			if span <= 6*step*k {
				return step * k
			}
		}
		step *= 10
	}
}

func floorTo(v, step int) int {
	if v >= 0 {
		return v / step * step
	}
	return -((-v + step - 1) / step * step)
}

func ceilTo(v, step int) int { return -floorTo(-v, step) }
