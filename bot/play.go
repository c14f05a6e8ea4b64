package bot

import (
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

// outcome is what one accepted action, and the computer moves it set off,
// did to a game.
type outcome struct {
	game   *storage.Game // after; archived when over
	state  engine.State  // after
	rules  engine.Rules
	seat   engine.Seat // who acted (Spectator for a start or a deadline)
	action string
	secret bool // the action answered a secret prompt

	private []engine.Event // the actor's private events
	public  []engine.Event // public events, in order
	phase   bool           // a new phase or round began: post a new board image
	over    bool
	undone  bool // the action was taken back
	// decided is true when seat answered one of its open prompts (not a
	// free action, nor a change to a secret choice already made): its time
	// for that decision is over, so a next decision of its own gets a
	// deadline of its own.
	decided bool
	// waiting are the human seats that now have a decision they did not
	// have before: they are pinged, and sent their secret prompt.
	waiting []engine.Seat
	// entries are the actions applied to state and not yet stored; game's
	// Version already counts them (a computer player's choice depends on
	// it), so the game was loaded at Version-len(entries).
	entries []storage.Entry
	// change, when set, is the interaction's own edit of the game's fields
	// (a seat handed over), already made to game and stored with the rest.
	change func(g *storage.Game) error
	// start is true while the game, loaded in the lobby, is to be started
	// by the commit that stores entries and change.
	start bool
	// key is the interaction's key, for the commit that stores its action
	// (see request.key); recorded is true when that commit was found
	// already kept, after an answer from the store was lost.
	key      string
	recorded bool
}

// queued is what the publisher keeps of an outcome until its channel's
// next pass, which reads the game anew: whether it began a phase or took
// an action back, who now waits, and its public events. The state and the
// game record stay behind, so that outcomes queued while the REST budget
// holds a channel's board back (hundreds, with a thousand busy games) are
// a few hundred bytes each, not a whole game each.
func (o *outcome) queued() *outcome {
	return &outcome{phase: o.phase, undone: o.undone, waiting: o.waiting, public: o.public}
}

// request is one attempt to act on a game.
type request struct {
	channel string
	user    string
	game    uint64 // when not 0, the game the component belonged to
	offered offer  // the revision the action was offered at, if any
	text    string // the action as typed or sent
	// key is the id of the interaction or DM message that sent the action:
	// the store keeps it with the commit, so that a retry after a lost
	// answer finds the action recorded rather than applying it twice.
	key string
	// menuSeat, when set, is the seat a select menu was drawn for: the
	// user must hold it
	menuSeat *engine.Seat
}

// offer is the revision of a game an action was offered at, and how the
// game must still stand when the action is played. The zero offer checks
// nothing: typed text plays on the game as it is.
type offer struct {
	revision uint64
	hold     hold
}

// hold is how an offered revision must still hold.
type hold uint8

// The zero hold checks nothing.
const (
	_ hold = iota
	// holdRevision: a board's component; the game must not have moved since.
	holdRevision
	// holdHistory: a choice that stays open while other players act (a DM
	// menu, a secret picker or form, an autocomplete list); the history it
	// was offered in must not have been taken back (an undo), though it may
	// have grown (see storage.Game.Extends).
	holdHistory
)

// referee applies actions to games: the player's, then the computer
// players' and the stand-ins' at deadlines; it finishes games that end and
// re-arms deadlines. An interaction's whole outcome (its actions, the
// deadline, the ending) is stored in one Store.Commit guarded by the game
// and revision the interaction loaded (storage.Guard), so it is kept whole
// or not at all, and never on another game or history. It never talks to
// Discord: callers hand its outcomes to the publisher.
type referee struct {
	store gameStore
	games *engine.Registry
	locks *lockPool
	now   func() time.Time
	// after is the clock of the pauses between commit retries (see
	// Config.AfterFunc); nil means real time
	after    func(d time.Duration, f func()) (stop func() bool)
	computer string // the configured stand-in, or ""
	// level is a server's own stand-in level (storage.GuildSettings.
	// StandIn), or "" (nil: none, as in a referee of a test)
	level func(guild string) string
	// think is the searching computers' budget per decision in
	// milliseconds (0: each level's own); due takes a game whose
	// searching computer must move to the thinker, which decides outside
	// the game's lock (nil: nobody thinks, as in a referee of a test).
	think int
	due   *dueGames
	// away tells who is away and ends an absence when its player acts
	// (nil: nobody is ever away, as in a referee of a test)
	away *absences
	// tally counts the players' reliability (nil: nothing is counted)
	tally *tallies
}

// livesElsewhere reports whether the game req's choice was drawn for is
// found in another channel than the one the choice was sent in.
func (ref *referee) livesElsewhere(req request) bool {
	g, err := ref.store.GetByID(req.game)
	return err == nil && g.Channel != req.channel
}

// play applies req under the game's lock, lets computer players answer the
// prompts that fall to them, finishes the game when it ends and re-arms the
// deadline, all stored in one commit. Nothing is sent to Discord here. A
// non-nil outcome with an error was stored up to the error.
func (ref *referee) play(req request) (*outcome, error) {
	if canonical(req.text) == "" {
		return nil, errBlankChoice
	}
	defer ref.locks.lock(req.channel)()
	g, st, err := ref.store.Load(req.channel)
	if err != nil {
		return nil, err
	}
	open := req.offered.hold == holdHistory
	switch {
	case req.game != 0 && g.ID != req.game && open && ref.livesElsewhere(req):
		return nil, errForeignChoice
	case req.game != 0 && g.ID != req.game && open:
		return nil, errStaleChoice // the channel's earlier game
	case req.game != 0 && g.ID != req.game:
		return nil, errForeign
	case g.Status != storage.StatusRunning:
		return nil, errNotRunning
	case req.offered.hold == holdRevision && g.Revision != req.offered.revision:
		return nil, errStaleClick
	case open && !g.Extends(req.offered.revision):
		return nil, errStaleChoice
	}
	rules, err := ref.games.Lookup(g.Kind)
	if err != nil {
		return nil, err
	}
	seats := seatsOf(g, req.user)
	if len(seats) == 0 {
		return nil, errNotSeated
	}
	if req.menuSeat != nil && !slices.Contains(seats, *req.menuSeat) {
		return nil, errNotYours
	}
	seat, action := resolveAction(st, seats, req.text)
	before := humanWaiting(g, st)
	secret := engine.IsSecret(st, seat, action)
	decided := answers(st, seat, action)
	events, err := st.Apply(seat, action)
	if err != nil {
		return nil, &gameRefusal{err: err, rules: rules}
	}
	out := &outcome{game: g, state: st, rules: rules, seat: seat, action: action, secret: secret, decided: decided, key: req.key}
	if decided {
		// they decided: no longer missing deadlines in a row, and their
		// time bank pays for the decision
		out.change = both(clearMissed(g, seat), drawBank(g, seat, ref.now()))
	}
	out.add(events)
	ref.record(out, seat, action)
	return ref.conclude(out, before, nil)
}

// start starts lobby, a game in the lobby whose lock the caller holds,
// with order (the seats' order, or nil) applied first; lets computer
// players open it and arms the first deadline, all in one commit.
func (ref *referee) start(lobby *storage.Game, order func(g *storage.Game) error) (*outcome, error) {
	rules, err := ref.games.Lookup(lobby.Kind)
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
	out := &outcome{game: g, state: st, rules: rules, seat: engine.Spectator, phase: true, change: order, start: true}
	return ref.conclude(out, nil, nil)
}

// conclude runs computer players (and stand-ins for the seats in standIn),
// finishes an ended game or re-arms the deadline, and stores all of it
// with out's pending actions in one commit. before are the human seats
// that were waiting before the action. It returns out once stored, or nil
// when nothing was: then the game is as it was loaded. When a computer
// player fails, the actions before its failure are stored, the deadline
// is left alone, and out comes back with the failure.
func (ref *referee) conclude(out *outcome, before []engine.Seat, standIn map[engine.Seat]string) (*outcome, error) {
	moved := ref.computerMoves(out, standIn)
	var edit func(*storage.Game) error
	var ending *storage.Ending
	switch {
	case moved != nil:
		// a computer player failed: keep what came before, and the deadline
	case out.state.Over():
		res := out.state.Result()
		ending = &storage.Ending{Status: storage.StatusFinished, Result: &res}
	default:
		edit = ref.rearm(out, before)
	}
	if err := ref.save(out, edit, ending); err != nil {
		return nil, errors.Join(err, moved)
	}
	out.over = ending != nil
	if ref.due != nil && ending == nil && moved == nil {
		if _, _, due := ref.thinkingPrompt(out.game, out.state, ref.think); due {
			ref.due.wake(out.game.Channel)
		}
	}
	return out, moved
}

// rearm lists the human seats that now have a decision they did not have
// before, and returns the edit that re-arms the deadline, or nil when it
// stands.
func (ref *referee) rearm(out *outcome, before []engine.Seat) func(*storage.Game) error {
	now := humanWaiting(out.game, out.state)
	for _, s := range now {
		if !slices.Contains(before, s) {
			out.waiting = append(out.waiting, s)
		}
	}
	// The deadline is per decision: it is armed afresh when someone starts
	// waiting, and when the player who just decided has a next decision.
	again := out.decided && slices.Contains(now, out.seat)
	computer := false
	if len(now) == 0 && ref.due != nil {
		_, _, computer = ref.thinkingPrompt(out.game, out.state, ref.think)
	}
	if away, _ := ref.away.of(out.game, now, ref.now()); slices.Contains(slices.Collect(maps.Values(away)), storage.AwayComputer) {
		// a computer decides for an absent player at the next tick
		return func(r *storage.Game) error {
			r.Deadline, r.RemindAt = ref.now(), time.Time{}
			return nil
		}
	}
	if out.game.Timing.Banked() && !computer {
		// the earliest moment a waiting seat's bank runs out
		_, reminder, _ := gameDeadline(out.game)
		return bankEdit(now, waitStarts(out.game, out.entries), reminder, ref.now())
	}
	if !computer && len(out.waiting) == 0 && !again && !out.game.Deadline.IsZero() && !out.game.Deadline.Before(ref.now()) {
		return nil
	}
	return ref.deadlineEdit(out.game, len(now) > 0, computer)
}

// save stores out's pending actions and change, edit and ending in one
// commit guarded by the game and revision out's game was loaded at, and
// takes the stored game; with nothing to store it does nothing.
func (ref *referee) save(out *outcome, edit func(*storage.Game) error, ending *storage.Ending) error {
	if len(out.entries) == 0 && out.change == nil && edit == nil && ending == nil && !out.start {
		return nil
	}
	if change, rearm := out.change, edit; change != nil {
		edit = func(g *storage.Game) error {
			if err := change(g); err != nil || rearm == nil {
				return err
			}
			return rearm(g)
		}
	}
	o := storage.Outcome{Entries: out.entries, Edit: edit, Finish: ending, Start: out.start}
	if len(o.Entries) > 0 {
		snap, err := out.state.Encode()
		if err != nil {
			return fmt.Errorf("encode state of game %d: %w", out.game.ID, err)
		}
		o.Snapshot = snap
		o.Waiting = storage.PromptSeats(out.state)
	}
	o.Key = out.key
	deadline := out.game.Deadline // the decision's, before the commit arms the next
	if since, ok := waitSince(out.game, out.seat); ok && out.game.Timing.Banked() {
		deadline = since.Add(bankOf(out.game, out.seat)) // with time banks, the seat's own
	}
	g, err := ref.commit(out.game.Channel, out.game.Guard(), o)
	var applied *storage.AppliedError
	if errors.As(err, &applied) {
		// the first attempt was kept, and its answer lost: the action is
		// recorded once, as the player sent it
		g, err, out.recorded = applied.Game, nil, true
	}
	if err != nil {
		return err
	}
	if out.decided && out.seat >= 0 && int(out.seat) < len(g.Seats) {
		ref.away.back(g.Seats[out.seat].User) // they acted: their absence is over
		ref.tally.decided(g, out.seat, deadline, ref.now())
	}
	out.game, out.entries, out.change, out.start, out.key = g, nil, nil, false, ""
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

// commit is Store.Commit, retried while its outcome is unknown or the
// database unavailable (see commitRetries), until a known answer. The
// error then tells the player the truth: errUnknownOutcome when a lost
// answer was never settled (the move may be recorded), errNotRecorded
// when the move is known not to be kept though the store failed rather
// than refused it, or the store's refusal itself.
func (ref *referee) commit(channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error) {
	g, err := ref.store.Commit(channel, at, o)
	if o.Key == "" {
		return g, err
	}
	lost := outcomeUnknown(err)
	for i := 0; (outcomeUnknown(err) || errors.Is(err, storage.ErrUnavailable)) && i < len(commitRetries); i++ {
		pause(ref.after, commitRetries[i])
		g, err = ref.store.Commit(channel, at, o)
		lost = lost || outcomeUnknown(err)
	}
	switch {
	case err == nil || errors.Is(err, storage.ErrApplied):
		return g, err
	case outcomeUnknown(err) || lost && errors.Is(err, storage.ErrUnavailable):
		return nil, fmt.Errorf("%w: %w", errUnknownOutcome, err)
	case lost || errors.Is(err, storage.ErrUnavailable):
		// the store answered at last, and had not kept the move
		return nil, fmt.Errorf("%w: %w", errNotRecorded, err)
	}
	return nil, err
}

// pause waits d on the clock of after (real time when nil).
func pause(after func(d time.Duration, f func()) (stop func() bool), d time.Duration) {
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

// armDeadline sets (or clears) g's deadline and reminder from now, in a
// commit of its own from g's version, when check (run first on the stored
// game) lets it.
func (ref *referee) armDeadline(g *storage.Game, waiting bool, check func(*storage.Game) error) error {
	arm := ref.deadlineEdit(g, waiting, false)
	updated, err := ref.store.Commit(g.Channel, g.Guard(), storage.Outcome{Edit: func(r *storage.Game) error {
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

// armBanks arms the deadline of g, a game with time banks, for seats, in
// a commit of its own that check (run first on the stored game) lets
// through: the earliest moment one of their banks runs out.
func (ref *referee) armBanks(g *storage.Game, seats []engine.Seat, check func(*storage.Game) error) error {
	_, reminder, _ := gameDeadline(g)
	_, err := ref.store.Commit(g.Channel, g.Guard(), storage.Outcome{Edit: both(check, bankEdit(seats, storedWaitStarts(g), reminder, ref.now()))})
	return err
}

// extendDeadline moves g's deadline, which passed while every player it
// waits on is away with their deadlines waiting, to their latest return
// back plus the game's time for a decision, in a commit of its own that
// check (run first on the stored game) lets through.
func (ref *referee) extendDeadline(g *storage.Game, back time.Time, check func(*storage.Game) error) error {
	deadline, reminder, _ := gameDeadline(g)
	_, err := ref.store.Commit(g.Channel, g.Guard(), storage.Outcome{Edit: func(r *storage.Game) error {
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
// (computerDue) that the ticker turns into a wake of the thinker, should
// the process stop before the computer moved.
func (ref *referee) deadlineEdit(g *storage.Game, waiting, computer bool) func(*storage.Game) error {
	deadline, reminder, _ := gameDeadline(g)
	now := ref.now()
	return func(r *storage.Game) error {
		r.Deadline, r.RemindAt = time.Time{}, time.Time{}
		if computer {
			r.Deadline = now.Add(computerDue)
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

// computerDue is how long after a searching computer's turn began its
// game's timer passes: long enough that a running bot has moved by then,
// so that the ticker wakes the thinker only for a move a stopped process
// left undone.
const computerDue = 2 * time.Minute

// computerMoves answers, one at a time, every prompt that needs no asking
// (engine.UnaskedAnswer: the log says why), whoever's it is, and every
// prompt that belongs to a computer seat or to a seat in standIn, except
// the searching computers' (normal, strong): the thinker decides those
// outside the lock.
func (ref *referee) computerMoves(out *outcome, standIn map[engine.Seat]string) error {
	for n := 0; n < maxComputerMoves && !out.state.Over(); n++ {
		if p, action, why, ok := engine.FirstUnasked(out.state); ok {
			events, err := out.state.Apply(p.Seat, action)
			if err != nil {
				return fmt.Errorf("game %d: the unasked answer %q of P%d refused: %w", out.game.ID, action, p.Seat+1, err)
			}
			out.add(engine.NoteUnasked(events, p.Seat, why))
			ref.record(out, p.Seat, action)
			continue
		}
		p, name, thought, ok := ref.computerPrompt(out, standIn)
		if !ok {
			return nil
		}
		player, err := ai.LookupThinking(out.rules, name, ref.think)
		if err != nil {
			return err
		}
		action := thought
		if action == "" || !slices.Contains(p.Actions, action) {
			action = ai.Decide(player, out.state, p, out.game.Setup.Seed, out.game.Version)
		}
		secret := engine.IsSecret(out.state, p.Seat, action)
		events, err := out.state.Apply(p.Seat, action)
		if err != nil {
			// not wrapped: a computer's refused move is Meeple's failure, to
			// be logged, and its reason may quote a secret choice
			return fmt.Errorf("computer player %s of game %d refused: %s", name, out.game.ID, engine.DescribeRefusal(p.Seat, action, secret, err))
		}
		out.add(events)
		ref.record(out, p.Seat, action)
	}
	if !out.state.Over() {
		if _, _, _, unasked := engine.FirstUnasked(out.state); unasked {
			return fmt.Errorf("computer players and unasked answers made %d moves without handing over", maxComputerMoves)
		}
		if _, _, _, ok := ref.computerPrompt(out, standIn); ok {
			return fmt.Errorf("computer players made %d moves without handing over", maxComputerMoves)
		}
	}
	return nil
}

// computerPrompt finds a prompt a computer must answer, which computer, and
// for a stand-in the choice thought out for it beforehand, if any.
func (ref *referee) computerPrompt(out *outcome, standIn map[engine.Seat]string) (engine.Prompt, string, string, bool) {
	for _, p := range out.state.Prompts() {
		if int(p.Seat) >= len(out.game.Seats) {
			continue
		}
		if c := out.game.Seats[p.Seat].Computer; c != "" {
			if player, err := ai.Lookup(out.rules, c); err == nil && ai.Searching(player) {
				continue // the thinker's
			}
			return p, c, "", true
		}
		if thought, ok := standIn[p.Seat]; ok {
			delete(standIn, p.Seat) // one decision per passed deadline
			return p, ref.standInName(out.rules, out.game.Guild), thought, true
		}
	}
	return engine.Prompt{}, "", "", false
}

// defaultStandIn is the stand-in when none is configured.
const defaultStandIn = "strong"

// standInName is the computer player that acts for an absent player in
// a game of guild: the server's level, else the configured one, else the
// default.
func (ref *referee) standInName(rules engine.Rules, guild string) string {
	server := ""
	if ref.level != nil {
		server = ref.level(guild)
	}
	for _, name := range []string{server, ref.computer, defaultStandIn} {
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
func (ref *referee) record(out *outcome, seat engine.Seat, action string) {
	out.entries = append(out.entries, storage.Entry{Seat: seat, Action: action, At: ref.now()})
	out.game.Version++
}

func (o *outcome) add(events []engine.Event) {
	for _, e := range events {
		switch {
		case e.Private:
			if e.Seat == o.seat {
				o.private = append(o.private, e)
			}
		default:
			o.public = append(o.public, e)
			if e.Kind == engine.EventPhase {
				o.phase = true
			}
		}
	}
}

// revealed reports whether anything hidden became public.
func (o *outcome) revealed() bool {
	for _, e := range o.public {
		if e.Reveals {
			return true
		}
	}
	return false
}

// seatsOf returns the seats user holds.
func seatsOf(g *storage.Game, user string) []engine.Seat {
	var out []engine.Seat
	for n, s := range g.Seats {
		if s.User == user && user != "" {
			out = append(out, engine.Seat(n))
		}
	}
	return out
}

// humanWaiting lists the seats held by people that have an open prompt.
func humanWaiting(g *storage.Game, st engine.State) []engine.Seat {
	var out []engine.Seat
	for _, p := range st.Prompts() {
		if int(p.Seat) < len(g.Seats) && g.Seats[p.Seat].User != "" && !slices.Contains(out, p.Seat) {
			out = append(out, p.Seat)
		}
	}
	return out
}

// promptsOf returns seat's open prompts.
func promptsOf(st engine.State, seat engine.Seat) []engine.Prompt {
	var out []engine.Prompt
	for _, p := range st.Prompts() {
		if p.Seat == seat {
			out = append(out, p)
		}
	}
	return out
}

// canonical joins the words of text with single spaces.
func canonical(text string) string { return strings.Join(strings.Fields(text), " ") }

// resolveAction picks which of the user's seats acts and completes a short
// form: "6 5 3 1" answers a prompt whose actions all read "dice …". Open
// prompts come first; then a secret choice made and still revisable.
func resolveAction(st engine.State, seats []engine.Seat, text string) (engine.Seat, string) {
	text = canonical(text)
	for _, choices := range []func(engine.State, engine.Seat) []engine.Prompt{promptsOf, revisableOf} {
		for _, seat := range seats {
			if slices.Contains(st.FreeActions(seat), text) {
				return seat, text
			}
			for _, p := range choices(st, seat) {
				if slices.Contains(p.Actions, text) {
					return seat, text
				}
				if w := commonVerb(p.Actions); w != "" && text != "" && !strings.HasPrefix(text, w+" ") && text != w {
					return seat, w + " " + text
				}
			}
		}
	}
	for _, choices := range []func(engine.State, engine.Seat) []engine.Prompt{promptsOf, revisableOf} {
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
	return len(promptsOf(st, seat)) > 0 && !slices.Contains(st.FreeActions(seat), action)
}

// revisableOf returns the secret prompt seat has answered and may still
// change (see engine.Revisable), or nothing.
func revisableOf(st engine.State, seat engine.Seat) []engine.Prompt {
	if p, ok := engine.Revision(st, seat); ok {
		return []engine.Prompt{p}
	}
	return nil
}

// choicesOf returns seat's open prompts and its revisable secret choice.
func choicesOf(st engine.State, seat engine.Seat) []engine.Prompt {
	return append(promptsOf(st, seat), revisableOf(st, seat)...)
}

// commonVerb is the first word every action shares, or "".
func commonVerb(actions []string) string {
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

// undo takes back user's last action in channel's game when it was the
// last one played and revealed nothing.
func (ref *referee) undo(channel, user string) (*outcome, error) {
	defer ref.locks.lock(channel)()
	g, err := ref.store.Get(channel)
	if err != nil {
		return nil, err
	}
	if g.Status != storage.StatusRunning {
		return nil, errNotRunning
	}
	return ref.undoLast(g, user)
}

func (ref *referee) undoLast(g *storage.Game, user string) (*outcome, error) {
	last, n, rules, err := ref.lastTakeBack(g, seatsOf(g, user))
	if err != nil {
		return nil, err
	}
	g2, st2, err := ref.store.Undo(g.Channel, g.Guard(), n)
	if err != nil {
		return nil, err
	}
	return &outcome{game: g2, state: st2, rules: rules, seat: last.Seat, action: last.Action, undone: true}, nil
}

// replayError is the failure to replay action n of g's log: Meeple's
// failure, logged without the text of a secret action.
func replayError(g *storage.Game, n int, secret bool, err error) error {
	e := g.Log[n]
	return fmt.Errorf("game %d: %w", g.ID, &storage.ReplayError{Index: n, Seat: int(e.Seat), Action: e.Action, Secret: secret, Err: err})
}

// lastTakeBack finds the game's last asked action with the answers given
// after it without asking (engine.UnaskedAnswer), checks that it belongs
// to one of seats and that none of them revealed anything, and returns it
// with how many entries taking it back removes.
func (ref *referee) lastTakeBack(g *storage.Game, seats []engine.Seat) (storage.Entry, int, engine.Rules, error) {
	var none storage.Entry
	if len(seats) == 0 {
		return none, 0, nil, errNotSeated
	}
	rules, err := ref.games.Lookup(g.Kind)
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
			return none, 0, nil, replayError(g, n, secret, err)
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
		return none, 0, nil, refuseWith("undo.nothing")
	case !slices.Contains(seats, g.Log[asked].Seat):
		return none, 0, nil, refuseWith("undo.not_yours")
	case revealed:
		return none, 0, nil, refuseWith("undo.revealed")
	}
	return g.Log[asked], len(g.Log) - asked, rules, nil
}
