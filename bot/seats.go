package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// nudgeEvery is how often one game may be nudged.
const nudgeEvery = time.Hour

// seatHandler answers the /game subcommands that concern who sits where in
// a running game: /game nudge, /game resign, /game replace and /game
// rejoin (reliability.go), and /game extend, a vote on a player's time
// (extend.go). A seat that
// changes hands keeps its position and its secrets: the engine's state is
// by seat, so the new holder sees the seat's private view from then on and
// the old one no longer does. Each change is announced and kept in the
// game's handovers, which ratings read.
type seatHandler struct {
	store gameStore
	games *engine.Registry
	locks *table.Locks
	ref   *table.Referee
	tally *tallies
	pub   *publisher
	now   func() time.Time
}

func (sh *seatHandler) register(rt *router) error {
	return errors.Join(
		rt.subcommand(cmdGame, subNudge, sh.nudge),
		rt.subcommand(cmdGame, subResign, sh.resign),
		rt.subcommand(cmdGame, subReplace, sh.replace),
		rt.subcommand(cmdGame, subRejoin, sh.rejoin),
		rt.subcommand(cmdGame, subExtend, sh.propose),
		rt.component(verbExtend, onButton, inGuild, sh.voteExtend),
	)
}

// nudge mentions the players the game waits for, whatever their ping
// preference, at most once an hour per game.
func (sh *seatHandler) nudge(ctx context.Context, r *transport.Reply, in *interaction) error {
	user := in.user.ID
	var g *storage.Game
	var waiting []engine.Seat
	var st engine.State
	err := sh.locks.With(in.ChannelID, func() error {
		var err error
		if g, st, err = sh.store.Load(ctx, in.ChannelID); err != nil {
			return err
		}
		if g.Status != storage.StatusRunning {
			return table.ErrNotRunning
		}
		if len(table.SeatsOf(g, user)) == 0 {
			return table.ErrNotSeated
		}
		waiting = table.HumanWaiting(g, st)
		var others int
		for _, s := range waiting {
			if g.Seats[s].User != user {
				others++
			}
		}
		switch {
		case others == 0 && len(waiting) > 0:
			return refuseWith("nudge.only_you")
		case others == 0:
			return refuseWith("nudge.nobody")
		}
		now := sh.now()
		if next := g.Nudged.Add(nudgeEvery); !g.Nudged.IsZero() && now.Before(next) {
			return refuseWith("nudge.too_soon", "ID", g.ID, "When", fmt.Sprintf("<t:%d:R>", next.Unix()))
		}
		g, err = sh.store.Update(ctx, in.ChannelID, g.ID, func(r *storage.Game) error {
			r.Nudged = now
			return nil
		})
		return err
	})
	if err != nil {
		return err
	}
	var users []string
	var names []string
	p := in.publicTr(ctx)
	words := sh.pub.look.words(p, g.Kind)
	for _, s := range waiting {
		if u := g.Seats[s].User; u != user && !slices.Contains(users, u) {
			users = append(users, u)
			names = append(names, fmt.Sprintf("<@%s> (%s)", u, promptLabel(words, st, s)))
		}
	}
	return r.Message(transport.Message{Content: p.T("nudge.done", "User", user, "Names", joinNames(p, names), "ID", g.ID), Mentions: users})
}

// resign hands the caller's seat to a computer player, and offers the
// people left a vote to end the game (endvote.go); when no person is left
// at the table, the game is abandoned.
func (sh *seatHandler) resign(ctx context.Context, r *transport.Reply, in *interaction) error {
	user := in.user.ID
	out, g, err := sh.handOver(ctx, in, user, func(g *storage.Game) (engine.Seat, storage.Seat, error) {
		seats := table.SeatsOf(g, user)
		if len(seats) == 0 {
			return 0, storage.Seat{}, table.ErrNotSeated
		}
		return seats[0], storage.Seat{}, nil
	}, true)
	if out != nil {
		sh.pub.notify(out)
	}
	if err != nil {
		return err
	}
	h := g.Handovers[len(g.Handovers)-1]
	if out == nil { // nobody left: abandoned
		sh.pub.abandoned(g, in.publicTr(ctx).T("seats.abandoned_by_resigning", "User", user))
		return r.Message(transport.Message{Content: in.tr.T("seats.resigned_alone", "ID", g.ID), Private: true})
	}
	return r.Message(transport.Message{Content: in.publicTr(ctx).T("seats.resigned", "User", user, "ID", g.ID, "Name", h.To.Name, "Seat", int(h.Seat)+1),
		Components: []discordgo.MessageComponent{endVoteButton(in.publicTr(ctx), g)}})
}

// replace hands a seat to another person, or to a computer player when no
// user is named. The game's creator and admins may replace any seat; a
// player may hand over their own.
func (sh *seatHandler) replace(ctx context.Context, r *transport.Reply, in *interaction) error {
	caller := in.user.ID
	n, ok := in.opts.integer(optSeat)
	if !ok {
		return refuseWith("seats.which")
	}
	target := ""
	if o, ok := in.opts[optUser]; ok {
		target, _ = o.Value.(string)
	}
	name, isBot := resolvedName(in, target)
	if isBot {
		return refuseWith("seats.no_bots")
	}
	out, g, err := sh.handOver(ctx, in, caller, func(g *storage.Game) (engine.Seat, storage.Seat, error) {
		seat := engine.Seat(n - 1)
		if seat < 0 || int(seat) >= len(g.Seats) {
			return 0, storage.Seat{}, refuseWith("seats.out_of_range", "ID", g.ID, "Count", len(g.Seats))
		}
		if g.Seats[seat].User != caller && g.Creator != caller && !isAdmin(in.Interaction) {
			return 0, storage.Seat{}, refuseWith("seats.replace_who")
		}
		switch {
		case target == "" && g.Seats[seat].Computer != "":
			return 0, storage.Seat{}, refuseWith("seats.already_computer", "Seat", n)
		case target != "" && len(table.SeatsOf(g, target)) > 0:
			return 0, storage.Seat{}, refuseWith("seats.already_plays", "User", target, "ID", g.ID)
		case target == "":
			return seat, storage.Seat{}, nil
		}
		return seat, storage.Seat{User: target, Name: name}, nil
	}, false)
	if out != nil {
		sh.pub.notify(out)
	}
	if err != nil {
		return err
	}
	h := g.Handovers[len(g.Handovers)-1]
	if out == nil {
		sh.pub.abandoned(g, in.publicTr(ctx).T("seats.abandoned_by_replacing", "User", caller))
		return r.Message(transport.Message{Content: in.tr.T("seats.replaced_alone", "ID", g.ID), Private: true})
	}
	to := h.To.Name
	var mentions []string
	if h.To.User != "" {
		to = "<@" + h.To.User + ">"
		mentions = []string{h.To.User}
	}
	return r.Message(transport.Message{Content: in.publicTr(ctx).T("seats.replaced", "Seat", int(h.Seat)+1, "ID", g.ID, "From", seatLabel(h.From), "To", to, "User", caller), Mentions: mentions})
}

// handOver gives a seat of the channel's running game to a new holder under
// the game's lock: choose returns the seat and its new holder (the zero
// Seat for a computer player). The change is recorded, the computer players
// (the new one included) answer what falls to them, and a person who takes
// a seat with a decision waiting is asked for it. When no person is left
// at the table the game is abandoned instead and the outcome is nil.
func (sh *seatHandler) handOver(ctx context.Context, in *interaction, by string, choose func(g *storage.Game) (engine.Seat, storage.Seat, error), resigned bool) (*table.Outcome, *storage.Game, error) {
	channel := in.ChannelID
	defer sh.locks.Lock(channel)()
	g, st, err := sh.store.Load(ctx, channel)
	if err != nil {
		return nil, nil, err
	}
	if g.Status != storage.StatusRunning {
		return nil, nil, table.ErrNotRunning
	}
	seat, to, err := choose(g)
	if err != nil {
		return nil, nil, err
	}
	rules, err := sh.games.Lookup(g.Kind)
	if err != nil {
		return nil, nil, err
	}
	if to.User == "" {
		name := sh.ref.StandInName(ctx, rules, g.Guild)
		to = storage.Seat{Computer: name, Name: in.publicTr(ctx).T("seats.computer_name", "Kind", levelName(in.publicTr(ctx), name))}
	}
	before := slices.DeleteFunc(table.HumanWaiting(g, st), func(s engine.Seat) bool { return s == seat })
	h := storage.Handover{Seat: seat, From: g.Seats[seat], To: to, By: by, Resigned: resigned, At: sh.now(), Version: g.Version}
	handOver := func(r *storage.Game) error {
		r.Seats[seat] = to
		r.Handovers = append(r.Handovers, h)
		return nil
	}
	// the hand-over and what follows from it (the computer's moves and the
	// deadline, or the end of the game) are one commit
	after := g.Clone()
	if err := handOver(after); err != nil {
		return nil, nil, err
	}
	// the seat left its holder's hands: one more in their reliability
	counted := func() { sh.tally.add(ctx, g.Guild, h.From.User, storage.Reliability{HandedOver: 1}) }
	if !slices.ContainsFunc(after.Seats, func(s storage.Seat) bool { return s.User != "" }) {
		g, err = sh.store.Commit(ctx, channel, g.Guard(), storage.Outcome{Edit: handOver, Finish: &storage.Ending{Status: storage.StatusAbandoned}})
		if err == nil {
			counted()
		}
		return nil, g, err
	}
	out, err := sh.ref.Conclude(ctx, &table.Outcome{Game: after, State: st, Rules: rules, Seat: engine.Spectator, Change: handOver}, before, nil)
	if out == nil {
		return nil, nil, err
	}
	counted()
	return out, out.Game, err
}

// resolvedName is the display name Discord sent along for a user option's
// user, and whether that user is a bot.
func resolvedName(in *interaction, user string) (name string, bot bool) {
	name = user
	if user == "" {
		return "", false
	}
	res := in.ApplicationCommandData().Resolved
	if res == nil {
		return name, false
	}
	if u, ok := res.Users[user]; ok && u != nil {
		bot = u.Bot
		name = u.Username
		if u.GlobalName != "" {
			name = u.GlobalName
		}
	}
	if m, ok := res.Members[user]; ok && m != nil && m.Nick != "" {
		name = m.Nick
	}
	return name, bot
}

// firstHolders are who held each seat when the game started: the seats as
// they are, with every hand-over undone.
func firstHolders(g *storage.Game) []storage.Seat {
	first := slices.Clone(g.Seats)
	for i := len(g.Handovers) - 1; i >= 0; i-- {
		first[g.Handovers[i].Seat] = g.Handovers[i].From
	}
	return first
}

// holderName is a seat holder's display name, or fallback.
func holderName(s storage.Seat, fallback string) string {
	if s.Name != "" {
		return s.Name
	}
	return fallback
}

// handoverLine is a hand-over as /game log shows it, in p's language.
func handoverLine(p *locale.Printer, h storage.Handover, names []string) string {
	seat := fmt.Sprintf("P%d", h.Seat+1)
	fallback := seat
	if int(h.Seat) < len(names) {
		fallback = names[h.Seat]
	}
	from, to := holderName(h.From, fallback), holderName(h.To, p.T("seats.a_computer"))
	if h.Resigned {
		return p.T("log.resigned", "Seat", seat, "From", from, "To", to)
	}
	return p.T("log.passed", "Seat", seat, "From", from, "To", to)
}
