package transport

import (
	"time"

	"github.com/bwmarrin/discordgo"
)

// Inline is the HTTP request that delivered an interaction (Discord's
// interactions endpoint), still waiting for its answer. The interaction's
// initial response goes in the reply to that request when Discord allows
// it, which saves a REST call; edits and follow-ups still go through the
// interaction's webhook. bot/interactions implements it.
type Inline interface {
	// Respond writes resp as the reply to the request and returns once it
	// is written, or with an error when the request no longer waits.
	Respond(resp *discordgo.InteractionResponse) error
	// Accepted replies to the request with 202 and no body, as Discord
	// asks once the initial response went through the REST callback.
	Accepted()
}

// callback sends an initial response: in the reply to the HTTP request
// that delivered the interaction when one waits and resp has no file,
// else with the REST callback. r.mu is held. The HTTP request is answered
// once, whichever way: after that every response takes the REST callback,
// which refuses a second one as Discord does.
func (r *Reply) callback(resp *discordgo.InteractionResponse) error {
	err := r.send(resp)
	if err == nil && r.sentAt.IsZero() {
		r.sentAt = time.Now()
	}
	return err
}

// send is callback without the bookkeeping.
func (r *Reply) send(resp *discordgo.InteractionResponse) error {
	in := r.inline
	if in == nil {
		return r.s.InteractionRespond(r.i, resp)
	}
	r.inline = nil
	if resp.Data == nil || len(resp.Data.Files) == 0 {
		err := in.Respond(resp)
		if err == nil {
			return nil
		}
		// the request gave up waiting (it is past Discord's window, so the
		// callback below is most likely refused as too late, and the reply
		// knows then that the interaction is lost)
		r.log.Warn("the interactions endpoint could not carry an answer", "channel", r.i.ChannelID, "err", err)
	}
	err := r.s.InteractionRespond(r.i, resp)
	in.Accepted()
	return err
}

// AnswerTime is how long after start the initial response went out, or 0.
func (r *Reply) AnswerTime(start time.Time) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sentAt.IsZero() {
		return 0
	}
	return r.sentAt.Sub(start)
}

// AnswerInline makes r's initial response go in the reply to in.
func (r *Reply) AnswerInline(in Inline) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inline = in
}
