package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/report"
	"github.com/meeplegames/meeple/storage"
)

// recentArchive is how many of a server's latest archived games /game
// summary looks through for the channel's last one.
const recentArchive = 50

// summary answers /game summary: the report of an archived game of this
// server, posted in the channel: the game numbered by the game option, or
// else the last one played in this channel (or a thread of it).
func (gh *gameHandler) summary(ctx context.Context, r *transport.Reply, in *interaction) error {
	id, named := in.opts.integer(optGame)
	var g *storage.Game
	var err error
	if named {
		g, err = gh.store.GetByID(ctx, uint64(max(id, 0)))
		if errors.Is(err, storage.ErrNotFound) || err == nil && (g.Guild != in.GuildID || g.Status.Active()) {
			return refuseWith("report.unknown", "ID", id)
		}
	} else {
		g, err = gh.lastArchived(ctx, in.GuildID, in.ChannelID)
		if err == nil && g == nil {
			return refuseWith("report.none_here")
		}
	}
	if err != nil {
		return err
	}
	r.DeferMessage(false) // replaying and drawing take a moment
	m, err := gh.look.reportMessage(in.publicTr(ctx), g, true)
	if err != nil {
		return err
	}
	return r.Message(m)
}

// lastArchived is the last game archived in channel (or a thread of it),
// with its log, or nil.
func (gh *gameHandler) lastArchived(ctx context.Context, guild, channel string) (*storage.Game, error) {
	games, err := gh.lists.ArchiveForGuild(ctx, guild, 0, recentArchive)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		if g.Channel == channel || g.Parent == channel {
			return gh.store.GetByID(ctx, g.ID)
		}
	}
	return nil, nil
}

// reportMessage is the report of game g, which has started, in p's
// language: a chart of the scores at the end of each round (with alt
// text that gives its figures), each player's turn times, and, with
// scores, the final scores with their breakdown and the hints taken. It
// replays g's log, so it works for games archived before reports were.
func (vw *views) reportMessage(p *locale.Printer, g *storage.Game, scores bool) (transport.Message, error) {
	rules, err := vw.games.Lookup(g.Kind)
	if err != nil {
		return transport.Message{}, err
	}
	rep, err := report.Build(rules, g)
	if err != nil {
		return transport.Message{}, err
	}
	var m transport.Message
	if scores {
		m = vw.scoresMessage(p, g, rep.Final, g.Status == storage.StatusFinished)
	}
	m.Embeds = append(m.Embeds, turnsEmbed(p, g, rep, vw.games))
	progress := imaging.Progress{Kind: g.Kind}
	for _, s := range rep.Rounds {
		progress.Rounds = append(progress.Rounds, s.Round)
		progress.Scores = append(progress.Scores, s.Scores)
	}
	if vw.imagesOn {
		w := imageWords(p, vw.games, g)
		png, err := vw.images.render(func() ([]byte, error) { return vw.render.Chart(progress, w) })
		if err != nil {
			vw.log.Warn("drawing the report's chart failed", "game", g.ID, "err", err)
		}
		m.Image, m.Loose, m.Alt = png, true, chartAlt(p, g, rep)
	}
	return m, nil
}

// turnsEmbed lists each seat's turns: how many, the median and the
// longest; a computer's seat says so instead.
func turnsEmbed(p *locale.Printer, g *storage.Game, rep *report.Report, games *engine.Registry) *discordgo.MessageEmbed {
	var sb strings.Builder
	for n, s := range g.Seats {
		fmt.Fprintf(&sb, "P%d %s — ", n+1, seatLabel(s))
		var t report.Turns
		if n < len(rep.Turns) {
			t = rep.Turns[n]
		}
		switch {
		case s.User == "":
			sb.WriteString(p.T("report.computer"))
		case t.Count == 0:
			sb.WriteString(p.T("report.no_turns"))
		default:
			sb.WriteString(p.T("report.turns", "Count", t.Count, "Median", span(p, t.Median), "Longest", span(p, t.Longest)))
		}
		sb.WriteString("\n")
	}
	return &discordgo.MessageEmbed{
		Title:       p.T("report.title", "Game", kindTitle(p, games, g.Kind), "ID", g.ID),
		Description: sb.String(),
		Footer:      &discordgo.MessageEmbedFooter{Text: p.T("report.footer")},
	}
}

// chartAlt says what the chart shows, figures included, for those who
// cannot see it: the scores' name, then each player's score at the start
// and after each round.
func chartAlt(p *locale.Printer, g *storage.Game, rep *report.Report) string {
	names := seatNames(g)
	var series []string
	for seat, name := range names {
		var values []string
		for _, s := range rep.Rounds {
			if seat < len(s.Scores) {
				values = append(values, strconv.Itoa(s.Scores[seat]))
			}
		}
		series = append(series, p.T("report.alt_series", "Name", name, "Scores", strings.Join(values, ", ")))
	}
	last := 0
	if n := len(rep.Rounds); n > 0 {
		last = rep.Rounds[n-1].Round
	}
	axis := p.T("report.score")
	if id := "image.chart.axis." + g.Kind; p.Has(id) {
		axis = p.T(id)
	}
	return p.T("report.alt", "Axis", axis, "Last", last, "Series", strings.Join(series, "; "))
}

// span writes a wait in p's language, to the minute: "under a minute",
// "12 min", "3 h 20 min", "2 d 4 h".
func span(p *locale.Printer, d time.Duration) string {
	switch {
	case d < time.Minute:
		return p.T("report.span_seconds")
	case d < time.Hour:
		return p.T("report.span_minutes", "M", int(d/time.Minute))
	case d < 24*time.Hour:
		return p.T("report.span_hours", "H", int(d/time.Hour), "M", int(d%time.Hour/time.Minute))
	}
	return p.T("report.span_days", "D", int(d/(24*time.Hour)), "H", int(d%(24*time.Hour)/time.Hour))
}
