package storage

import (
	"errors"
	"fmt"

	"github.com/meeplegames/meeple/engine"
)

// Sentinel errors; test for them with errors.Is. Errors returned by the
// store wrap them with the operation and the channel or path concerned.
var (
	// ErrNotFound: no active game in the channel, or no game with the id.
	ErrNotFound = errors.New("not found")
	// ErrChannelBusy: the channel already has an active game.
	ErrChannelBusy = errors.New("channel already has an active game")
	// ErrStale: the channel's game is another game, or its revision moved,
	// since the caller read it; reload and try again. The error is a
	// *VersionError.
	ErrStale = errors.New("stale game version")
	// ErrApplied: a commit with this interaction's key was already kept
	// (a retry after a lost answer); nothing was written again. The error
	// is an *AppliedError, which carries the game as stored.
	ErrApplied = errors.New("already applied")
	// ErrInvalid: the request is malformed or not allowed in the game's
	// status (bad seat, unknown game kind, append to a lobby, …).
	ErrInvalid = errors.New("invalid request")
	// ErrCorrupt: the file or a record in it is damaged or truncated. Only
	// damage is called so: a file that cannot be reached, or is not a
	// database at all, gets one of the errors below.
	ErrCorrupt = errors.New("corrupt database")
	// ErrNoDatabase: there is no database file at the path (and Open was
	// told not to create one), or the file is empty.
	ErrNoDatabase = errors.New("no database")
	// ErrNotDatabase: the path names a folder, a device, or a file that is
	// not a Meeple database.
	ErrNotDatabase = errors.New("not a Meeple database file")
	// ErrPermission: this process may not read (or write) the file or its
	// folder.
	ErrPermission = errors.New("permission denied")
	// ErrReadOnly: the store was opened read-only and refuses writes.
	ErrReadOnly = errors.New("the database is open read-only")
	// ErrNewerSchema: a record was written by a newer version of Meeple.
	// The error is a *SchemaError.
	ErrNewerSchema = errors.New("record written by a newer schema")
	// ErrUnknownOutcome: the connection to the database failed after a
	// write was sent, so whether it was kept is unknown. Retry a commit
	// with its Outcome.Key: the store keeps it once, and answers a retry
	// of one it kept with ErrApplied.
	ErrUnknownOutcome = errors.New("the database's answer was lost: the write may or may not have been kept")
	// ErrUnavailable: the database could not serve the request at all (it
	// is starting up, shutting down or out of reach), so nothing was
	// written; the same request may be made again later.
	ErrUnavailable = errors.New("the database is not available")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("store closed")
)

// VersionError is a refused write whose guard (the game and revision it
// was based on) is not the channel's game as it is now. It wraps ErrStale.
type VersionError struct {
	Channel  string
	Expected Guard // the game and revision the caller based its change on
	Actual   Guard // the channel's game and its revision now
}

// Error says which game and revision the channel holds and which was
// expected.
func (e *VersionError) Error() string {
	if e.Expected.Game != e.Actual.Game {
		return fmt.Sprintf("channel %s holds game %d, not game %d (that game moved on)", e.Channel, e.Actual.Game, e.Expected.Game)
	}
	return fmt.Sprintf("game %d in channel %s is at revision %d, not %d", e.Actual.Game, e.Channel, e.Actual.Revision, e.Expected.Revision)
}

// AppliedError is a commit refused because a commit with the same
// interaction key was already kept. It wraps ErrApplied.
type AppliedError struct {
	Key  string
	Game *Game // the game as stored now (without its log)
}

// Error names the interaction.
func (e *AppliedError) Error() string {
	return fmt.Sprintf("interaction %.40s was already applied to game %d", e.Key, e.Game.ID)
}

// Unwrap returns ErrApplied.
func (e *AppliedError) Unwrap() error { return ErrApplied }

// Unwrap returns ErrStale.
func (e *VersionError) Unwrap() error { return ErrStale }

// SchemaError is a record this build cannot read because a newer build
// wrote it, or because it is damaged. It wraps ErrNewerSchema or
// ErrCorrupt (see Damaged).
type SchemaError struct {
	Record string // kind of record: "game", "entry", …
	Key    string // its key, printable
	Got    uint64 // schema version found
	Max    uint64 // newest schema version this build reads
	// SumFails is set when the record carries a checksum (as every later
	// schema of its kind does) and the checksum does not hold.
	SumFails bool
}

// SchemaLeap is how far beyond this build's schema a record's may be and
// still be taken for a newer Meeple's: a release adds a step or two to a
// record's schema, so a number further ahead is damage.
const SchemaLeap = 32

// Damaged reports whether the record is damaged rather than newer: its
// schema number is beyond any Meeple's (further ahead than SchemaLeap),
// or its checksum fails; or it is older than any schema this build reads.
func (e *SchemaError) Damaged() bool {
	return e.Got <= e.Max || e.SumFails || e.Got-e.Max > SchemaLeap
}

// Error names the record and the schema versions, and whether to upgrade
// Meeple or restore a backup.
func (e *SchemaError) Error() string {
	switch {
	case e.Got <= e.Max:
		return fmt.Sprintf("%s record %s has unknown schema %d", e.Record, e.Key, e.Got)
	case e.SumFails:
		return fmt.Sprintf("%s record %s has schema %d, above this build's %d, and fails its checksum: the record is damaged, not from a newer Meeple", e.Record, e.Key, e.Got, e.Max)
	case e.Damaged():
		return fmt.Sprintf("%s record %s has schema %d, far beyond this build's %d and any Meeple's: the record is damaged, not from a newer Meeple", e.Record, e.Key, e.Got, e.Max)
	}
	return fmt.Sprintf("%s record %s has schema %d, newer than this build reads (%d): upgrade Meeple (if no newer Meeple wrote the file, the record is damaged)", e.Record, e.Key, e.Got, e.Max)
}

// Unwrap returns ErrNewerSchema for a newer record, ErrCorrupt for a
// damaged one.
func (e *SchemaError) Unwrap() error {
	if e.Damaged() {
		return ErrCorrupt
	}
	return ErrNewerSchema
}

// ReplayError is an action in a stored log that the game's rules refuse on
// replay, so the state cannot be rebuilt.
type ReplayError struct {
	Index  int // position in the log, from 0
	Seat   int
	Action string
	// Secret means the action answered a secret prompt (engine.IsSecret):
	// the error's message then keeps its text, and the rules' reason, out.
	Secret bool
	Err    error
}

// Error names the refused action and the rules' reason, or for a secret
// action only its verb and the kind of refusal, so that it can be logged.
func (e *ReplayError) Error() string {
	return fmt.Sprintf("replay of action %d: %s", e.Index+1, engine.DescribeRefusal(engine.Seat(e.Seat), e.Action, e.Secret, e.Err))
}

// Unwrap returns the rules' refusal.
func (e *ReplayError) Unwrap() error { return e.Err }
