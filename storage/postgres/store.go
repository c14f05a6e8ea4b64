// Package postgres keeps Meeple's games in PostgreSQL, behind the same
// contract as the bbolt store in package storage (the same methods, errors
// and semantics; storage/storetest checks both), so that several Meeple
// processes can share one database.
//
// Every write is one transaction, committed when the method returns. A
// write to a game carries the state version it was based on and is a
// compare-and-swap on the game's row, so two processes acting on one game
// apply one action and refuse the other with storage.ErrStale. Open runs
// the schema's migrations (serialised between processes by an advisory
// lock) and refuses a schema newer than this build with
// storage.ErrNewerSchema.
//
// The connection string may hold a password: it never appears in an error
// or a log (see Redact).
//
// The package imports storage (the contract and its types), the engine and
// pgx, and nothing of Discord. A Store is safe for concurrent use.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// Options tune a Store. The zero value is usable.
type Options struct {
	// Logger receives repairs and other notable events; nil discards them.
	Logger *slog.Logger
	// Now is the clock for Created and Updated times; nil means time.Now.
	Now func() time.Time
	// MaxConns bounds the connections to the server; 0 means the
	// connection string's pool_max_conns, else 16. Commits
	// that wait for the same WAL flush share it, so concurrent games need
	// connections of their own.
	MaxConns int32
	// Timeout bounds each call; 0 means 30 seconds.
	Timeout time.Duration
	// Verify checks every row of the database at open, as Check does, and
	// refuses a damaged database with Check's error.
	Verify bool
}

// Store is an open connection pool to a Meeple database on PostgreSQL.
type Store struct {
	pool     *pgxpool.Pool
	dsn      string // redacted
	games    *engine.Registry
	contract storage.Contract
	log      *slog.Logger
	timeout  time.Duration
	retries  int // how often call runs a function again: the pool's size
	now      func() time.Time
	closed   atomic.Bool
	pruned   atomic.Int64 // when keys were last pruned, Unix ns
}

// Open connects to the database at dsn (a postgres:// URL or key=value
// connection string), brings its schema up to date and returns the store.
// games is used to replay logs. Errors name the database without its
// password.
func Open(dsn string, games *engine.Registry, opts Options) (*Store, error) {
	s, err := open(dsn, games, opts, true)
	if err == nil && opts.Verify {
		if err = s.verify(); err != nil {
			s.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("storage/postgres: open %s: %w", Redact(dsn), scrub(err, dsn))
	}
	return s, nil
}

// open connects to dsn; with upgrade, it first brings the schema up to
// date, and without it the connections are read-only.
func open(dsn string, games *engine.Registry, opts Options, upgrade bool) (*Store, error) {
	if games == nil {
		return nil, errors.New("no game registry")
	}
	cfg, err := parseConfig(dsn)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = 16
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	if upgrade {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig.Copy())
		if err != nil {
			return nil, err
		}
		err = migrate(ctx, conn, migrations(games), now())
		conn.Close(ctx)
		if err != nil {
			return nil, err
		}
	} else {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	s := &Store{
		pool: pool, dsn: Redact(dsn), games: games, contract: storage.NewContract(games, now),
		log: opts.Logger, timeout: timeout, retries: int(cfg.MaxConns), now: now,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// parseConfig reads a connection string, refusing one whose password
// parsers would cut in different places (see ambiguous). Its errors quote
// nothing of dsn.
func parseConfig(dsn string) (*pgxpool.Config, error) {
	if ambiguous(dsn) {
		return nil, fmt.Errorf("%w: the connection URL's password holds an @ that is not escaped; write it as %%40", storage.ErrInvalid)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("%w: the connection string does not parse", storage.ErrInvalid)
	}
	return cfg, nil
}

// String names the database, without its password.
func (s *Store) String() string { return s.dsn }

// Close closes the connections. Later calls fail with storage.ErrClosed.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return storage.ErrClosed
	}
	s.pool.Close()
	return nil
}

// call runs fn with a context bounded by the store's timeout, failing with
// storage.ErrClosed after Close. A failure before anything reached the
// server (pgconn.SafeToRetry) runs fn again: after the server restarted,
// every pooled connection is dead until used, and a pool hands out one
// used within the last second without checking it. A failure while a
// write was being committed is never run again, whatever the driver says
// (see committed): pgx can lose the answer to a COMMIT and then report
// the next read's "conn closed" as safe to retry. Every fn is a read, a
// transaction, or writes that a retry cannot apply twice. A server that
// cannot serve (starting up, shutting down, unreachable) is
// storage.ErrUnavailable. fn's context is ctx bounded by the store's
// timeout; a ctx already done runs nothing and returns its error.
func (s *Store) call(ctx context.Context, fn func(ctx context.Context) error) error {
	if s.closed.Load() {
		return storage.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		err := fn(ctx)
		if !pgconn.SafeToRetry(err) || attempt >= s.retries || ctx.Err() != nil {
			return unavailable(err)
		}
	}
}

// inTx runs fn in a transaction, committed when fn returns nil. A
// serialisation failure or deadlock between processes is retried. A
// failure before COMMIT was sent leaves nothing written; one while
// committing leaves the outcome unknown (see committed).
func (s *Store) inTx(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) error) error {
	return s.call(ctx, func(ctx context.Context) error {
		for attempt := 0; ; attempt++ {
			err := runTx(ctx, s.pool, fn)
			if attempt < 5 && retryable(err) {
				continue
			}
			return err
		}
	})
}

// runTx begins a transaction, runs fn in it and commits it, rolling it
// back when fn fails.
func runTx(ctx context.Context, pool *pgxpool.Pool, fn func(ctx context.Context, tx pgx.Tx) error) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(ctx, tx); err != nil {
		// Asked before the rollback, which hands the connection back to
		// the pool and to another caller.
		broken := tx.Conn().IsClosed()
		tx.Rollback(ctx) // a connection that failed is closed by pgx; the server rolls back
		if broken {
			// COMMIT was never sent, so nothing was kept; the server went
			// away (or did not answer in time) before it could serve us.
			return markUnavailable(err)
		}
		return err
	}
	return committed(tx.Commit(ctx))
}

// committed classifies the error of a statement that commits a write (a
// COMMIT, or a write outside a transaction). Only the server's own
// refusal of the transaction (a serialisation failure, a deadlock, a
// constraint checked at commit, a transaction that had already failed)
// means it was not kept. Anything else, whether the connection broke, the
// call timed out or the server announced it is shutting down, may have
// come after the server made the transaction durable: the outcome is
// unknown, and the error is never safe to retry.
func committed(err error) error {
	if err == nil || errors.Is(err, pgx.ErrTxCommitRollback) {
		return err
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Severity == "ERROR" && (strings.HasPrefix(pe.Code, "40") || strings.HasPrefix(pe.Code, "23")) {
		return err
	}
	return unknownOutcome{err}
}

// unknownOutcome is a failure while a write was committed: it wraps
// storage.ErrUnknownOutcome and the driver's error, and is never safe to
// retry (pgconn.SafeToRetry finds it first).
type unknownOutcome struct{ err error }

func (u unknownOutcome) Error() string {
	return storage.ErrUnknownOutcome.Error() + ": " + u.err.Error()
}

func (u unknownOutcome) Unwrap() []error { return []error{storage.ErrUnknownOutcome, u.err} }

// SafeToRetry is false: the write may have been kept.
func (u unknownOutcome) SafeToRetry() bool { return false }

// unavailable marks err with storage.ErrUnavailable when it says the
// server could not serve the request at all (it is starting up, shutting
// down or in recovery, or could not be connected to), so nothing was
// written. An unknown outcome stays unknown.
func unavailable(err error) error {
	if err == nil || errors.Is(err, storage.ErrUnknownOutcome) {
		return err
	}
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	if (errors.As(err, &pe) && (strings.HasPrefix(pe.Code, "57P") || strings.HasPrefix(pe.Code, "08"))) || errors.As(err, &ce) {
		return markUnavailable(err)
	}
	return err
}

// markUnavailable wraps err with storage.ErrUnavailable, once.
func markUnavailable(err error) error {
	if errors.Is(err, storage.ErrUnavailable) {
		return err
	}
	return fmt.Errorf("%w: %w", storage.ErrUnavailable, err)
}

// retryable reports whether err is a conflict between transactions that
// running the transaction again resolves.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// uniqueViolation reports whether err is a unique index refusing a row.
func uniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// idKey names game id in record errors, as the bbolt store does.
func idKey(id uint64) string { return strconv.FormatUint(id, 10) }

// The store keeps the whole contract.
var _ storage.Store = (*Store)(nil)
