package bot

import (
	"strconv"
	"sync"
	"unsafe"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/wording"
)

// recentEvents keeps the last public events of each game in memory for the
// board's "Last actions". After a restart it starts empty and fills as the
// game goes on; /game log replays the whole log instead. It holds at most
// recentKept events a game and maxRecentBytes of events in all: past it,
// the games that moved least recently are forgotten (their boards show
// only what happens next, as after a restart).
type recentEvents struct {
	mu    sync.Mutex
	games map[string]*recentGame // by channel
	bytes int                    // the events held, as eventBytes counts them
	limit int                    // the most bytes may reach
	clock uint64                 // counts additions, to find the least recent
}

type recentGame struct {
	events []engine.Event
	bytes  int
	added  uint64 // when events were last added, by recentEvents.clock
}

const recentKept = 20

// maxRecentBytes bounds the events kept: a few KB a game, so thousands of
// games that all moved recently.
const maxRecentBytes = 8 << 20

func newRecentEvents() *recentEvents {
	return &recentEvents{games: map[string]*recentGame{}, limit: maxRecentBytes}
}

// eventBytes is about the memory an event holds: the event, its arguments
// and their strings (texts' ids are shared constants).
func eventBytes(e engine.Event) int {
	n := int(unsafe.Sizeof(e)) + len(e.Text.Args)*int(unsafe.Sizeof(engine.Arg{}))
	for _, a := range e.Text.Args {
		n += len(a.S)
		if a.Sub != nil {
			n += int(unsafe.Sizeof(*a.Sub)) + len(a.Sub.Args)*int(unsafe.Sizeof(engine.Arg{}))
		}
	}
	return n
}

func (r *recentEvents) add(channel string, events []engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.games[channel]
	if g == nil {
		g = &recentGame{}
	}
	for _, e := range events {
		if e.Private || e.Text.IsZero() {
			continue
		}
		g.events = append(g.events, e)
		g.bytes += eventBytes(e)
		r.bytes += eventBytes(e)
	}
	if n := len(g.events); n > recentKept {
		for _, e := range g.events[:n-recentKept] {
			g.bytes -= eventBytes(e)
			r.bytes -= eventBytes(e)
		}
		g.events = append([]engine.Event(nil), g.events[n-recentKept:]...)
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

// last returns a summary of what happened lately in at most n lines,
// oldest first, written with w, for a glance: the changes one cause made to several seats
// in a row share one line ("dice paid: P1 -19 £ · P2 -15 £"), joined to a
// headline they follow; headline events (a reveal of secret choices, the
// end) are always kept, then the latest other lines fill what is left, new
// phases last of all.
func (r *recentEvents) last(channel string, n int, w *wording.Words) []string {
	r.mu.Lock()
	var events []engine.Event
	if g := r.games[channel]; g != nil {
		events = append(events, g.events...)
	}
	r.mu.Unlock()
	lines := summarize(events, w)
	keep := make([]bool, len(lines))
	left := n
	for _, rank := range []int{rankHeadline, rankOther, rankPhase} {
		for i := len(lines) - 1; i >= 0 && left > 0; i-- {
			if lines[i].rank == rank && !keep[i] {
				keep[i] = true
				left--
			}
		}
	}
	out := make([]string, 0, n)
	for i, l := range lines {
		if keep[i] {
			out = append(out, l.text)
		}
	}
	return out
}

// How much a summary line matters at a glance.
const (
	rankPhase    = iota // a new phase began: the board says where the game stands anyway
	rankOther           // an action or a change
	rankHeadline        // secret choices revealed, the game's end
)

type summaryLine struct {
	text string
	rank int
}

// summarize turns events into summary lines written with w, joining the
// change lines with one cause that follow each other.
func summarize(events []engine.Event, w *wording.Words) []summaryLine {
	var out []summaryLine
	lastCause := ""
	for _, e := range events {
		rank := rankOther
		switch e.Kind {
		case engine.EventReveal, engine.EventEnd:
			rank = rankHeadline
		case engine.EventPhase:
			rank = rankPhase
		}
		cause, ok := e.Text.Arg("Cause")
		if e.Text.ID != "log.change_cause" || !ok || rank != rankOther {
			out = append(out, summaryLine{w.Event(e), rank})
			lastCause = ""
			continue
		}
		key := cause.S + "#" + strconv.Itoa(int(cause.N))
		switch {
		case key == lastCause && len(out) > 0:
			out[len(out)-1].text += " · " + w.Say(engine.Text{ID: "recent.next", Args: e.Text.Args})
			continue
		case len(out) > 0 && out[len(out)-1].rank == rankHeadline && lastCause == "":
			// what a reveal costs at once is part of the headline
			out[len(out)-1].text += " — " + w.Say(engine.Text{ID: "recent.first", Args: e.Text.Args})
		default:
			out = append(out, summaryLine{w.Say(engine.Text{ID: "recent.first", Args: e.Text.Args}), rankOther})
		}
		lastCause = key
	}
	return out
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
