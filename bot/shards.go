package bot

import (
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/storage"
)

// identifyEvery is how long Discord wants between two IDENTIFYs of one
// bot (with a max_concurrency of 1, as for every bot below 150,000 guilds).
const identifyEvery = 5 * time.Second

// shardSessions returns one gateway session per shard the bot runs: the
// bot's own session for the first, and copies of it (same token, same HTTP
// client, so the same REST path) for the others. Each identifies with its
// shard when the count is above 1.
func (b *Bot) shardSessions() ([]*discordgo.Session, error) {
	set := b.cfg.Shards.Normal()
	if err := set.Check(); err != nil {
		return nil, fmt.Errorf("bot: %w", err)
	}
	base := b.send.s
	out := make([]*discordgo.Session, 0, len(set.IDs))
	for i, id := range set.IDs {
		s := base
		if i > 0 {
			var err error
			if s, err = discordgo.New(base.Token); err != nil {
				return nil, fmt.Errorf("bot: a session for shard %d: %w", id, err)
			}
			s.Client, s.UserAgent, s.LogLevel = base.Client, base.UserAgent, base.LogLevel
		}
		s.ShardID, s.ShardCount = id, set.Count
		out = append(out, s)
	}
	return out, nil
}

// openShards connects sessions one after another, cfg.IdentifyEvery apart
// as Discord asks. On a failure it closes those it opened.
func (b *Bot) openShards(sessions []*discordgo.Session) error {
	for i, s := range sessions {
		if i > 0 {
			time.Sleep(b.cfg.IdentifyEvery)
		}
		if err := s.Open(); err != nil {
			closeShards(sessions[:i])
			return fmt.Errorf("bot: connect shard %d of %d to Discord: %w", s.ShardID, s.ShardCount, err)
		}
	}
	return nil
}

// registerOnShardZero registers the slash commands when this process runs
// shard 0: one process of several does it, not each.
func (b *Bot) registerOnShardZero() error {
	if !b.cfg.Shards.Holds("") {
		return nil
	}
	return b.RegisterCommands()
}

// closeShards disconnects every session and returns the first failure.
func closeShards(sessions []*discordgo.Session) error {
	var errs []error
	for _, s := range sessions {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// dueTimers lists the deadlines and reminders a process is to handle now.
type dueTimers interface {
	Due(now time.Time) ([]storage.Due, error)
}

// claimedTimers reads due timers by claiming them, so that of several
// processes (shards) on one store each timer is handled by one. Every
// process claims any game's timers, whichever shard holds the game, so
// that deadlines still fire while the process of a game's shard is down.
type claimedTimers struct {
	claims timerStore
	hold   time.Duration
}

// sharedTimers returns the timers this process handles: those it claims,
// each for hold, after which a timer whose handler died is handed out
// again.
func sharedTimers(timers timerStore, hold time.Duration) dueTimers {
	return claimedTimers{claims: timers, hold: hold}
}

func (c claimedTimers) Due(now time.Time) ([]storage.Due, error) {
	return c.claims.ClaimDue(now, c.hold, nil)
}

// minClaimHold is the shortest a claim on a timer lasts. A process
// handles the timers it claimed one after another; were a claim to run out
// while its process is still on the way to it, another process would take
// the timer too and a deadline could fire twice.
const minClaimHold = 30 * time.Second

// claimHold is how long a claimed timer is left to its process before
// another may take it: four ticks, and at least minClaimHold, so that only
// a process that died (or hung) loses its timers.
func claimHold(tick time.Duration) time.Duration {
	return max(4*tick, minClaimHold)
}

// rearmWindow is how recent an action after a passed deadline must be for
// the deadline to count as on its way to being replaced.
const rearmWindow = 10 * time.Second

// beingRearmed reports whether g's passed deadline may belong to a decision
// already made: an action came after it, moments ago. The process that
// applied that action writes the next deadline just after the action (a
// second write), and another process reading in between would let a
// computer stand in for a decision that has only just begun. Such a timer
// is left alone; its claim runs out and it is looked at again, by then
// replaced, or due for a player who still has not decided.
func beingRearmed(g *storage.Game, now time.Time) bool {
	if len(g.Log) == 0 {
		return false
	}
	last := g.Log[len(g.Log)-1].At
	return last.After(g.Deadline) && now.Sub(last) < rearmWindow
}
