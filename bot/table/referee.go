package table

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
)

// maxComputerMoves bounds the computer moves one human action may set off,
// so a game whose computer players never stop cannot hold a lock forever.
const maxComputerMoves = 2000

// Outcome is what one accepted action, and the computer moves it set off,
// did to a game.
type Outcome struct {
	Game   *storage.Game // after; archived when over
	State  engine.State  // after
	Rules  engine.Rules
	Seat   engine.Seat // who acted (Spectator for a start or a deadline)
	Action string
	Secret bool // the action answered a secret prompt

	Private []engine.Event // the actor's private events
	Public  []engine.Event // public events, in order
	Phase   bool           // a new phase or round began: post a new board image
	Over    bool
	Undone  bool // the action was taken back
	// Decided is true when Seat answered one of its open prompts (not a
	// free action, nor a change to a secret choice already made): its time
	// for that decision is over, so a next decision of its own gets a
	// deadline of its own.
	Decided bool
	// Waiting are the human seats that now have a decision they did not
	// have before: they are pinged, and sent their secret prompt.
	Waiting []engine.Seat
	// Change, when set, is the caller's own edit of the game's fields (a
	// seat handed over), already made to Game, for Conclude to store with
	// the rest.
	Change func(g *storage.Game) error
	// Recorded is true when the commit that stored the action was found
	// already kept, after an answer from the store was lost.
	Recorded bool

	// entries are the actions applied to State and not yet stored; Game's
	// Version already counts them (a computer player's choice depends on
	// it), so the game was loaded at Version-len(entries).
	entries []storage.Entry
	// start is true while the game, loaded in the lobby, is to be started
	// by the commit that stores entries and Change.
	start bool
	// key is the request's Key, for the commit that stores its action.
	key string
}

// Request is one attempt to act on a game.
type Request struct {
	Channel string
	User    string
	Game    uint64 // when not 0, the game the component belonged to
	Offered Offer  // the revision the action was offered at, if any
	Text    string // the action as typed or sent
	// Key is the id of the interaction or DM message that sent the action:
	// the store keeps it with the commit, so that a retry after a lost
	// answer finds the action recorded rather than applying it twice.
	Key string
	// MenuSeat, when set, is the seat a select menu was drawn for: the
	// user must hold it.
	MenuSeat *engine.Seat
}

// Offer is the revision of a game an action was offered at, and how the
// game must still stand when the action is played. The zero Offer checks
// nothing: typed text plays on the game as it is.
type Offer struct {
	Revision uint64
	Hold     Hold
}

// Hold is how an offered revision must still hold. The zero Hold checks
// nothing.
type Hold uint8

const (
	_ Hold = iota
	// HoldRevision: a board's component; the game must not have moved since.
	HoldRevision
	// HoldHistory: a choice that stays open while other players act (a DM
	// menu, a secret picker or form, an autocomplete list); the history it
	// was offered in must not have been taken back (an undo), though it may
	// have grown (see storage.Game.Extends).
	HoldHistory
)

// Referee applies actions to games: the player's, then the computer
// players' and the stand-ins' at deadlines; it finishes games that end and
// re-arms deadlines. An interaction's whole outcome (its actions, the
// deadline, the ending) is stored in one Store.Commit guarded by the game
// and revision the interaction loaded (storage.Guard), so it is kept whole
// or not at all, and never on another game or history. It never talks to
// Discord: callers hand its outcomes to the publisher. Build it with
// NewReferee.
type Referee struct {
	c Config
}

// Config is what a Referee is built from. Store, Games, Locks and Now are
// required; the zero value of every other field means none.
type Config struct {
	Store Store
	Games *engine.Registry
	// Locks serialise the work on each game; whoever else changes a game
	// takes its lock from the same Locks.
	Locks *Locks
	Now   func() time.Time
	// After is the clock of the pauses between commit retries (see
	// RetryPauses); nil means real time.
	After func(d time.Duration, f func()) (stop func() bool)
	// Computer is the configured stand-in for absent players.
	Computer string
	// Level is a server's own stand-in level (storage.GuildSettings.
	// StandIn), or "".
	Level func(ctx context.Context, guild string) string
	// Think is the searching computers' budget per decision in
	// milliseconds (0: each level's own).
	Think int
	// Due takes a game whose searching computer must move to the Thinker,
	// which decides outside the game's lock (nil: nobody thinks).
	Due *DueGames
	// Away tells, for each of seats of g whose player is away at now,
	// what stands in for them (storage.AwayComputer or AwayWait).
	Away func(ctx context.Context, g *storage.Game, seats []engine.Seat, now time.Time) map[engine.Seat]string
	// Back ends user's absence, if they announced one: they acted.
	Back func(ctx context.Context, user string)
	// Decided counts seat's decision in g, whose deadline was deadline
	// when the seat decided at now.
	Decided func(ctx context.Context, g *storage.Game, seat engine.Seat, deadline, now time.Time)
}

// NewReferee returns a referee built from c.
func NewReferee(c Config) *Referee { return &Referee{c: c} }

// livesElsewhere reports whether the game req's choice was drawn for is
// found in another channel than the one the choice was sent in.
func (ref *Referee) livesElsewhere(ctx context.Context, req Request) bool {
	g, err := ref.c.Store.GetByID(ctx, req.Game)
	return err == nil && g.Channel != req.Channel
}

// Play applies req under the game's lock, lets computer players answer the
// prompts that fall to them, finishes the game when it ends and re-arms the
// deadline, all stored in one commit. Nothing is sent to Discord here. A
// non-nil outcome with an error was stored up to the error.
func (ref *Referee) Play(ctx context.Context, req Request) (*Outcome, error) {
	if Canonical(req.Text) == "" {
		return nil, ErrBlankChoice
	}
	defer ref.c.Locks.Lock(req.Channel)()
	g, st, err := ref.c.Store.Load(ctx, req.Channel)
	if err != nil {
		return nil, err
	}
	open := req.Offered.Hold == HoldHistory
	switch {
	case req.Game != 0 && g.ID != req.Game && open && ref.livesElsewhere(ctx, req):
		return nil, ErrForeignChoice
	case req.Game != 0 && g.ID != req.Game && open:
		return nil, ErrStaleChoice // the channel's earlier game
	case req.Game != 0 && g.ID != req.Game:
		return nil, ErrForeign
	case g.Status != storage.StatusRunning:
		return nil, ErrNotRunning
	case req.Offered.Hold == HoldRevision && g.Revision != req.Offered.Revision:
		return nil, ErrStaleClick
	case open && !g.Extends(req.Offered.Revision):
		return nil, ErrStaleChoice
	}
	rules, err := ref.c.Games.Lookup(g.Kind)
	if err != nil {
		return nil, err
	}
	seats := SeatsOf(g, req.User)
	if len(seats) == 0 {
		return nil, ErrNotSeated
	}
	if req.MenuSeat != nil && !slices.Contains(seats, *req.MenuSeat) {
		return nil, ErrNotYours
	}
	seat, action := ResolveAction(st, seats, req.Text)
	before := HumanWaiting(g, st)
	secret := engine.IsSecret(st, seat, action)
	decided := answers(st, seat, action)
	events, err := st.Apply(seat, action)
	if err != nil {
		return nil, &RuleRefusal{Err: err, Rules: rules}
	}
	out := &Outcome{Game: g, State: st, Rules: rules, Seat: seat, Action: action, Secret: secret, Decided: decided, key: req.Key}
	if decided {
		// they decided: no longer missing deadlines in a row, and their
		// time bank pays for the decision
		out.Change = Both(clearMissed(g, seat), DrawBank(g, seat, ref.c.Now()))
	}
	out.add(events)
	ref.record(out, seat, action)
	return ref.Conclude(ctx, out, before, nil)
}

// Start starts lobby, a game in the lobby whose lock the caller holds,
// with order (the seats' order, or nil) applied first; lets computer
// players open it and arms the first deadline, all in one commit.
func (ref *Referee) Start(ctx context.Context, lobby *storage.Game, order func(g *storage.Game) error) (*Outcome, error) {
	rules, err := ref.c.Games.Lookup(lobby.Kind)
	if err != nil {
		return nil, err
	}
	g := lobby.Clone()
	if order != nil {
		if err := order(g); err != nil {
			return nil, err
		}
	}
	g.Status, g.Setup.Players = storage.StatusRunning, len(g.Seats)
	st, err := rules.New(g.Setup)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", storage.ErrInvalid, err)
	}
	out := &Outcome{Game: g, State: st, Rules: rules, Seat: engine.Spectator, Phase: true, Change: order, start: true}
	return ref.Conclude(ctx, out, nil, nil)
}

// Conclude runs computer players (and stand-ins for the seats in standIn),
// finishes an ended game or re-arms the deadline, and stores all of it
// with out's pending actions in one commit. before are the human seats
// that were waiting before the action. It returns out once stored, or nil
// when nothing was: then the game is as it was loaded. When a computer
// player fails, the actions before its failure are stored, the deadline
// is left alone, and out comes back with the failure.
func (ref *Referee) Conclude(ctx context.Context, out *Outcome, before []engine.Seat, standIn map[engine.Seat]string) (*Outcome, error) {
	moved := ref.computerMoves(ctx, out, standIn)
	var edit func(*storage.Game) error
	var ending *storage.Ending
	switch {
	case moved != nil:
		// a computer player failed: keep what came before, and the deadline
	case out.State.Over():
		res := out.State.Result()
		ending = &storage.Ending{Status: storage.StatusFinished, Result: &res}
	default:
		edit = ref.rearm(ctx, out, before)
	}
	if err := ref.save(ctx, out, edit, ending); err != nil {
		return nil, errors.Join(err, moved)
	}
	out.Over = ending != nil
	if ending == nil && moved == nil {
		ref.WakeThinker(ctx, out.Game, out.State)
	}
	return out, moved
}

// rearm lists the human seats that now have a decision they did not have
// before, and returns the edit that re-arms the deadline, or nil when it
// stands.
func (ref *Referee) rearm(ctx context.Context, out *Outcome, before []engine.Seat) func(*storage.Game) error {
	now := HumanWaiting(out.Game, out.State)
	for _, s := range now {
		if !slices.Contains(before, s) {
			out.Waiting = append(out.Waiting, s)
		}
	}
	// The deadline is per decision: it is armed afresh when someone starts
	// waiting, and when the player who just decided has a next decision.
	again := out.Decided && slices.Contains(now, out.Seat)
	computer := false
	if len(now) == 0 && ref.c.Due != nil {
		_, _, computer = ref.thinkingPrompt(ctx, out.Game, out.State, ref.c.Think)
	}
	if ref.c.Away != nil && slices.Contains(slices.Collect(maps.Values(ref.c.Away(ctx, out.Game, now, ref.c.Now()))), storage.AwayComputer) {
		// a computer decides for an absent player at the next tick
		return func(r *storage.Game) error {
			r.Deadline, r.RemindAt = ref.c.Now(), time.Time{}
			return nil
		}
	}
	if out.Game.Timing.Banked() && !computer {
		// the earliest moment a waiting seat's bank runs out
		return BankDeadline(now, WaitStarts(out.Game, out.entries), out.Game.Timing.ReminderEvery, ref.c.Now())
	}
	if !computer && len(out.Waiting) == 0 && !again && !out.Game.Deadline.IsZero() && !out.Game.Deadline.Before(ref.c.Now()) {
		return nil
	}
	return ref.deadlineEdit(out.Game, len(now) > 0, computer)
}

// save stores out's pending actions and change, edit and ending in one
// commit guarded by the game and revision out's game was loaded at, and
// takes the stored game; with nothing to store it does nothing.
func (ref *Referee) save(ctx context.Context, out *Outcome, edit func(*storage.Game) error, ending *storage.Ending) error {
	if len(out.entries) == 0 && out.Change == nil && edit == nil && ending == nil && !out.start {
		return nil
	}
	if change, rearm := out.Change, edit; change != nil {
		edit = func(g *storage.Game) error {
			if err := change(g); err != nil || rearm == nil {
				return err
			}
			return rearm(g)
		}
	}
	o := storage.Outcome{Entries: out.entries, Edit: edit, Finish: ending, Start: out.start}
	if len(o.Entries) > 0 {
		snap, err := out.State.Encode()
		if err != nil {
			return fmt.Errorf("encode state of game %d: %w", out.Game.ID, err)
		}
		o.Snapshot = snap
		o.Waiting = storage.PromptSeats(out.State)
	}
	o.Key = out.key
	deadline := out.Game.Deadline // the decision's, before the commit arms the next
	if since, ok := WaitSince(out.Game, out.Seat); ok && out.Game.Timing.Banked() {
		deadline = since.Add(BankOf(out.Game, out.Seat)) // with time banks, the seat's own
	}
	g, err := ref.commit(ctx, out.Game.Channel, out.Game.Guard(), o)
	var applied *storage.AppliedError
	if errors.As(err, &applied) {
		// the first attempt was kept, and its answer lost: the action is
		// recorded once, as the player sent it
		g, err, out.Recorded = applied.Game, nil, true
	}
	if err != nil {
		return err
	}
	if out.Decided && out.Seat >= 0 && int(out.Seat) < len(g.Seats) {
		if ref.c.Back != nil {
			ref.c.Back(ctx, g.Seats[out.Seat].User) // they acted: their absence is over
		}
		if ref.c.Decided != nil {
			ref.c.Decided(ctx, g, out.Seat, deadline, ref.c.Now())
		}
	}
	out.Game, out.entries, out.Change, out.start, out.key = g, nil, nil, false, ""
	return nil
}

// commitRetries are the pauses before each retry of a commit with a key
// whose outcome is unknown (the connection to the database was lost, or
// the answer timed out) or whose database could not serve it (starting
// up after a crash, shutting down): about half a minute in all, time for
// a database server to restart and recover. The store answers a retry of
// a commit it kept with ErrApplied, so a retry never applies twice.
var commitRetries = []time.Duration{
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second,
	2 * time.Second, 3 * time.Second, 5 * time.Second, 5 * time.Second, 5 * time.Second, 5 * time.Second,
}

// RetryPauses are the pauses before each retry of a commit whose outcome
// is unknown or whose database could not serve it (see commitRetries).
func RetryPauses() []time.Duration { return slices.Clone(commitRetries) }

// commit is Store.Commit, retried while its outcome is unknown or the
// database unavailable (see commitRetries), until a known answer. The
// error then tells the player the truth: ErrUnknownOutcome when a lost
// answer was never settled (the move may be recorded), ErrNotRecorded
// when the move is known not to be kept though the store failed rather
// than refused it, or the store's refusal itself.
func (ref *Referee) commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error) {
	g, err := ref.c.Store.Commit(ctx, channel, at, o)
	if o.Key == "" {
		return g, err
	}
	lost := outcomeUnknown(err)
	for i := 0; (outcomeUnknown(err) || errors.Is(err, storage.ErrUnavailable)) && i < len(commitRetries); i++ {
		Pause(ref.c.After, commitRetries[i])
		g, err = ref.c.Store.Commit(ctx, channel, at, o)
		lost = lost || outcomeUnknown(err)
	}
	switch {
	case err == nil || errors.Is(err, storage.ErrApplied):
		return g, err
	case outcomeUnknown(err) || lost && errors.Is(err, storage.ErrUnavailable):
		return nil, fmt.Errorf("%w: %w", ErrUnknownOutcome, err)
	case lost || errors.Is(err, storage.ErrUnavailable):
		// the store answered at last, and had not kept the move
		return nil, fmt.Errorf("%w: %w", ErrNotRecorded, err)
	}
	return nil, err
}

// Pause waits d on the clock of after (real time when nil).
func Pause(after func(d time.Duration, f func()) (stop func() bool), d time.Duration) {
	if d <= 0 {
		return
	}
	if after == nil {
		<-time.After(d)
		return
	}
	done := make(chan struct{})
	after(d, func() { close(done) })
	<-done
}

// outcomeUnknown reports whether err leaves open whether a commit was
// kept (the store lost its database's answer).
func outcomeUnknown(err error) bool { return errors.Is(err, storage.ErrUnknownOutcome) }

// ArmDeadline sets (or clears) g's deadline and reminder from now, in a
// commit of its own from g's version, when check (run first on the stored
// game) lets it.
func (ref *Referee) ArmDeadline(ctx context.Context, g *storage.Game, waiting bool, check func(*storage.Game) error) error {
	arm := ref.deadlineEdit(g, waiting, false)
	updated, err := ref.c.Store.Commit(ctx, g.Channel, g.Guard(), storage.Outcome{Edit: func(r *storage.Game) error {
		if err := check(r); err != nil {
			return err
		}
		return arm(r)
	}})
	if err != nil {
		return err
	}
	g.Deadline, g.RemindAt, g.Messages = updated.Deadline, updated.RemindAt, updated.Messages
	return nil
}

// ArmBanks arms the deadline of g, a game with time banks, for seats, in
// a commit of its own that check (run first on the stored game) lets
// through: the earliest moment one of their banks runs out.
func (ref *Referee) ArmBanks(ctx context.Context, g *storage.Game, seats []engine.Seat, check func(*storage.Game) error) error {
	_, err := ref.c.Store.Commit(ctx, g.Channel, g.Guard(), storage.Outcome{Edit: Both(check, BankDeadline(seats, StoredWaitStarts(g), g.Timing.ReminderEvery, ref.c.Now()))})
	return err
}

// ExtendDeadline moves g's deadline, which passed while every player it
// waits on is away with their deadlines waiting, to their latest return
// back plus the game's time for a decision, in a commit of its own that
// check (run first on the stored game) lets through.
func (ref *Referee) ExtendDeadline(ctx context.Context, g *storage.Game, back time.Time, check func(*storage.Game) error) error {
	deadline, reminder := g.Timing.TurnDeadline, g.Timing.ReminderEvery
	_, err := ref.c.Store.Commit(ctx, g.Channel, g.Guard(), storage.Outcome{Edit: func(r *storage.Game) error {
		if err := check(r); err != nil {
			return err
		}
		r.Deadline, r.RemindAt = back.Add(max(deadline, time.Hour)), time.Time{}
		if reminder > 0 && reminder < deadline {
			r.RemindAt = back.Add(reminder)
		}
		return nil
	}})
	return err
}

// deadlineEdit returns the edit that sets g's deadline and reminder from
// now when a human is waiting, and clears them otherwise. While a
// searching computer must move (computer), a timer stays armed
// (ComputerDue) that the ticker turns into a wake of the thinker, should
// the process stop before the computer moved.
func (ref *Referee) deadlineEdit(g *storage.Game, waiting, computer bool) func(*storage.Game) error {
	deadline, reminder := g.Timing.TurnDeadline, g.Timing.ReminderEvery
	now := ref.c.Now()
	return func(r *storage.Game) error {
		r.Deadline, r.RemindAt = time.Time{}, time.Time{}
		if computer {
			r.Deadline = now.Add(ComputerDue)
			return nil
		}
		if waiting && deadline > 0 {
			r.Deadline = now.Add(deadline)
			if reminder > 0 && reminder < deadline {
				r.RemindAt = now.Add(reminder)
			}
		}
		return nil
	}
}

// ComputerDue is how long after a searching computer's turn began its
// game's timer passes: long enough that a running bot has moved by then,
// so that the ticker wakes the thinker only for a move a stopped process
// left undone.
const ComputerDue = 2 * time.Minute

// computerMoves answers, one at a time, every prompt that needs no asking
// (engine.UnaskedAnswer: the log says why), whoever's it is, and every
// prompt that belongs to a computer seat or to a seat in standIn, except
// the searching computers' (normal, strong): the thinker decides those
// outside the lock.
func (ref *Referee) computerMoves(ctx context.Context, out *Outcome, standIn map[engine.Seat]string) error {
	for n := 0; n < maxComputerMoves && !out.State.Over(); n++ {
		if p, action, why, ok := engine.FirstUnasked(out.State); ok {
			events, err := out.State.Apply(p.Seat, action)
			if err != nil {
				return fmt.Errorf("game %d: the unasked answer %q of P%d refused: %w", out.Game.ID, action, p.Seat+1, err)
			}
			out.add(engine.NoteUnasked(events, p.Seat, why))
			ref.record(out, p.Seat, action)
			continue
		}
		p, name, thought, ok := ref.computerPrompt(ctx, out, standIn)
		if !ok {
			return nil
		}
		player, err := ai.LookupThinking(out.Rules, name, ref.c.Think)
		if err != nil {
			return err
		}
		action := thought
		if action == "" || !slices.Contains(p.Actions, action) {
			action = ai.Decide(player, out.State, p, out.Game.Setup.Seed, out.Game.Version)
		}
		secret := engine.IsSecret(out.State, p.Seat, action)
		events, err := out.State.Apply(p.Seat, action)
		if err != nil {
			// not wrapped: a computer's refused move is Meeple's failure, to
			// be logged, and its reason may quote a secret choice
			return fmt.Errorf("computer player %s of game %d refused: %s", name, out.Game.ID, engine.DescribeRefusal(p.Seat, action, secret, err))
		}
		out.add(events)
		ref.record(out, p.Seat, action)
	}
	if !out.State.Over() {
		if _, _, _, unasked := engine.FirstUnasked(out.State); unasked {
			return fmt.Errorf("computer players and unasked answers made %d moves without handing over", maxComputerMoves)
		}
		if _, _, _, ok := ref.computerPrompt(ctx, out, standIn); ok {
			return fmt.Errorf("computer players made %d moves without handing over", maxComputerMoves)
		}
	}
	return nil
}

// computerPrompt finds a prompt a computer must answer, which computer, and
// for a stand-in the choice thought out for it beforehand, if any.
func (ref *Referee) computerPrompt(ctx context.Context, out *Outcome, standIn map[engine.Seat]string) (engine.Prompt, string, string, bool) {
	for _, p := range out.State.Prompts() {
		if int(p.Seat) >= len(out.Game.Seats) {
			continue
		}
		if c := out.Game.Seats[p.Seat].Computer; c != "" {
			if player, err := ai.Lookup(out.Rules, c); err == nil && ai.Searching(player) {
				continue // the thinker's
			}
			return p, c, "", true
		}
		if thought, ok := standIn[p.Seat]; ok {
			delete(standIn, p.Seat) // one decision per passed deadline
			return p, ref.StandInName(ctx, out.Rules, out.Game.Guild), thought, true
		}
	}
	return engine.Prompt{}, "", "", false
}

// DefaultStandIn is the stand-in when none is configured.
const DefaultStandIn = "strong"

// StandInName is the computer player that acts for an absent player in
// a game of guild: the server's level, else the configured one, else the
// default.
func (ref *Referee) StandInName(ctx context.Context, rules engine.Rules, guild string) string {
	server := ""
	if ref.c.Level != nil {
		server = ref.c.Level(ctx, guild)
	}
	for _, name := range []string{server, ref.c.Computer, DefaultStandIn} {
		if _, err := ai.Lookup(rules, name); name != "" && err == nil {
			return name
		}
	}
	if cp, ok := rules.(engine.ComputerPlayers); ok {
		if names := cp.ComputerPlayerNames(); len(names) > 0 {
			return names[0]
		}
	}
	return "random"
}

// record notes one action applied to out's state, to be stored by save.
func (ref *Referee) record(out *Outcome, seat engine.Seat, action string) {
	out.entries = append(out.entries, storage.Entry{Seat: seat, Action: action, At: ref.c.Now()})
	out.Game.Version++
}

func (o *Outcome) add(events []engine.Event) {
	for _, e := range events {
		switch {
		case e.Private:
			if e.Seat == o.Seat {
				o.Private = append(o.Private, e)
			}
		default:
			o.Public = append(o.Public, e)
			if e.Kind == engine.EventPhase {
				o.Phase = true
			}
		}
	}
}

// Revealed reports whether anything hidden became public.
func (o *Outcome) Revealed() bool {
	for _, e := range o.Public {
		if e.Reveals {
			return true
		}
	}
	return false
}

// SeatsOf returns the seats user holds.
func SeatsOf(g *storage.Game, user string) []engine.Seat {
	var out []engine.Seat
	for n, s := range g.Seats {
		if s.User == user && user != "" {
			out = append(out, engine.Seat(n))
		}
	}
	return out
}

// HumanWaiting lists the seats held by people that have an open prompt.
func HumanWaiting(g *storage.Game, st engine.State) []engine.Seat {
	var out []engine.Seat
	for _, p := range st.Prompts() {
		if int(p.Seat) < len(g.Seats) && g.Seats[p.Seat].User != "" && !slices.Contains(out, p.Seat) {
			out = append(out, p.Seat)
		}
	}
	return out
}

// PromptsOf returns seat's open prompts.
func PromptsOf(st engine.State, seat engine.Seat) []engine.Prompt {
	var out []engine.Prompt
	for _, p := range st.Prompts() {
		if p.Seat == seat {
			out = append(out, p)
		}
	}
	return out
}

// Canonical joins the words of text with single spaces.
func Canonical(text string) string { return strings.Join(strings.Fields(text), " ") }

// ResolveAction picks which of the user's seats acts and completes a short
// form: "6 5 3 1" answers a prompt whose actions all read "dice …". Open
// prompts come first; then a secret choice made and still revisable.
func ResolveAction(st engine.State, seats []engine.Seat, text string) (engine.Seat, string) {
	text = Canonical(text)
	for _, choices := range []func(engine.State, engine.Seat) []engine.Prompt{PromptsOf, RevisableOf} {
		for _, seat := range seats {
			if slices.Contains(st.FreeActions(seat), text) {
				return seat, text
			}
			for _, p := range choices(st, seat) {
				if slices.Contains(p.Actions, text) {
					return seat, text
				}
				if w := CommonVerb(p.Actions); w != "" && text != "" && !strings.HasPrefix(text, w+" ") && text != w {
					return seat, w + " " + text
				}
			}
		}
	}
	for _, choices := range []func(engine.State, engine.Seat) []engine.Prompt{PromptsOf, RevisableOf} {
		for _, seat := range seats {
			if len(choices(st, seat)) > 0 {
				return seat, text
			}
		}
	}
	return seats[0], text
}

// answers reports whether action, if accepted, answers one of seat's open
// prompts: seat has one, and the action is none of its free actions.
func answers(st engine.State, seat engine.Seat, action string) bool {
	return len(PromptsOf(st, seat)) > 0 && !slices.Contains(st.FreeActions(seat), action)
}

// RevisableOf returns the secret prompt seat has answered and may still
// change (see engine.Revisable), or nothing.
func RevisableOf(st engine.State, seat engine.Seat) []engine.Prompt {
	if p, ok := engine.Revision(st, seat); ok {
		return []engine.Prompt{p}
	}
	return nil
}

// ChoicesOf returns seat's open prompts and its revisable secret choice.
func ChoicesOf(st engine.State, seat engine.Seat) []engine.Prompt {
	return append(PromptsOf(st, seat), RevisableOf(st, seat)...)
}

// CommonVerb is the first word every action shares, or "".
func CommonVerb(actions []string) string {
	if len(actions) == 0 {
		return ""
	}
	w, _, _ := strings.Cut(actions[0], " ")
	for _, a := range actions[1:] {
		if v, _, _ := strings.Cut(a, " "); v != w {
			return ""
		}
	}
	return w
}

// Undo takes back user's last action in channel's game when it was the
// last one played and revealed nothing.
func (ref *Referee) Undo(ctx context.Context, channel, user string) (*Outcome, error) {
	defer ref.c.Locks.Lock(channel)()
	g, err := ref.c.Store.Get(ctx, channel)
	if err != nil {
		return nil, err
	}
	if g.Status != storage.StatusRunning {
		return nil, ErrNotRunning
	}
	return ref.undoLast(ctx, g, user)
}

func (ref *Referee) undoLast(ctx context.Context, g *storage.Game, user string) (*Outcome, error) {
	last, n, rules, err := ref.lastTakeBack(g, SeatsOf(g, user))
	if err != nil {
		return nil, err
	}
	g2, st2, err := ref.c.Store.Undo(ctx, g.Channel, g.Guard(), n)
	if err != nil {
		return nil, err
	}
	return &Outcome{Game: g2, State: st2, Rules: rules, Seat: last.Seat, Action: last.Action, Undone: true}, nil
}

// ReplayFailure is the failure to replay action n of g's log: Meeple's
// failure, logged without the text of a secret action.
func ReplayFailure(g *storage.Game, n int, secret bool, err error) error {
	e := g.Log[n]
	return fmt.Errorf("game %d: %w", g.ID, &storage.ReplayError{Index: n, Seat: int(e.Seat), Action: e.Action, Secret: secret, Err: err})
}

// lastTakeBack finds the game's last asked action with the answers given
// after it without asking (engine.UnaskedAnswer), checks that it belongs
// to one of seats and that none of them revealed anything, and returns it
// with how many entries taking it back removes.
func (ref *Referee) lastTakeBack(g *storage.Game, seats []engine.Seat) (storage.Entry, int, engine.Rules, error) {
	var none storage.Entry
	if len(seats) == 0 {
		return none, 0, nil, ErrNotSeated
	}
	rules, err := ref.c.Games.Lookup(g.Kind)
	if err != nil {
		return none, 0, nil, err
	}
	st, err := rules.New(g.Setup)
	if err != nil {
		return none, 0, nil, err
	}
	asked, revealed := -1, false // the last asked entry; whether it or those after revealed
	for n, e := range g.Log {
		unasked := false
		for _, p := range st.Prompts() {
			if action, _, ok := engine.UnaskedAnswer(st, p); ok && p.Seat == e.Seat && action == e.Action {
				unasked = true
				break
			}
		}
		secret := engine.IsSecret(st, e.Seat, e.Action)
		events, err := st.Apply(e.Seat, e.Action)
		if err != nil {
			return none, 0, nil, ReplayFailure(g, n, secret, err)
		}
		if !unasked {
			asked, revealed = n, false
		}
		for _, ev := range events {
			revealed = revealed || ev.Reveals
		}
	}
	switch {
	case asked < 0:
		return none, 0, nil, refuse("undo.nothing")
	case !slices.Contains(seats, g.Log[asked].Seat):
		return none, 0, nil, refuse("undo.not_yours")
	case revealed:
		return none, 0, nil, refuse("undo.revealed")
	}
	return g.Log[asked], len(g.Log) - asked, rules, nil
}
