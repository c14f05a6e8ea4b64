package storage

import (
	"bytes"
	"fmt"
	"time"

	"github.com/meeplegames/meeple/engine"
)

// Contract is the part of the store's contract that does not depend on
// where games are kept: what a request must look like, and what record
// each change makes of a game. Every store (storage/boltdb,
// storage/postgres) runs its requests through it, so that the stores
// accept, refuse and record exactly alike. Its methods are pure: they
// read nothing but their arguments and the clock, and write nothing. It
// is safe for concurrent use.
type Contract struct {
	games *engine.Registry
	now   func() time.Time
	codec Codec
}

// NewContract returns the contract for games (used to replay logs) with
// now as the clock for the times it stamps (nil means time.Now).
func NewContract(games *engine.Registry, now func() time.Time) Contract {
	if now == nil {
		now = time.Now
	}
	return Contract{games: games, now: now, codec: NewCodec()}
}

// Now is the contract's clock.
func (c Contract) Now() time.Time { return c.now() }

// Games is the registry the contract replays logs with.
func (c Contract) Games() *engine.Registry { return c.games }

// Create checks a game about to be created and returns its record:
// status, log times, Version, Snapshot, Created and Updated filled in;
// the caller assigns the ID.
func (c Contract) Create(g *Game) (*Game, error) { return c.prepare(g, false) }

// Import checks a game about to be imported and returns its record,
// archived with its result and Finished time when its log ends it or it
// is abandoned; the caller assigns the ID and counts an archived game's
// statistics.
func (c Contract) Import(g *Game) (*Game, error) { return c.prepare(g, true) }

func (c Contract) prepare(g *Game, imported bool) (*Game, error) {
	rec, err := c.prepareCreate(g, imported)
	if err != nil {
		return nil, err
	}
	return &rec, nil
}

// Update runs an Update's fn on a copy of old and returns the edited
// record, or fn's error or the refusal of the edit.
func (c Contract) Update(old *Game, fn func(g *Game) error) (*Game, error) {
	return c.editGame(old, fn)
}

// Start returns old, a game in the lobby, as started, with its initial
// state (Snapshot holds it encoded).
func (c Contract) Start(old *Game) (*Game, engine.State, error) { return c.startGame(old) }

// Entry checks an action about to be appended to a game with seats seats
// (and the snapshot that comes with it), and returns it with its time set.
func (c Contract) Entry(e Entry, snapshot []byte, seats int) (Entry, error) {
	e, err := c.prepareEntry(e, snapshot)
	if err != nil {
		return e, err
	}
	return e, checkEntry(e, seats)
}

// Stamp refuses an action without a snapshot and gives one without a
// time the contract's clock, in UTC; CheckEntry checks the rest once the
// game is known.
func (c Contract) Stamp(e Entry, snapshot []byte) (Entry, error) { return c.prepareEntry(e, snapshot) }

// CheckEntry refuses an entry that a game of players seats could not
// hold in its log.
func CheckEntry(e Entry, players int) error { return checkEntry(e, players) }

// Undo returns old (read with its log, and guarded by at) without its
// last n actions, and the state replayed from the rest.
func (c Contract) Undo(old *Game, at Guard, n int) (*Game, engine.State, error) {
	return c.undoGame(old, at, n)
}

// Finish returns old (guarded by at) ended with status and result, as
// archived.
func (c Contract) Finish(old *Game, at Guard, status Status, result *engine.Result) (*Game, error) {
	return c.finishGame(old, at, status, result)
}

// CheckGuard refuses a write guarded by at to g, the channel's game as
// stored, with a *VersionError when g is another game or at another
// revision.
func CheckGuard(g *Game, at Guard) error { return checkGuard(g, at) }

// HistoryChanged reports whether g, the record a write makes of old (nil
// for a new game), has another history than old: then the store gives g
// a new Revision, from a counter that never gives a value twice.
func HistoryChanged(old, g *Game) bool { return historyChanged(old, g) }

// OutcomeEntries checks what an Outcome must hold whatever the game and
// returns its entries with their times set.
func (c Contract) OutcomeEntries(o Outcome) ([]Entry, error) { return c.prepareOutcome(o) }

// Outcome returns old (a running game, guarded by at) as the outcome
// leaves it: entries (from OutcomeEntries) counted in its version, Edit
// applied, archived when it finished. The caller writes the entries and
// the snapshot (OutcomeSnapshot), and counts an archived game's
// statistics.
func (c Contract) Outcome(old *Game, at Guard, entries []Entry, o Outcome) (*Game, error) {
	return c.outcomeGame(old, at, entries, o)
}

// OutcomeSnapshot is the snapshot a commit of o that made g writes: the
// state after o's entries, or the started state of a start without
// entries, or nil when the state did not change.
func OutcomeSnapshot(g *Game, o Outcome) []byte { return outcomeSnapshot(g, o) }

// Replay builds g's state from its setup and log.
func (c Contract) Replay(g *Game) (engine.State, error) { return c.replay(g, g.Log) }

// SnapshotMatchesLog reports whether g's stored snapshot equals its seed
// and log replayed, byte for byte (a lobby has no snapshot). It replays the
// whole log.
func (c Contract) SnapshotMatchesLog(g *Game) (bool, error) {
	if g.Status == StatusLobby {
		return g.Snapshot == nil, nil
	}
	state, err := c.Replay(g)
	if err != nil {
		return false, fmt.Errorf("storage: verify game in channel %s: %w", g.Channel, err)
	}
	data, err := state.Encode()
	if err != nil {
		return false, err
	}
	return bytes.Equal(data, g.Snapshot), nil
}

// Decode decodes a snapshot of g's state.
func (c Contract) Decode(g *Game, snapshot []byte) (engine.State, error) {
	rules, err := c.games.Lookup(g.Kind)
	if err != nil {
		return nil, err
	}
	return rules.Decode(snapshot)
}

// StatsUsers lists the users whose statistics archived game g counts in.
func StatsUsers(g *Game) []string { return statsUsers(g) }

// Count adds archived game g to st, the statistics of st.User in g's kind.
func (st *Stats) Count(g *Game) { st.count(g) }

// CheckID refuses an id (of a channel, guild, user, …; what names it in
// the error) that a store cannot keep, with ErrInvalid.
func CheckID(what, id string) error { return checkID(what, id) }

// CheckGuildSettings refuses settings PutGuildSettings would refuse.
func CheckGuildSettings(s GuildSettings) error { return checkGuildSettings(s) }

// ReadGuildSettings finishes the settings a store read, s, when found
// says a record was there: Saved is set for settings the admins saved,
// and a record kept only for the server's Locale reads as the defaults
// with that locale.
func ReadGuildSettings(s GuildSettings, found bool) GuildSettings {
	if found && s.LocaleOnly {
		out := DefaultGuildSettings()
		out.Locale, out.LocaleOnly = s.Locale, true
		return out
	}
	s.Saved = found
	return s
}

// CheckUserPrefs refuses preferences PutUserPrefs would refuse.
func CheckUserPrefs(p UserPrefs) error { return checkUserPrefs(p) }

// Clone returns a copy of g that shares nothing mutable with it.
func (g *Game) Clone() *Game { return g.clone() }

// Users lists the distinct Discord users seated in g.
func (g *Game) Users() []string { return g.users() }

// GameSchema is the schema version of the game records this build writes
// (EncodeGame) and reads.
func GameSchema() uint64 { return NewCodec().Current(RecGame) }

// EncodeGame encodes g's record (every field but Log, Version and
// Snapshot) with its schema version, as the stores keep it.
func EncodeGame(g *Game) ([]byte, error) { return NewCodec().EncodeGame(g) }

// DecodeGame decodes a record EncodeGame made, migrating an older schema
// and refusing a newer one (*SchemaError) or a damaged record (ErrCorrupt).
// key names the record in errors.
func DecodeGame(key string, data []byte) (*Game, error) { return NewCodec().DecodeGame(key, data) }
