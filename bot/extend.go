package bot

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// More time by vote: /game extend seat:N hours:H proposes H more hours
// for seat N's player (to their bank in a game with time banks, to the
// deadline otherwise). The other people at the table vote with a button;
// more than half of them grant it, and an admin grants it alone. Each
// person proposes at most once a round (the game's phase), and one
// proposal is open at a time; it lapses when the round ends. The
// proposal and its votes are kept with the game (storage.Extension), so
// they survive restarts. seatHandler answers /game extend and its vote
// button.

// voters are the people of g who vote on giving seat's player more time:
// everyone seated but that player.
func voters(g *storage.Game, seat engine.Seat) []string {
	var out []string
	for _, s := range g.Seats {
		if s.User != "" && s.User != g.Seats[seat].User && !slices.Contains(out, s.User) {
			out = append(out, s.User)
		}
	}
	return out
}

// votesNeeded is how many of voters grant more time: more than half.
func votesNeeded(voters []string) int { return len(voters)/2 + 1 }

// grantsTime reports whether e's votes that still count grant it.
func grantsTime(g *storage.Game, e *storage.Extension) (votes int, needed int, granted bool) {
	v := voters(g, e.Seat)
	for _, u := range e.Votes {
		if slices.Contains(v, u) {
			votes++
		}
	}
	return votes, votesNeeded(v), len(v) == 0 || votes >= votesNeeded(v)
}

// grant gives r's seat of e the time e proposes, at now, and closes e: to
// the seat's bank (the deadline follows) or to the game's deadline.
func grant(r *storage.Game, e storage.Extension, now time.Time) {
	r.Extension = nil
	if r.Timing.Banked() {
		table.SetBank(r, e.Seat, table.BankOf(r, e.Seat)+e.Time)
		if seats := waitedSeats(r); len(seats) > 0 && !r.Deadline.IsZero() {
			_, reminder, _ := gameDeadline(r)
			_ = table.BankDeadline(seats, table.StoredWaitStarts(r), reminder, now)(r)
		}
		return
	}
	if !r.Deadline.IsZero() {
		r.Deadline = r.Deadline.Add(e.Time)
	}
}

// propose answers /game extend.
func (sh *seatHandler) propose(ctx context.Context, r *transport.Reply, in *interaction) error {
	user, admin := in.user.ID, isAdmin(in.Interaction)
	n, _ := in.opts.integer(optSeat)
	h, _ := in.opts.integer(optHours)
	var g *storage.Game
	var granted bool
	err := sh.locks.With(in.ChannelID, func() error {
		loaded, st, err := sh.store.Load(ctx, in.ChannelID)
		if err != nil {
			return err
		}
		if loaded.Status != storage.StatusRunning {
			return table.ErrNotRunning
		}
		if len(table.SeatsOf(loaded, user)) == 0 && !admin {
			return table.ErrNotSeated
		}
		seat := engine.Seat(n - 1)
		round := roundTag(st)
		g, err = sh.store.Update(ctx, in.ChannelID, loaded.ID, func(r *storage.Game) error {
			switch {
			case seat < 0 || int(seat) >= len(r.Seats):
				return refuseWith("seats.out_of_range", "ID", r.ID, "Count", len(r.Seats))
			case r.Seats[seat].User == "":
				return refuseWith("extend.computer", "Seat", n)
			case !r.Timing.Banked() && (r.Deadline.IsZero() || !slices.Contains(waitedSeats(r), seat)):
				return refuseWith("extend.not_waiting", "Seat", n)
			case r.Extension != nil && r.Extension.Round == round && !admin:
				return refuseWith("extend.open", "ID", r.ID, "Seat", int(r.Extension.Seat)+1)
			case r.Proposed[user] == round && !admin:
				return refuseWith("extend.once_a_round")
			}
			e := storage.Extension{Seat: seat, By: user, Time: time.Duration(h) * time.Hour, Round: round, At: sh.now()}
			if user != r.Seats[seat].User {
				e.Votes = []string{user}
			}
			if r.Proposed == nil {
				r.Proposed = map[string]string{}
			}
			for u, at := range r.Proposed {
				if at != round {
					delete(r.Proposed, u) // an earlier round's
				}
			}
			r.Proposed[user] = round
			if _, _, ok := grantsTime(r, &e); ok || admin {
				grant(r, e, sh.now())
				granted = true
				return nil
			}
			r.Extension = &e
			return nil
		})
		return err
	})
	if err != nil {
		return err
	}
	p := in.publicTr(ctx)
	if granted {
		sh.pub.redraw(g.Channel)
		return r.Message(transport.Message{Content: grantedText(p, g, engine.Seat(n-1), time.Duration(h)*time.Hour, sh.now()), Mentions: []string{}})
	}
	return r.Message(extendMessage(p, g, user))
}

// extendMessage is the public proposal of g's open extension, by user,
// with its vote button; it names who votes.
func extendMessage(p *locale.Printer, g *storage.Game, user string) transport.Message {
	e := g.Extension
	votes, needed, _ := grantsTime(g, e)
	var names []string
	for _, v := range voters(g, e.Seat) {
		if !slices.Contains(e.Votes, v) {
			names = append(names, "<@"+v+">")
		}
	}
	id := componentID(g.Guard(), verbExtend, "")
	return transport.Message{
		Content: p.T("extend.proposed", "User", user, "Time", humanDuration(p, e.Time), "Seat", int(e.Seat)+1, "ID", g.ID,
			"Votes", votes, "Needed", needed, "Names", joinNames(p, names)),
		Mentions: []string{},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: p.T("extend.button"), Style: discordgo.SuccessButton, CustomID: id},
		}}},
	}
}

// grantedText says that seat of g got d more time, and until when it now
// has (a Discord timestamp) or what its bank holds.
func grantedText(p *locale.Printer, g *storage.Game, seat engine.Seat, d time.Duration, now time.Time) string {
	if g.Timing.Banked() {
		return p.T("extend.granted_bank", "Seat", int(seat)+1, "Time", humanDuration(p, d), "ID", g.ID, "Left", shortDuration(p, table.BankLeft(g, seat, now)))
	}
	return p.T("extend.granted_deadline", "Seat", int(seat)+1, "Time", humanDuration(p, d), "ID", g.ID, "When", fmt.Sprintf("<t:%d:f>", g.Deadline.Unix()))
}

// vote counts the clicker's agreement with the open proposal; the vote
// that makes a majority (or an admin's) grants it.
func (sh *seatHandler) voteExtend(ctx context.Context, r *transport.Reply, in *interaction) error {
	user, admin := in.user.ID, isAdmin(in.Interaction)
	var g *storage.Game
	var granted *storage.Extension
	err := sh.locks.With(in.ChannelID, func() error {
		loaded, st, err := sh.store.Load(ctx, in.ChannelID)
		if err != nil {
			return err
		}
		if loaded.ID != in.id.Game {
			return table.ErrForeign
		}
		if loaded.Status != storage.StatusRunning {
			return table.ErrNotRunning
		}
		round := roundTag(st)
		g, err = sh.store.Update(ctx, in.ChannelID, loaded.ID, func(r *storage.Game) error {
			e := r.Extension
			switch {
			case e == nil || e.Round != round:
				return refuseWith("extend.closed", "ID", r.ID)
			case !slices.Contains(voters(r, e.Seat), user) && !admin:
				return refuseWith("extend.not_voter", "Seat", int(e.Seat)+1)
			case slices.Contains(e.Votes, user):
				return refuseWith("extend.already")
			}
			e.Votes = append(e.Votes, user)
			if _, _, ok := grantsTime(r, e); ok || admin {
				granted = e
				grant(r, *e, sh.now())
			}
			return nil
		})
		return err
	})
	if err != nil {
		return err
	}
	p := in.publicTr(ctx)
	if granted != nil {
		sh.pub.redraw(g.Channel)
		return r.Message(transport.Message{Content: grantedText(p, g, granted.Seat, granted.Time, sh.now()), Mentions: []string{}})
	}
	return r.Message(extendMessage(p, g, g.Extension.By))
}
