package transport

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// inlineAnswers is an HTTP request waiting for an interaction's answer.
type inlineAnswers struct {
	responded chan *discordgo.InteractionResponse
}

func (in inlineAnswers) Respond(resp *discordgo.InteractionResponse) error {
	in.responded <- resp
	return nil
}

func (inlineAnswers) Accepted() {}

// slowKeeper is a store that keeps a pending record only once released.
type slowKeeper struct {
	entered, release, forgot chan struct{}
	kept                     bool
}

func (k *slowKeeper) Keep(context.Context, *discordgo.Interaction) error {
	close(k.entered)
	<-k.release
	k.kept = true
	return nil
}

func (k *slowKeeper) Forget(context.Context, *discordgo.Interaction) {
	if !k.kept {
		panic("forgotten before it was kept")
	}
	close(k.forgot)
}

// A store slower than keepBudget does not hold the deferred message back
// past Discord's 3 seconds: once the budget has passed the defer goes,
// the record is kept when the store answers, and the answer's Finish
// forgets it only after that. (A defer that waited for the store would
// wait here for good, which the test's -timeout reports.)
func TestASlowStoreDoesNotHoldTheDeferBack(t *testing.T) {
	t.Parallel()
	// every timer has run out at once: the automatic defer's is never
	// set off here, the keeping's is
	var budgets []time.Duration
	after := func(d time.Duration, f func()) func() bool {
		budgets = append(budgets, d)
		if d == keepBudget {
			f()
		}
		return func() bool { return false }
	}
	r := newReply(nil, &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, ID: "9", ChannelID: "1"}, slog.New(slog.DiscardHandler), after)
	in := inlineAnswers{responded: make(chan *discordgo.InteractionResponse, 1)}
	r.AnswerInline(in)
	k := &slowKeeper{entered: make(chan struct{}), release: make(chan struct{}), forgot: make(chan struct{})}
	r.KeepPending(context.Background(), k)
	r.DeferMessage(true)
	<-k.entered
	if resp := <-in.responded; resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("the first answer is of type %d, want a deferred message", resp.Type)
	}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		r.Finish()
	}()
	close(k.release)
	<-finished
	<-k.forgot
	if len(budgets) != 2 || budgets[1] != keepBudget {
		t.Errorf("timers set: %v, want the automatic defer's and the keeping's", budgets)
	}
}
