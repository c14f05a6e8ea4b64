// Package storage is Meeple's store contract: the records a store keeps
// (games with their seats, action log and state snapshot, the archive,
// per-user statistics, guild settings, user preferences, timers), the
// rules every store applies to them (Contract: what a request must look
// like and what record each change makes), the records' encoding and
// schema versions (Codec), the errors a store returns, and Store, the
// interface every store implements.
//
// The stores live in packages of their own: storage/boltdb keeps games in
// one embedded bbolt file, storage/postgres in PostgreSQL for several
// processes. Neither runs its requests through the other; both run them
// through Contract, and storage/storetest holds the one test suite both
// pass.
//
// The package imports the engine (to replay logs) and nothing of Discord,
// bbolt or PostgreSQL. Its values are safe for concurrent use.
package storage

import (
	"context"
	"time"

	"github.com/meeplegames/meeple/engine"
)

// Store is the contract a store keeps: everything the bot keeps (games,
// lists, statistics, settings, preferences, timers), plus what the tools
// use. Every write is durable when it returns. A write to a game carries
// the Guard it was based on (the game's ID and Revision), and a stale
// writer, one whose game ended and was replaced in the channel or whose
// game's history moved on, gets ErrStale rather than writing to a newer
// game. Update, whose fn sees the current record, is guarded by the
// game's ID.
type Store interface {
	Create(ctx context.Context, g *Game) error
	Load(ctx context.Context, channel string) (*Game, engine.State, error)
	Get(ctx context.Context, channel string) (*Game, error)
	GetByID(ctx context.Context, id uint64) (*Game, error)
	Import(ctx context.Context, g *Game) error
	Update(ctx context.Context, channel string, game uint64, fn func(g *Game) error) (*Game, error)
	Undo(ctx context.Context, channel string, at Guard, n int) (*Game, engine.State, error)
	Finish(ctx context.Context, channel string, at Guard, status Status, result *engine.Result) (*Game, error)
	Commit(ctx context.Context, channel string, at Guard, o Outcome) (*Game, error)

	ListActive(ctx context.Context, guild string) ([]*Game, error)
	ActiveForUser(ctx context.Context, user string) ([]*Game, error)
	Seatings(ctx context.Context, user string) ([]Seating, error)
	ArchiveForGuild(ctx context.Context, guild string, before uint64, limit int) ([]*Game, error)
	ArchiveForUser(ctx context.Context, user string, before uint64, limit int) ([]*Game, error)
	Archive(ctx context.Context, after uint64, limit int) ([]*Game, error)
	Stats(ctx context.Context, user string) ([]Stats, error)
	Counts(ctx context.Context) (active, total int, err error)
	GameCounts(ctx context.Context) ([]GameCount, error)

	GuildSettings(ctx context.Context, guild string) (GuildSettings, error)
	PutGuildSettings(ctx context.Context, guild string, s GuildSettings) error
	UserPrefs(ctx context.Context, user string) (UserPrefs, error)
	PutUserPrefs(ctx context.Context, user string, p UserPrefs) error
	// UpdateUserPrefs changes user's preferences (DefaultUserPrefs when
	// they saved none) with fn in one transaction, so that counts two
	// processes add at once both count; an error from fn changes nothing.
	UpdateUserPrefs(ctx context.Context, user string, fn func(p *UserPrefs) error) (UserPrefs, error)

	Due(ctx context.Context, now time.Time) ([]Due, error)
	ClaimDue(ctx context.Context, now time.Time, hold time.Duration, owns func(guild string) bool) ([]Due, error)

	KeyPruner
	Deliveries
	PendingReplies
	Source
	Destination
	Close() error
}

// GameCount is how many games of one kind (an engine.Rules name) stand at
// one status. Stores keep these counts as games change (in the same
// transaction), so that reading them, as a metrics scrape does, costs no
// walk over the games.
type GameCount struct {
	Kind   string
	Status Status
	Games  int
}
