package transport

import (
	"errors"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Delivery through interactions. Discord does not count an interaction's
// answers against the bot token's limits: its initial response and, for 15
// minutes, the edits of its original message and its follow-ups, all
// through the interaction's own webhook. So the publisher answers a click
// at once (a silent acknowledgement) and then delivers what the click
// changed through it: the board edited as the click's original message,
// a new board and its ping as the click's public follow-up. It also keeps,
// per channel, the latest interactions through which the current board
// can still be edited (a click on it, or the interaction whose follow-up
// it is), so that a change that came with no such interaction (a /play, a
// DM, the private picker) edits the board through them rather than with a
// bot-token call.

// HandleLife is how long after its handler had it an interaction's
// webhook is still used: Discord's 15 minutes, less a margin for the
// seconds an interaction may take to arrive and be answered.
const HandleLife = 14 * time.Minute

// handlesPerChannel is how many interactions are kept for a board; the
// newest is used, and the next when it fails.
const handlesPerChannel = 3

// webhookBurst is how many board edits one interaction's webhook carries
// within webhookWindow: Discord lets an interaction's webhook make 5
// requests in 2 seconds, and its own follow-ups count too. Past it the
// next handle, or a bot-token edit, takes the board.
const (
	webhookBurst  = 3
	webhookWindow = 2 * time.Second
)

// maxHandleChannels bounds the channels with handles kept; past it an
// arbitrary channel's handles go (its next edit is a bot-token call).
const maxHandleChannels = 4096

// ErrNoHandle: no live interaction can edit the message.
var ErrNoHandle = errors.New("no interaction at hand to edit the message through")

// boardHandle is an interaction through whose webhook a board message can
// be edited.
type boardHandle struct {
	r       *Reply
	message string    // the board message it edits
	own     bool      // message is r's follow-up, not its original message
	until   time.Time // when its token is too old to use
}

// BoardHandles keeps the live handles of each channel's board. Safe for
// concurrent use; the publisher's one worker per channel uses them in
// order.
type BoardHandles struct {
	now func() time.Time

	mu   sync.Mutex
	by   map[string][]boardHandle // by channel, newest first
	used map[*Reply][]time.Time   // the latest edits through each handle
}

func NewBoardHandles(now func() time.Time) *BoardHandles {
	return &BoardHandles{now: now, by: map[string][]boardHandle{}, used: map[*Reply][]time.Time{}}
}

// Keep records that r can edit message in channel: as its original
// message (a click on it), or as its follow-up when own. at is when r's
// handler had it (zero: now), from which its token's life is counted.
func (h *BoardHandles) Keep(channel string, r *Reply, message string, own bool, at time.Time) {
	now := h.now()
	if at.IsZero() {
		at = now
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	list, ok := h.by[channel]
	if !ok && len(h.by) >= maxHandleChannels {
		for ch, gone := range h.by {
			for _, hd := range gone {
				delete(h.used, hd.r)
			}
			delete(h.by, ch)
			break
		}
	}
	kept := []boardHandle{{r: r, message: message, own: own, until: at.Add(HandleLife)}}
	for _, old := range list {
		switch {
		case old.r == r:
		case len(kept) < handlesPerChannel && old.message == message && now.Before(old.until):
			kept = append(kept, old)
		default:
			delete(h.used, old.r)
		}
	}
	h.by[channel] = kept
}

// Edit edits message in channel through the newest live interaction that
// can, dropping those that fail; ErrNoHandle when none is left. m is the
// message e carries, for its image's alt text (see EditThrough).
func (h *BoardHandles) Edit(channel, message string, e *discordgo.WebhookEdit, m Message) error {
	for {
		hd, ok := h.live(channel, message)
		if !ok {
			return ErrNoHandle
		}
		if err := hd.r.EditThrough(message, hd.own, e, m); err == nil {
			return nil
		}
		h.drop(channel, hd.r)
	}
}

// live returns the newest live handle that can edit message and has room
// in its webhook's rate limit, and counts the edit against it.
func (h *BoardHandles) live(channel, message string) (boardHandle, bool) {
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, hd := range h.by[channel] {
		if hd.message != message || !now.Before(hd.until) {
			continue
		}
		recent := h.used[hd.r][:0]
		for _, at := range h.used[hd.r] {
			if now.Sub(at) < webhookWindow {
				recent = append(recent, at)
			}
		}
		if len(recent) >= webhookBurst {
			h.used[hd.r] = recent
			continue
		}
		h.used[hd.r] = append(recent, now)
		return hd, true
	}
	return boardHandle{}, false
}

func (h *BoardHandles) drop(channel string, r *Reply) {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := h.by[channel]
	kept := list[:0:0]
	for _, hd := range list {
		if hd.r != r {
			kept = append(kept, hd)
		}
	}
	h.by[channel] = kept
	delete(h.used, r)
}

// Forget drops a channel's handles (its game ended).
func (h *BoardHandles) Forget(channel string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, hd := range h.by[channel] {
		delete(h.used, hd.r)
	}
	delete(h.by, channel)
}

// InChannel reports whether r's interaction was made in the guild channel
// ch, so that its public follow-ups are seen there.
func (r *Reply) InChannel(ch string) bool { return r.i.GuildID != "" && r.i.ChannelID == ch }

// unblockFollowups marks the interaction answered, or its handler done: a follow-up
// waiting for its initial response may go (or give up).
func (r *Reply) unblockFollowups() {
	r.answeredOnce.Do(func() {
		if r.answered != nil {
			close(r.answered)
		}
	})
}

// Followup posts m as a follow-up of the interaction and returns the
// message Discord made. It waits for the handler's initial response (a
// handler may queue work before it answers), and needs a complete one:
// none, a lost interaction, or a deferred message still waiting for its
// content (which a follow-up would fill) is an error, and nothing is sent.
func (r *Reply) Followup(m Message) (*discordgo.Message, error) {
	m = Fit(m)
	if r.answered != nil {
		<-r.answered
	}
	r.mu.Lock()
	ready := !r.lost && (r.state == ackUpdate || r.state == ackMessage && r.edited)
	r.mu.Unlock()
	if !ready {
		return nil, ErrNoHandle
	}
	return r.createFollowup(m)
}

// EditThrough edits message through the interaction's webhook: its
// When m, the message e carries, has a described image or is a card, e
// goes with its alt text and flag (describedCall).
// original message, or its follow-up when own. Only once acknowledged.
func (r *Reply) EditThrough(message string, own bool, e *discordgo.WebhookEdit, m Message) error {
	r.mu.Lock()
	ready := !r.lost && r.state != ackNone
	r.mu.Unlock()
	if !ready {
		return ErrNoHandle
	}
	var err error
	switch {
	case m.raw():
		id := "@original"
		if own {
			id = message
		}
		_, err = describedCall(r.s, "PATCH", discordgo.EndpointWebhookMessage(r.i.AppID, r.i.Token, id), e, m)
	case own:
		_, err = r.s.FollowupMessageEdit(r.i, message, e)
	default:
		_, err = r.s.InteractionResponseEdit(r.i, e)
	}
	return err
}

// RetiredEdit is the webhook edit that leaves a message without its
// components, its text untouched.
func RetiredEdit() *discordgo.WebhookEdit {
	none := []discordgo.MessageComponent{}
	return &discordgo.WebhookEdit{Components: &none}
}
