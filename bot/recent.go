package bot

import (
	"sync"

	"github.com/meeplegames/meeple/engine"
)

// recentEvents keeps the last public event texts of each game in memory for
// the board's "Last actions". After a restart it starts empty and fills as
// the game goes on; /game log replays the whole log instead.
type recentEvents struct {
	mu    sync.Mutex
	text  map[string][]string // by channel
	pings map[string]string   // the channel's latest turn notice (message id)
}

const recentKept = 20

func newRecentEvents() *recentEvents {
	return &recentEvents{text: map[string][]string{}, pings: map[string]string{}}
}

// swapPing records channel's latest turn notice and returns the one before.
func (r *recentEvents) swapPing(channel, id string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.pings[channel]
	r.pings[channel] = id
	return old
}

func (r *recentEvents) add(channel string, events []engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range events {
		if e.Private || e.Text == "" {
			continue
		}
		r.text[channel] = append(r.text[channel], e.Text)
	}
	if n := len(r.text[channel]); n > recentKept {
		r.text[channel] = append([]string(nil), r.text[channel][n-recentKept:]...)
	}
}

// last returns up to n texts, oldest first.
func (r *recentEvents) last(channel string, n int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.text[channel]
	if len(t) > n {
		t = t[len(t)-n:]
	}
	return append([]string(nil), t...)
}

// forget drops what the bot keeps in memory about channel's game.
func (b *Bot) forget(channel string) {
	b.recent.mu.Lock()
	delete(b.recent.text, channel)
	delete(b.recent.pings, channel)
	b.recent.mu.Unlock()
}
