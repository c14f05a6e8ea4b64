package bot

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/meeplegames/meeple/bot/transport"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// Reliability: for each user and server, the bot counts the decisions
// taken before their deadline, the deadlines that passed on them and the
// seats that left their hands (storage.Reliability, kept with the user's
// preferences and added in one store transaction, so that two processes
// counting at once both count). /stats shows the counts and the lobby a
// share beside each name; a lobby can ask for a least share. A game also
// counts, by seat, the deadlines missed in a row (storage.Game.
// MissedInARow): when they reach the server's limit, a computer keeps
// the seat (a lapsed hand-over), its player is told by DM, and
// /game rejoin gives it back unless the table said no.

// reliabilityStore is what the counts are kept in.
type reliabilityStore interface {
	UserPrefs(ctx context.Context, user string) (storage.UserPrefs, error)
	UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error)
}

// tallies adds to users' reliability counts. A nil *tallies counts
// nothing (a referee of a test).
type tallies struct {
	store reliabilityStore
	log   *slog.Logger
}

// add adds d to user's counts on guild's games; a failure is logged, and
// the count lost rather than the game held up.
func (t *tallies) add(ctx context.Context, guild, user string, d storage.Reliability) {
	if t == nil || user == "" || d == (storage.Reliability{}) {
		return
	}
	if _, err := t.store.UpdateUserPrefs(ctx, user, func(p *storage.UserPrefs) error {
		if p.Reliability == nil {
			p.Reliability = map[string]storage.Reliability{}
		}
		p.Reliability[guild] = p.Reliability[guild].Add(d)
		return nil
	}); err != nil {
		t.log.Warn("counting a player's reliability failed", "err", err)
	}
}

// of is user's counts on guild's games, or over every server when
// everywhere is set.
func (t *tallies) of(ctx context.Context, guild, user string, everywhere bool) (storage.Reliability, error) {
	if t == nil {
		return storage.Reliability{}, nil
	}
	prefs, err := t.store.UserPrefs(ctx, user)
	if err != nil {
		return storage.Reliability{}, err
	}
	if !everywhere {
		return prefs.Reliability[guild], nil
	}
	var sum storage.Reliability
	for _, r := range prefs.Reliability {
		sum = sum.Add(r)
	}
	return sum, nil
}

// decided counts seat's decision in g, whose deadline was deadline when
// the seat decided at now: in time unless it had passed. A game without
// a deadline counts nothing.
func (t *tallies) decided(ctx context.Context, g *storage.Game, seat engine.Seat, deadline, now time.Time) {
	if deadline.IsZero() || seat < 0 || int(seat) >= len(g.Seats) || now.After(deadline) {
		return
	}
	t.add(ctx, g.Guild, g.Seats[seat].User, storage.Reliability{InTime: 1})
}

// missedInARow is how many deadlines in a row s lets a player miss before
// the computer keeps their seat.
func missedInARow(s storage.GuildSettings) int {
	if s.MissedInARow > 0 {
		return s.MissedInARow
	}
	return storage.DefaultMissedInARow
}

// lapse is the edit that counts one more missed deadline for each of
// seats of g and hands to a computer (named standIn, called name) the
// seats whose count reaches limit, as lapsed hand-overs at now. It
// returns the edit and the seats it hands over.
func lapse(g *storage.Game, seats []engine.Seat, limit int, standIn storage.Seat, now time.Time) (func(r *storage.Game) error, []engine.Seat) {
	var lapsed []engine.Seat
	for _, s := range seats {
		if missed(g, s)+1 >= limit && g.Seats[s].User != "" {
			lapsed = append(lapsed, s)
		}
	}
	return func(r *storage.Game) error {
		if len(r.MissedInARow) < len(r.Seats) {
			r.MissedInARow = append(r.MissedInARow, make([]int, len(r.Seats)-len(r.MissedInARow))...)
		}
		for _, s := range seats {
			r.MissedInARow[s]++
		}
		for _, s := range lapsed {
			r.Handovers = append(r.Handovers, storage.Handover{Seat: s, From: r.Seats[s], To: standIn, Lapsed: true, At: now, Version: r.Version})
			r.Seats[s] = standIn
			r.MissedInARow[s] = 0
		}
		return nil
	}, lapsed
}

// missed is how many deadlines in a row seat of g missed.
func missed(g *storage.Game, seat engine.Seat) int {
	if int(seat) < len(g.MissedInARow) {
		return g.MissedInARow[seat]
	}
	return 0
}

// lapsedSeat finds the seat of g a computer keeps for user after their
// missed deadlines, which they may take back: the last hand-over of the
// seat was the lapse, from them.
func lapsedSeat(g *storage.Game, user string) (engine.Seat, storage.Handover, bool) {
	last := map[engine.Seat]storage.Handover{}
	for _, h := range g.Handovers {
		last[h.Seat] = h
	}
	for s := range g.Seats {
		if h, ok := last[engine.Seat(s)]; ok && h.Lapsed && h.From.User == user {
			return engine.Seat(s), h, true
		}
	}
	return 0, storage.Handover{}, false
}

// rejoin answers /game rejoin: it gives the caller back the seat a
// computer kept after their missed deadlines, when the table allows it.
// The seat is theirs again from its next decision on: a decision it has
// now is asked of them, like any seat handed to a person.
func (sh *seatHandler) rejoin(ctx context.Context, r *transport.Reply, in *interaction) error {
	user := in.user.ID
	var from storage.Handover
	out, g, err := sh.handOver(ctx, in, user, func(g *storage.Game) (engine.Seat, storage.Seat, error) {
		seat, h, ok := lapsedSeat(g, user)
		switch {
		case !ok:
			return 0, storage.Seat{}, refuseWith("reliability.nothing_to_rejoin", "ID", g.ID)
		case g.NoRejoin:
			return 0, storage.Seat{}, refuseWith("reliability.no_rejoin", "ID", g.ID)
		}
		from = h
		return seat, storage.Seat{User: user, Name: holderName(h.From, displayName(in.Interaction))}, nil
	}, false)
	if out != nil {
		sh.pub.notify(out)
	}
	if err != nil {
		return err
	}
	return r.Message(transport.Message{Content: in.publicTr(ctx).T("reliability.rejoined", "User", user, "Seat", int(from.Seat)+1, "ID", g.ID), Mentions: []string{}})
}

// lapsed tells the players whose seats a computer now keeps, by DM, how
// to take them back, and the channel who they are.
func (dl *deadlines) lapsed(ctx context.Context, g *storage.Game, users map[engine.Seat]string, limit int) {
	if len(users) == 0 {
		return
	}
	p := dl.langs.guild(ctx, g.Guild, "")
	for _, seat := range slices.Sorted(maps.Keys(users)) {
		user := users[seat]
		dl.pub.announce(g.Channel, transport.Message{Content: p.T("reliability.lapsed", "User", user, "Seat", int(seat)+1, "Count", limit, "ID", g.ID), Mentions: []string{}}, g.ID)
		tr := dl.langs.user(ctx, user)
		text := tr.T("reliability.lapsed_dm", "Game", kindTitle(tr, dl.games, g.Kind), "ID", g.ID, "Channel", g.Channel, "Seat", int(seat)+1, "Count", limit)
		if g.NoRejoin {
			text = tr.T("reliability.lapsed_dm_for_good", "Game", kindTitle(tr, dl.games, g.Kind), "ID", g.ID, "Channel", g.Channel, "Seat", int(seat)+1, "Count", limit)
		}
		dl.pub.aside("dm "+g.Channel, func() {
			if _, err := dl.pub.send.DM(user, transport.Message{Content: text}); err != nil {
				dl.log.Warn("telling a player their seat lapsed failed", "game", g.ID, "err", transport.DescribeError(err))
			}
		})
	}
}

// reliabilityText is r in a few words, in p's language: the share of
// deadlines met and how many, and the seats handed over.
func reliabilityText(p *locale.Printer, r storage.Reliability) string {
	if r.Decisions() == 0 && r.HandedOver == 0 {
		return p.T("reliability.new")
	}
	text := p.T("reliability.share", "Percent", r.Percent(), "Count", r.Decisions())
	if r.HandedOver > 0 {
		text += p.T("reliability.handed_over", "Count", r.HandedOver)
	}
	return text
}

// statsLine is the line /stats shows of r: the decisions in time, the
// deadlines missed and the seats handed over.
func statsLine(p *locale.Printer, r storage.Reliability, everywhere bool) string {
	key := "reliability.stats"
	if everywhere {
		key = "reliability.stats_everywhere"
	}
	return p.T(key, "InTime", p.T("reliability.in_time", "Count", r.InTime), "Missed", p.T("reliability.missed", "Count", r.Missed),
		"HandedOver", p.T("reliability.seats_handed_over", "Count", r.HandedOver))
}

// meetsMinimum refuses a player whose share of deadlines met on guild is
// below the lobby's least; a player with no deadline counted yet joins.
func meetsMinimum(ctx context.Context, t *tallies, g *storage.Game, user string) error {
	if g.MinReliability == 0 {
		return nil
	}
	r, err := t.of(ctx, g.Guild, user, false)
	if err != nil {
		return err
	}
	if r.Decisions() > 0 && r.Percent() < g.MinReliability {
		return refuseWith("reliability.below_minimum", "Percent", r.Percent(), "Least", g.MinReliability)
	}
	return nil
}

// reliabilityOf is what the lobby shows beside user's name: their share
// of deadlines met on guild; nothing for a computer, or when it cannot
// be read.
func (lh *lobbyHandler) reliabilityOf(ctx context.Context, p *locale.Printer, guild, user string) string {
	if user == "" || lh.ref == nil {
		return ""
	}
	r, err := lh.tally.of(ctx, guild, user, false)
	if err != nil || lh.tally == nil {
		return ""
	}
	return " · " + reliabilityText(p, r)
}

// lobbyReliabilityRules says, in p's language, what the lobby asks of
// its players' reliability and whether a lapsed seat may be taken back.
func lobbyReliabilityRules(p *locale.Printer, g *storage.Game) string {
	var lines []string
	if g.MinReliability > 0 {
		lines = append(lines, p.T("reliability.lobby_least", "Percent", g.MinReliability))
	}
	if g.NoRejoin {
		lines = append(lines, p.T("reliability.lobby_no_rejoin"))
	}
	return strings.Join(lines, "\n")
}
