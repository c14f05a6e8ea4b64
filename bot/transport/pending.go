package transport

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"
)

// keepBudget bounds how long a deferred message waits for its pending
// record to be kept: the defer must reach Discord within its 3 seconds
// (AckBudget and keepBudget leave room for the call), so a store slower
// than that lets the defer go first, and the record follows.
const keepBudget = time.Second

// Pending keeps the record of an interaction whose answer is deferred
// (storage.Pending): Keep before its deferred message goes out, Forget
// once it is answered, so that a process that died in between leaves the
// record for the next one, which can still fill the message in.
type Pending interface {
	Keep(ctx context.Context, i *discordgo.Interaction) error
	Forget(ctx context.Context, i *discordgo.Interaction)
}

// KeepPending makes r keep its interaction's record through p before it
// defers a message (DeferMessage, by hand or automatically), and forget
// it when Finish has answered; both run under ctx, the interaction's.
func (r *Reply) KeepPending(ctx context.Context, p Pending) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending, r.pendingCtx = p, ctx
}

// keepPending keeps r's pending record before a deferred message, waiting
// for it keepBudget at most; r.mu is held.
func (r *Reply) keepPending() {
	if r.pending == nil || r.kept != nil {
		return
	}
	kept := make(chan struct{})
	r.kept = kept
	go func() {
		defer close(kept)
		if err := r.pending.Keep(r.pendingCtx, r.i); err != nil {
			r.log.Warn("keeping the record of a deferred answer failed", "channel", r.i.ChannelID, "err", DescribeError(err))
		}
	}()
	late := make(chan struct{})
	stop := r.after(keepBudget, func() { close(late) })
	defer stop()
	select {
	case <-kept:
	case <-late:
	}
}

// forgetPending forgets r's pending record, if one was kept, once the
// keeping is done.
func (r *Reply) forgetPending() {
	r.mu.Lock()
	kept := r.kept
	r.kept = nil
	r.mu.Unlock()
	if kept != nil {
		<-kept
		r.pending.Forget(r.pendingCtx, r.i)
	}
}

// EditOriginal edits the first response of the interaction of app whose
// token is token into m, through its webhook (valid for the token's 15
// minutes): to fill in an answer a process that died left deferred.
func (s *Sender) EditOriginal(app, token string, m Message) error {
	r := &Reply{s: s.interactionSession(), i: &discordgo.Interaction{AppID: app, Token: token}, log: s.log}
	return r.editOriginal(Fit(m))
}
