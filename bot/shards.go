package bot

import (
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/shard"
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

// heldTimers keeps, of the timers due, those of games in guilds whose
// shard this process runs: another process runs the rest.
type heldTimers struct {
	timers timerStore
	games  interface {
		GetByID(id uint64) (*storage.Game, error)
	}
	held shard.Set
}

// ownTimers returns the timers this process handles: all of them when it
// runs every shard.
func ownTimers(timers timerStore, games gameStore, held shard.Set) timerStore {
	if held.Whole() {
		return timers
	}
	return heldTimers{timers: timers, games: games, held: held}
}

func (h heldTimers) Due(now time.Time) ([]storage.Due, error) {
	due, err := h.timers.Due(now)
	if err != nil {
		return nil, err
	}
	out := due[:0]
	for _, d := range due {
		g, err := h.games.GetByID(d.GameID)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if h.held.Holds(g.Guild) {
			out = append(out, d)
		}
	}
	return out, nil
}
