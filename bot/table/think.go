package table

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

// Thinker lets the searching computer players (normal, strong) decide
// outside every game lock, on at most as many goroutines at once as it has
// slots: a game whose computer must move is woken (DueGames.Wake, by the
// referee and the deadlines); its job loads the game, thinks on the copy
// it loaded, and stores the choice through the referee only if the game
// has not moved meanwhile (else it thinks again), then publishes the
// outcome like any other. Games keep a timer armed while a computer is due
// (ComputerDue), so that a process that stopped mid-thought leaves a
// deadline behind, which the ticker turns into a new wake.
type Thinker struct {
	store   Store
	ref     *Referee
	publish func(*Outcome)
	due     *DueGames
	log     *slog.Logger
	// budget is the thinking time per decision, in milliseconds of one core
	// of the reference machine (0: each level's own).
	budget int
	slots  chan struct{}
	// stop ends every search, and the store calls of the jobs, at once
	// when the bot closes (end).
	stop context.Context
	end  context.CancelFunc
	// Hold, when set (by tests, before the first wake), runs with a slot
	// held before each decision; false abandons the decision, as a process
	// stopped then would.
	Hold func(channel string) bool
}

// maxThinkWait bounds one decision in real time, whatever the machine's
// load: past it the search answers from what it has searched.
const maxThinkWait = 10 * time.Second

// NewThinker starts a thinker that moves the games woken in due with
// workers slots, through ref, and hands each outcome to publish. Its
// searches and its calls to the store run under ctx, until ctx ends or the
// thinker closes.
func NewThinker(ctx context.Context, due *DueGames, store Store, ref *Referee, publish func(*Outcome), workers, budget int, log *slog.Logger) *Thinker {
	t := &Thinker{store: store, ref: ref, publish: publish, due: due, log: log, budget: budget, slots: make(chan struct{}, max(workers, 1))}
	t.stop, t.end = context.WithCancel(ctx)
	go t.run()
	return t
}

// run starts a job for each game woken, until the thinker closes.
func (t *Thinker) run() {
	for {
		channel, ok := t.due.next()
		if !ok {
			return
		}
		go t.job(t.stop, channel)
	}
}

// ThinkingSlots is the number of thinking slots for a configured n: one per
// core at most, and by default one core fewer, which keeps a core for
// answering interactions while computers think.
func ThinkingSlots(n int) int {
	cores := runtime.NumCPU()
	switch {
	case n <= 0:
		return max(1, cores-1)
	case n > cores:
		return cores
	}
	return n
}

// job moves channel's computers until none is due, then ends.
func (t *Thinker) job(ctx context.Context, channel string) {
	for t.due.again(channel, t.step(ctx, channel)) {
	}
}

// step makes one computer decision in channel's game, if one is due; it
// reports whether it stored one (or found the game moved under it).
func (t *Thinker) step(ctx context.Context, channel string) (moved bool) {
	defer func() {
		if p := recover(); p != nil {
			t.log.Error("recovered from a panic while a computer thought", "channel", channel, "panic", DescribePanic(p), "stack", string(debug.Stack()))
			moved = false
		}
	}()
	g, st, err := t.store.Load(ctx, channel)
	if err != nil || g.Status != storage.StatusRunning {
		return false
	}
	p, player, ok := t.ref.thinkingPrompt(ctx, g, st, t.budget)
	if !ok {
		return false
	}
	action := t.Decide(player, st, p, g)
	if action == "" || t.isClosed() {
		return false // thought out in a hurry: the next start thinks again
	}
	out, err := t.ref.computerTurn(ctx, channel, g.Guard(), p.Seat, action)
	switch {
	case errors.Is(err, ErrStaleClick):
		return true // the game moved while the computer thought: think again
	case err != nil:
		t.log.Error("a computer's move failed", "channel", channel, "game", g.ID, "err", err)
	}
	if out != nil {
		t.publish(out)
	}
	return out != nil
}

// Decide thinks about p in a slot, outside every lock; "" when the
// thinker closed first.
func (t *Thinker) Decide(player engine.Player, st engine.State, p engine.Prompt, g *storage.Game) string {
	action := ""
	t.inSlot(func(ctx context.Context) {
		if t.Hold == nil || t.Hold(g.Channel) {
			action = ai.DecideWithin(ctx, player, st, p, g.Setup.Seed, g.Version)
		}
	})
	return action
}

// inSlot runs think in a slot, with a context that ends at maxThinkWait or
// when the bot closes; false when the bot closed before a slot was free.
func (t *Thinker) inSlot(think func(ctx context.Context)) bool {
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

// Suggest thinks out a hint for p in a slot, like a computer's decision;
// false when the thinker closed first.
func (t *Thinker) Suggest(m ai.Search, st engine.State, p engine.Prompt, g *storage.Game) (ai.Choice, bool) {
	var c ai.Choice
	ok := t.inSlot(func(ctx context.Context) { c = ai.Suggest(ctx, m, st, p, g.Setup.Seed, g.Version) })
	return c, ok
}

// Budget is the thinking time per decision in milliseconds (0: each
// level's own).
func (t *Thinker) Budget() int { return t.budget }

// Wait returns once no game is woken and no job runs.
func (t *Thinker) Wait() { t.due.wait() }

// Close stops waking jobs, cuts the searches short and waits for the jobs
// to end; what they were thinking about is left for the next start (the
// game's timer stays armed).
func (t *Thinker) Close() {
	t.due.close()
	t.end()
	t.due.wait()
}

func (t *Thinker) isClosed() bool { return t.due.isClosed() }

// DueGames carries the games whose searching computer player must move
// from those who find them (the referee, the deadlines) to the thinker,
// which moves them, one job per game at a time. It is built before both,
// so that neither needs the other. Safe for concurrent use; the zero value
// is not: use NewDueGames.
type DueGames struct {
	mu      sync.Mutex
	changed *sync.Cond
	pending []string        // woken, waiting for a job, oldest first
	queued  map[string]bool // in pending
	running map[string]bool // with a job
	woken   map[string]bool // woken again while their job ran
	closed  bool
}

// NewDueGames returns an empty queue.
func NewDueGames() *DueGames {
	q := &DueGames{queued: map[string]bool{}, running: map[string]bool{}, woken: map[string]bool{}}
	q.changed = sync.NewCond(&q.mu)
	return q
}

// Wake makes sure a job looks at channel's game soon.
func (q *DueGames) Wake(channel string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case q.closed, q.queued[channel]:
	case q.running[channel]:
		q.woken[channel] = true
	default:
		q.pending, q.queued[channel] = append(q.pending, channel), true
		q.changed.Broadcast()
	}
}

// next waits for a woken game and hands it to a job; false once closed.
func (q *DueGames) next() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.pending) == 0 && !q.closed {
		q.changed.Wait()
	}
	if q.closed {
		return "", false
	}
	channel := q.pending[0]
	q.pending = q.pending[1:]
	delete(q.queued, channel)
	q.running[channel] = true
	return channel, true
}

// again reports whether channel's job goes on after a step that moved
// (or not) its game: while it moves and whenever it was woken meanwhile,
// unless closed. A job that ends is done with the game.
func (q *DueGames) again(channel string, moved bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	woken := q.woken[channel]
	delete(q.woken, channel)
	if !q.closed && (moved || woken) {
		return true
	}
	delete(q.running, channel)
	q.changed.Broadcast()
	return false
}

// wait returns once no game waits for a job and no job runs.
func (q *DueGames) wait() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.pending) > 0 || len(q.running) > 0 {
		q.changed.Wait()
	}
}

// close drops the games waiting for a job and wakes no more.
func (q *DueGames) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.pending, q.queued = nil, map[string]bool{}
	q.changed.Broadcast()
}

func (q *DueGames) isClosed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.closed
}

// WakeThinker wakes the thinker when a searching computer seat of g must
// answer a prompt of st, and reports whether it did (never without a
// thinker).
func (ref *Referee) WakeThinker(ctx context.Context, g *storage.Game, st engine.State) bool {
	if ref.c.Due == nil {
		return false
	}
	if _, _, due := ref.thinkingPrompt(ctx, g, st, ref.c.Think); !due {
		return false
	}
	ref.c.Due.Wake(g.Channel)
	return true
}

// thinkingPrompt is the first prompt of st that a searching computer seat
// of g must answer, with its player (budget in milliseconds, 0 for its
// level's own).
func (ref *Referee) thinkingPrompt(ctx context.Context, g *storage.Game, st engine.State, budget int) (engine.Prompt, engine.Player, bool) {
	rules, err := ref.c.Games.Lookup(g.Kind)
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
// on the game as it stood at at: refused (ErrStaleClick) when the game has
// moved since. Like play, it lets the other computers answer what falls to
// them and stores it all in one commit.
func (ref *Referee) computerTurn(ctx context.Context, channel string, at storage.Guard, seat engine.Seat, action string) (*Outcome, error) {
	defer ref.c.Locks.Lock(channel)()
	g, st, err := ref.c.Store.Load(ctx, channel)
	if err != nil {
		return nil, err
	}
	if g.ID != at.Game || g.Revision != at.Revision || g.Status != storage.StatusRunning {
		return nil, ErrStaleClick
	}
	rules, err := ref.c.Games.Lookup(g.Kind)
	if err != nil {
		return nil, err
	}
	before := HumanWaiting(g, st)
	secret := engine.IsSecret(st, seat, action)
	events, err := st.Apply(seat, action)
	if err != nil {
		// not wrapped: a computer's refused move is Meeple's failure, and
		// its reason may quote a secret choice
		return nil, fmt.Errorf("computer player of game %d refused: %s", g.ID, engine.DescribeRefusal(seat, action, secret, err))
	}
	out := &Outcome{Game: g, State: st, Rules: rules, Seat: seat, Action: action, Secret: secret, Decided: true}
	out.add(events)
	ref.record(out, seat, action)
	return ref.Conclude(ctx, out, before, nil)
}
