package boltdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/meeplegames/meeple/storage"

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
func (s *Store) Create(ctx context.Context, g *storage.Game) error {
	if err := s.create(ctx, g, false); err != nil {
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
func (s *Store) Import(ctx context.Context, g *storage.Game) error {
	if err := s.create(ctx, g, true); err != nil {
		return fmt.Errorf("storage: import game into channel %s: %w", g.Channel, err)
	}
	return nil
}

// create is Create, or Import when imported is set.
func (s *Store) create(ctx context.Context, g *storage.Game, imported bool) error {
	prepare := s.rules.Create
	if imported {
		prepare = s.rules.Import
	}
	rec, err := prepare(g)
	if err != nil {
		return err
	}
	snap := rec.Snapshot
	err = s.update(ctx, func(tx *bolt.Tx) error {
		if rec.Status.Active() && bucket(tx, bktActive).Get([]byte(rec.Channel)) != nil {
			return refuse(storage.ErrChannelBusy)
		}
		id, err := bucket(tx, bktGames).NextSequence()
		if err != nil {
			return err
		}
		rec.ID = id
		if err := s.revise(tx, nil, rec); err != nil {
			return err
		}
		for i, e := range rec.Log {
			if err := bucket(tx, bktLog).Put(logKey(id, i), s.codec.EncodeEntry(e)); err != nil {
				return err
			}
		}
		if snap != nil {
			if err := bucket(tx, bktSnapshots).Put(idKey(id), s.codec.EncodeSnapshot(storage.NewSnapshot(rec.Version, rec.Revision, snap))); err != nil {
				return err
			}
		}
		if !rec.Status.Active() {
			if err := s.addStats(tx, rec); err != nil {
				return err
			}
		}
		return s.putGame(tx, nil, rec)
	})
	if err != nil {
		return err
	}
	*g = *rec
	return nil
}

// Get returns the active game of channel with its log and snapshot, or
// ErrNotFound.
func (s *Store) Get(ctx context.Context, channel string) (*storage.Game, error) {
	var g *storage.Game
	err := s.view(ctx, func(tx *bolt.Tx) error {
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
func (s *Store) GetByID(ctx context.Context, id uint64) (*storage.Game, error) {
	var g *storage.Game
	err := s.view(ctx, func(tx *bolt.Tx) error {
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
// ID, Channel, Guild, Status, Version, Revision and the times are the
// store's: a change to them is refused with ErrInvalid. Kind and Setup may
// change only in the lobby; a running game's seats may be reassigned but
// not added or removed.
//
// game is the ID of the game the caller means: when the channel holds
// another game, Update fails with a *VersionError and changes nothing. fn
// sees the game at its current revision, so a change that depends on the
// game's state checks it there.
func (s *Store) Update(ctx context.Context, channel string, game uint64, fn func(g *storage.Game) error) (*storage.Game, error) {
	var out *storage.Game
	err := s.update(ctx, func(tx *bolt.Tx) error {
		old, err := s.activeGame(tx, channel, false)
		if err != nil {
			return refuse(err)
		}
		if old.ID != game {
			return refuse(&storage.VersionError{Channel: channel, Expected: storage.Guard{Game: game}, Actual: old.Guard()})
		}
		g, err := s.rules.Update(old, fn)
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

// activeGame reads channel's active game inside tx, with its log when
// withLog is set.
func (s *Store) activeGame(tx *bolt.Tx, channel string, withLog bool) (*storage.Game, error) {
	id, err := activeID(tx, channel)
	if err != nil {
		return nil, err
	}
	return s.readGame(tx, id, withLog)
}

// Start moves channel's game from the lobby to running: the state is
// created from the game's Setup with one player per seat, and every seat
// must be taken. It returns the game and its initial state.
func (s *Store) Start(ctx context.Context, channel string) (*storage.Game, engine.State, error) {
	var (
		out   *storage.Game
		state engine.State
	)
	err := s.update(ctx, func(tx *bolt.Tx) error {
		old, err := s.activeGame(tx, channel, false)
		if err != nil {
			return refuse(err)
		}
		var g *storage.Game
		if g, state, err = s.rules.Start(old); err != nil {
			return refuse(err)
		}
		if err := s.revise(tx, old, g); err != nil {
			return err
		}
		if err := bucket(tx, bktSnapshots).Put(idKey(old.ID), s.codec.EncodeSnapshot(storage.NewSnapshot(0, g.Revision, g.Snapshot))); err != nil {
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

// Append adds one accepted action to channel's running game, with the
// state after it (State.Encode()), and returns the game's new guard. It is
// durable when it returns. at is the game and revision the caller applied
// the action to; if the channel holds another game or the game has moved
// on, Append fails with a *VersionError (ErrStale) and changes nothing.
//
// The caller vouches that snapshot is the state after the action; Load
// rebuilds it from the log should it ever disagree with its hash.
func (s *Store) Append(ctx context.Context, channel string, at storage.Guard, e storage.Entry, snapshot []byte) (storage.Guard, error) {
	e, err := s.rules.Stamp(e, snapshot)
	if err != nil {
		return storage.Guard{}, fmt.Errorf("storage: append to channel %s: %w", channel, err)
	}
	entry := s.codec.EncodeEntry(e)
	var next storage.Guard
	err = s.update(ctx, func(tx *bolt.Tx) error {
		head, err := activeHead(tx, channel)
		if err != nil {
			return refuse(err)
		}
		key := idKey(head.id)
		if err := s.codec.NotNewer(storage.RecGame, func() string { return idString(key) }, bucket(tx, bktGames).Get(key)); err != nil {
			return refuse(err)
		}
		version, _, err := s.logTail(tx, head.id)
		if err != nil {
			return refuse(err)
		}
		rev, err := s.revision(tx, head.id)
		if err != nil {
			return refuse(err)
		}
		if now := (storage.Guard{Game: head.id, Revision: rev}); now != at {
			return refuse(&storage.VersionError{Channel: channel, Expected: at, Actual: now})
		}
		if head.status != storage.StatusRunning {
			return refuse(fmt.Errorf("%w: the game has not started", storage.ErrInvalid))
		}
		if err := storage.CheckEntry(e, head.seats); err != nil {
			return refuse(err)
		}
		if rev, err = bucket(tx, bktMeta).NextSequence(); err != nil {
			return err
		}
		if err := bucket(tx, bktLog).Put(logKey(head.id, version), entry); err != nil {
			return err
		}
		next = storage.Guard{Game: head.id, Revision: rev}
		return bucket(tx, bktSnapshots).Put(key, s.codec.EncodeSnapshot(storage.NewSnapshot(version+1, rev, snapshot)))
	})
	if err != nil {
		return storage.Guard{}, fmt.Errorf("storage: append to channel %s: %w", channel, err)
	}
	return next, nil
}

// revision reads game id's revision: its snapshot's (Append writes only
// the snapshot, and every change of a running game's history writes it),
// or its record's when it has no readable snapshot.
func (s *Store) revision(tx *bolt.Tx, id uint64) (uint64, error) {
	if rev := s.snapshotRevision(tx, id); rev != 0 {
		return rev, nil // a running game's snapshot holds its latest revision
	}
	key := idKey(id)
	data := bucket(tx, bktGames).Get(key)
	if data == nil {
		return 0, storage.ErrNotFound
	}
	g, err := s.codec.DecodeGame(idString(key), data)
	if err != nil {
		return 0, err
	}
	return g.Revision, nil
}

// snapshotRevision is the revision game id's snapshot was written at, 0
// when it has none or it does not read (Load then rebuilds it, at a new
// revision).
func (s *Store) snapshotRevision(tx *bolt.Tx, id uint64) uint64 {
	data := bucket(tx, bktSnapshots).Get(idKey(id))
	if data == nil {
		return 0
	}
	snap, err := s.codec.DecodeSnapshot(idString(idKey(id)), data)
	if err != nil {
		return 0
	}
	return snap.Revision
}

// Undo drops the last n actions of channel's running game and rebuilds its
// snapshot by replaying the rest of the log, all in one transaction, at a
// new revision. Like Append it refuses a stale guard with a *VersionError.
// Whether an action may be undone (it revealed nothing) is the caller's
// decision.
func (s *Store) Undo(ctx context.Context, channel string, at storage.Guard, n int) (*storage.Game, engine.State, error) {
	var (
		out   *storage.Game
		state engine.State
	)
	err := s.update(ctx, func(tx *bolt.Tx) error {
		old, err := s.activeGame(tx, channel, true)
		if err != nil {
			return refuse(err)
		}
		var g *storage.Game
		if g, state, err = s.rules.Undo(old, at, n); err != nil {
			return refuse(err)
		}
		if err := s.revise(tx, old, g); err != nil {
			return err
		}
		for i := g.Version; i < old.Version; i++ {
			if err := bucket(tx, bktLog).Delete(logKey(old.ID, i)); err != nil {
				return err
			}
		}
		if err := bucket(tx, bktSnapshots).Put(idKey(old.ID), s.codec.EncodeSnapshot(storage.NewSnapshot(g.Version, g.Revision, g.Snapshot))); err != nil {
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

// Load returns channel's active game with its log and its state (nil in
// the lobby). It checks the snapshot against its hash and the log's length;
// when they disagree, or the snapshot does not decode, it rebuilds the state
// from the seed and the log, stores the repaired snapshot and logs the
// repair.
func (s *Store) Load(ctx context.Context, channel string) (*storage.Game, engine.State, error) {
	var (
		g    *storage.Game
		snap storage.Snapshot
		have bool
	)
	err := s.view(ctx, func(tx *bolt.Tx) error {
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
		snap, err = s.codec.DecodeSnapshot(idString(idKey(id)), data)
		have = err == nil
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("storage: load game in channel %s: %w", channel, err)
	}
	if g.Status == storage.StatusLobby {
		return g, nil, nil
	}
	rules, err := s.games.Lookup(g.Kind)
	if err != nil {
		// Every stored game was created with a game this program offers.
		return nil, nil, fmt.Errorf("storage: load game in channel %s: game record %d: %v (damaged, or written by a Meeple with more games): %w",
			channel, g.ID, err, storage.ErrCorrupt)
	}
	var reason string
	switch {
	case !have:
		reason = "snapshot missing or unreadable"
	case snap.Version != g.Version:
		reason = fmt.Sprintf("snapshot is of version %d, the log of %d", snap.Version, g.Version)
	case !snap.Intact():
		reason = "snapshot does not match its hash"
	default:
		state, err := rules.Decode(snap.State)
		if err == nil {
			return g, state, nil
		}
		reason = fmt.Sprintf("snapshot does not decode: %v", err)
	}
	state, err := s.repair(ctx, g, reason)
	if err != nil {
		return nil, nil, fmt.Errorf("storage: load game in channel %s: %w", channel, err)
	}
	return g, state, nil
}

// repair rebuilds g's state from its log and stores it as the snapshot,
// unless the game moved on meanwhile (then the next Load checks again).
func (s *Store) repair(ctx context.Context, g *storage.Game, reason string) (engine.State, error) {
	state, err := s.rules.Replay(g)
	if err != nil {
		return nil, err
	}
	data, err := state.Encode()
	if err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	g.Snapshot = data
	err = s.update(ctx, func(tx *bolt.Tx) error {
		cur, err := s.readGame(tx, g.ID, false)
		if err != nil {
			return refuse(err)
		}
		if cur.Revision != g.Revision || !cur.Status.Active() {
			return refuse(&storage.VersionError{Channel: g.Channel, Expected: g.Guard(), Actual: cur.Guard()})
		}
		// The rebuilt snapshot starts a new revision: the one the damaged
		// snapshot held is not known to be the latest.
		rev, err := bucket(tx, bktMeta).NextSequence()
		if err != nil {
			return err
		}
		g.Revision = rev
		return bucket(tx, bktSnapshots).Put(idKey(g.ID), s.codec.EncodeSnapshot(storage.NewSnapshot(g.Version, rev, data)))
	})
	s.log.Warn("storage: repaired a game's snapshot from its log",
		"channel", g.Channel, "game", g.ID, "version", g.Version, "reason", reason, "saved", err == nil)
	return state, nil
}

// Verified reports whether channel's stored snapshot equals its seed and log
// replayed, byte for byte. It replays the whole log.
func (s *Store) Verified(ctx context.Context, channel string) (bool, error) {
	g, err := s.Get(ctx, channel)
	if err != nil {
		return false, err
	}
	return s.rules.SnapshotMatchesLog(g)
}

// Finish ends channel's game and moves it to the archive with status
// StatusFinished (result required, one score per seat) or StatusAbandoned
// (result optional), updating every seated user's statistics in the same
// transaction. at guards against finishing another game or one that moved
// on, as it guards a Commit.
func (s *Store) Finish(ctx context.Context, channel string, at storage.Guard, status storage.Status, result *engine.Result) (*storage.Game, error) {
	var out *storage.Game
	err := s.update(ctx, func(tx *bolt.Tx) error {
		old, err := s.activeGame(tx, channel, false)
		if err != nil {
			return refuse(err)
		}
		g, err := s.rules.Finish(old, at, status, result)
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

// activeID returns the id of channel's active game.
func activeID(tx *bolt.Tx, channel string) (uint64, error) {
	head, err := activeHead(tx, channel)
	return head.id, err
}

// gameHead is what the active index holds about a game, enough for Append
// to check an action without decoding the game's record.
type gameHead struct {
	id     uint64
	status storage.Status
	seats  int
}

// headValue is a game's entry in the active index: id (8 bytes), status
// (1 byte: l or r) and the number of seats (uvarint).
func headValue(g *storage.Game) []byte {
	v := idKey(g.ID)
	if g.Status == storage.StatusRunning {
		v = append(v, 'r')
	} else {
		v = append(v, 'l')
	}
	return binary.AppendUvarint(v, uint64(len(g.Seats)))
}

func activeHead(tx *bolt.Tx, channel string) (gameHead, error) {
	v := bucket(tx, bktActive).Get([]byte(channel))
	if v == nil {
		return gameHead{}, storage.ErrNotFound
	}
	bad := fmt.Errorf("%w: active index entry for channel %.20q", storage.ErrCorrupt, channel)
	if len(v) < 10 || (v[8] != 'l' && v[8] != 'r') {
		return gameHead{}, bad
	}
	seats, n := binary.Uvarint(v[9:])
	if n <= 0 || seats > storage.MaxSeats {
		return gameHead{}, bad
	}
	head := gameHead{id: beUint64(v), status: storage.StatusLobby, seats: int(seats)}
	if v[8] == 'r' {
		head.status = storage.StatusRunning
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
		return 0, time.Time{}, fmt.Errorf("%w: log key %x", storage.ErrCorrupt, k)
	}
	e, err := s.codec.DecodeEntry(logKeyString(k), v)
	if err != nil {
		return 0, time.Time{}, err
	}
	return int(beUint32(k[8:])) + 1, e.At, nil
}

// readGame reads game id; withLog also reads its log and snapshot bytes.
func (s *Store) readGame(tx *bolt.Tx, id uint64, withLog bool) (*storage.Game, error) {
	key := idKey(id)
	data := bucket(tx, bktGames).Get(key)
	if data == nil {
		return nil, storage.ErrNotFound
	}
	g, err := s.codec.DecodeGame(idString(key), data)
	if err != nil {
		return nil, err
	}
	if g.ID != id {
		return nil, fmt.Errorf("%w: game record %d holds id %d", storage.ErrCorrupt, id, g.ID)
	}
	var last time.Time
	if g.Version, last, err = s.logTail(tx, id); err != nil {
		return nil, err
	}
	if last.After(g.Updated) {
		g.Updated = last
	}
	var snap *storage.Snapshot
	if data := bucket(tx, bktSnapshots).Get(key); data != nil {
		if sn, err := s.codec.DecodeSnapshot(idString(key), data); err == nil {
			snap = &sn
			g.Revision = max(g.Revision, sn.Revision)
		}
	}
	if !withLog {
		return g, nil
	}
	g.Log = make([]storage.Entry, 0, g.Version)
	c := bucket(tx, bktLog).Cursor()
	for k, v := c.Seek(key); k != nil && bytes.HasPrefix(k, key); k, v = c.Next() {
		e, err := s.codec.DecodeEntry(logKeyString(k), v)
		if err != nil {
			return nil, err
		}
		if len(k) != 12 || int(beUint32(k[8:])) != len(g.Log) {
			return nil, fmt.Errorf("%w: log of game %d has a gap at %s", storage.ErrCorrupt, id, logKeyString(k))
		}
		g.Log = append(g.Log, e)
	}
	if len(g.Log) != g.Version {
		return nil, fmt.Errorf("%w: game %d is at version %d but its log holds %d actions", storage.ErrCorrupt, id, g.Version, len(g.Log))
	}
	if snap != nil {
		g.Snapshot = snap.State
	}
	return g, nil
}

// putGame writes g's record and moves its index entries and its count in
// the tally from old's (nil for a new game).
func (s *Store) putGame(tx *bolt.Tx, old, g *storage.Game) error {
	data, err := s.codec.EncodeGame(g)
	if err != nil {
		return err
	}
	if err := bucket(tx, bktGames).Put(idKey(g.ID), data); err != nil {
		return err
	}
	if err := tallyGame(tx, old, g); err != nil {
		return err
	}
	var before []indexEntry
	if old != nil {
		if before, err = indexEntries(old); err != nil {
			return err
		}
	}
	after, err := indexEntries(g)
	if err != nil {
		return err
	}
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

// indexEntries lists the index keys of g: by channel, guild, user, timer
// and the seat index while active; by guild and user once archived.
func indexEntries(g *storage.Game) ([]indexEntry, error) {
	var out []indexEntry
	users := g.Users()
	seats, err := storage.EncodeSeatings(g)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if data, ok := seats[u]; ok {
			out = append(out, indexEntry{bktUserSeats, prefixKey(u, g.ID), data})
		}
	}
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
			out = append(out, indexEntry{bktDue, dueKey(g.Deadline, g.ID, storage.DueDeadline), ch})
		}
		if !g.RemindAt.IsZero() {
			out = append(out, indexEntry{bktDue, dueKey(g.RemindAt, g.ID, storage.DueReminder), ch})
		}
		return out, nil
	}
	if g.Guild != "" {
		out = append(out, indexEntry{bktGuildArchive, prefixKey(g.Guild, g.ID), nil})
	}
	for _, u := range users {
		out = append(out, indexEntry{bktUserArchive, prefixKey(u, g.ID), nil})
	}
	return out, nil
}
