package bot

import (
	"context"
	"github.com/meeplegames/meeple/bot/transport"
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// upNext is a state that knows who decides after whoever decides now
// (both games do, where the game goes round the table).
type upNext interface {
	NextSeat() (engine.Seat, bool)
}

// headsUps remembers, by game, whom the last heads-up went to and whose
// turn it was then, so that each turn gives at most one.
type headsUps struct {
	mu   sync.Mutex
	told map[uint64]headsUpTurn
}

type headsUpTurn struct {
	next engine.Seat
	now  string // the seats deciding, as a key
}

// maxHeadsUps bounds the memory of heads-ups; past it, it starts afresh
// (a game may then give a second heads-up for one turn).
const maxHeadsUps = 4096

// first reports whether the heads-up for turn of game is the first.
func (h *headsUps) first(game uint64, turn headsUpTurn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.told[game] == turn {
		return false
	}
	if h.told == nil || len(h.told) >= maxHeadsUps {
		h.told = map[uint64]headsUpTurn{}
	}
	h.told[game] = turn
	return true
}

// headsUp tells the person who decides after the current player, by DM,
// that their turn comes next, when they asked for it (/game prefs
// heads-up:true) and are not in their quiet hours. It is a DM, not a
// ping in the channel: they have nothing to decide yet.
func (p *publisher) headsUp(ctx context.Context, g *storage.Game, st engine.State) {
	n, ok := st.(upNext)
	if !ok {
		return
	}
	next, ok := n.NextSeat()
	if !ok || int(next) >= len(g.Seats) || g.Seats[next].User == "" {
		return
	}
	deciding := humanAndComputerWaiting(st)
	if len(deciding) != 1 || deciding[0] == next {
		return // everyone at once, or it is their turn already
	}
	user := g.Seats[next].User
	prefs, err := p.settings.UserPrefs(ctx, user)
	if err != nil || !prefs.HeadsUp || !p.zones.quietUntil(prefs, p.now()).IsZero() {
		return
	}
	if !p.told.first(g.ID, headsUpTurn{next: next, now: seatNames(g)[deciding[0]]}) {
		return
	}
	tr := p.langs.user(ctx, user)
	text := tr.T("heads_up.text", "Game", kindTitle(tr, p.look.games, g.Kind), "ID", g.ID, "Channel", g.Channel, "Who", seatNames(g)[deciding[0]])
	p.aside("dm "+g.Channel, func() {
		if _, err := p.send.DM(user, transport.Message{Content: text}); err != nil {
			p.log.Warn("sending a heads-up failed", "game", g.ID, "err", transport.DescribeError(err))
		}
	})
}

// humanAndComputerWaiting lists the seats st waits for, each once.
func humanAndComputerWaiting(st engine.State) []engine.Seat {
	var out []engine.Seat
	for _, pr := range st.Prompts() {
		if len(out) == 0 || out[len(out)-1] != pr.Seat {
			out = append(out, pr.Seat)
		}
	}
	return out
}
