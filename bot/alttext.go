package bot

import (
	"context"
	"slices"
	"strings"

	"github.com/meeplegames/meeple/bot/transport"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// pictureSummary is what every picture of g's state shows first, for its
// alt text in p's language: where the game stands, who must decide what,
// then each seat with its colour and headline figures. It reads the
// public view only, so it holds no secret (a covered die stays covered).
func (vw *views) pictureSummary(ctx context.Context, p *locale.Printer, g *storage.Game, st engine.State) (stage, waiting, seats string) {
	lines := vw.seatLines(ctx, p, g, st)
	plain := make([]string, len(lines))
	for n, l := range lines {
		plain[n] = l.plain(p)
	}
	gl, err := imaging.GlanceOf(st.View(engine.Spectator), imageWords(p, vw.games, g))
	if err != nil {
		return gameWords(p, vw.games, g.Kind).Say(st.Phase()), "", strings.Join(plain, "; ")
	}
	var decisions []string
	for _, d := range gl.Decisions {
		var who []string
		for _, s := range d.Seats {
			if int(s) < len(lines) {
				who = append(who, lines[s].Name)
			}
		}
		decisions = append(decisions, p.T("alt.decision", "Who", strings.Join(who, ", "), "What", d.What))
	}
	if len(decisions) > 0 {
		waiting = p.T("alt.waiting", "List", strings.Join(decisions, "; "))
	}
	return gl.Stage, waiting, strings.Join(plain, "; ")
}

// glanceAlt is the glance's alt text: the game, then its summary.
func (vw *views) glanceAlt(ctx context.Context, p *locale.Printer, g *storage.Game, st engine.State) string {
	stage, waiting, seats := vw.pictureSummary(ctx, p, g, st)
	return p.T("alt.glance", "Game", kindTitle(p, vw.games, g.Kind), "Stage", stage, "Waiting", waiting, "Seats", seats)
}

// fullBoardAlt is the full board's alt text: the glance's summary first,
// then the public board as text (describe), as far as Discord's limit
// lets it go.
func (vw *views) fullBoardAlt(ctx context.Context, p *locale.Printer, g *storage.Game, st engine.State) string {
	stage, waiting, seats := vw.pictureSummary(ctx, p, g, st)
	alt := p.T("alt.board", "Game", kindTitle(p, vw.games, g.Kind), "Stage", stage, "Waiting", waiting, "Seats", seats)
	if text := vw.describe(st.View(engine.Spectator), gameWords(p, vw.games, g.Kind).WithSeats(seatNames(g))); text != "" {
		alt += " " + strings.Join(strings.Fields(text), " ")
	}
	return transport.Clip(alt, transport.MaxAltText)
}

// matAlt is the alt text of seat's private mat: whose it is and the
// seat's public figures. It names nothing the seat keeps hidden; the
// message's text says the rest to its one reader.
func (vw *views) matAlt(ctx context.Context, p *locale.Printer, g *storage.Game, st engine.State, seat engine.Seat) string {
	lines := vw.seatLines(ctx, p, g, st)
	if int(seat) < 0 || int(seat) >= len(lines) {
		return p.T("alt.mat_spectator", "Game", kindTitle(p, vw.games, g.Kind))
	}
	return p.T("alt.mat", "Game", kindTitle(p, vw.games, g.Kind), "Seat", lines[seat].plain(p))
}

// scoresAlt is the score sheet's alt text: its title, then each seat's
// score, best first, and the winners.
func scoresAlt(p *locale.Printer, title string, g *storage.Game, res engine.Result, final bool) string {
	names := seatNames(g)
	var parts []string
	for _, n := range scoreOrder(len(g.Seats), res) {
		score := 0
		if n < len(res.Scores) {
			score = res.Scores[n]
		}
		part := p.T("alt.score", "Name", names[n], "Score", score)
		if final && slices.Contains(res.Winners, engine.Seat(n)) {
			part += " " + p.T("alt.winner")
		}
		parts = append(parts, part)
	}
	return p.T("alt.scores", "Title", title, "List", strings.Join(parts, "; "))
}

// leaderboardAlt is the leaderboard picture's alt text: its title, then
// each row, best first, with the figures the picture shows.
func leaderboardAlt(p *locale.Printer, title string, rows []imaging.Standing) string {
	if len(rows) == 0 {
		return p.T("alt.leaderboard_empty", "Title", title)
	}
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = p.T("alt.standing", "Place", i+1, "Name", r.Name, "Skill", p.Decimal(r.Skill, 1), "Count", r.Games, "Wins", r.Wins)
	}
	return p.T("alt.leaderboard", "Title", title, "List", strings.Join(parts, "; "))
}
