// Package bot hosts Meeple's games on Discord through discordgo: slash
// commands, buttons, select menus, modals and DMs in; board messages,
// images, pings, reminders and private replies out.
//
// Its core, Bot.HandleInteraction and Bot.HandleDM, does not care how an
// interaction arrived: the gateway (Bot.Run), a test, or any other transport
// can feed it. Answers go out through discordgo's REST client.
// Rules come from engine, images from a renderer and records from a store,
// each behind a small interface defined here; the engine never sees a
// snowflake and nothing secret reaches a public message, an image, a
// custom_id or a log line.
//
// The bot is a set of handlers with narrow dependencies, each registering
// the slash commands and component verbs it answers with the router:
// lobby (lobby.go), play (act.go), the /game views (gamecmd.go), DMs
// (dm.go), deadlines (deadline.go) and admin (admin.go). They share a
// referee that applies actions (package table), a publisher that shows their
// effect in the channel (publish.go), and one send path to Discord
// (package transport) that fits every text to Discord's limits and guards the REST
// budget. A new feature arrives as a new handler registered in New.
//
// A Bot is safe for concurrent use: actions on one game are applied one at a
// time, each to the state the one before it left, under a per-game lock that
// is never held across a render or a Discord call. A panic in a handler is
// recovered, logged with its stack and answered privately.
package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/shard"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/rating"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// gameStore is what the bot needs of the games in storage.
type gameStore interface {
	Create(ctx context.Context, g *storage.Game) error
	Get(ctx context.Context, channel string) (*storage.Game, error)
	GetByID(ctx context.Context, id uint64) (*storage.Game, error)
	// Update edits channel's game if it is still game (its id); fn sees it as it is now.
	Update(ctx context.Context, channel string, game uint64, fn func(g *storage.Game) error) (*storage.Game, error)
	// Commit stores an interaction's whole outcome (a start, actions,
	// deadline, ending) in one transaction on the game and revision at,
	// or nothing.
	Commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error)
	Undo(ctx context.Context, channel string, at storage.Guard, n int) (*storage.Game, engine.State, error)
	Load(ctx context.Context, channel string) (*storage.Game, engine.State, error)
	Finish(ctx context.Context, channel string, at storage.Guard, status storage.Status, result *engine.Result) (*storage.Game, error)
}

// listStore finds games across channels.
type listStore interface {
	ListActive(ctx context.Context, guild string) ([]*storage.Game, error)
	ActiveForUser(ctx context.Context, user string) ([]*storage.Game, error)
	ArchiveForGuild(ctx context.Context, guild string, before uint64, limit int) ([]*storage.Game, error)
}

// settingsStore keeps guild settings and user preferences.
type settingsStore interface {
	GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error)
	PutGuildSettings(ctx context.Context, guild string, s storage.GuildSettings) error
	UserPrefs(ctx context.Context, user string) (storage.UserPrefs, error)
	UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error)
}

// timerStore hands out the deadlines and reminders that have come, each
// to one caller across every process on the store, and again once a
// claim of hold has run out (see storage.Store).
type timerStore interface {
	ClaimDue(ctx context.Context, now time.Time, hold time.Duration, owns func(guild string) bool) ([]storage.Due, error)
}

// Renderer draws the public board, its glance (what the board message
// shows), a player's private mat and the score sheet as PNG bytes from
// engine views, in the words of w: its language, the game's content names
// and the seats' display names. *imaging.Renderer implements it.
type Renderer interface {
	Board(view any, w *wording.Words) ([]byte, error)
	Glance(view any, w *wording.Words) ([]byte, error)
	Mat(view any, w *wording.Words) ([]byte, error)
	Scores(view any, w *wording.Words) ([]byte, error)
	// Chart draws a game report's chart of the scores by round.
	Chart(p imaging.Progress, w *wording.Words) ([]byte, error)
}

// Presenter writes an engine view as plain text for people (the private
// view of /game me, and the board when images are off), in the language
// of words, which names the seats.
type Presenter func(view any, words *wording.Words) (string, error)

// Parts are what a bot is made of. Session, Store and Games are required.
type Parts struct {
	// Session is the discordgo session whose REST client the bot answers
	// through (and whose gateway Run opens).
	Session *discordgo.Session
	Store   Store
	Games   *engine.Registry
	// Renderer draws images; nil means text only.
	Renderer Renderer
	// Text writes views as text; nil leaves it to the images.
	Text Presenter
	// Words are the bot's messages in every language; nil means
	// locale.New's.
	Words *locale.Catalogue
}

// Config is the bot's behaviour; the zero value of each field means its
// default.
type Config struct {
	// AppID is the Discord application id (needed to register commands).
	AppID string
	// DevGuild, when set, registers the commands in that guild only, where
	// they update instantly; otherwise they are global.
	DevGuild string
	// Deadline is how long a player has for a decision when neither the
	// lobby nor the server's admins chose otherwise; 0 with NoDeadline
	// false means 48 hours.
	Deadline   time.Duration
	NoDeadline bool
	// Reminder is how often the player to move is reminded while a
	// decision waits; 0 with NoReminder false means a quarter of the
	// deadline.
	Reminder   time.Duration
	NoReminder bool
	// OnDeadline is what happens when a deadline passes: "computer" (a
	// computer player acts for the absent player; the default) or "pause".
	OnDeadline string
	// Computer is the computer player that stands in at deadlines; "" means
	// "strong", or the game's first named player when it has no strong one.
	Computer string
	// Think is the searching computer players' (normal, strong) budget per
	// decision, in time of one core of the reference machine; 0 means each
	// level's own (normal 100 ms, strong 1 s).
	Think time.Duration
	// Thinkers is how many computer decisions are thought out at once; 0
	// means one per core but one (at least one), more than the machine's
	// cores one per core.
	Thinkers int
	// Images turns board images on (when a Renderer is given).
	Images bool
	// TickEvery is how often deadlines and reminders are checked; 0 means 30 s.
	TickEvery time.Duration
	// Logger receives the bot's log; nil discards it.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// AfterFunc runs f in its own goroutine once d has passed on the
	// clock of Now, and returns what stops it (reporting whether it did):
	// the automatic defer of a slow answer, the pauses between retries of
	// a commit, between batches of shards' IDENTIFYs and between the
	// deadline ticker's checks wait on it. Nil means time.AfterFunc;
	// tests give the clock they move by hand (discordtest.Clock), so that
	// no test waits for real time to pass.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// NewSeed draws the seed of each new game; nil means crypto/rand.
	// Tests set it to replay the same games.
	NewSeed func() (uint64, error)
	// Shards are the gateway shards Run connects; the zero value is the
	// only one (a process alone). A bot answers whatever reaches it: the
	// interactions of its shards' guilds and, on shard 0, every DM. Timers
	// are claimed from the store, so each fires in one process: the one of
	// its game's shard, or any once it is four ticks overdue.
	Shards shard.Set
	// IdentifyEvery is the pause between connecting two batches of shards
	// (max_concurrency shards each, from GET /gateway/bot); 0 means
	// Discord's 5 s.
	IdentifyEvery time.Duration
	// NoGateway makes Run serve without a gateway connection, for a bot
	// that gets its interactions from an HTTP interactions endpoint
	// (HandleHTTPInteraction) only. Such a bot reads no DMs typed as text
	// and hears of no deleted thread.
	NoGateway bool
	// Observer is told what the bot does, for metrics; nil means nobody.
	Observer Observer
	// ShutdownWait bounds how long Run, once its context is done, waits
	// for the work in flight (interactions, DMs, deadline checks and the
	// board updates they caused); past it Run logs what it cut short and
	// returns. 0 means DefaultShutdownWait.
	ShutdownWait time.Duration
}

// DefaultShutdownWait leaves a service manager's usual 30 s stop timeout
// room for closing the gateway and the store after the bot's work.
const DefaultShutdownWait = 15 * time.Second

func (c *Config) defaults() {
	if c.Deadline == 0 && !c.NoDeadline {
		c.Deadline = 48 * time.Hour
	}
	if c.NoDeadline {
		c.Deadline = 0
	}
	if c.NoReminder {
		c.Reminder = 0
	} else if c.Reminder == 0 {
		c.Reminder = c.Deadline / 4
	}
	if c.OnDeadline == "" {
		c.OnDeadline = onDeadlineComputer
	}
	if c.TickEvery == 0 {
		c.TickEvery = 30 * time.Second
	}
	if c.ShutdownWait <= 0 {
		c.ShutdownWait = DefaultShutdownWait
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	c.Logger = slog.New(transport.WithoutTokens(c.Logger.Handler()))
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.AfterFunc == nil {
		c.AfterFunc = transport.RealAfterFunc
	}
	if c.NewSeed == nil {
		c.NewSeed = newSeed
	}
	if c.IdentifyEvery == 0 {
		c.IdentifyEvery = identifyEvery
	}
	if c.Observer == nil {
		c.Observer = noObserver{}
	}
}

// Bot is Meeple on Discord. Build it with New, feed it interactions and DMs
// (or call Run to connect to the gateway), and Close it.
type Bot struct {
	cfg    Config
	log    *slog.Logger
	games  *engine.Registry
	langs  *languages
	send   *transport.Sender
	pub    *publisher
	router *router
	dms    *dmHandler
	timers *deadlines
	// digests sends the daily inbox DMs
	digests *digests
	think   *table.Thinker
	obs     Observer
	// gateway is which shards Run has connected; probe is the store
	// StoreWritable tries (observe.go)
	gateway gatewayState
	probe   gameStore
	// active lists the games whose boards a start-up repairs (repair.go)
	active listStore
	// pending keeps the moves deferred and not yet answered, and fills
	// in those a stopped process left (pending.go)
	pending *pendingReplies

	// gate is held shared by every interaction, DM and deadline check in
	// flight, and exclusively by Close, which sets closing.
	gate     sync.RWMutex
	closing  bool
	inFlight atomic.Int64 // work that entered the gate and has not left
	stopTick chan struct{}
	tickDone chan struct{}
	// life is the bot's lifetime: the store calls of its own work (the
	// publisher's, the deadlines', the digests', the thinker's, the
	// start-up repairs) run under it; end cancels it once Close has let
	// the work in flight finish, or the shutdown's wait ran out.
	life context.Context
	end  context.CancelFunc
}

// Store is everything the bot keeps: games, timers, preferences and
// statistics. *boltdb.Store and *postgres.Store implement it.
type Store interface {
	gameStore
	endStore
	listStore
	settingsStore
	timerStore
	archiveStore
	inboxStore
	digestStore
	pendingStore
}

// New returns a bot built from p and configured by cfg. It wraps the
// session's HTTP client in the send path's limited transport (see
// transport.Sender).
func New(p Parts, cfg Config) (*Bot, error) {
	s, store, render, reg := p.Session, p.Store, p.Renderer, p.Games
	if s == nil || store == nil || reg == nil {
		return nil, errors.New("bot: a session, a store and a game registry are required")
	}
	if cfg.OnDeadline != "" && cfg.OnDeadline != onDeadlineComputer && cfg.OnDeadline != onDeadlinePause {
		return nil, fmt.Errorf("bot: on-deadline %q: want %q or %q", cfg.OnDeadline, onDeadlineComputer, onDeadlinePause)
	}
	cfg.defaults()
	catalogue := p.Words
	if catalogue == nil {
		var err error
		if catalogue, err = locale.New(); err != nil {
			return nil, fmt.Errorf("bot: %w", err)
		}
	}
	langs := &languages{catalogue: catalogue, settings: store, log: cfg.Logger}
	if render == nil {
		cfg.Images = false
	}
	probe := store
	store, render = observeStore(store, cfg.Observer), observeRenderer(render, cfg.Observer)
	send := transport.NewSender(s, cfg.Logger, cfg.Now, cfg.AfterFunc, cfg.Observer)
	locks := table.NewLocks()
	away := &absences{store: store, cfg: &cfg, log: cfg.Logger}
	due := table.NewDueGames()
	budget := int(cfg.Think.Milliseconds())
	life, end := context.WithCancel(context.Background())
	level := func(ctx context.Context, guild string) string {
		s, err := store.GuildSettings(ctx, guild)
		if err != nil {
			return "" // the host's level stands in
		}
		return s.StandIn
	}
	tally := &tallies{store: store, log: cfg.Logger}
	ref := table.NewReferee(table.Config{Store: store, Games: reg, Locks: locks, Now: cfg.Now, After: cfg.AfterFunc, Computer: cfg.Computer, Level: level,
		Think: budget, Due: due, Back: away.back, Decided: tally.decided,
		Away: func(ctx context.Context, g *storage.Game, seats []engine.Seat, now time.Time) map[engine.Seat]string {
			stand, _ := away.of(ctx, g, seats, now)
			return stand
		}})
	look := &views{games: reg, recent: newRecentEvents(), images: newImages(render), render: render, text: p.Text, imagesOn: cfg.Images, log: cfg.Logger,
		away: away, now: cfg.Now}
	prompts := &dmPrompts{settings: store, games: reg, send: send, log: cfg.Logger, now: cfg.Now, langs: langs, menusOnly: cfg.NoGateway}
	pub := newPublisher(life, store, store, look, send, prompts, langs, !cfg.Shards.Whole(), cfg.Logger, cfg.Now)
	dms := &dmHandler{store: store, lists: store, games: reg, ref: ref, pub: pub, send: send, log: cfg.Logger, now: cfg.Now, pending: newPendingDMs(), prompts: prompts, langs: langs}
	think := table.NewThinker(life, due, store, ref, pub.notify, table.ThinkingSlots(cfg.Thinkers), budget, cfg.Logger)
	b := &Bot{life: life, end: end, cfg: cfg, log: cfg.Logger, games: reg, send: send, pub: pub, langs: langs, router: newRouter(langs), dms: dms, obs: cfg.Observer, probe: probe, think: think, active: store,
		pending: newPendingReplies(store, send, langs, !cfg.Shards.Whole(), cfg.Logger, cfg.Now)}
	b.timers = &deadlines{store: store, games: reg, tally: tally, away: away, timers: sharedTimers(store, cfg.Shards, cfg.TickEvery), locks: locks, ref: ref, pub: pub, langs: langs, log: cfg.Logger, think: think, settings: store}
	book := &ratingBook{archive: store, model: rating.DefaultModel()}
	inbox := &inboxHandler{store: store, games: reg}
	b.digests = &digests{store: store, inbox: inbox, send: send, langs: langs, zones: pub.zones, log: cfg.Logger, owns: cfg.Shards.Holds("")}
	handlers := []handler{
		&lobbyHandler{store: store, lists: store, settings: store, games: reg, locks: locks, ref: ref, tally: tally, pub: pub, send: send, cfg: &b.cfg, log: cfg.Logger},
		&playHandler{store: store, games: reg, ref: ref, pub: pub, dms: dms},
		&gameHandler{store: store, lists: store, settings: store, games: reg, ref: ref, think: think, pub: pub, look: look, ratings: book, tally: tally},
		dms,
		&adminHandler{settings: store, cfg: &b.cfg, catalogue: catalogue},
		&seatHandler{store: store, games: reg, locks: locks, tally: tally, ref: ref, pub: pub, now: cfg.Now},
		&endVoteHandler{store: store, locks: locks, pub: pub},
		&pickerHandler{store: store, ref: ref, pub: pub},
		&leaderboardHandler{book: book, games: reg, render: boardsOf(p.Renderer, cfg.Images)},
		inbox,
		&awayHandler{store: store, games: store, pub: pub, cfg: &b.cfg, log: cfg.Logger, now: cfg.Now},
	}
	for _, h := range handlers {
		if err := h.register(b.router); err != nil {
			return nil, fmt.Errorf("bot: %w", err)
		}
	}
	return b, nil
}

// RegisterCommands replaces the application's slash commands with Meeple's
// (one bulk overwrite): in the dev guild when one is configured, globally
// otherwise.
func (b *Bot) RegisterCommands() error {
	if b.cfg.AppID == "" {
		return errors.New("bot: register commands: no application id")
	}
	_, err := b.send.Session().ApplicationCommandBulkOverwrite(b.cfg.AppID, b.cfg.DevGuild, Commands(b.games, b.langs.catalogue))
	if err != nil {
		return fmt.Errorf("bot: register commands: %w", err)
	}
	return nil
}

// HandleInteraction answers one interaction, whatever carried it. It
// returns when the answer and every follow-up are sent; the board update it
// causes may still be on its way (Wait waits for it). A panic while
// answering is recovered: it is logged with its stack and the user is told
// privately.
func (b *Bot) HandleInteraction(ctx context.Context, i *discordgo.Interaction) {
	b.handleInteraction(ctx, i, nil)
}

// HandleHTTPInteraction answers an interaction that an HTTP request
// delivered, as HandleInteraction does, with its initial response in the
// reply to that request (in) rather than a REST call. A response with a
// file (a board image) goes through the REST callback instead, since
// Discord refuses multipart replies to its requests (discord-api-docs
// #5933), and in replies 202.
func (b *Bot) HandleHTTPInteraction(ctx context.Context, i *discordgo.Interaction, in transport.Inline) {
	b.handleInteraction(ctx, i, in)
}

// handleInteraction answers i, its initial response through in when an
// HTTP request waits for it (nil: the REST callback).
func (b *Bot) handleInteraction(ctx context.Context, i *discordgo.Interaction, in transport.Inline) {
	// The store's requests run under ctx's values but not its end: ctx
	// ends when the bot stops, and Close lets work in flight finish.
	ctx = context.WithoutCancel(ctx)
	start := time.Now()
	r := b.send.Reply(i, b.langs.person(string(i.Locale)).T("reply.done"))
	if in != nil {
		r.AnswerInline(in)
	}
	if carriesMove(i) {
		r.KeepPending(ctx, b.pending) // a defer is kept until answered, should the process die meanwhile
	}
	result := "panic" // unless the handling below returns
	defer func() {
		r.Finish()
		if err := r.Done(); transport.Expired(err) {
			b.log.Info("an interaction expired before it was answered", "channel", i.ChannelID, "kind", interactionKind(i.Type), "err", transport.DescribeError(err))
		} else if err != nil {
			b.log.Warn("answering an interaction failed", "channel", i.ChannelID, "kind", interactionKind(i.Type), "err", transport.DescribeError(err))
		}
		b.obs.Interaction(interactionKind(i.Type), result, r.AnswerTime(start), time.Since(start))
		if u := userOf(i); u != nil && i.Type != discordgo.InteractionApplicationCommandAutocomplete {
			guildLocale := ""
			if i.GuildLocale != nil {
				guildLocale = string(*i.GuildLocale)
			}
			b.langs.seen(ctx, i.GuildID, guildLocale, u.ID, string(i.Locale)) // after the answer: it may write
		}
	}()
	if !b.enter() {
		result = "closing"
		if i.Type != discordgo.InteractionApplicationCommandAutocomplete {
			_ = r.Message(transport.Message{Content: refusalText(b.langs.person(string(i.Locale)), errClosing), Private: true})
		}
		return
	}
	defer b.leave()
	defer r.Finish() // before leaving: a Close waits for the answer, and the pending record's end
	defer b.recoverPanic("an interaction", func() { b.fail(r, i, errPanic) }, "channel", i.ChannelID, "kind", interactionKind(i.Type))
	err := b.router.route(ctx, r, i)
	if err != nil {
		b.fail(r, i, err)
	}
	result = outcomeOf(err)
}

// HandleDM takes a secret choice sent to the bot by direct message, such as
// "6 5 3 1". Messages in guild channels and from bots are ignored. A panic
// is recovered, logged and answered like an interaction's.
func (b *Bot) HandleDM(ctx context.Context, m *discordgo.Message) {
	if m == nil || m.Author == nil || m.Author.Bot || m.GuildID != "" {
		return
	}
	// The store's requests run under ctx's values but not its end: ctx
	// ends when the bot stops, and Close lets work in flight finish.
	ctx = context.WithoutCancel(ctx)
	if !b.enter() {
		return
	}
	defer b.leave()
	defer b.recoverPanic("a DM", func() { b.dms.answer(m.ChannelID, transport.Message{Content: b.langs.english().T(genericFailure)}) }, "user", m.Author.ID)
	b.dms.handle(ctx, m)
}

// recoverPanic, deferred, turns a panic into an ERROR log line with the stack
// (never the values in flight: they may be secret) and runs answer.
func (b *Bot) recoverPanic(what string, answer func(), attrs ...any) {
	p := recover()
	if p == nil {
		return
	}
	b.log.Error("recovered from a panic in "+what, append(attrs, "panic", table.DescribePanic(p), "stack", string(debug.Stack()))...)
	if answer != nil {
		defer func() { _ = recover() }() // an answer that panics too is given up
		answer()
	}
}

// enter registers work in flight, or reports false when closing. Work
// that entered calls leave when done.
func (b *Bot) enter() bool {
	b.gate.RLock()
	if b.closing {
		b.gate.RUnlock()
		return false
	}
	b.inFlight.Add(1)
	return true
}

func (b *Bot) leave() {
	b.inFlight.Add(-1)
	b.gate.RUnlock()
}

// fail tells the user why their request failed, privately, and logs
// unexpected errors with the channel (which identifies the game).
func (b *Bot) fail(r *transport.Reply, i *discordgo.Interaction, err error) {
	if transport.Expired(err) {
		return // nothing reaches the user; handleInteraction logs it
	}
	text, unexpected := userMessage(b.langs.person(string(i.Locale)), err)
	if unexpected {
		b.log.Error("interaction failed", "channel", i.ChannelID, "guild", i.GuildID, "kind", interactionKind(i.Type), "err", err)
	}
	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		_ = r.Choices(nil)
		return
	}
	_ = r.Message(transport.Message{Content: text, Private: true})
}

// Wait blocks until every board update, ping and DM under way is sent.
func (b *Bot) Wait() {
	b.think.Wait()
	b.pub.wait()
}

// Close stops taking interactions, lets those in flight finish, sends the
// board updates they caused and stops the deadline ticker. It does not
// close the store or the session, which the caller owns. It is safe to
// call again, also while another Close waits.
func (b *Bot) Close() {
	b.gate.Lock() // waits for the work in flight
	b.closing = true
	stop, done := b.stopTick, b.tickDone // taken by one Close only
	b.stopTick = nil
	b.gate.Unlock()
	b.think.Close()
	b.pub.wait()
	if stop != nil {
		close(stop)
		<-done
	}
	b.end()
}

// StartTicker checks deadlines and reminders every TickEvery until Close.
// Deadlines live in the store, so those that passed while the bot was down
// are handled at the first tick.
func (b *Bot) StartTicker() {
	if b.stopTick != nil {
		return
	}
	b.stopTick, b.tickDone = make(chan struct{}), make(chan struct{})
	go func(stop, done chan struct{}) {
		defer close(done)
		// one timer after another on the bot's clock (Config.AfterFunc),
		// so a test's fake clock drives the ticks too
		tick := make(chan struct{}, 1)
		for {
			b.CheckDeadlines(b.cfg.Now())
			cancel := b.cfg.AfterFunc(b.cfg.TickEvery, func() {
				select {
				case tick <- struct{}{}:
				default:
				}
			})
			select {
			case <-stop:
				cancel()
				return
			case <-tick:
			}
		}
	}(b.stopTick, b.tickDone)
}

// CheckDeadlines handles every deadline and reminder due at now: reminders
// ping the players still to decide; a passed deadline lets a computer player
// decide for them, or pauses the game, as the game was set up. A panic is
// recovered and logged; the next tick tries again.
// It also sends the daily digests that are due (see digests).
func (b *Bot) CheckDeadlines(now time.Time) {
	if !b.enter() {
		return
	}
	defer b.leave()
	defer b.recoverPanic("a deadline check", nil)
	b.timers.check(b.life, now)
	b.digests.check(b.life, now)
}

// Run connects to the gateway, one session per shard in Config.Shards
// (none with Config.NoGateway), registers the commands (the process
// running shard 0 does), checks deadlines every TickEvery, and serves
// until ctx is done; then it closes the bot (in-flight interactions
// finish) and the gateway connections.
func (b *Bot) Run(ctx context.Context) error {
	if b.cfg.NoGateway {
		return b.runWithoutGateway(ctx)
	}
	sessions, err := b.shardSessions()
	if err != nil {
		return err
	}
	var remove []func()
	for _, s := range sessions {
		s.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsDirectMessages
		// Handlers run in the order discordgo emits the events, so a late
		// Disconnect cannot mark a resumed shard down; the slow ones take
		// a goroutine of their own so the gateway reads on.
		s.SyncEvents = true
		remove = append(remove,
			s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
				go b.HandleInteraction(ctx, ic.Interaction)
			}),
			s.AddHandler(func(_ *discordgo.Session, mc *discordgo.MessageCreate) {
				go b.HandleDM(ctx, mc.Message)
			}),
			s.AddHandler(func(_ *discordgo.Session, td *discordgo.ThreadDelete) {
				go b.HandleThreadDelete(td.ID, td.ParentID)
			}),
			s.AddHandler(func(s *discordgo.Session, ready *discordgo.Ready) {
				b.log.Info("connected to Discord", "user", ready.User.Username, "guilds", len(ready.Guilds),
					"shard", s.ShardID, "shards", s.ShardCount)
				guilds := make([]string, 0, len(ready.Guilds))
				for _, g := range ready.Guilds {
					guilds = append(guilds, g.ID)
				}
				go b.repairBoards(guilds) // the boards a crash left behind, in the shard's guilds
				go b.answerPending()      // the moves a stopped process left unanswered
			}),
		)
		remove = append(remove, b.watchGateway(s)...)
	}
	defer func() {
		for _, f := range remove {
			f()
		}
	}()
	if err := b.openShards(sessions); err != nil {
		return err
	}
	b.gateway.start(len(sessions))
	if err := b.serve(ctx); err != nil {
		closeShards(sessions)
		b.gateway.stop()
		return err
	}
	err = closeShards(sessions)
	b.gateway.stop()
	return err
}

// serve registers the commands (the process running shard 0 does), checks
// deadlines every TickEvery, and serves until ctx is done; then it closes
// the bot, letting the interactions in flight finish.
func (b *Bot) serve(ctx context.Context) error {
	if b.cfg.AppID == "" {
		// a bot user's id is its application's id
		me, err := b.send.Session().User("@me")
		if err != nil {
			return fmt.Errorf("bot: who am I: %w", err)
		}
		b.cfg.AppID = me.ID
	}
	if err := b.registerOnShardZero(); err != nil {
		return err
	}
	b.answerPending()
	b.StartTicker()
	<-ctx.Done()
	b.log.Info("shutting down: finishing interactions in flight")
	b.closeWithin(b.cfg.ShutdownWait)
	return nil
}

// closeWithin is Close bounded by d: once d has passed, it logs what is
// still under way, which the process's exit will cut short, and returns.
func (b *Bot) closeWithin(d time.Duration) {
	closed, expired := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(closed)
		b.Close()
	}()
	stop := b.cfg.AfterFunc(d, func() { close(expired) })
	defer stop()
	select {
	case <-closed:
	case <-expired:
		b.end() // what still waits on the store is cut short
		b.log.Warn("shutting down: the work in flight did not finish in time and is cut short", "waited", d.String(),
			"in_flight", b.inFlight.Load(), "board_updates", b.pub.busy())
	}
}

// runWithoutGateway is Run for a bot whose interactions come from an HTTP
// interactions endpoint only (Config.NoGateway).
func (b *Bot) runWithoutGateway(ctx context.Context) error {
	b.log.Info("serving without the gateway: interactions come from the HTTP endpoint; DMs typed as text are not read")
	return b.serve(ctx)
}
