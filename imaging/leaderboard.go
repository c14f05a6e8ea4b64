package imaging

import (
	"image"
	"strconv"

	"github.com/meeplegames/meeple/wording"
)

// Standing is one row of a leaderboard image.
type Standing struct {
	Name  string  // the player's display name
	Skill float64 // the rating shown (conservative: mean less three deviations)
	Games int
	Wins  int
}

// MaxStandings is how many rows a leaderboard image shows.
const MaxStandings = 25

// Leaderboard geometry.
const (
	boardRowH    = 44
	boardMargin  = 20
	boardWidth   = 760
	boardHeadH   = 40
	boardRankW   = 70
	boardNumberW = 120
)

// Leaderboard draws a server's best players of a game as a table: place,
// name, skill, games and wins, best first as given; title names the game
// ("Crystal Palace · leaderboard"), in w's language (the skill with its
// decimal separator). Rows past MaxStandings are left out.
func (r *Renderer) Leaderboard(title string, rows []Standing, w *wording.Words) ([]byte, error) {
	rows = rows[:min(len(rows), MaxStandings)]
	h := titleHeight + 2*boardMargin + boardHeadH + max(len(rows), 1)*boardRowH
	c := r.begin(w, boardWidth, h, nil, nil)
	c.titleBar(title, c.say("image.leaderboard.top", "N", len(rows)))
	top := titleHeight + boardMargin
	left, right := boardMargin, boardWidth-boardMargin
	nameX := left + boardRankW
	cols := []struct {
		label string
		x     int
	}{{c.say("image.leaderboard.skill"), right - 2*boardNumberW - boardNumberW/2}, {c.say("image.leaderboard.games"), right - boardNumberW - boardNumberW/2}, {c.say("image.leaderboard.wins"), right - boardNumberW/2}}
	head := style{size: sizeBody, bold: true, color: colInkSoft}
	c.text("#", left+boardRankW/2, top+boardHeadH/2, style{size: sizeBody, bold: true, color: colInkSoft, align: alignCenter})
	c.text(c.say("image.player"), nameX, top+boardHeadH/2, head)
	for _, col := range cols {
		c.textFit(col.label, col.x, top+boardHeadH/2, boardNumberW-8, style{size: sizeBody, bold: true, color: colInkSoft, align: alignCenter})
	}
	y := top + boardHeadH
	c.fill(image.Rect(left, y-2, right, y), colInk)
	if len(rows) == 0 {
		c.text(c.say("image.leaderboard.none"), nameX, y+boardRowH/2, style{size: sizeBody, color: colInkSoft})
	}
	for i, s := range rows {
		band := image.Rect(left, y, right, y+boardRowH)
		switch {
		case i == 0:
			c.fill(band, colHighlight)
		case i%2 == 1:
			c.fill(band, colPanel)
		}
		mid := y + boardRowH/2
		c.text(strconv.Itoa(i+1), left+boardRankW/2, mid, style{size: sizeLarge, bold: true, color: colInk, align: alignCenter})
		name := r.fonts.clean(s.Name, 40)
		if name == "" {
			name = "?"
		}
		c.textFit(name, nameX, mid, cols[0].x-boardNumberW/2-nameX-8, style{size: sizeLarge, color: colInk})
		values := []string{w.Printer().Decimal(s.Skill, 1), strconv.Itoa(s.Games), strconv.Itoa(s.Wins)}
		for j, v := range values {
			c.text(v, cols[j].x, mid, style{size: sizeLarge, bold: j == 0, color: colInk, align: alignCenter})
		}
		y += boardRowH
	}
	c.outline(image.Rect(left, top, right, max(y, top+boardHeadH+boardRowH)), 2, colInk)
	return c.finish()
}
