package bot

import (
	"sync"

	"github.com/meeplegames/meeple/engine"
)

// recentEvents keeps the last public event texts of each game in memory for
// the board's "Last actions". After a restart it starts empty and fills as
// the game goes on; /game log replays the whole log instead.
type recentEvents struct {
	mu   sync.Mutex
	text map[string][]string // by channel
}

const recentKept = 20

func newRecentEvents() *recentEvents {
	return &recentEvents{text: map[string][]string{}}
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

// forget drops what is kept about channel's game.
func (r *recentEvents) forget(channel string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.text, channel)
}
