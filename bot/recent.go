package bot

import (
	"strconv"
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/wording"
)

// recentEvents keeps the last public events of each game in memory for the
// board's "Last actions". After a restart it starts empty and fills as the
// game goes on; /game log replays the whole log instead.
type recentEvents struct {
	mu     sync.Mutex
	events map[string][]engine.Event // by channel
}

const recentKept = 20

func newRecentEvents() *recentEvents {
	return &recentEvents{events: map[string][]engine.Event{}}
}

func (r *recentEvents) add(channel string, events []engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range events {
		if e.Private || e.Text.IsZero() {
			continue
		}
		r.events[channel] = append(r.events[channel], e)
	}
	if n := len(r.events[channel]); n > recentKept {
		r.events[channel] = append([]engine.Event(nil), r.events[channel][n-recentKept:]...)
	}
}

// last returns a summary of what happened lately in at most n lines,
// oldest first, written with w, for a glance: the changes one cause made to several seats
// in a row share one line ("dice paid: P1 -19 £ · P2 -15 £"), joined to a
// headline they follow; headline events (a reveal of secret choices, the
// end) are always kept, then the latest other lines fill what is left, new
// phases last of all.
func (r *recentEvents) last(channel string, n int, w *wording.Words) []string {
	r.mu.Lock()
	events := append([]engine.Event(nil), r.events[channel]...)
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
	delete(r.events, channel)
}
