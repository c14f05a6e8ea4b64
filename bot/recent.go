package bot

import (
	"sync"

	"github.com/meeplegames/meeple/engine"
)

// recentEvents keeps the last public event texts of each game in memory for
// the board's "Last actions". After a restart it starts empty and fills as
// the game goes on; /game log replays the whole log instead. It holds at
// most recentKept texts a game and maxRecentBytes of text in all: past it,
// the games that moved least recently are forgotten (their boards show
// only what happens next, as after a restart).
type recentEvents struct {
	mu    sync.Mutex
	games map[string]*recentGame // by channel
	bytes int                    // the text held
	limit int                    // the most bytes may reach
	clock uint64                 // counts additions, to find the least recent
}

type recentGame struct {
	text  []string
	bytes int
	added uint64 // when text was last added, by recentEvents.clock
}

const recentKept = 20

// maxRecentBytes bounds the text kept: some 2 KB a game, so 4,000 games
// that all moved recently.
const maxRecentBytes = 8 << 20

func newRecentEvents() *recentEvents {
	return &recentEvents{games: map[string]*recentGame{}, limit: maxRecentBytes}
}

func (r *recentEvents) add(channel string, events []engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.games[channel]
	if g == nil {
		g = &recentGame{}
	}
	for _, e := range events {
		if e.Private || e.Text == "" {
			continue
		}
		g.text = append(g.text, e.Text)
		g.bytes += len(e.Text)
		r.bytes += len(e.Text)
	}
	if n := len(g.text); n > recentKept {
		for _, t := range g.text[:n-recentKept] {
			g.bytes -= len(t)
			r.bytes -= len(t)
		}
		g.text = append([]string(nil), g.text[n-recentKept:]...)
	}
	r.clock++
	g.added = r.clock
	r.games[channel] = g
	for r.bytes > r.limit && len(r.games) > 1 {
		r.forgetLeastRecent(channel)
	}
}

// forgetLeastRecent drops the game other than keep that moved least
// recently; r.mu is held. A scan is cheap beside the actions that fill the
// cache, and runs only when it is full.
func (r *recentEvents) forgetLeastRecent(keep string) {
	oldest := ""
	for ch, g := range r.games {
		if ch != keep && (oldest == "" || g.added < r.games[oldest].added) {
			oldest = ch
		}
	}
	r.bytes -= r.games[oldest].bytes
	delete(r.games, oldest)
}

// last returns up to n texts, oldest first.
func (r *recentEvents) last(channel string, n int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var t []string
	if g := r.games[channel]; g != nil {
		t = g.text
	}
	if len(t) > n {
		t = t[len(t)-n:]
	}
	return append([]string(nil), t...)
}

// forget drops what is kept about channel's game.
func (r *recentEvents) forget(channel string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if g := r.games[channel]; g != nil {
		r.bytes -= g.bytes
		delete(r.games, channel)
	}
}
