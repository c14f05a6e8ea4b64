package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
)

// thinker lets the searching computer players (normal, strong) decide
// outside every game lock, on at most as many goroutines at once as it has
// slots: a game whose computer must move is woken (wake); its job loads the
// game, thinks on the copy it loaded, and stores the choice only if the
// game has not moved meanwhile (else it thinks again), then publishes the
// outcome like any other. Games keep a timer armed while a computer is due
// (computerDue), so that a process that stopped mid-thought leaves a
// deadline behind, which the ticker turns into a new wake.
type thinker struct {
	store gameStore
	ref   *referee
	pub   *publisher
	log   *slog.Logger
	// budget is the thinking time per decision, in milliseconds of one core
	// of the reference machine (0: each level's own).
	budget int
	slots  chan struct{}
	// stop ends every search at once when the bot closes (end).
	stop context.Context
	end  context.CancelFunc
	// hold, when set (by tests), runs with a slot held before each
	// decision; false abandons the decision, as a process stopped then would.
	hold func(channel string) bool

	mu      sync.Mutex
	idle    *sync.Cond
	running map[string]bool // channels with a job
	again   map[string]bool // woken while their job ran
	closed  bool
}

// maxThinkWait bounds one decision in real time, whatever the machine's
// load: past it the search answers from what it has searched.
const maxThinkWait = 10 * time.Second

func newThinker(workers, budget int, log *slog.Logger) *thinker {
	t := &thinker{log: log, budget: budget, slots: make(chan struct{}, max(workers, 1)),
		running: map[string]bool{}, again: map[string]bool{}}
	t.idle = sync.NewCond(&t.mu)
	t.stop, t.end = context.WithCancel(context.Background())
	return t
}

// thinkers is the number of thinking slots for a configured n: one per
// core at most, and by default one core fewer, which keeps a core for
// answering interactions while computers think.
func thinkers(n int) int {
	cores := runtime.NumCPU()
	switch {
	case n <= 0:
		return max(1, cores-1)
	case n > cores:
		return cores
	}
	return n
}

// wake makes sure a job looks at channel's game soon.
func (t *thinker) wake(channel string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	if t.running[channel] {
		t.again[channel] = true
		return
	}
	t.running[channel] = true
	go t.job(channel)
}

// job moves channel's computers until none is due, then ends.
func (t *thinker) job(channel string) {
	defer func() {
		t.mu.Lock()
		delete(t.running, channel)
		t.idle.Broadcast()
		t.mu.Unlock()
	}()
	for {
		moved := t.step(channel)
		t.mu.Lock()
		again := t.again[channel]
		delete(t.again, channel)
		if t.closed || !moved && !again {
			t.mu.Unlock()
			return
		}
		t.mu.Unlock()
	}
}

// step makes one computer decision in channel's game, if one is due; it
// reports whether it stored one (or found the game moved under it).
func (t *thinker) step(channel string) (moved bool) {
	defer func() {
		if p := recover(); p != nil {
			t.log.Error("recovered from a panic while a computer thought", "channel", channel, "panic", panicText(p), "stack", string(debug.Stack()))
			moved = false
		}
	}()
	g, st, err := t.store.Load(channel)
	if err != nil || g.Status != storage.StatusRunning {
		return false
	}
	p, player, ok := t.ref.thinkingPrompt(g, st, t.budget)
	if !ok {
		return false
	}
	action := t.decide(player, st, p, g)
	if action == "" || t.isClosed() {
		return false // thought out in a hurry: the next start thinks again
	}
	out, err := t.ref.computerTurn(channel, g.Guard(), p.Seat, action)
	switch {
	case errors.Is(err, errStaleClick):
		return true // the game moved while the computer thought: think again
	case err != nil:
		t.log.Error("a computer's move failed", "channel", channel, "game", g.ID, "err", err)
	}
	if out != nil {
		t.pub.notify(out)
	}
	return out != nil
}

// decide thinks about p in a slot, outside every lock; "" when the bot
// closed first.
func (t *thinker) decide(player engine.Player, st engine.State, p engine.Prompt, g *storage.Game) string {
	action := ""
	t.inSlot(func(ctx context.Context) {
		if t.hold == nil || t.hold(g.Channel) {
			action = ai.DecideWithin(ctx, player, st, p, g.Setup.Seed, g.Version)
		}
	})
	return action
}

// inSlot runs think in a slot, with a context that ends at maxThinkWait or
// when the bot closes; false when the bot closed before a slot was free.
func (t *thinker) inSlot(think func(ctx context.Context)) bool {
	select {
	case t.slots <- struct{}{}:
	case <-t.stop.Done():
		return false
	}
	defer func() { <-t.slots }()
	ctx, cancel := context.WithTimeout(t.stop, maxThinkWait)
	defer cancel()
	think(ctx)
	return true
}

// wait returns once no job runs.
func (t *thinker) wait() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.running) > 0 {
		t.idle.Wait()
	}
}

// close stops waking jobs, cuts the searches short and waits for the jobs
// to end; what they were thinking about is left for the next start (the
// game's timer stays armed).
func (t *thinker) close() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.end()
	t.wait()
}

func (t *thinker) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// thinkingPrompt is the first prompt of st that a searching computer seat
// of g must answer, with its player (budget in milliseconds, 0 for its
// level's own).
func (ref *referee) thinkingPrompt(g *storage.Game, st engine.State, budget int) (engine.Prompt, engine.Player, bool) {
	rules, err := ref.games.Lookup(g.Kind)
	if err != nil {
		return engine.Prompt{}, nil, false
	}
	for _, p := range st.Prompts() {
		if int(p.Seat) >= len(g.Seats) || g.Seats[p.Seat].Computer == "" {
			continue
		}
		player, err := ai.LookupThinking(rules, g.Seats[p.Seat].Computer, budget)
		if err == nil && ai.Searching(player) {
			return p, player, true
		}
	}
	return engine.Prompt{}, nil, false
}

// computerTurn applies a searching computer's choice for seat, thought out
// on the game as it stood at at: refused (errStaleClick) when the game has
// moved since. Like play, it lets the other computers answer what falls to
// them and stores it all in one commit.
func (ref *referee) computerTurn(channel string, at storage.Guard, seat engine.Seat, action string) (*outcome, error) {
	defer ref.locks.lock(channel)()
	g, st, err := ref.store.Load(channel)
	if err != nil {
		return nil, err
	}
	if g.ID != at.Game || g.Revision != at.Revision || g.Status != storage.StatusRunning {
		return nil, errStaleClick
	}
	rules, err := ref.games.Lookup(g.Kind)
	if err != nil {
		return nil, err
	}
	before := humanWaiting(g, st)
	secret := engine.IsSecret(st, seat, action)
	events, err := st.Apply(seat, action)
	if err != nil {
		// not wrapped: a computer's refused move is Meeple's failure, and
		// its reason may quote a secret choice
		return nil, fmt.Errorf("computer player of game %d refused: %s", g.ID, engine.DescribeRefusal(seat, action, secret, err))
	}
	out := &outcome{game: g, state: st, rules: rules, seat: seat, action: action, secret: secret, decided: true}
	out.add(events)
	ref.record(out, seat, action)
	return ref.conclude(out, before, nil)
}
