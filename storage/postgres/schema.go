package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// migrations returns the schema's steps: migrations(games)[i] takes the schema from version i to i+1. A change to the
// tables appends a step; a step is never edited once released. The
// schema's version is the number of steps applied, kept in meeple_schema.
//
// Times the store compares or returns exactly (log times, timers) are Unix
// nanoseconds, as in the bbolt store, so that moving games between the two
// keeps every time to the nanosecond. A game's own fields are one record
// in the bbolt store's encoding (storage.EncodeGame), which carries its own
// record schema version.
//
// games decodes the states of running games for the steps that need them
// (the seat index's); counting the steps needs none.
func migrations(games *engine.Registry) []step {
	return []step{
		{sql: `CREATE TABLE games (
		id          bigint PRIMARY KEY,
		channel     text NOT NULL,
		guild       text NOT NULL,
		active      boolean NOT NULL,   -- lobby or running: holds its channel
		running     boolean NOT NULL,
		seats       integer NOT NULL,
		version     integer NOT NULL,   -- length of the log
		last_action bigint,             -- time of the last log entry, Unix ns
		deadline    bigint,             -- Unix ns (before 1970: 0), active games only
		remind_at   bigint,
		record      bytea NOT NULL,     -- storage.EncodeGame
		snapshot    bytea,              -- State.Encode() after the log
		snapshot_version integer
	);
	CREATE SEQUENCE game_ids AS bigint OWNED BY games.id;
	CREATE UNIQUE INDEX games_active_channel ON games (channel) WHERE active;
	CREATE INDEX games_guild_active ON games (guild, id) WHERE active;
	CREATE INDEX games_guild_archive ON games (guild, id) WHERE NOT active;
	CREATE INDEX games_deadline ON games (deadline) WHERE active AND deadline IS NOT NULL;
	CREATE INDEX games_remind_at ON games (remind_at) WHERE active AND remind_at IS NOT NULL;
	CREATE TABLE game_users (
		user_id text NOT NULL,
		game_id bigint NOT NULL REFERENCES games ON DELETE CASCADE,
		active  boolean NOT NULL,
		PRIMARY KEY (user_id, game_id)
	);
	CREATE TABLE game_log (
		game_id bigint NOT NULL REFERENCES games ON DELETE CASCADE,
		idx     integer NOT NULL,
		seat    integer NOT NULL,
		at      bigint NOT NULL,        -- Unix ns
		action  text NOT NULL,
		PRIMARY KEY (game_id, idx)
	);
	CREATE TABLE stats (
		user_id   text NOT NULL,
		kind      text NOT NULL,
		played    integer NOT NULL DEFAULT 0,
		won       integer NOT NULL DEFAULT 0,
		abandoned integer NOT NULL DEFAULT 0,
		score_sum bigint NOT NULL DEFAULT 0,
		best      integer NOT NULL DEFAULT 0,
		PRIMARY KEY (user_id, kind)
	);
	CREATE TABLE guild_settings (guild text PRIMARY KEY, settings jsonb NOT NULL);
	CREATE TABLE user_prefs (user_id text PRIMARY KEY, prefs jsonb NOT NULL);`},

		// Claims on timers (ClaimDue): until when, in Unix ns.
		{sql: `ALTER TABLE games ADD COLUMN deadline_claim bigint, ADD COLUMN remind_claim bigint;`},

		// Revisions (storage.Game.Revision: never given twice) and the
		// interactions commits were made for (storage.Outcome.Key). Game
		// records were at schema 3 (with a checksum).
		{sql: `CREATE SEQUENCE game_revisions AS bigint;
		ALTER TABLE games ADD COLUMN revision bigint NOT NULL DEFAULT 0;
		CREATE TABLE commits (
			key      text PRIMARY KEY,
			game_id  bigint NOT NULL REFERENCES games ON DELETE CASCADE,
			revision bigint NOT NULL
		);`},

		// Checksums on every row (see sums.go), computed for the rows
		// already there by sumRows; settings and preferences are kept as
		// the bytes the store wrote (jsonb would rewrite them), so that
		// their sums hold. Interaction keys get the time they were kept,
		// so that they can be pruned (see PruneKeys).
		{sql: `ALTER TABLE game_log ADD COLUMN sum bigint;
		ALTER TABLE games ADD COLUMN snapshot_sum bigint;
		ALTER TABLE stats ADD COLUMN sum bigint;
		ALTER TABLE guild_settings ALTER COLUMN settings TYPE bytea USING convert_to(settings::text, 'UTF8'), ADD COLUMN sum bigint;
		ALTER TABLE user_prefs ALTER COLUMN prefs TYPE bytea USING convert_to(prefs::text, 'UTF8'), ADD COLUMN sum bigint;
		ALTER TABLE commits ADD COLUMN at bigint;
		CREATE INDEX commits_at ON commits (at);
		CREATE INDEX games_channel ON games (channel, id);`, fill: sumRows},

		// Games by kind and status (see counts.go), counted from the
		// games already there by fillCounts.
		{sql: `CREATE TABLE game_counts (
			kind   text NOT NULL,
			status text NOT NULL,
			games  bigint NOT NULL,
			PRIMARY KEY (kind, status)
		);`, fill: fillCounts},

		// The interactions delivered lately (see FirstDelivery), shared
		// by every process, so that a replayed request is refused at
		// any of them.
		{sql: `CREATE TABLE deliveries (
			id text PRIMARY KEY,
			at bigint NOT NULL
		);
		CREATE INDEX deliveries_at ON deliveries (at);`},

		// The seat index (storage.Seating): each user's entry for each
		// active game they sit in, kept beside their game_users row,
		// so that one user's games are one indexed read; filled by
		// fillSeats, which also gives running games their waits.
		{sql: `ALTER TABLE game_users ADD COLUMN seating bytea;`, fill: fillSeats(games)},

		// Game records at schema 4 (a lobby's reliability rules, the
		// missed deadlines in a row): no table changes, but an older
		// build must refuse the database rather than drop them.
		{sql: `SELECT 1;`},

		// Game records at schema 5 (the players' time banks, proposals
		// of more time): again no table changes.
		{sql: `SELECT 2;`},

		// The pending replies (storage.Pending): interactions deferred
		// and not answered yet, each a storage.EncodePending record
		// with its checksum, so that a process can fill in what one
		// that died left unanswered.
		{sql: `CREATE TABLE pending_replies (
			id       text PRIMARY KEY,
			received bigint NOT NULL,   -- Unix ns
			record   bytea NOT NULL
		);
		CREATE INDEX pending_replies_received ON pending_replies (received);`},
	}
}

// step is one change to the schema: SQL, then (when fill is set) Go code
// that brings the rows already there up to it, in the same transaction.
type step struct {
	sql  string
	fill func(ctx context.Context, tx pgx.Tx, now time.Time) error
}

// gameSchema is storage.GameSchema() as of the last step of migrations():
// game records are kept in storage's encoding, so a build that writes a
// newer game record must also add a step, which makes older builds refuse
// the database at open rather than write beside records they cannot read.
// A test holds the two together.
const gameSchema = 5

// schemaLock is the advisory lock key that serialises migrations between
// processes starting at once.
const schemaLock = 0x6d656570 // "meep"

// migrate brings the database's schema up to date in one transaction, or
// refuses a schema newer than this build knows with a *storage.SchemaError.
func migrate(ctx context.Context, db *pgx.Conn, steps []step, now time.Time) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", schemaLock); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "CREATE TABLE IF NOT EXISTS meeple_schema (version integer NOT NULL)"); err != nil {
		return err
	}
	var version int
	err = tx.QueryRow(ctx, "SELECT version FROM meeple_schema").Scan(&version)
	switch {
	case err == pgx.ErrNoRows:
		if _, err := tx.Exec(ctx, "INSERT INTO meeple_schema VALUES (0)"); err != nil {
			return err
		}
	case err != nil:
		return err
	case version > len(steps):
		return &storage.SchemaError{Record: "database", Key: "meeple_schema", Got: uint64(version), Max: uint64(len(steps))}
	}
	for i := version; i < len(steps); i++ {
		if _, err := tx.Exec(ctx, steps[i].sql); err != nil {
			return fmt.Errorf("schema step %d: %w", i+1, err)
		}
		if fill := steps[i].fill; fill != nil {
			if err := fill(ctx, tx, now); err != nil {
				return fmt.Errorf("schema step %d: %w", i+1, err)
			}
		}
	}
	if version < len(steps) {
		if _, err := tx.Exec(ctx, "UPDATE meeple_schema SET version = $1", len(steps)); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}
