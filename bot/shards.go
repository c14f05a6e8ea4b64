package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/shard"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/storage"
)

// identifyEvery is how long Discord wants between two IDENTIFYs of one
// rate-limit key (shard id % max_concurrency).
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
	base := b.send.Session()
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
		// discordgo's state would keep every guild's channels, roles,
		// emojis and threads from the gateway, which the bot never reads:
		// at thousands of guilds, megabytes for nothing
		s.StateEnabled = false
		out = append(out, s)
	}
	return out, nil
}

// openShards connects sessions in batches, cfg.IdentifyEvery apart, as
// Discord asks: it lets a bot identify max_concurrency shards at once, one
// of each rate-limit key (shard id % max_concurrency), so the shards whose
// ids divided by max_concurrency are equal form a batch and connect
// together. max_concurrency comes from GET /gateway/bot (1 when that
// fails, the pace every bot may use). On a failure it closes those it
// opened.
func (b *Bot) openShards(sessions []*discordgo.Session) error {
	concurrency := 1
	if len(sessions) > 1 {
		gb, err := b.send.Session().GatewayBot()
		switch {
		case err != nil:
			b.log.Warn("could not read max_concurrency from Discord (GET /gateway/bot); connecting shards one at a time", "error", err)
		case gb.SessionStartLimit.MaxConcurrency > 1:
			concurrency = gb.SessionStartLimit.MaxConcurrency
		}
	}
	var opened []*discordgo.Session
	for i, batch := range identifyBatches(sessions, concurrency) {
		if i > 0 {
			table.Pause(b.cfg.AfterFunc, b.cfg.IdentifyEvery)
		}
		errs := make([]error, len(batch))
		var wg sync.WaitGroup
		for n, s := range batch {
			wg.Go(func() {
				if err := s.Open(); err != nil {
					errs[n] = fmt.Errorf("bot: connect shard %d of %d to Discord: %w", s.ShardID, s.ShardCount, err)
				}
			})
		}
		wg.Wait()
		for n, s := range batch {
			if errs[n] == nil {
				opened = append(opened, s)
			}
		}
		if err := errors.Join(errs...); err != nil {
			closeShards(opened)
			return err
		}
	}
	return nil
}

// identifyBatches groups sessions by shard id / concurrency, in order:
// the sessions of one batch have different rate-limit keys and may
// identify at once.
func identifyBatches(sessions []*discordgo.Session, concurrency int) [][]*discordgo.Session {
	sorted := slices.Clone(sessions)
	slices.SortStableFunc(sorted, func(a, b *discordgo.Session) int { return a.ShardID - b.ShardID })
	var out [][]*discordgo.Session
	for n, s := range sorted {
		if n == 0 || s.ShardID/concurrency != sorted[n-1].ShardID/concurrency {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], s)
	}
	return out
}

// registerOnShardZero registers the slash commands when this process runs
// shard 0: one process of several does it, not each.
func (b *Bot) registerOnShardZero() error {
	if !b.cfg.Shards.Holds("") {
		return nil
	}
	return b.RegisterCommands()
}

// closeShards disconnects every session, all at once, and returns their
// failures.
func closeShards(sessions []*discordgo.Session) error {
	// all at once: discordgo waits a second after each close frame for
	// the server to hang up
	errs := make([]error, len(sessions))
	var wg sync.WaitGroup
	for n, s := range sessions {
		wg.Go(func() { errs[n] = s.Close() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// dueTimers lists the deadlines and reminders a process is to handle now.
type dueTimers interface {
	Due(ctx context.Context, now time.Time) ([]storage.Due, error)
}

// claimedTimers reads due timers by claiming them, so that of several
// processes (shards) on one store each timer is handled by one. A process
// claims the timers of its own shards' games first; another's it claims
// only once they are overdue by grace (their process is down, or behind),
// so that deadlines still fire while the process of a game's shard is
// gone.
type claimedTimers struct {
	claims timerStore
	held   shard.Set
	hold   time.Duration
	grace  time.Duration
}

// sharedTimers returns the timers this process handles: those it claims,
// each for hold, after which a timer whose handler died is handed out
// again.
func sharedTimers(timers timerStore, held shard.Set, tick time.Duration) dueTimers {
	return claimedTimers{claims: timers, held: held, hold: claimHold(tick), grace: 4 * tick}
}

func (c claimedTimers) Due(ctx context.Context, now time.Time) ([]storage.Due, error) {
	if c.held.Whole() {
		return c.claims.ClaimDue(ctx, now, c.hold, nil)
	}
	own, err := c.claims.ClaimDue(ctx, now, c.hold, c.held.Holds)
	if err != nil {
		return nil, err
	}
	// as seen grace ago: due then, and unclaimed then; claimed until
	// now+hold
	stray, err := c.claims.ClaimDue(ctx, now.Add(-c.grace), c.hold+c.grace, nil)
	if err != nil {
		return own, err
	}
	return append(own, stray...), nil
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
