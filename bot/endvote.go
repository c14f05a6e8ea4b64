package bot

import (
	"context"
	"errors"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// The people at a table may end their game before its rules do, as a real
// table does after someone leaves: `/game end`, or the button under a
// resignation or a vote, is one person's vote. The game ends when more
// than half of the people seated at that moment voted; a vote counts while
// its voter keeps a seat. A game ended so is finished with the scores of
// that moment and no winner: ratings count it as a tie among those who
// stayed, ahead of those who left (see package rating).

// endStore is what ending a game by vote needs of storage: the game, and
// Commit, which keeps the deciding vote and the end in one transaction.
type endStore interface {
	gameStore
	Commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error)
}

// endVoteHandler answers /game end and its button.
type endVoteHandler struct {
	store endStore
	locks *table.Locks
	pub   *publisher
}

func (vh *endVoteHandler) register(rt *router) error {
	return errors.Join(
		rt.subcommand(cmdGame, subEnd, func(ctx context.Context, r *transport.Reply, in *interaction) error { return vh.vote(ctx, r, in, 0) }),
		rt.component(verbEndVote, onButton, inGuild, func(ctx context.Context, r *transport.Reply, in *interaction) error {
			return vh.vote(ctx, r, in, in.id.Game)
		}),
	)
}

// tally is where a vote to end a game stands.
type tally struct {
	votes  []string // the votes that count, the new one included
	people int      // the people seated
}

// needed is how many votes end the game: more than half of the people.
func (t tally) needed() int { return t.people/2 + 1 }

func (t tally) passed() bool { return len(t.votes) >= t.needed() }

// countVote adds user's vote to g's votes that still count.
func countVote(g *storage.Game, user string) (t tally, already bool) {
	var people []string
	for _, s := range g.Seats {
		if s.User != "" && !slices.Contains(people, s.User) {
			people = append(people, s.User)
		}
	}
	t.people = len(people)
	for _, v := range g.EndVotes {
		if slices.Contains(people, v) && !slices.Contains(t.votes, v) {
			t.votes = append(t.votes, v)
		}
	}
	if slices.Contains(t.votes, user) {
		return t, true
	}
	t.votes = append(t.votes, user)
	return t, false
}

// errVotesMoved: votes taken elsewhere since the load make this vote the
// one that passes, so it is counted again from a fresh load.
var errVotesMoved = errors.New("the votes changed while counting")

// endVoteButton is the button that votes to end game g.
func endVoteButton(p *locale.Printer, g *storage.Game) discordgo.MessageComponent {
	id := componentID(g.Guard(), verbEndVote, "")
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.T("vote.button"), Style: discordgo.SecondaryButton, CustomID: id},
	}}
}

// vote counts the caller's vote to end the channel's game; game, when not
// 0, is the game the button was drawn for. The vote is announced; the vote
// that passes ends the game, and its final scores are posted.
func (vh *endVoteHandler) vote(ctx context.Context, r *transport.Reply, in *interaction, game uint64) error {
	user := in.user.ID
	var g *storage.Game
	var st engine.State
	var t tally
	count := func() error {
		var err error
		if g, st, err = vh.store.Load(ctx, in.ChannelID); err != nil {
			return err
		}
		if game != 0 && g.ID != game {
			return table.ErrForeign
		}
		if g.Status != storage.StatusRunning {
			return table.ErrNotRunning
		}
		if len(table.SeatsOf(g, user)) == 0 {
			return table.ErrNotSeated
		}
		var already bool
		if t, already = countVote(g, user); already {
			return refuseWith("vote.already", "ID", g.ID, "Votes", len(t.votes), "Count", t.needed())
		}
		if !t.passed() {
			// Counted again on the stored record: another process may
			// have taken a vote since the load.
			g, err = vh.store.Update(ctx, in.ChannelID, g.ID, func(r *storage.Game) error {
				now, already := countVote(r, user)
				switch {
				case already:
					return refuseWith("vote.already", "ID", r.ID, "Votes", len(now.votes), "Count", now.needed())
				case now.passed():
					return errVotesMoved
				}
				r.EndVotes, t = now.votes, now
				return nil
			})
			return err
		}
		res := st.Result()
		res.Winners = nil // ended before its rules say who won
		if len(res.Scores) != len(g.Seats) {
			res.Scores = make([]int, len(g.Seats))
		}
		g, err = vh.store.Commit(ctx, in.ChannelID, g.Guard(), storage.Outcome{
			Edit: func(r *storage.Game) error {
				r.EndVotes, r.EndedByVote = t.votes, true
				return nil
			},
			Finish: &storage.Ending{Status: storage.StatusFinished, Result: &res},
		})
		return err
	}
	err := vh.locks.With(in.ChannelID, count)
	if errors.Is(err, errVotesMoved) { // the votes stored now pass: count once more
		err = vh.locks.With(in.ChannelID, count)
	}
	if err != nil {
		return err
	}
	p := in.publicTr(ctx)
	if !t.passed() {
		var others []string
		var names []string
		for _, s := range g.Seats {
			if s.User != "" && !slices.Contains(t.votes, s.User) && !slices.Contains(others, s.User) {
				others = append(others, s.User)
				names = append(names, "<@"+s.User+">")
			}
		}
		return r.Message(transport.Message{
			Content:  p.T("vote.cast", "User", user, "ID", g.ID, "Votes", len(t.votes), "Needed", t.needed(), "Count", t.people, "Names", joinNames(p, names)),
			Mentions: others, Components: []discordgo.MessageComponent{endVoteButton(p, g)},
		})
	}
	vh.pub.notify(&table.Outcome{Game: g, State: st, Seat: engine.Spectator, Over: true})
	voters := make([]string, len(t.votes))
	for n, v := range t.votes {
		voters[n] = "<@" + v + ">"
	}
	text := p.T("vote.ended", "ID", g.ID, "Names", joinNames(p, voters), "Votes", len(t.votes), "Count", t.people) + " "
	if slices.ContainsFunc(g.Handovers, func(h storage.Handover) bool { return h.From.User != "" }) {
		text += p.T("vote.ratings_left")
	} else {
		text += p.T("vote.ratings_tie")
	}
	return r.Message(transport.Message{Content: text, Mentions: []string{}})
}
