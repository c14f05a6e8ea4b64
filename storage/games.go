package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/meeplegames/meeple/engine"
	bolt "go.etcd.io/bbolt"
)

// Create stores a new active game in g.Channel and fills in g's ID,
// Version, Snapshot, Created and Updated. It fails with ErrChannelBusy when
// the channel already has an active game and with ErrInvalid for a bad
// record.
//
// A game created in StatusLobby has no state yet (see Start). A game
// created in StatusRunning starts from g.Setup; if g.Log holds actions (an
// imported game) they are replayed and must all be legal. Any Snapshot in g
// is ignored: the store builds it.
func (s *Store) Create(g *Game) error {
	if err := s.create(g, false); err != nil {
		return fmt.Errorf("storage: create game in channel %s: %w", g.Channel, err)
	}
	return nil
}

// Import stores a game exported from a file: it is Create of a running
// game that keeps g.Created and the times of g's actions (a zero time
// becomes now). A game whose log ends it goes straight to the archive as
// finished, with the result the rules give and statistics counted; one
// with status StatusAbandoned is archived as abandoned. An archived
// game's Finished time is g.Finished, or else its last action's time. An
// archived game leaves its channel free.
func (s *Store) Import(g *Game) error {
	if err := s.create(g, true); err != nil {
		return fmt.Errorf("storage: import game into channel %s: %w", g.Channel, err)
	}
	return nil
}

// create is Create, or Import when imported is set.
func (s *Store) create(g *Game, imported bool) error {
	rec, err := s.prepareCreate(g, imported)
	if err != nil {
		return err
	}
	snap := rec.Snapshot
	err = s.update(func(tx *bolt.Tx) error {
		if rec.Status.Active() && bucket(tx, bktActive).Get([]byte(rec.Channel)) != nil {
			return refuse(ErrChannelBusy)
		}
		id, err := bucket(tx, bktGames).NextSequence()
		if err != nil {
			return err
		}
		rec.ID = id
		for i, e := range rec.Log {
			if err := bucket(tx, bktLog).Put(logKey(id, i), s.codec.encodeEntry(e)); err != nil {
				return err
			}
		}
		if snap != nil {
			if err := bucket(tx, bktSnapshots).Put(idKey(id), s.codec.encodeSnapshot(newSnapshot(rec.Version, snap))); err != nil {
				return err
			}
		}
		if !rec.Status.Active() {
			if err := s.addStats(tx, &rec); err != nil {
				return err
			}
		}
		return s.putGame(tx, nil, &rec)
	})
	if err != nil {
		return err
	}
	*g = rec
	return nil
}

// prepareCreate validates a game about to be created (by Import when
// imported is set) and returns its record: status, times, log times,
// snapshot and, for an imported game its log ends, result filled in; ID
// still 0.
func (s *Store) prepareCreate(g *Game, imported bool) (Game, error) {
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
	}
	rec.Version, rec.Snapshot, rec.Created, rec.Updated, rec.Finished, rec.Result = len(rec.Log), snap, created, created, time.Time{}, result
	if n := len(rec.Log); n > 0 && rec.Log[n-1].At.After(rec.Updated) {
		rec.Updated = rec.Log[n-1].At
	}
	if !rec.Status.Active() {
		rec.Finished, rec.Updated, rec.Deadline, rec.RemindAt = finished, finished, time.Time{}, time.Time{}
	}
	return rec, nil
}

// checkNew validates a game about to be created.
func (s *Store) checkNew(g *Game) error {
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
		if len(g.Log) > maxLog {
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
	if len(seats) > maxSeats {
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

// Get returns the active game of channel with its log and snapshot, or
// ErrNotFound.
func (s *Store) Get(channel string) (*Game, error) {
	var g *Game
	err := s.view(func(tx *bolt.Tx) error {
		id, err := activeID(tx, channel)
		if err != nil {
			return err
		}
		g, err = s.readGame(tx, id, true)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: get game in channel %s: %w", channel, err)
	}
	return g, nil
}

// GetByID returns any game, active or archived, with its log and snapshot,
// or ErrNotFound.
func (s *Store) GetByID(id uint64) (*Game, error) {
	var g *Game
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		g, err = s.readGame(tx, id, true)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: get game %d: %w", id, err)
	}
	return g, nil
}

// Update changes the bot-owned fields of channel's active game in one
// transaction: fn receives the current record (without Log and Snapshot)
// and edits it; an error from fn cancels the update and is returned. fn
// runs inside the write transaction, so it must be quick and must not call
// the store; it may run more than once.
//
// ID, Channel, Guild, Status, Version and the times are the store's: a
// change to them is refused with ErrInvalid. Kind and Setup may change only
// in the lobby; a running game's seats may be reassigned but not added or
// removed.
func (s *Store) Update(channel string, fn func(g *Game) error) (*Game, error) {
	var out *Game
	err := s.update(func(tx *bolt.Tx) error {
		old, err := s.activeGame(tx, channel, false)
		if err != nil {
			return refuse(err)
		}
		g, err := s.editGame(old, fn)
		if err != nil {
			return refuse(err)
		}
		if err := s.putGame(tx, old, g); err != nil {
			return err
		}
		out = g
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: update game in channel %s: %w", channel, err)
	}
	return out, nil
}

// editGame runs an Update's fn on a copy of old and returns the edited
// record, or fn's error or the refusal of its edit.
func (s *Store) editGame(old *Game, fn func(g *Game) error) (*Game, error) {
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
func (s *Store) checkEdit(old, g *Game) error {
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
		fixed("the creation time", g.Created.Equal(old.Created) && g.Finished.Equal(old.Finished)),
		fixed("the result", g.Result == nil),
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
		if role == "" || len(role) > maxIDLen || checkID("message", msg) != nil {
			return fmt.Errorf("%w: bad message id %.20q for %.20q", ErrInvalid, msg, role)
		}
	}
	return checkTiming(g.Timing)
}

// checkTiming refuses negative time limits and an outsized deadline policy.
func checkTiming(t Timing) error {
	switch {
	case t.TurnDeadline < 0 || t.ReminderEvery < 0:
		return fmt.Errorf("%w: negative time limit", ErrInvalid)
	case len(t.OnDeadline) > maxIDLen || !utf8.ValidString(t.OnDeadline):
		return fmt.Errorf("%w: bad deadline policy %.20q", ErrInvalid, t.OnDeadline)
	}
	return nil
}

func sameSetup(a, b engine.Setup) bool {
	return a.Players == b.Players && a.Seed == b.Seed && maps.Equal(a.Options, b.Options)
}

// activeGame reads channel's active game inside tx, with its log when
// withLog is set.
func (s *Store) activeGame(tx *bolt.Tx, channel string, withLog bool) (*Game, error) {
	id, err := activeID(tx, channel)
	if err != nil {
		return nil, err
	}
	return s.readGame(tx, id, withLog)
}

// Start moves channel's game from the lobby to running: the state is
// created from the game's Setup with one player per seat, and every seat
// must be taken. It returns the game and its initial state.
func (s *Store) Start(channel string) (*Game, engine.State, error) {
	var (
		out   *Game
		state engine.State
	)
	err := s.update(func(tx *bolt.Tx) error {
		id, err := activeID(tx, channel)
		if err != nil {
			return refuse(err)
		}
		old, err := s.readGame(tx, id, false)
		if err != nil {
			return refuse(err)
		}
		var g *Game
		if g, state, err = s.startGame(old); err != nil {
			return refuse(err)
		}
		if err := bucket(tx, bktSnapshots).Put(idKey(id), s.codec.encodeSnapshot(newSnapshot(0, g.Snapshot))); err != nil {
			return err
		}
		out = g
		return s.putGame(tx, old, g)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("storage: start game in channel %s: %w", channel, err)
	}
	return out, state, nil
}

// startGame returns old, a game in the lobby, started: running, with the
// initial state and its snapshot.
func (s *Store) startGame(old *Game) (*Game, engine.State, error) {
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
func (s *Store) rebuilt(g *Game) (*Game, engine.State, error) {
	state, err := s.replay(g, g.Log)
	if err != nil {
		return nil, nil, err
	}
	if g.Snapshot, err = state.Encode(); err != nil {
		return nil, nil, fmt.Errorf("encode state: %w", err)
	}
	g.Updated = s.now().UTC()
	return g, state, nil
}

// Append adds one accepted action to channel's running game, with the
// state after it (State.Encode()), and returns the new version. It is
// durable when it returns. expectVersion is the version the caller applied
// the action to; if the game has moved on, Append fails with a
// *VersionError (ErrStale) and changes nothing.
//
// The caller vouches that snapshot is the state after the action; Load
// rebuilds it from the log should it ever disagree with its hash.
func (s *Store) Append(channel string, expectVersion int, e Entry, snapshot []byte) (int, error) {
	e, err := s.prepareEntry(e, snapshot)
	if err != nil {
		return 0, fmt.Errorf("storage: append to channel %s: %w", channel, err)
	}
	entry := s.codec.encodeEntry(e)
	snap := s.codec.encodeSnapshot(newSnapshot(expectVersion+1, snapshot))
	err = s.update(func(tx *bolt.Tx) error {
		head, err := activeHead(tx, channel)
		if err != nil {
			return refuse(err)
		}
		if head.status != StatusRunning {
			return refuse(fmt.Errorf("%w: the game has not started", ErrInvalid))
		}
		key := idKey(head.id)
		if err := s.codec.notNewer(recGame, func() string { return idString(key) }, bucket(tx, bktGames).Get(key)); err != nil {
			return refuse(err)
		}
		if err := checkEntry(e, head.seats); err != nil {
			return refuse(err)
		}
		version, _, err := s.logTail(tx, head.id)
		if err != nil {
			return refuse(err)
		}
		if version != expectVersion {
			return refuse(&VersionError{Channel: channel, Expected: expectVersion, Actual: version})
		}
		if err := bucket(tx, bktLog).Put(logKey(head.id, version), entry); err != nil {
			return err
		}
		return bucket(tx, bktSnapshots).Put(idKey(head.id), snap)
	})
	if err != nil {
		return 0, fmt.Errorf("storage: append to channel %s: %w", channel, err)
	}
	return expectVersion + 1, nil
}

// prepareEntry refuses an Append without a snapshot and gives an entry
// without a time the store's clock, in UTC.
func (s *Store) prepareEntry(e Entry, snapshot []byte) (Entry, error) {
	if len(snapshot) == 0 {
		return e, fmt.Errorf("%w: no state snapshot", ErrInvalid)
	}
	if e.At.IsZero() {
		e.At = s.now()
	}
	e.At = e.At.UTC()
	return e, nil
}

func checkRunning(g *Game, expectVersion int) error {
	if g.Status != StatusRunning {
		return fmt.Errorf("%w: the game has not started", ErrInvalid)
	}
	if g.Version != expectVersion {
		return &VersionError{Channel: g.Channel, Expected: expectVersion, Actual: g.Version}
	}
	return nil
}

// Undo drops the last n actions of channel's running game and rebuilds its
// snapshot by replaying the rest of the log, all in one transaction. Like
// Append it refuses a stale expectVersion with a *VersionError. Whether an
// action may be undone (it revealed nothing) is the caller's decision.
func (s *Store) Undo(channel string, expectVersion, n int) (*Game, engine.State, error) {
	var (
		out   *Game
		state engine.State
	)
	err := s.update(func(tx *bolt.Tx) error {
		id, err := activeID(tx, channel)
		if err != nil {
			return refuse(err)
		}
		old, err := s.readGame(tx, id, true)
		if err != nil {
			return refuse(err)
		}
		var g *Game
		if g, state, err = s.undoGame(old, expectVersion, n); err != nil {
			return refuse(err)
		}
		for i := g.Version; i < old.Version; i++ {
			if err := bucket(tx, bktLog).Delete(logKey(id, i)); err != nil {
				return err
			}
		}
		if err := bucket(tx, bktSnapshots).Put(idKey(id), s.codec.encodeSnapshot(newSnapshot(g.Version, g.Snapshot))); err != nil {
			return err
		}
		out = g
		return s.putGame(tx, old, g)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("storage: undo in channel %s: %w", channel, err)
	}
	return out, state, nil
}

// undoGame returns old, with its log, without its last n actions, and the
// state replayed from the rest.
func (s *Store) undoGame(old *Game, expectVersion, n int) (*Game, engine.State, error) {
	if err := checkRunning(old, expectVersion); err != nil {
		return nil, nil, err
	}
	if n < 1 || n > old.Version {
		return nil, nil, fmt.Errorf("%w: cannot undo %d of %d actions", ErrInvalid, n, old.Version)
	}
	g := old.clone()
	g.Log = g.Log[:old.Version-n]
	g.Version = len(g.Log)
	return s.rebuilt(g)
}

// Load returns channel's active game with its log and its state (nil in
// the lobby). It checks the snapshot against its hash and the log's length;
// when they disagree, or the snapshot does not decode, it rebuilds the state
// from the seed and the log, stores the repaired snapshot and logs the
// repair.
func (s *Store) Load(channel string) (*Game, engine.State, error) {
	var (
		g    *Game
		snap snapshot
		have bool
	)
	err := s.view(func(tx *bolt.Tx) error {
		id, err := activeID(tx, channel)
		if err != nil {
			return err
		}
		if g, err = s.readGame(tx, id, true); err != nil {
			return err
		}
		data := bucket(tx, bktSnapshots).Get(idKey(id))
		if data == nil {
			return nil
		}
		snap, err = s.codec.decodeSnapshot(idString(idKey(id)), data)
		have = err == nil
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("storage: load game in channel %s: %w", channel, err)
	}
	if g.Status == StatusLobby {
		return g, nil, nil
	}
	rules, err := s.games.Lookup(g.Kind)
	if err != nil {
		// Every stored game was created with a game this program offers.
		return nil, nil, fmt.Errorf("storage: load game in channel %s: game record %d: %v (damaged, or written by a Meeple with more games): %w",
			channel, g.ID, err, ErrCorrupt)
	}
	var reason string
	switch {
	case !have:
		reason = "snapshot missing or unreadable"
	case snap.version != g.Version:
		reason = fmt.Sprintf("snapshot is of version %d, the log of %d", snap.version, g.Version)
	case !snap.intact():
		reason = "snapshot does not match its hash"
	default:
		state, err := rules.Decode(snap.state)
		if err == nil {
			return g, state, nil
		}
		reason = fmt.Sprintf("snapshot does not decode: %v", err)
	}
	state, err := s.repair(g, reason)
	if err != nil {
		return nil, nil, fmt.Errorf("storage: load game in channel %s: %w", channel, err)
	}
	return g, state, nil
}

// repair rebuilds g's state from its log and stores it as the snapshot,
// unless the game moved on meanwhile (then the next Load checks again).
func (s *Store) repair(g *Game, reason string) (engine.State, error) {
	state, err := s.replay(g, g.Log)
	if err != nil {
		return nil, err
	}
	data, err := state.Encode()
	if err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	g.Snapshot = data
	err = s.update(func(tx *bolt.Tx) error {
		cur, err := s.readGame(tx, g.ID, false)
		if err != nil {
			return refuse(err)
		}
		if cur.Version != g.Version || !cur.Status.Active() {
			return refuse(&VersionError{Channel: g.Channel, Expected: g.Version, Actual: cur.Version})
		}
		return bucket(tx, bktSnapshots).Put(idKey(g.ID), s.codec.encodeSnapshot(newSnapshot(g.Version, data)))
	})
	s.log.Warn("storage: repaired a game's snapshot from its log",
		"channel", g.Channel, "game", g.ID, "version", g.Version, "reason", reason, "saved", err == nil)
	return state, nil
}

// replay builds g's state from its setup and the given log.
func (s *Store) replay(g *Game, log []Entry) (engine.State, error) {
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

// Verified reports whether channel's stored snapshot equals its seed and log
// replayed, byte for byte. It replays the whole log.
func (s *Store) Verified(channel string) (bool, error) {
	g, err := s.Get(channel)
	if err != nil {
		return false, err
	}
	if g.Status == StatusLobby {
		return g.Snapshot == nil, nil
	}
	state, err := s.replay(g, g.Log)
	if err != nil {
		return false, fmt.Errorf("storage: verify game in channel %s: %w", channel, err)
	}
	data, err := state.Encode()
	if err != nil {
		return false, err
	}
	return bytes.Equal(data, g.Snapshot), nil
}

// Finish ends channel's game and moves it to the archive with status
// StatusFinished (result required, one score per seat) or StatusAbandoned
// (result optional), updating every seated user's statistics in the same
// transaction. expectVersion guards against finishing a game that moved
// on, as in Append.
func (s *Store) Finish(channel string, expectVersion int, status Status, result *engine.Result) (*Game, error) {
	var out *Game
	err := s.update(func(tx *bolt.Tx) error {
		old, err := s.activeGame(tx, channel, false)
		if err != nil {
			return refuse(err)
		}
		g, err := s.finishGame(old, expectVersion, status, result)
		if err != nil {
			return refuse(err)
		}
		if err := s.addStats(tx, g); err != nil {
			return err
		}
		out = g
		return s.putGame(tx, old, g)
	})
	if err != nil {
		return nil, fmt.Errorf("storage: finish game in channel %s: %w", channel, err)
	}
	return out, nil
}

// finishGame returns old ended with status and result, as archived.
func (s *Store) finishGame(old *Game, expectVersion int, status Status, result *engine.Result) (*Game, error) {
	if old.Version != expectVersion {
		return nil, &VersionError{Channel: old.Channel, Expected: expectVersion, Actual: old.Version}
	}
	if err := checkFinish(old, status, result); err != nil {
		return nil, err
	}
	g := old.clone()
	g.Status = status
	g.Finished = s.now().UTC()
	g.Updated = g.Finished
	g.Deadline, g.RemindAt = time.Time{}, time.Time{}
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

// activeID returns the id of channel's active game.
func activeID(tx *bolt.Tx, channel string) (uint64, error) {
	head, err := activeHead(tx, channel)
	return head.id, err
}

// gameHead is what the active index holds about a game, enough for Append
// to check an action without decoding the game's record.
type gameHead struct {
	id     uint64
	status Status
	seats  int
}

// headValue is a game's entry in the active index: id (8 bytes), status
// (1 byte: l or r) and the number of seats (uvarint).
func headValue(g *Game) []byte {
	v := idKey(g.ID)
	if g.Status == StatusRunning {
		v = append(v, 'r')
	} else {
		v = append(v, 'l')
	}
	return binary.AppendUvarint(v, uint64(len(g.Seats)))
}

func activeHead(tx *bolt.Tx, channel string) (gameHead, error) {
	v := bucket(tx, bktActive).Get([]byte(channel))
	if v == nil {
		return gameHead{}, ErrNotFound
	}
	bad := fmt.Errorf("%w: active index entry for channel %.20q", ErrCorrupt, channel)
	if len(v) < 10 || (v[8] != 'l' && v[8] != 'r') {
		return gameHead{}, bad
	}
	seats, n := binary.Uvarint(v[9:])
	if n <= 0 || seats > maxSeats {
		return gameHead{}, bad
	}
	head := gameHead{id: beUint64(v), status: StatusLobby, seats: int(seats)}
	if v[8] == 'r' {
		head.status = StatusRunning
	}
	return head, nil
}

// logTail returns the length of game id's log and the time of its last
// entry, reading only that entry.
func (s *Store) logTail(tx *bolt.Tx, id uint64) (int, time.Time, error) {
	prefix := idKey(id)
	c := bucket(tx, bktLog).Cursor()
	var k, v []byte
	if next, _ := c.Seek(idKey(id + 1)); next == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return 0, time.Time{}, nil
	}
	if len(k) != 12 {
		return 0, time.Time{}, fmt.Errorf("%w: log key %x", ErrCorrupt, k)
	}
	e, err := s.codec.decodeEntry(logKeyString(k), v)
	if err != nil {
		return 0, time.Time{}, err
	}
	return int(beUint32(k[8:])) + 1, e.At, nil
}

// readGame reads game id; withLog also reads its log and snapshot bytes.
func (s *Store) readGame(tx *bolt.Tx, id uint64, withLog bool) (*Game, error) {
	key := idKey(id)
	data := bucket(tx, bktGames).Get(key)
	if data == nil {
		return nil, ErrNotFound
	}
	g, err := s.codec.decodeGame(idString(key), data)
	if err != nil {
		return nil, err
	}
	if g.ID != id {
		return nil, fmt.Errorf("%w: game record %d holds id %d", ErrCorrupt, id, g.ID)
	}
	var last time.Time
	if g.Version, last, err = s.logTail(tx, id); err != nil {
		return nil, err
	}
	if last.After(g.Updated) {
		g.Updated = last
	}
	if !withLog {
		return g, nil
	}
	g.Log = make([]Entry, 0, g.Version)
	c := bucket(tx, bktLog).Cursor()
	for k, v := c.Seek(key); k != nil && bytes.HasPrefix(k, key); k, v = c.Next() {
		e, err := s.codec.decodeEntry(logKeyString(k), v)
		if err != nil {
			return nil, err
		}
		if len(k) != 12 || int(beUint32(k[8:])) != len(g.Log) {
			return nil, fmt.Errorf("%w: log of game %d has a gap at %s", ErrCorrupt, id, logKeyString(k))
		}
		g.Log = append(g.Log, e)
	}
	if len(g.Log) != g.Version {
		return nil, fmt.Errorf("%w: game %d is at version %d but its log holds %d actions", ErrCorrupt, id, g.Version, len(g.Log))
	}
	if data := bucket(tx, bktSnapshots).Get(key); data != nil {
		if snap, err := s.codec.decodeSnapshot(idString(key), data); err == nil {
			g.Snapshot = snap.state
		}
	}
	return g, nil
}

// putGame writes g's record and moves its index entries from old's (nil
// for a new game).
func (s *Store) putGame(tx *bolt.Tx, old, g *Game) error {
	data, err := s.codec.encodeGame(g)
	if err != nil {
		return err
	}
	if err := bucket(tx, bktGames).Put(idKey(g.ID), data); err != nil {
		return err
	}
	var before []indexEntry
	if old != nil {
		before = indexEntries(old)
	}
	after := indexEntries(g)
	for _, e := range before {
		if !slices.ContainsFunc(after, e.same) {
			if err := bucket(tx, e.bucket).Delete(e.key); err != nil {
				return err
			}
		}
	}
	for _, e := range after {
		if !slices.ContainsFunc(before, e.same) {
			if err := bucket(tx, e.bucket).Put(e.key, e.value); err != nil {
				return err
			}
		}
	}
	return nil
}

// indexEntry is one key a game puts in an index bucket.
type indexEntry struct {
	bucket     string
	key, value []byte
}

func (e indexEntry) same(o indexEntry) bool {
	return e.bucket == o.bucket && bytes.Equal(e.key, o.key) && bytes.Equal(e.value, o.value)
}

// indexEntries lists the index keys of g: by channel, guild, user and timer
// while active; by guild and user once archived.
func indexEntries(g *Game) []indexEntry {
	var out []indexEntry
	users := g.users()
	if g.Status.Active() {
		ch := []byte(g.Channel)
		out = append(out, indexEntry{bktActive, ch, headValue(g)})
		if g.Guild != "" {
			out = append(out, indexEntry{bktGuildActive, prefixKey(g.Guild, g.ID), ch})
		}
		for _, u := range users {
			out = append(out, indexEntry{bktUserActive, prefixKey(u, g.ID), ch})
		}
		if !g.Deadline.IsZero() {
			out = append(out, indexEntry{bktDue, dueKey(g.Deadline, g.ID, DueDeadline), ch})
		}
		if !g.RemindAt.IsZero() {
			out = append(out, indexEntry{bktDue, dueKey(g.RemindAt, g.ID, DueReminder), ch})
		}
		return out
	}
	if g.Guild != "" {
		out = append(out, indexEntry{bktGuildArchive, prefixKey(g.Guild, g.ID), nil})
	}
	for _, u := range users {
		out = append(out, indexEntry{bktUserArchive, prefixKey(u, g.ID), nil})
	}
	return out
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
	if g.Result != nil {
		r := *g.Result
		c.Result = &r
	}
	return &c
}
