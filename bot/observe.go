package bot

import (
	"context"
	"errors"
	"github.com/meeplegames/meeple/bot/transport"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// Observer is told what the bot does, for an operator's metrics; package
// metrics implements it with Prometheus instruments. Its methods are
// called on the bot's hot paths, so they must be quick, and from many
// goroutines at once. Config.Observer nil means nobody listens.
type Observer interface {
	// Interaction: one interaction was handled. kind is "command",
	// "autocomplete", "component" or "form"; result "ok", "refused" (the
	// player was told why), "failed" (Meeple's own failure), "panic" or
	// "closing". answer is how long its initial response took to go out
	// (0 when none did), took how long the whole handling took.
	Interaction(kind, result string, answer, took time.Duration)
	transport.Observer
	// StoreWrite: a write to the store took this long; err is its failure.
	// A refusal (a stale version, a game not found) is not a failure of
	// the store and comes with err nil.
	StoreWrite(op string, took time.Duration, err error)
	// GameStarted and GameEnded: a game of kind started, or ended with
	// status ("finished" or "abandoned").
	GameStarted(kind string)
	GameEnded(kind, status string)
	// Rendered: an image ("board", "glance", "mat", "scores") was drawn.
	Rendered(image string, took time.Duration, bytes int)
	// Gateway: a shard's gateway connection went up or down; Resumed: it
	// resumed its session after a drop.
	Gateway(shard int, up bool)
	Resumed(shard int)
}

// noObserver listens to nothing.
type noObserver struct{}

func (noObserver) Interaction(string, string, time.Duration, time.Duration) {}
func (noObserver) REST(string, bool, int, string)                           {}
func (noObserver) PacerQueue(int)                                           {}
func (noObserver) StoreWrite(string, time.Duration, error)                  {}
func (noObserver) GameStarted(string)                                       {}
func (noObserver) GameEnded(string, string)                                 {}
func (noObserver) Rendered(string, time.Duration, int)                      {}
func (noObserver) Gateway(int, bool)                                        {}
func (noObserver) Resumed(int)                                              {}

// interactionKind names an interaction's type for the Observer.
func interactionKind(t discordgo.InteractionType) string {
	switch t {
	case discordgo.InteractionApplicationCommand:
		return "command"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete"
	case discordgo.InteractionMessageComponent:
		return "component"
	case discordgo.InteractionModalSubmit:
		return "form"
	}
	return "other"
}

// outcomeOf names how the router's error ended an interaction.
func outcomeOf(err error) string {
	if err == nil {
		return "ok"
	}
	if _, unexpected := explain(err); unexpected {
		return "failed"
	}
	return "refused"
}

// observedStore times the store's writes and tells the observer of games
// starting and ending. Reads pass through untouched.
type observedStore struct {
	Store
	obs Observer
}

// observeStore wraps s when someone listens.
func observeStore(s Store, obs Observer) Store {
	if _, none := obs.(noObserver); none {
		return s
	}
	return observedStore{Store: s, obs: obs}
}

// storeFailure is err when the store failed, nil when it only refused
// the request (its own sentinels for a game's state).
func storeFailure(err error) error {
	var ve *storage.VersionError
	switch {
	case err == nil, errors.As(err, &ve), errors.Is(err, storage.ErrStale), errors.Is(err, storage.ErrNotFound),
		errors.Is(err, storage.ErrInvalid), errors.Is(err, storage.ErrChannelBusy), errors.Is(err, storage.ErrApplied), errors.Is(err, errProbe):
		return nil
	}
	return err
}

func (o observedStore) timed(op string, start time.Time, err error) {
	o.obs.StoreWrite(op, time.Since(start), storeFailure(err))
}

// caller remembers the error the caller's own function (an Update's fn,
// an Outcome's Edit) returned, which the store hands back: a refusal of
// the bot's ("already seated"), not a failure of the store.
type caller struct{ err error }

// wrap returns fn reporting its error to c; nil stays nil.
func (c *caller) wrap(fn func(*storage.Game) error) func(*storage.Game) error {
	if fn == nil {
		return nil
	}
	return func(g *storage.Game) error {
		c.err = fn(g)
		return c.err
	}
}

// failure is err unless it is the caller's own error.
func (c *caller) failure(err error) error {
	if c.err != nil && errors.Is(err, c.err) {
		return nil
	}
	return err
}

func (o observedStore) Commit(ctx context.Context, channel string, at storage.Guard, out storage.Outcome) (*storage.Game, error) {
	start := time.Now()
	var own caller
	out.Edit = own.wrap(out.Edit)
	g, err := o.Store.Commit(ctx, channel, at, out)
	o.timed("commit", start, own.failure(err))
	if err == nil && g != nil {
		if out.Start {
			o.obs.GameStarted(g.Kind)
		}
		if out.Finish != nil {
			o.obs.GameEnded(g.Kind, string(out.Finish.Status))
		}
	}
	return g, err
}

func (o observedStore) Create(ctx context.Context, g *storage.Game) error {
	start := time.Now()
	err := o.Store.Create(ctx, g)
	o.timed("create", start, err)
	return err
}

// KeepPending is timed as op "pending": a deferred move waits for it.
func (o observedStore) KeepPending(ctx context.Context, p storage.Pending) error {
	start := time.Now()
	err := o.Store.KeepPending(ctx, p)
	o.timed("pending", start, err)
	return err
}

func (o observedStore) Update(ctx context.Context, channel string, game uint64, fn func(g *storage.Game) error) (*storage.Game, error) {
	start := time.Now()
	var own caller
	g, err := o.Store.Update(ctx, channel, game, own.wrap(fn))
	o.timed("update", start, own.failure(err))
	return g, err
}

func (o observedStore) Undo(ctx context.Context, channel string, at storage.Guard, n int) (*storage.Game, engine.State, error) {
	start := time.Now()
	g, st, err := o.Store.Undo(ctx, channel, at, n)
	o.timed("undo", start, err)
	return g, st, err
}

func (o observedStore) Finish(ctx context.Context, channel string, at storage.Guard, status storage.Status, result *engine.Result) (*storage.Game, error) {
	start := time.Now()
	g, err := o.Store.Finish(ctx, channel, at, status, result)
	o.timed("finish", start, err)
	if err == nil && g != nil {
		o.obs.GameEnded(g.Kind, string(status))
	}
	return g, err
}

// observedRenderer times the images it draws.
type observedRenderer struct {
	r   Renderer
	obs Observer
}

// observeRenderer wraps r when there is one and someone listens.
func observeRenderer(r Renderer, obs Observer) Renderer {
	if _, none := obs.(noObserver); none || r == nil {
		return r
	}
	return observedRenderer{r: r, obs: obs}
}

func (o observedRenderer) draw(image string, fn func() ([]byte, error)) ([]byte, error) {
	start := time.Now()
	png, err := fn()
	if err == nil {
		o.obs.Rendered(image, time.Since(start), len(png))
	}
	return png, err
}

func (o observedRenderer) Board(view any, w *wording.Words) ([]byte, error) {
	return o.draw("board", func() ([]byte, error) { return o.r.Board(view, w) })
}

func (o observedRenderer) Glance(view any, w *wording.Words) ([]byte, error) {
	return o.draw("glance", func() ([]byte, error) { return o.r.Glance(view, w) })
}

func (o observedRenderer) Mat(view any, w *wording.Words) ([]byte, error) {
	return o.draw("mat", func() ([]byte, error) { return o.r.Mat(view, w) })
}

func (o observedRenderer) Scores(view any, w *wording.Words) ([]byte, error) {
	return o.draw("scores", func() ([]byte, error) { return o.r.Scores(view, w) })
}

func (o observedRenderer) Chart(p imaging.Progress, w *wording.Words) ([]byte, error) {
	return o.draw("chart", func() ([]byte, error) { return o.r.Chart(p, w) })
}

// gatewayState is which of the bot's gateway shards are connected.
type gatewayState struct {
	mu     sync.Mutex
	shards int          // how many Run opened; 0 when it runs none
	up     map[int]bool // by shard id
}

// set records a shard's connection going up or down.
func (g *gatewayState) set(shard int, up bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.up == nil {
		g.up = map[int]bool{}
	}
	g.up[shard] = up
}

// start and stop mark the gateway as run, with n shards, or not.
func (g *gatewayState) start(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.shards = n
}

func (g *gatewayState) stop() { g.start(0) }

// connected reports whether Run runs the gateway and every shard of it
// is connected.
func (g *gatewayState) connected() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, up := range g.up {
		if up {
			n++
		}
	}
	return g.shards > 0 && n == g.shards
}

// watchGateway follows a shard's connection: up once it is ready or has
// resumed, down when it drops; and it watches its heartbeats' answers
// (ackWatch). It returns the handlers' removers and the watch's stop.
func (b *Bot) watchGateway(s *discordgo.Session) []func() {
	acks, stop := b.watchAcks(s)
	return []func(){
		stop,
		s.AddHandler(func(s *discordgo.Session, _ *discordgo.Ready) {
			acks.connected()
			b.gateway.set(s.ShardID, true)
			b.obs.Gateway(s.ShardID, true)
		}),
		s.AddHandler(func(s *discordgo.Session, _ *discordgo.Resumed) {
			acks.connected()
			b.gateway.set(s.ShardID, true)
			b.obs.Gateway(s.ShardID, true)
			b.obs.Resumed(s.ShardID)
		}),
		s.AddHandler(func(s *discordgo.Session, _ *discordgo.Disconnect) {
			b.gateway.set(s.ShardID, false)
			b.obs.Gateway(s.ShardID, false)
		}),
	}
}

// GatewayUp reports whether the bot's gateway connections (every shard
// Run opened) are up. It is false before Run, after it, and when the bot
// runs without the gateway.
func (b *Bot) GatewayUp() bool { return b.gateway.connected() }

// errProbe ends the store probe's transaction before it writes.
var errProbe = errors.New("readiness probe: nothing to write")

// probeChannel is a channel id no game can have (ids are digits).
const probeChannel = "readiness-probe"

// writeProber is a store that can show that it takes writes by making
// one (boltdb.Store.Writable: a committed write, and room on the disk).
type writeProber interface{ Writable() error }

// StoreWritable reports whether the store takes writes now: the store's
// own probe when it has one (bbolt: a full disk fails it), else a write
// transaction on a channel that holds no game, which ends before writing
// anything (PostgreSQL: a SELECT … FOR UPDATE, which a read-only server
// or transaction refuses). A store opened read-only, closed or
// unreachable fails it.
func (b *Bot) StoreWritable(ctx context.Context) error {
	if p, ok := b.probe.(writeProber); ok {
		return p.Writable()
	}
	_, err := b.probe.Update(ctx, probeChannel, 0, func(*storage.Game) error { return errProbe })
	if err == nil || errors.Is(err, storage.ErrNotFound) || errors.Is(err, errProbe) {
		return nil
	}
	return err
}
