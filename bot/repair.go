package bot

import (
	"context"
	"errors"
	"strconv"

	"github.com/meeplegames/meeple/storage"
)

// boardBehind reports whether g's board is known to show an older
// revision than g's (the revision it shows is kept under roleShown,
// saved after each board delivered: one behind missed a delivery, as
// when the process died between the commit and the board's edit), or a
// running g has no board yet. A game whose
// shown revision was never saved (by an older build) is not known to
// be behind.
func boardBehind(g *storage.Game) bool {
	if g.Status != storage.StatusRunning {
		return false
	}
	if g.Messages[roleBoard] == "" {
		return true
	}
	shown, ok := g.Messages[roleShown]
	return ok && shown != strconv.FormatUint(g.Revision, 10)
}

// shown saves that g's board now shows g's revision, with what else
// change sets (nil: nothing); when the record already says so and
// nothing else changes, it writes nothing.
func (p *publisher) shown(ctx context.Context, g *storage.Game, change func(r *storage.Game)) {
	rev := strconv.FormatUint(g.Revision, 10)
	if change == nil && g.Messages[roleShown] == rev {
		return
	}
	if _, err := p.store.Update(ctx, g.Channel, g.ID, func(r *storage.Game) error {
		if change != nil {
			change(r)
		}
		setMessage(r, roleShown, rev)
		return nil
	}); err != nil && !errors.Is(err, storage.ErrNotFound) {
		p.log.Warn("saving what the board shows failed", "game", g.ID, "err", err)
	}
}

// repair queues a pass that brings channel's board and pings up to the
// stored game when the board is behind it (boardBehind), or in any case
// with force; a board up to date costs a store read and no call.
func (p *publisher) repair(channel string, force bool) {
	p.queue(channel, func(j *pubJob) {
		j.repair = true
		j.force = j.force || force
	})
}

// repairStale repairs the board of channel after a click on message
// (its id) was refused as out of date: forced when message is the
// game's board itself, whose revision is then behind the game's.
func (p *publisher) repairStale(ctx context.Context, channel, message string) {
	g, err := p.store.Get(ctx, channel)
	if err != nil {
		return
	}
	clickedBoard := message != "" && message == g.Messages[roleBoard]
	if clickedBoard || boardBehind(g) {
		p.repair(channel, clickedBoard)
	}
}

// repairBoards brings the boards of guilds' running games that fell
// behind their stored game (boardBehind) up to date, with their pings:
// what a process that died between a commit and the board's edit left
// undone. Only the games this process's shards hold are looked at, one
// store read per guild; a board up to date costs nothing more, and each
// repair goes through the paced send path.
func (b *Bot) repairBoards(guilds []string) {
	if !b.enter() {
		return
	}
	defer b.leave()
	defer b.recoverPanic("a board repair", nil)
	repaired := 0
	for _, guild := range guilds {
		if !b.cfg.Shards.Holds(guild) {
			continue
		}
		games, err := b.active.ListActive(b.life, guild)
		if err != nil {
			b.log.Warn("listing active games to repair their boards failed", "guild", guild, "err", err)
			continue
		}
		for _, g := range games {
			if boardBehind(g) {
				b.pub.repair(g.Channel, false)
				repaired++
			}
		}
	}
	if repaired > 0 {
		b.log.Info("repairing boards left behind their games", "games", repaired)
	}
}
