package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// boardStore is what the publisher needs of the games in storage.
type boardStore interface {
	Get(ctx context.Context, channel string) (*storage.Game, error)
	Load(ctx context.Context, channel string) (*storage.Game, engine.State, error)
	Update(ctx context.Context, channel string, game uint64, fn func(g *storage.Game) error) (*storage.Game, error)
	GetByID(ctx context.Context, id uint64) (*storage.Game, error) // an archived game, for its report
}

// prefsStore reads users' preferences.
type prefsStore interface {
	UserPrefs(ctx context.Context, user string) (storage.UserPrefs, error)
}

// secretPrompter sends the secret prompts of a game to the players who
// take them by DM (dmPrompts): secretPromptsDue says whose are due
// (and counts them as sent), sendSecretPrompts sends those.
type secretPrompter interface {
	secretPromptsDue(ctx context.Context, g *storage.Game, st engine.State) []engine.Seat
	sendSecretPrompts(ctx context.Context, g *storage.Game, st engine.State, due []engine.Seat) (closed []string)
	forgetGame(game uint64)
}

// publisher shows in the channel what changed in a game: the board message
// (edited, or posted anew with an image after a phase), "your move" pings,
// the secret prompts by DM and the final scores. One goroutine per game at
// a time works through the changes in order, coalescing them: however many
// actions arrived meanwhile, one pass edits the board once, to the latest
// state. It delivers through interactions wherever Discord allows (see
// transport/deliver.go): a click on the board is acknowledged at once and the board
// edited as its original message; a new board, the final scores and pings
// go out as an interaction's public follow-up; other edits go through a
// recent click on the board. Only what came with no interaction at hand
// costs a bot-token call. No lock of a game's state is held while it
// talks to Discord.
type publisher struct {
	// life is the bot's lifetime (Bot.life): the store calls of the
	// publisher's workers run under it
	life     context.Context
	store    boardStore
	settings prefsStore
	look     *views
	send     *transport.Sender
	dms      secretPrompter
	handles  *transport.BoardHandles
	cards    *lastCards
	langs    *languages // the server's language of what it posts
	log      *slog.Logger
	now      func() time.Time // the clock of quiet hours
	zones    *zones
	told     headsUps
	// shared is true when other processes publish the same games (this
	// one runs some of several gateway shards): their board edits and
	// this one's can land in either order, so after each edit the game
	// is read again, and the board redrawn if it moved on meanwhile.
	shared bool

	mu      sync.Mutex
	pending map[string]*pubJob  // work not yet started, by channel
	asides  map[string][]func() // work set aside (aside), by key
	running map[string]bool     // channels (and aside keys) with a worker
	idle    *sync.Cond          // on mu: broadcast when no channel has a worker
}

// pubJob is the work waiting for one channel.
type pubJob struct {
	pending []*table.Outcome
	final   *table.Outcome // the game ended
	gone    *storage.Game
	by      string        // who abandoned it
	clicks  []*boardClick // interactions to answer by updating their message
	// repair asks the pass to bring a board that fell behind the stored
	// game up to date, with its pings (see repair.go); force does so even
	// when the board's shown revision is not known
	repair, force bool
	redraw        bool // draw the board afresh (redraw)
}

// boardClick is an interaction that caused a change: when it was on the
// board, the publisher edits the board as its original message; when it
// was in the game's channel, its webhook carries the change's new board,
// ping or final scores as public follow-ups. Both are interaction calls,
// outside the bot token's REST budget.
type boardClick struct {
	r       *transport.Reply
	message *discordgo.Message
	at      time.Time // when its handler queued it
}

// newPublisher is the publisher of a bot; shared is true when other
// processes publish the same games (see publisher.shared).
func newPublisher(life context.Context, store boardStore, settings prefsStore, look *views, send *transport.Sender, dms secretPrompter, langs *languages, shared bool, log *slog.Logger, now func() time.Time) *publisher {
	p := &publisher{life: life, store: store, settings: settings, look: look, send: send, dms: dms, langs: langs, shared: shared, handles: transport.NewBoardHandles(now), cards: newLastCards(), log: log, now: now, zones: &zones{},
		pending: map[string]*pubJob{}, asides: map[string][]func(){}, running: map[string]bool{}}
	p.idle = sync.NewCond(&p.mu)
	return p
}

// notify queues the public side of an outcome.
func (p *publisher) notify(out *table.Outcome) { p.queueOutcome(out, nil) }

// queued is what the publisher keeps of an outcome until its channel's
// next pass, which reads the game anew: whether it began a phase or took
// an action back, who now waits, and its public events. The state and the
// game record stay behind, so that outcomes queued while the REST budget
// holds a channel's board back (hundreds, with a thousand busy games) are
// a few hundred bytes each, not a whole game each.
func queued(o *table.Outcome) *table.Outcome {
	return &table.Outcome{Phase: o.Phase, Undone: o.Undone, Waiting: o.Waiting, Public: o.Public}
}

// notifyVia queues the public side of an outcome that interaction r caused
// (a click on message, or nil for a command or form) and returns at once.
// A click was acknowledged silently when it was routed, before its action
// was stored (a no-op here unless that failed); the publisher then edits
// the board through it when message is the game's board, and posts a new
// board or a ping as r's public follow-up. A command must have answered
// before: its first answer is private.
func (p *publisher) notifyVia(out *table.Outcome, r *transport.Reply, message *discordgo.Message) {
	if message != nil {
		r.DeferUpdate()
	}
	p.queueOutcome(out, &boardClick{r: r, message: message, at: p.now()})
}

func (p *publisher) queueOutcome(out *table.Outcome, c *boardClick) {
	p.queue(out.Game.Channel, func(j *pubJob) {
		if c != nil {
			j.clicks = append(j.clicks, c)
		}
		if out.Over {
			j.final = out
			return
		}
		j.pending = append(j.pending, queued(out))
	})
}

// abandoned announces that a game was abandoned.
func (p *publisher) abandoned(g *storage.Game, by string) {
	p.queue(g.Channel, func(j *pubJob) { j.gone, j.by = g, by })
}

// queue adds work for channel and starts its worker unless one runs.
func (p *publisher) queue(channel string, add func(j *pubJob)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	j := p.pending[channel]
	if j == nil {
		j = &pubJob{}
		p.pending[channel] = j
	}
	add(j)
	if !p.running[channel] {
		p.running[channel] = true
		go p.run(channel)
	}
}

// run publishes channel's work, oldest first, until none is left; work
// queued meanwhile is coalesced into one pass.
func (p *publisher) run(channel string) {
	for {
		p.mu.Lock()
		j := p.pending[channel]
		delete(p.pending, channel)
		if j == nil {
			p.stopped(channel)
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		p.pass(channel, j)
	}
}

// aside runs f after the work set aside before it under key, on a worker
// of its own: the channel's board work goes on meanwhile.
func (p *publisher) aside(key string, f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asides[key] = append(p.asides[key], f)
	if p.running[key] {
		return
	}
	p.running[key] = true
	go func() {
		for {
			p.mu.Lock()
			fs := p.asides[key]
			delete(p.asides, key)
			if len(fs) == 0 {
				p.stopped(key)
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
			for _, f := range fs {
				p.safely(key, f)
			}
		}
	}()
}

// safely runs f, logging a panic.
func (p *publisher) safely(key string, f func()) {
	defer func() {
		if v := recover(); v != nil {
			p.log.Error("recovered from a panic while publishing", "work", key, "panic", table.DescribePanic(v), "stack", string(debug.Stack()))
		}
	}()
	f()
}

// stopped records that key's worker ended; p.mu is held.
func (p *publisher) stopped(key string) {
	delete(p.running, key)
	if len(p.running) == 0 {
		p.idle.Broadcast()
	}
}

// busy is how many channels have board updates (or DMs) under way or
// waiting.
func (p *publisher) busy() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.running)
	for ch := range p.pending {
		if !p.running[ch] {
			n++
		}
	}
	return n
}

// wait returns once no channel has work under way (safe while others
// queue more).
func (p *publisher) wait() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.running) > 0 {
		p.idle.Wait()
	}
}

// pass publishes one job; a panic is logged and the job's clicks are
// answered anyway.
func (p *publisher) pass(channel string, j *pubJob) {
	defer func() {
		if v := recover(); v != nil {
			p.log.Error("recovered from a panic while publishing", "channel", channel, "panic", table.DescribePanic(v), "stack", string(debug.Stack()))
		}
		for _, c := range j.clicks {
			c.r.DeferUpdate() // no-op when answered
		}
	}()
	p.publish(p.life, channel, j)
}

func (p *publisher) publish(ctx context.Context, channel string, work *pubJob) {
	if work.gone != nil {
		p.look.recent.forget(channel)
		p.handles.Forget(channel)
		p.dms.forgetGame(work.gone.ID)
		tr := p.langs.server(ctx, work.gone.Guild)
		p.post(channel, transport.Message{Content: tr.T("board.abandoned", "ID", work.gone.ID, "Name", work.by)}, work.gone.ID)
		return
	}
	var newPhase bool
	var waiting []engine.Seat
	for _, o := range work.pending {
		if o.Undone {
			p.look.recent.forget(channel)
		}
		newPhase = newPhase || o.Phase
		for _, s := range o.Waiting {
			if !slices.Contains(waiting, s) {
				waiting = append(waiting, s)
			}
		}
		p.look.recent.add(channel, o.Public)
	}
	if work.final != nil {
		p.look.recent.add(channel, work.final.Public)
		p.publishFinal(ctx, work.final, work.clicks)
		p.look.images.forget(work.final.Game.ID)
		p.dms.forgetGame(work.final.Game.ID)
		p.look.recent.forget(channel)
		p.handles.Forget(channel)
		return
	}
	g, st, err := p.store.Load(ctx, channel)
	if errors.Is(err, storage.ErrNotFound) {
		return // the game ended meanwhile; its final pass says so
	}
	if err != nil {
		p.log.Error("loading a game to publish failed", "channel", channel, "err", err)
		return
	}
	if g.Status != storage.StatusRunning {
		return
	}
	if work.repair {
		if work.force || boardBehind(g) {
			for _, s := range table.HumanWaiting(g, st) { // the pings a lost pass never sent
				if !slices.Contains(waiting, s) {
					waiting = append(waiting, s)
				}
			}
		} else if len(work.pending) == 0 && !work.redraw {
			return // the board shows the game as it is: nothing to send
		}
	}
	// a player sent their secret prompt by DM is notified by the DM: the
	// channel's ping leaves them out
	dms := p.dms.secretPromptsDue(ctx, g, st)
	still := table.HumanWaiting(g, st)
	var ping []engine.Seat
	for _, s := range waiting {
		if slices.Contains(still, s) && !slices.Contains(dms, s) {
			ping = append(ping, s)
		}
	}
	p.deliverBoard(ctx, g, st, newPhase, work.clicks, p.pingText(ctx, g, st, ping, ""))
	p.headsUp(ctx, g, st)
	if len(dms) > 0 {
		// DMs are bot-token calls, which a global 429 holds: they go on a
		// worker of their own so that the channel's next board never
		// waits for them
		p.aside("dm "+channel, func() {
			for _, user := range p.dms.sendSecretPrompts(ctx, g, st, dms) {
				tr := p.langs.server(ctx, g.Guild) // told once, in the channel
				p.post(g.Channel, transport.Message{Mentions: []string{user}, Content: tr.T("dm.closed", "User", user, "Button", tr.T("board.secret_button"))}, g.ID)
			}
		})
	}
	if p.shared {
		p.redrawIfMoved(ctx, g)
	}
}

// redraw queues a pass that draws channel's board afresh, for a change
// the board shows that is not the game's (a player's absence).
func (p *publisher) redraw(channel string) { p.queue(channel, func(j *pubJob) { j.redraw = true }) }

// redrawIfMoved queues another pass for g's channel when the stored game
// is no longer g, whose board was just shown: another process changed it
// and may have shown its newer board before this older one landed. The
// pass draws the game as it is now; so whichever process edits last
// re-reads the game after its edit, and the board the channel ends with
// shows the game's latest state. It costs a store read per board, and a
// REST call only when another process moved the game meanwhile.
func (p *publisher) redrawIfMoved(ctx context.Context, g *storage.Game) {
	now, err := p.store.Get(ctx, g.Channel)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			p.log.Warn("reading a game after its board was shown failed", "game", g.ID, "err", err)
		}
		return
	}
	if now.ID == g.ID && now.Version == g.Version && now.Deadline.Equal(g.Deadline) {
		return
	}
	p.redraw(g.Channel)
}

// postPingVia posts a ping as the public follow-up of an interaction made
// in the game's channel, or, without one, as a channel message.
func (p *publisher) postPingVia(g *storage.Game, m mention, clicks []*boardClick) {
	if len(m.users) == 0 {
		return
	}
	if _, _, err := p.postVia(g, transport.Message{Content: m.text, Mentions: m.users}, clicks); err != nil {
		p.log.Warn("posting to the channel failed", "game", g.ID, "err", transport.DescribeError(err))
	}
}

// postVia posts m in g's channel: as the public follow-up of one of the
// interactions made there, or, without one, as a channel message (a
// bot-token call). It returns the message and the interaction that
// carried it (nil for a channel message).
func (p *publisher) postVia(g *storage.Game, m transport.Message, clicks []*boardClick) (*discordgo.Message, *boardClick, error) {
	for _, c := range clicks {
		if !c.r.InChannel(g.Channel) {
			continue
		}
		if sent, err := c.r.Followup(m); err == nil {
			return sent, c, nil
		} else if !errors.Is(err, transport.ErrNoHandle) {
			p.log.Debug("a follow-up failed; posting instead", "game", g.ID, "err", transport.DescribeError(err))
		}
	}
	sent, err := p.send.Post(g.Channel, m)
	return sent, nil, err
}

// mention is a ping: its text and the users it may notify.
type mention struct {
	text  string
	users []string
}

// deliverBoard brings the board message and its glance up to date. It is
// the one place that decides how a board reaches Discord:
//
//   - Edit or post: the board is edited in place while the round's phase
//     it was posted in lasts (rolePhase); a new phase, no board yet or a
//     deleted one posts a new board, and the old one's buttons are retired
//     (retire). A ping goes in a new board's text, else in a message of
//     its own.
//   - Through what: an interaction at hand first, whose calls are outside
//     the bot-token budget (the click on the board itself, a recent
//     click's kept handle, or for a post a click's public follow-up:
//     editKept, postVia); only without one, one REST call on the send
//     path.
//   - A channel Discord no longer knows (a deleted thread) pauses the game.
func (p *publisher) deliverBoard(ctx context.Context, g *storage.Game, st engine.State, newPhase bool, clicks []*boardClick, ping mention) {
	tr := p.langs.server(ctx, g.Guild)
	board := p.look.withBoardImage(ctx, tr, g, st) // the glance changes with every decision
	old, oldTag := g.Messages[roleBoard], g.Messages[rolePhase]
	if old != "" && !newPhase && oldTag == cardTag(st) {
		err := p.editKept(g, old, board, clicks)
		if err == nil {
			p.cards.keep(old, board)
		}
		if err == nil || !transport.IsUnknownMessage(err) {
			if err != nil {
				p.log.Warn("editing the board failed", "game", g.ID, "err", transport.DescribeError(err))
				if transport.IsUnknownChannel(err) {
					p.threadGone(ctx, g)
					return
				}
			}
			if err == nil {
				p.shown(ctx, g, nil)
			}
			p.postPingVia(g, ping, clicks)
			return
		}
		// the board message was deleted: post a new one
	}
	m, via, err := p.postVia(g, withPing(board, ping), clicks)
	if err != nil {
		p.log.Warn("posting the board failed", "game", g.ID, "err", transport.DescribeError(err))
		if transport.IsUnknownChannel(err) {
			p.threadGone(ctx, g)
		}
		return
	}
	if old != "" {
		p.retire(g, tr, old, oldTag, clicks) // through the old board's handles, before they go
	}
	if via != nil {
		p.handles.Keep(g.Channel, via.r, m.ID, true, via.at)
	}
	p.cards.keep(m.ID, board)
	phase := cardTag(st)
	p.shown(ctx, g, func(r *storage.Game) {
		setMessage(r, roleBoard, m.ID)
		setMessage(r, rolePhase, phase)
	})
}

// editKept replaces message id of g's channel, which the bot keeps up to
// date, with m: through an interaction at hand (outside the REST budget),
// a click made on it in this pass, else a recent one (transport.BoardHandles); else
// with one REST edit.
func (p *publisher) editKept(g *storage.Game, id string, m transport.Message, clicks []*boardClick) error {
	for _, c := range clicks {
		if c.message != nil && c.message.ID == id {
			p.handles.Keep(g.Channel, c.r, id, false, c.at)
		}
	}
	if m = transport.Fit(m); p.handles.Edit(g.Channel, id, transport.WebhookEdit(m), m) == nil {
		return nil
	}
	return p.send.Edit(g.Channel, id, m)
}

// retire removes the components of an old board message, so that only the
// latest board can be used: through an interaction that can edit it, else
// with a REST edit. A turn card (tag is a cardTag) keeps its last text
// and picture (lastCards) or, after a restart, says it was replaced; a
// board posted before the turn cards keeps its embed.
func (p *publisher) retire(g *storage.Game, tr *locale.Printer, id, tag string, clicks []*boardClick) {
	e, m := transport.RetiredEdit(), transport.Message{}
	if isCardTag(tag) {
		m = p.cards.retired(id, tr)
		e = transport.WebhookEdit(transport.Fit(m))
	}
	for _, c := range clicks {
		if c.message != nil && c.message.ID == id {
			if c.r.EditThrough(id, false, e, m) == nil {
				return
			}
		}
	}
	if p.handles.Edit(g.Channel, id, e, m) == nil {
		return
	}
	var err error
	if m.Card {
		err = p.send.Edit(g.Channel, id, m)
	} else {
		err = p.send.RemoveComponents(g.Channel, id)
	}
	if err != nil && !transport.IsUnknownMessage(err) {
		p.log.Warn("retiring the old board failed", "game", g.ID, "err", transport.DescribeError(err))
	}
}

func (p *publisher) post(channel string, m transport.Message, game uint64) {
	if _, err := p.send.Post(channel, m); err != nil {
		p.log.Warn("posting to the channel failed", "game", game, "err", transport.DescribeError(err))
	}
}

// announce posts m to channel after the announcements queued there before
// it, on a worker of the channel's own, and returns at once: the deadline
// ticker hands a timer's notice over and goes on to the next timer while
// Discord's limits hold the notice back.
func (p *publisher) announce(channel string, m transport.Message, game uint64) {
	p.aside("announce "+channel, func() { p.post(channel, m, game) })
}

// ping announces, in one message, a mention of the users of seats who did
// not opt out of pings. prefix replaces the default text.
func (p *publisher) ping(ctx context.Context, g *storage.Game, st engine.State, seats []engine.Seat, prefix string) {
	if m := p.pingText(ctx, g, st, seats, prefix); len(m.users) > 0 {
		p.announce(g.Channel, transport.Message{Content: m.text, Mentions: m.users}, g.ID)
	}
}

// pingText mentions the users of seats who want pings, with what each must
// decide; it is empty when none does. Those in their quiet hours are named
// without a mention, and their ping is held (holdPings) until the hours
// end.
func (p *publisher) pingText(ctx context.Context, g *storage.Game, st engine.State, seats []engine.Seat, prefix string) mention {
	var users, parts []string
	var hold time.Time
	tr := p.langs.server(ctx, g.Guild) // a public message
	words := p.look.words(tr, g.Kind)
	for _, s := range seats {
		u := g.Seats[s].User
		if u == "" || slices.Contains(users, u) {
			continue
		}
		prefs, err := p.settings.UserPrefs(ctx, u)
		if err != nil {
			p.log.Warn("reading preferences failed", "game", g.ID, "err", err)
			continue
		}
		if !prefs.PingOnTurn {
			continue
		}
		if until := p.zones.quietUntil(prefs, p.now()); !until.IsZero() {
			// named, not notified; the game's reminder pings them when
			// their quiet hours end
			parts = append(parts, fmt.Sprintf("<@%s> (%s; %s)", u, promptLabel(words, st, s), tr.T("botgame.quiet_until", "When", fmt.Sprintf("<t:%d:t>", until.Unix()))))
			if hold.IsZero() || until.Before(hold) {
				hold = until.UTC()
			}
			continue
		}
		users = append(users, u)
		parts = append(parts, fmt.Sprintf("<@%s> (%s)", u, promptLabel(words, st, s)))
	}
	if !hold.IsZero() {
		p.holdPings(ctx, g, hold)
	}
	if len(parts) == 0 {
		return mention{}
	}
	if prefix == "" {
		prefix = tr.T("board.your_move")
	}
	return mention{text: tr.T("botgame.ping", "Prefix", prefix, "Names", strings.Join(parts, ", ")), users: users}
}

// holdPings makes g's reminder come by until, when the quiet hours of a
// player who was left out of a ping end: the reminder then pings those
// the game still waits for. The reminder is a timer of the game's record,
// so a held ping survives a restart, and the store hands each timer to
// one process once, so it fires once.
func (p *publisher) holdPings(ctx context.Context, g *storage.Game, until time.Time) {
	_, err := p.store.Update(ctx, g.Channel, g.ID, func(r *storage.Game) error {
		if r.Status == storage.StatusRunning && (r.RemindAt.IsZero() || until.Before(r.RemindAt)) {
			r.RemindAt = until
		}
		return nil
	})
	if err != nil {
		p.log.Warn("holding a ping for quiet hours failed", "game", g.ID, "err", err)
	}
}

// promptLabel says what seat must decide, written by words: its prompts'
// labels, each once.
func promptLabel(words *wording.Words, st engine.State, seat engine.Seat) string {
	var labels []string
	for _, p := range table.PromptsOf(st, seat) {
		if label := words.Label(p); !slices.Contains(labels, label) {
			labels = append(labels, label)
		}
	}
	return strings.Join(labels, "; ")
}

// publishFinal retires the board and posts the final scores.
func (p *publisher) publishFinal(ctx context.Context, out *table.Outcome, clicks []*boardClick) {
	g, st := out.Game, out.State
	tr := p.langs.server(ctx, g.Guild)
	if old := g.Messages[roleBoard]; old != "" {
		board := withoutActions(p.look.withBoardImage(ctx, tr, g, st)) // the glance of the final position
		if err := p.editKept(g, old, board, clicks); err != nil && !transport.IsUnknownMessage(err) {
			p.log.Warn("retiring the board failed", "game", g.ID, "err", transport.DescribeError(err))
		}
	}
	m := p.look.withScoresImage(tr, g, st, true) // it names the players; nobody must act, so it pings nobody
	if _, _, err := p.postVia(g, m, clicks); err != nil {
		p.log.Warn("posting to the channel failed", "game", g.ID, "err", transport.DescribeError(err))
		return
	}
	p.postReport(ctx, g, tr, clicks)
}

// postReport posts a finished game's report under its final scores: the
// chart of its scores by round and its players' turn times. It pings
// nobody.
func (p *publisher) postReport(ctx context.Context, g *storage.Game, tr *locale.Printer, clicks []*boardClick) {
	if len(g.Log) != g.Version { // a record without its log: read it whole
		full, err := p.store.GetByID(ctx, g.ID)
		if err != nil {
			p.log.Warn("reading the game for its report failed", "game", g.ID, "err", err)
			return
		}
		g = full
	}
	m, err := p.look.reportMessage(tr, g, false)
	if err != nil {
		p.log.Warn("the game's report failed", "game", g.ID, "err", err)
		return
	}
	if _, _, err := p.postVia(g, m, clicks); err != nil {
		p.log.Warn("posting the game's report failed", "game", g.ID, "err", transport.DescribeError(err))
	}
}
