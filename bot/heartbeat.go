package bot

import (
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord asks a client to treat a connection whose heartbeat goes
// unacknowledged as dead ("zombied") and reconnect; discordgo gives up
// only after five missed acknowledgements (more than three minutes at
// Discord's 41 s). ackWatch watches a session's acknowledgements from
// outside discordgo and reconnects once one is half an interval late.
// The interval is learnt from the acknowledgements themselves: the
// longest gap between two of them since the connection was made.
type ackWatch struct {
	s    *discordgo.Session
	b    *Bot
	stop chan struct{}

	mu           sync.Mutex
	last         time.Time     // the latest acknowledgement seen
	gap          time.Duration // the longest gap between two since the connection began
	seen         int           // acknowledgements seen since
	reconnecting bool
}

// ackPoll is how often a session's acknowledgements are looked at before
// its interval is known; after, an eighth of the interval (at most
// maxAckPoll).
const (
	ackPoll    = 100 * time.Millisecond
	maxAckPoll = time.Second
)

// zombieClose is the close code of a connection given up for a missing
// acknowledgement: not 1000 or 1001, which would end the session, so that
// the next connection resumes it.
const zombieClose = 4000

// watchAcks starts watching s; the function it returns stops it.
func (b *Bot) watchAcks(s *discordgo.Session) (w *ackWatch, stop func()) {
	w = &ackWatch{s: s, b: b, stop: make(chan struct{})}
	go w.run()
	var once sync.Once
	return w, func() { once.Do(func() { close(w.stop) }) }
}

// connected starts the count afresh for a new connection.
func (w *ackWatch) connected() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last, w.gap, w.seen, w.reconnecting = time.Time{}, 0, 0, false
}

func (w *ackWatch) run() {
	timer := time.NewTimer(ackPoll)
	defer timer.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-timer.C:
		}
		timer.Reset(w.look(time.Now()))
	}
}

// look notes the session's latest acknowledgement, reconnects when it is
// late, and returns when to look again.
func (w *ackWatch) look(now time.Time) time.Duration {
	w.s.RLock()
	ack := w.s.LastHeartbeatAck
	w.s.RUnlock()
	w.mu.Lock()
	if !ack.Equal(w.last) {
		if w.seen > 0 {
			w.gap = max(w.gap, ack.Sub(w.last))
		}
		w.last = ack
		w.seen++
	}
	// the HELLO counts as one, and the first gap may be the moment
	// between it and the first heartbeat's answer: three make an interval
	late := w.seen >= 3 && !w.reconnecting && now.Sub(w.last) > w.gap+w.gap/2
	w.reconnecting = w.reconnecting || late
	gap := w.gap
	w.mu.Unlock()
	if late {
		w.b.log.Warn("gateway: a heartbeat went unacknowledged; reconnecting", "shard", w.s.ShardID, "interval", gap.String(), "since_ack", now.Sub(ack).Round(time.Millisecond).String())
		go w.reconnect()
	}
	if gap == 0 {
		return ackPoll
	}
	return min(max(gap/8, 10*time.Millisecond), maxAckPoll)
}

// reconnect closes the session's connection and opens a new one, which
// resumes the session, trying again with a growing pause until it opens
// or the watch stops.
func (w *ackWatch) reconnect() {
	_ = w.s.CloseWithCode(zombieClose)
	pause := time.Second
	for {
		select {
		case <-w.stop: // the bot is closing its connections
			return
		default:
		}
		err := w.s.Open()
		if err == nil || err == discordgo.ErrWSAlreadyOpen {
			w.connected()
			return
		}
		w.b.log.Warn("gateway: reconnecting failed; trying again", "shard", w.s.ShardID, "err", err, "pause", pause.String())
		select {
		case <-w.stop:
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Minute)
	}
}
