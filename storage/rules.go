package storage

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/meeplegames/meeple/engine"
)

// prepareCreate validates a game about to be created (by Import when
// imported is set) and returns its record: status, times, log times,
// snapshot and, for an imported game its log ends, result filled in; ID
// still 0.
func (s Contract) prepareCreate(g *Game, imported bool) (Game, error) {
	now := s.now().UTC()
	rec := *g
	if rec.Status == "" {
		rec.Status = StatusLobby
	}
	rec.Log = slices.Clone(g.Log)
	for i := range rec.Log {
		if rec.Log[i].At.IsZero() {
			rec.Log[i].At = now
		}
		rec.Log[i].At = rec.Log[i].At.UTC()
	}
	if imported && rec.Status != StatusRunning && rec.Status != StatusAbandoned {
		return Game{}, fmt.Errorf("%w: an imported game is running or abandoned, not %s", ErrInvalid, rec.Status)
	}
	if err := s.checkNew(&rec); err != nil {
		return Game{}, err
	}
	created, finished := now, time.Time{}
	if imported {
		created = g.Created.UTC()
		if created.IsZero() {
			created = now
		}
		if n := len(rec.Log); n > 0 {
			finished = rec.Log[n-1].At
		}
		if !g.Finished.IsZero() {
			finished = g.Finished.UTC()
		}
		if finished.IsZero() {
			finished = now
		}
	}
	var snap []byte
	var result *engine.Result
	if rec.Status != StatusLobby {
		state, err := s.replay(&rec, rec.Log)
		if err != nil {
			return Game{}, err
		}
		if snap, err = state.Encode(); err != nil {
			return Game{}, fmt.Errorf("encode state: %w", err)
		}
		if imported && state.Over() {
			rec.Status = StatusFinished
			r := state.Result()
			result = &r
		}
		at := now
		if n := len(rec.Log); n > 0 {
			at = rec.Log[n-1].At
		}
		rec.Waits = nextWaits(nil, PromptSeats(state), nil, at)
	}
	rec.Version, rec.Snapshot, rec.Created, rec.Updated, rec.Finished, rec.Result = len(rec.Log), snap, created, created, time.Time{}, result
	if n := len(rec.Log); n > 0 && rec.Log[n-1].At.After(rec.Updated) {
		rec.Updated = rec.Log[n-1].At
	}
	if !rec.Status.Active() {
		rec.Finished, rec.Updated, rec.Deadline, rec.RemindAt, rec.Waits = finished, finished, time.Time{}, time.Time{}, nil
	}
	return rec, nil
}

// checkNew validates a game about to be created.
func (s Contract) checkNew(g *Game) error {
	if _, err := s.games.Lookup(g.Kind); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if err := checkID("channel", g.Channel); err != nil {
		return err
	}
	if g.Parent != "" {
		if err := checkID("parent channel", g.Parent); err != nil {
			return err
		}
	}
	if g.Guild != "" {
		if err := checkID("guild", g.Guild); err != nil {
			return err
		}
	}
	if err := checkSeats(g.Seats); err != nil {
		return err
	}
	switch g.Status {
	case StatusLobby:
		if len(g.Log) > 0 {
			return fmt.Errorf("%w: a game in the lobby has no actions", ErrInvalid)
		}
	case StatusRunning, StatusAbandoned:
		if g.Setup.Players != len(g.Seats) {
			return fmt.Errorf("%w: %d players but %d seats", ErrInvalid, g.Setup.Players, len(g.Seats))
		}
		if len(g.Log) > MaxLog {
			return fmt.Errorf("%w: %d actions is more than a game can hold", ErrInvalid, len(g.Log))
		}
		for i, e := range g.Log {
			if err := checkEntry(e, len(g.Seats)); err != nil {
				return fmt.Errorf("action %d: %w", i+1, err)
			}
		}
	default:
		return fmt.Errorf("%w: a new game cannot be %s", ErrInvalid, g.Status)
	}
	return nil
}

func checkSeats(seats []Seat) error {
	if len(seats) > MaxSeats {
		return fmt.Errorf("%w: %d seats is more than a table holds", ErrInvalid, len(seats))
	}
	for i, seat := range seats {
		if seat.User != "" {
			if err := checkID("user", seat.User); err != nil {
				return fmt.Errorf("seat %d: %w", i+1, err)
			}
			if seat.Computer != "" {
				return fmt.Errorf("%w: seat %d has both a user and a computer player", ErrInvalid, i+1)
			}
		}
	}
	return nil
}

// checkEntry refuses an entry that a script could not hold: a seat out of
// range, or action text that is empty, spans lines, holds a # (a script
// comment) or is not in canonical spacing.
func checkEntry(e Entry, players int) error {
	switch {
	case e.Seat < 0 || int(e.Seat) >= players:
		return fmt.Errorf("%w: seat %d is not at the table (%d players)", ErrInvalid, e.Seat+1, players)
	case e.At.Year() < 1970 || e.At.Year() > 2200:
		return fmt.Errorf("%w: action time %s is out of range", ErrInvalid, e.At.Format(time.RFC3339))
	case e.Action == "" || len(e.Action) > 4096:
		return fmt.Errorf("%w: action text is empty or too long", ErrInvalid)
	case strings.ContainsAny(e.Action, "#\r\n") || strings.Join(strings.Fields(e.Action), " ") != e.Action:
		return fmt.Errorf("%w: action text is not canonical (one space between words, no # or line break)", ErrInvalid)
	}
	return nil
}

// editGame runs an Update's fn on a copy of old and returns the edited
// record, or fn's error or the refusal of its edit.
func (s Contract) editGame(old *Game, fn func(g *Game) error) (*Game, error) {
	g := old.clone()
	if err := fn(g); err != nil {
		return nil, err
	}
	if err := s.checkEdit(old, g); err != nil {
		return nil, err
	}
	g.Updated = s.now().UTC()
	return g, nil
}

// checkEdit refuses an Update that changes what is not the caller's.
func (s Contract) checkEdit(old, g *Game) error {
	fixed := func(name string, same bool) error {
		if same {
			return nil
		}
		return fmt.Errorf("%w: %s is kept by the store and cannot be changed", ErrInvalid, name)
	}
	for _, err := range []error{
		fixed("the id", g.ID == old.ID),
		fixed("the channel", g.Channel == old.Channel && g.Parent == old.Parent),
		fixed("the guild", g.Guild == old.Guild),
		fixed("the status", g.Status == old.Status),
		fixed("the version", g.Version == old.Version && len(g.Log) == 0 && g.Snapshot == nil),
		fixed("the revision", g.Revision == old.Revision && g.Rewound == old.Rewound),
		fixed("the creation time", g.Created.Equal(old.Created) && g.Finished.Equal(old.Finished)),
		fixed("the result", g.Result == nil),
		fixed("the waits", sameWaits(g.Waits, old.Waits)),
	} {
		if err != nil {
			return err
		}
	}
	if g.Status == StatusRunning {
		if g.Kind != old.Kind || !sameSetup(g.Setup, old.Setup) {
			return fmt.Errorf("%w: the game and its setup cannot change once it has started", ErrInvalid)
		}
		if len(g.Seats) != len(old.Seats) {
			return fmt.Errorf("%w: seats cannot be added or removed once the game has started", ErrInvalid)
		}
	} else if _, err := s.games.Lookup(g.Kind); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if err := checkSeats(g.Seats); err != nil {
		return err
	}
	if len(g.Handovers) < len(old.Handovers) {
		return fmt.Errorf("%w: handovers are only ever added", ErrInvalid)
	}
	for _, h := range g.Handovers {
		if h.Seat < 0 || int(h.Seat) >= len(g.Seats) {
			return fmt.Errorf("%w: a handover of seat %d, which the game does not have", ErrInvalid, h.Seat+1)
		}
		if h.Version < 0 || h.Version > g.Version {
			return fmt.Errorf("%w: a handover at version %d of a game at version %d", ErrInvalid, h.Version, g.Version)
		}
	}
	for _, u := range g.EndVotes {
		if err := checkID("voter", u); err != nil {
			return err
		}
	}
	for role, msg := range g.Messages {
		if role == "" || len(role) > MaxIDLen || checkID("message", msg) != nil {
			return fmt.Errorf("%w: bad message id %.20q for %.20q", ErrInvalid, msg, role)
		}
	}
	return checkTiming(g.Timing)
}

// checkTiming refuses negative time limits and an outsized deadline policy.
func checkTiming(t Timing) error {
	switch {
	case t.TurnDeadline < 0 || t.ReminderEvery < 0 || t.Bank < 0 || t.BankAdd < 0 || t.BankCap < 0:
		return fmt.Errorf("%w: negative time limit", ErrInvalid)
	case t.Bank > 0 && t.BankCap < t.Bank:
		return fmt.Errorf("%w: a time bank capped below its start", ErrInvalid)
	case len(t.OnDeadline) > MaxIDLen || !utf8.ValidString(t.OnDeadline):
		return fmt.Errorf("%w: bad deadline policy %.20q", ErrInvalid, t.OnDeadline)
	}
	return nil
}

func sameSetup(a, b engine.Setup) bool {
	return a.Players == b.Players && a.Seed == b.Seed && maps.Equal(a.Options, b.Options)
}

// startGame returns old, a game in the lobby, started: running, with the
// initial state and its snapshot.
func (s Contract) startGame(old *Game) (*Game, engine.State, error) {
	if old.Status != StatusLobby {
		return nil, nil, fmt.Errorf("%w: the game has already started", ErrInvalid)
	}
	for i, seat := range old.Seats {
		if seat.Open() {
			return nil, nil, fmt.Errorf("%w: seat %d is still open", ErrInvalid, i+1)
		}
	}
	g := old.clone()
	g.Status, g.Setup.Players = StatusRunning, len(g.Seats)
	return s.rebuilt(g)
}

// rebuilt returns g with its state replayed from its setup and log, that
// state's snapshot and the time of the change.
func (s Contract) rebuilt(g *Game) (*Game, engine.State, error) {
	state, err := s.replay(g, g.Log)
	if err != nil {
		return nil, nil, err
	}
	if g.Snapshot, err = state.Encode(); err != nil {
		return nil, nil, fmt.Errorf("encode state: %w", err)
	}
	g.Updated = s.now().UTC()
	g.Waits = nextWaits(g.Waits, PromptSeats(state), nil, g.Updated)
	return g, state, nil
}

// prepareEntry refuses an Append without a snapshot and gives an entry
// without a time the store's clock, in UTC.
func (s Contract) prepareEntry(e Entry, snapshot []byte) (Entry, error) {
	if len(snapshot) == 0 {
		return e, fmt.Errorf("%w: no state snapshot", ErrInvalid)
	}
	if e.At.IsZero() {
		e.At = s.now()
	}
	e.At = e.At.UTC()
	return e, nil
}

func checkRunning(g *Game, at Guard) error {
	if err := checkGuard(g, at); err != nil {
		return err
	}
	if g.Status != StatusRunning {
		return fmt.Errorf("%w: the game has not started", ErrInvalid)
	}
	return nil
}

// checkGuard refuses a write guarded by at to g, the channel's game, when
// g is another game or at another revision.
func checkGuard(g *Game, at Guard) error {
	if g.ID != at.Game || g.Revision != at.Revision {
		return &VersionError{Channel: g.Channel, Expected: at, Actual: g.Guard()}
	}
	return nil
}

// historyChanged reports whether g, made from old by a write, has another
// history (log or state) than old, so that the store gives it a new
// Revision: an action appended or undone, or the game started.
func historyChanged(old, g *Game) bool {
	return old == nil || old.Version != g.Version || (old.Status == StatusLobby && g.Status == StatusRunning)
}

// undoGame returns old, with its log, without its last n actions, and the
// state replayed from the rest.
func (s Contract) undoGame(old *Game, at Guard, n int) (*Game, engine.State, error) {
	if err := checkRunning(old, at); err != nil {
		return nil, nil, err
	}
	if n < 1 || n > old.Version {
		return nil, nil, fmt.Errorf("%w: cannot undo %d of %d actions", ErrInvalid, n, old.Version)
	}
	g := old.clone()
	g.Log = g.Log[:old.Version-n]
	g.Version = len(g.Log)
	g.Rewound = old.Revision + 1
	return s.rebuilt(g)
}

// replay builds g's state from its setup and the given log.
func (s Contract) replay(g *Game, log []Entry) (engine.State, error) {
	rules, err := s.games.Lookup(g.Kind)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	setup := g.Setup
	setup.Players = len(g.Seats)
	state, err := rules.New(setup)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	for i, e := range log {
		if int(e.Seat) < 0 || int(e.Seat) >= state.Players() {
			return nil, &ReplayError{Index: i, Seat: int(e.Seat), Action: e.Action, Err: ErrInvalid}
		}
		secret := engine.IsSecret(state, e.Seat, e.Action)
		if _, err := state.Apply(e.Seat, e.Action); err != nil {
			return nil, &ReplayError{Index: i, Seat: int(e.Seat), Action: e.Action, Secret: secret, Err: err}
		}
	}
	return state, nil
}

// finishGame returns old ended with status and result, as archived.
func (s Contract) finishGame(old *Game, at Guard, status Status, result *engine.Result) (*Game, error) {
	if err := checkGuard(old, at); err != nil {
		return nil, err
	}
	if err := checkFinish(old, status, result); err != nil {
		return nil, err
	}
	g := old.clone()
	g.Status = status
	g.Finished = s.now().UTC()
	g.Updated = g.Finished
	g.Deadline, g.RemindAt, g.Waits = time.Time{}, time.Time{}, nil
	if result != nil {
		r := *result
		g.Result = &r
	}
	return g, nil
}

func checkFinish(g *Game, status Status, result *engine.Result) error {
	switch status {
	case StatusFinished:
		if g.Status != StatusRunning {
			return fmt.Errorf("%w: only a running game can finish", ErrInvalid)
		}
		if result == nil || len(result.Scores) != len(g.Seats) {
			return fmt.Errorf("%w: a finished game needs one score per seat", ErrInvalid)
		}
	case StatusAbandoned:
		if result != nil && len(result.Scores) != len(g.Seats) {
			return fmt.Errorf("%w: a result needs one score per seat", ErrInvalid)
		}
	default:
		return fmt.Errorf("%w: a game ends finished or abandoned, not %q", ErrInvalid, status)
	}
	if result != nil {
		for _, w := range result.Winners {
			if w < 0 || int(w) >= len(g.Seats) {
				return fmt.Errorf("%w: winner P%d is not at the table", ErrInvalid, w+1)
			}
		}
	}
	return nil
}

// users lists the distinct Discord users seated in g.
func (g *Game) users() []string {
	var out []string
	for _, seat := range g.Seats {
		if seat.User != "" && !slices.Contains(out, seat.User) {
			out = append(out, seat.User)
		}
	}
	return out
}

// Moves returns g's log as script moves, for engine.WriteScript.
func (g *Game) Moves() []engine.Move {
	moves := make([]engine.Move, len(g.Log))
	for i, e := range g.Log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	return moves
}

// clone returns a copy of g that shares nothing mutable with it.
func (g *Game) clone() *Game {
	c := *g
	c.Setup.Options = maps.Clone(g.Setup.Options)
	c.Seats = slices.Clone(g.Seats)
	c.Log = slices.Clone(g.Log)
	c.Snapshot = bytes.Clone(g.Snapshot)
	c.Messages = maps.Clone(g.Messages)
	c.Handovers = slices.Clone(g.Handovers)
	c.EndVotes = slices.Clone(g.EndVotes)
	c.HintsTaken = slices.Clone(g.HintsTaken)
	c.Waits = slices.Clone(g.Waits)
	c.MissedInARow = slices.Clone(g.MissedInARow)
	c.Banks = slices.Clone(g.Banks)
	c.Proposed = maps.Clone(g.Proposed)
	if g.Extension != nil {
		e := *g.Extension
		e.Votes = slices.Clone(e.Votes)
		c.Extension = &e
	}
	if g.Result != nil {
		r := *g.Result
		c.Result = &r
	}
	return &c
}

// Outcome is everything one interaction changes in a running game, for
// Store.Commit to keep in one transaction: the actions it accepted (the
// player's, then any computer moves they set off), the state after them,
// the bot's own fields (the next deadline and reminder, message ids), and
// the end of the game when it ended.
type Outcome struct {
	// Key is the id of the interaction (or DM message) that caused the
	// commit, or empty. A store keeps it with the commit and refuses a
	// second commit with the same key with an *AppliedError (ErrApplied),
	// so that a retry after a lost answer finds its commit kept and is
	// never applied twice.
	Key string
	// Entries are the accepted actions, in order; Snapshot is the state
	// after the last one (State.Encode()), required with entries.
	Entries  []Entry
	Snapshot []byte
	// Edit, when set, changes the bot-owned fields as Store.Update's fn
	// does; it is given the game as it was before the entries (Version
	// included). It may run more than once and must not call the store.
	Edit func(g *Game) error
	// Finish, when set, archives the game after the entries, as
	// Store.Finish does with its status and result.
	Finish *Ending
	// Start, when set, starts a game in the lobby, as Store.Start does,
	// before the entries: Edit is given the lobby's game (it may order
	// the seats), the game is started from it, and the entries (the
	// computer players' opening moves) follow. The commit's guard is
	// the lobby's. Without entries the start's state is kept as the
	// snapshot.
	Start bool
	// Waiting are the seats with an open prompt in the state after the
	// entries (State.Prompts), each once: the store keeps them in the
	// game's Waits and its seat index. Read only with entries.
	Waiting []engine.Seat
}

// Ending is how a game ends: StatusFinished with a result (one score per
// seat), or StatusAbandoned with an optional one.
type Ending struct {
	Status Status
	Result *engine.Result
}

// outcomeSnapshot is the snapshot a commit of o that made g writes: the
// state after o's entries, or the started state of a start without
// entries, or nil when the state did not change.
func outcomeSnapshot(g *Game, o Outcome) []byte {
	if len(o.Entries) == 0 && o.Start {
		return g.Snapshot
	}
	return o.Snapshot
}

// prepareOutcome checks what an Outcome must hold whatever the game, and
// returns its entries with their times set.
func (s Contract) prepareOutcome(o Outcome) ([]Entry, error) {
	if o.Key != "" {
		if err := checkID("interaction", o.Key); err != nil {
			return nil, err
		}
	}
	if len(o.Entries) > 0 && len(o.Snapshot) == 0 {
		return nil, fmt.Errorf("%w: no state snapshot", ErrInvalid)
	}
	if len(o.Entries) == 0 && o.Snapshot != nil {
		return nil, fmt.Errorf("%w: a state snapshot without actions", ErrInvalid)
	}
	entries := slices.Clone(o.Entries)
	for i := range entries {
		var err error
		if entries[i], err = s.prepareEntry(entries[i], o.Snapshot); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// outcomeGame returns old, a running game at guard at (a game in
// the lobby for o.Start), after the outcome: Edit applied, started for
// o.Start, entries counted in its version, and archived when it finished.
// The log and snapshot are the caller's to write.
func (s Contract) outcomeGame(old *Game, at Guard, entries []Entry, o Outcome) (*Game, error) {
	if o.Start {
		if err := checkGuard(old, at); err != nil {
			return nil, err
		}
	} else if err := checkRunning(old, at); err != nil {
		return nil, err
	}
	for i, e := range entries {
		if err := checkEntry(e, len(old.Seats)); err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
	}
	g := old.clone()
	if o.Edit != nil {
		var err error
		if g, err = s.editGame(old, o.Edit); err != nil {
			return nil, err
		}
	}
	if o.Start {
		var err error
		if g, _, err = s.startGame(g); err != nil {
			return nil, err
		}
	}
	g.Version += len(entries)
	if o.Start && len(entries) > 0 {
		g.Snapshot = o.Snapshot // the state after the opening moves
	}
	if n := len(entries); n > 0 {
		if err := checkWaiting(o.Waiting, len(g.Seats)); err != nil {
			return nil, err
		}
		g.Waits = nextWaits(g.Waits, o.Waiting, entries, entries[n-1].At)
		if entries[n-1].At.After(g.Updated) {
			g.Updated = entries[n-1].At
		}
	}
	if o.Finish != nil {
		return s.finishGame(g, g.Guard(), o.Finish.Status, o.Finish.Result)
	}
	return g, nil
}

// statsUsers lists the users whose statistics archived game g counts in:
// none for a game abandoned before anyone played.
func statsUsers(g *Game) []string {
	if g.Status == StatusAbandoned && g.Version == 0 && g.Result == nil {
		return nil
	}
	return g.users()
}

// count adds archived game g to st, the statistics of st.User.
func (st *Stats) count(g *Game) {
	if g.Status == StatusAbandoned {
		st.Abandoned++
		return
	}
	score, won := math.MinInt, false
	for seat, held := range g.Seats {
		if held.User != st.User {
			continue
		}
		score = max(score, g.Result.Scores[seat])
		for _, w := range g.Result.Winners {
			won = won || int(w) == seat
		}
	}
	if st.Played == 0 || score > st.Best {
		st.Best = score
	}
	st.Played++
	st.ScoreSum += int64(score)
	if won {
		st.Won++
	}
}

func checkGuildSettings(settings GuildSettings) error {
	if settings.TurnDeadline < 0 || settings.ReminderEvery < 0 || settings.AwayMaxDays < 0 || settings.AwayMaxDays > 366 {
		return fmt.Errorf("%w: a negative duration, or an absence longer than a year", ErrInvalid)
	}
	if len(settings.StandIn) > 20 || strings.Trim(settings.StandIn, "abcdefghijklmnopqrstuvwxyz") != "" {
		return fmt.Errorf("%w: a stand-in level is a short lower-case word, not %.20q", ErrInvalid, settings.StandIn)
	}
	if settings.BankMax < 0 {
		return fmt.Errorf("%w: a negative longest time bank", ErrInvalid)
	}
	if settings.MissedInARow < 0 || settings.MissedInARow > MaxMissedInARow {
		return fmt.Errorf("%w: %d missed deadlines in a row; from 1 to %d", ErrInvalid, settings.MissedInARow, MaxMissedInARow)
	}
	for _, c := range settings.AwayChoices {
		if c != AwayComputer && c != AwayWait {
			return fmt.Errorf("%w: an absent player's stand-in is %q or %q, not %.20q", ErrInvalid, AwayComputer, AwayWait, c)
		}
	}
	if settings.Locale != "" {
		if err := CheckLocale(settings.Locale); err != nil {
			return err
		}
	}
	if settings.GamesChannel != "" {
		return checkID("channel", settings.GamesChannel)
	}
	return nil
}

func checkUserPrefs(prefs UserPrefs) error {
	if prefs.Secrets != SecretsEphemeral && prefs.Secrets != SecretsDM {
		return fmt.Errorf("%w: secrets go by %q or %q, not %.20q", ErrInvalid, SecretsEphemeral, SecretsDM, prefs.Secrets)
	}
	if prefs.QuietFrom < 0 || prefs.QuietFrom > 23 || prefs.QuietTo < 0 || prefs.QuietTo > 23 {
		return fmt.Errorf("%w: quiet hours from %d to %d; hours are 0 to 23", ErrInvalid, prefs.QuietFrom, prefs.QuietTo)
	}
	if err := CheckTimeZone(prefs.TimeZone); err != nil {
		return err
	}
	if prefs.AwayStandIn != "" && prefs.AwayStandIn != AwayComputer && prefs.AwayStandIn != AwayWait {
		return fmt.Errorf("%w: an absent player's stand-in is %q or %q, not %.20q", ErrInvalid, AwayComputer, AwayWait, prefs.AwayStandIn)
	}
	if prefs.DigestHour < 0 || prefs.DigestHour > 23 {
		return fmt.Errorf("%w: a digest at hour %d; hours are 0 to 23", ErrInvalid, prefs.DigestHour)
	}
	if _, err := time.Parse(time.DateOnly, prefs.DigestSent); prefs.DigestSent != "" && err != nil {
		return fmt.Errorf("%w: the last digest's day %.20q is no date", ErrInvalid, prefs.DigestSent)
	}
	for guild, r := range prefs.Reliability {
		if guild != "" {
			if err := checkID("guild", guild); err != nil {
				return err
			}
		}
		if r.InTime < 0 || r.Missed < 0 || r.HandedOver < 0 {
			return fmt.Errorf("%w: a negative reliability count", ErrInvalid)
		}
	}
	if prefs.Locale != "" {
		return CheckLocale(prefs.Locale)
	}
	return nil
}

// maxTimeZone is the longest time zone name a preference keeps; the
// IANA database's longest is 32 characters.
const maxTimeZone = 48

// CheckTimeZone refuses what cannot be an IANA time zone's name ("" is
// UTC): longer than 48 characters, or anything but ASCII letters,
// digits, '/', '_', '+' and '-'. Whether the zone exists is for the
// caller, which has the zone database, to say.
func CheckTimeZone(tz string) error {
	if len(tz) > maxTimeZone {
		return fmt.Errorf("%w: a time zone of %d characters", ErrInvalid, len(tz))
	}
	for _, r := range tz {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/_+-", r)) {
			return fmt.Errorf("%w: %q in a time zone's name", ErrInvalid, r)
		}
	}
	return nil
}

// maxLocale is the longest locale a preference keeps: Discord's are at
// most 5 characters ("en-US", "es-419"), BCP 47 tags with a script a few
// more.
const maxLocale = 16

// CheckLocale refuses what cannot be a locale's name: empty, longer than
// 16 characters, or anything but ASCII letters, digits, '-' and '_'.
func CheckLocale(loc string) error {
	if loc == "" || len(loc) > maxLocale {
		return fmt.Errorf("%w: a locale of %d characters", ErrInvalid, len(loc))
	}
	for _, r := range loc {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("%w: locale %.20q", ErrInvalid, loc)
		}
	}
	return nil
}
