package bot

import (
	"context"
	"crypto/rand"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/transport"
	"github.com/meeplegames/meeple/storage"
)

// pendingStore keeps the moves deferred and not yet answered.
type pendingStore interface {
	storage.PendingReplies
}

// liveGrace is how long a process that shares the store with others
// leaves alone another one's pending reply: a live process answers its
// move within it (the commit's retries take about half a minute), so a
// reply older than that was left by a process that died.
const liveGrace = 2 * time.Minute

// pendingReplies keeps a record of each move whose answer is deferred
// ("thinking…"), from just before the defer until the answer went out
// (transport.Pending), so that a process that died in between leaves it
// behind. A process starting, and each gateway READY, takes the records
// the dead left (answer): while the interaction's token lasts
// (storage.PendingLife) it edits the deferred message into whether the
// move was recorded, which the commit's interaction key tells; an older
// record is dropped without a call. Safe for concurrent use.
type pendingReplies struct {
	store pendingStore
	send  *transport.Sender
	langs *languages
	log   *slog.Logger
	now   func() time.Time
	// owner names this process's records (a value of its own per run),
	// which it never takes; shared is true when other processes use the
	// store (then another's record is taken only past liveGrace)
	owner  string
	shared bool
	// later is set while a pass is scheduled for records still in
	// another process's grace (see Bot.answerPending)
	later atomic.Bool
}

func newPendingReplies(store pendingStore, send *transport.Sender, langs *languages, shared bool, log *slog.Logger, now func() time.Time) *pendingReplies {
	return &pendingReplies{store: store, send: send, langs: langs, log: log, now: now, owner: rand.Text(), shared: shared}
}

// carriesMove reports whether i may carry a move, whose commit keeps i's
// id as its key (table.Request.Key): /play and /free, a component or a form.
// Only those get a pending record, since for them the store can tell
// whether what they asked was done.
func carriesMove(i *discordgo.Interaction) bool {
	switch i.Type {
	case discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit:
		return true
	case discordgo.InteractionApplicationCommand:
		name := i.ApplicationCommandData().Name
		return name == cmdPlay || name == cmdFree
	}
	return false
}

// Keep keeps i's record before its deferred message goes out.
func (pr *pendingReplies) Keep(ctx context.Context, i *discordgo.Interaction) error {
	return pr.store.KeepPending(ctx, storage.Pending{
		ID: i.ID, App: i.AppID, Token: i.Token, Received: pr.now(), Guild: i.GuildID, Channel: i.ChannelID,
		Locale: string(i.Locale), Owner: pr.owner,
	})
}

// Forget forgets i's record once i is answered.
func (pr *pendingReplies) Forget(ctx context.Context, i *discordgo.Interaction) {
	if err := pr.store.DropPending(ctx, i.ID); err != nil {
		pr.log.Warn("forgetting the record of an answered move failed", "channel", i.ChannelID, "err", err)
	}
}

// answer takes the records that processes which died left (every other
// process's, or with a shared store those past liveGrace) and fills in
// each deferred message whose token still lasts: the move was recorded,
// or not. Each edit is a REST call through the send path. It returns how
// long until a record left in another's grace leaves it, or 0 when none
// was left.
func (pr *pendingReplies) answer(ctx context.Context) time.Duration {
	now := pr.now()
	var next time.Time // the earliest a record in another's grace leaves it
	taken, err := pr.store.TakePending(ctx, func(p storage.Pending) bool {
		switch free := p.Received.Add(liveGrace); {
		case p.Owner == pr.owner:
			return false // still being answered here
		case pr.shared && now.Before(free) && now.Sub(p.Received) < storage.PendingLife:
			if next.IsZero() || free.Before(next) {
				next = free
			}
			return false
		}
		return true
	})
	if err != nil {
		pr.log.Warn("taking the moves a stopped process left unanswered failed", "err", err)
	}
	answered := 0
	for _, p := range taken {
		if now.Sub(p.Received) >= storage.PendingLife {
			continue // its token expired: Discord would refuse the edit
		}
		if pr.fill(ctx, p) {
			answered++
		}
	}
	if len(taken) > 0 {
		pr.log.Info("answered the moves a stopped process left unanswered", "taken", len(taken), "answered", answered)
	}
	if next.IsZero() {
		return 0
	}
	return next.Sub(now)
}

// fill edits p's deferred message into whether its move was recorded, in
// its player's language, and reports whether it did. When the store
// cannot tell, p is kept again for the next pass.
func (pr *pendingReplies) fill(ctx context.Context, p storage.Pending) bool {
	recorded, err := pr.store.Committed(ctx, p.ID)
	if err != nil {
		pr.log.Warn("finding whether a move left unanswered was recorded failed", "channel", p.Channel, "err", err)
		if err := pr.store.KeepPending(ctx, p); err != nil {
			pr.log.Warn("keeping a move left unanswered for later failed", "channel", p.Channel, "err", err)
		}
		return false
	}
	id := "play.restarted_lost"
	if recorded {
		id = "play.restarted_recorded"
	}
	text := pr.langs.person(p.Locale).T(id)
	if err := pr.send.EditOriginal(p.App, p.Token, transport.Message{Content: text, Private: true}); transport.Expired(err) {
		pr.log.Info("a move left unanswered could no longer be filled in: Discord forgot its interaction", "channel", p.Channel)
		return false
	} else if err != nil {
		pr.log.Warn("filling in a move left unanswered failed", "channel", p.Channel, "err", transport.DescribeError(err))
		return false
	}
	return true
}

// answerPending fills in the moves a stopped process left unanswered
// (pendingReplies.answer): at start-up and at each gateway READY, and
// once more when another process's grace on some of them runs out.
func (b *Bot) answerPending() {
	if !b.enter() {
		return
	}
	defer b.leave()
	defer b.recoverPanic("answering moves left unanswered", nil)
	if wait := b.pending.answer(b.life); wait > 0 && b.pending.later.CompareAndSwap(false, true) {
		b.cfg.AfterFunc(wait, func() {
			b.pending.later.Store(false)
			b.answerPending()
		})
	}
}
