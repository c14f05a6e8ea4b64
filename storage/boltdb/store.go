// Package boltdb is the store of package storage's contract that keeps
// Meeple's games in one embedded bbolt file: the active game of each Discord channel (setup, seats, the full action log and
// a snapshot of the state), the archive of finished and abandoned games,
// per-user statistics per game kind, per-guild settings and per-user
// preferences.
//
// Every write is durable (fsynced) when the method returns. The snapshot of
// a game always equals its seed and log replayed; Load checks it cheaply by
// hash and rebuilds it from the log when they disagree. Writes to a game
// carry the state version they were based on, and a stale writer gets
// ErrStale rather than overwriting a newer game.
//
// While a process holds the file (bbolt locks it), other processes get
// copies through it: ServeBackups answers RequestBackup on a Unix socket
// beside the file.
//
// Records carry a schema version; older ones are migrated on read and newer
// ones refused. Integer keys are big-endian so that they sort by value.
//
// A damaged file is an error, never a crash: the store checks the pages of
// a file itself (pages.go), with bounded ordinary reads in the caller's
// goroutine, before bbolt maps them into memory, and turns any panic or
// memory fault met while reading into ErrCorrupt. A store opened ReadOnly
// writes nothing to its file.
//
// It applies the contract's rules through storage.Contract. The package
// imports storage, the engine (to replay logs) and bbolt, and nothing of
// Discord or of the other stores. A Store is safe for concurrent use by many goroutines; concurrent
// writes are committed together in one transaction (group commit), so a
// write waits at most for the transaction in progress, up to a millisecond
// while other writers' requests are on their way, and its own transaction.
package boltdb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/meeplegames/meeple/storage"

	"github.com/meeplegames/meeple/engine"
	bolt "go.etcd.io/bbolt"
)

// Options tune a Store. The zero value is usable.
type Options struct {
	// Logger receives repairs and other notable events; nil discards them.
	Logger *slog.Logger
	// LockTimeout is how long Open waits for another process holding the
	// file; 0 means one second, and a negative value means not at all.
	LockTimeout time.Duration
	// Verify checks the whole file at open, as Check does, before anything
	// else reads it: every page, then every record (its checksum, schema
	// and contents) and every game's log, snapshot and index entries, which
	// takes time proportional to the file's size. A file Check refuses is
	// refused, with the same error. Without it Open checks only the file's
	// header pages and its length; a damaged page or record is then met,
	// and reported, by the request that reads it.
	Verify bool
	// ReadOnly opens an existing file for reading only: the file is left
	// byte for byte as it was (it may itself be read-only), several
	// read-only stores may share it, and every write fails with
	// ErrReadOnly.
	ReadOnly bool
	// MustExist refuses a missing file with ErrNoDatabase instead of
	// creating it. ReadOnly implies it.
	MustExist bool
	// Now is the clock for Created and Updated times; nil means time.Now.
	Now func() time.Time
}

// Store is an open Meeple database file.
type Store struct {
	db       *bolt.DB
	path     string
	created  bool
	readOnly bool
	games    *engine.Registry
	log      *slog.Logger
	now      func() time.Time
	codec    storage.Codec
	rules    storage.Contract

	claims claimBook    // timers handed out by ClaimDue
	pruned atomic.Int64 // when Commit last pruned interaction keys, Unix ns

	mu      sync.RWMutex // guards closed and sends on writes
	closed  bool
	writes  chan *writeReq
	writers atomic.Int64 // callers inside update
	stopped chan struct{}
}

// Bucket names. Keys are noted next to each.
const (
	bktMeta         = "meta"          // "layout" → uvarint layout version
	bktGames        = "games"         // id(8) → game record, active and archived
	bktActive       = "active"        // channel → id(8)
	bktLog          = "log"           // id(8) index(4) → entry record
	bktSnapshots    = "snapshots"     // id(8) → snapshot record
	bktDue          = "due"           // at(8) id(8) kind(1) → channel
	bktGuildActive  = "guild-active"  // guild 0 id(8) → channel
	bktUserActive   = "user-active"   // user 0 id(8) → channel
	bktGuildArchive = "guild-archive" // guild 0 id(8) → nothing
	bktUserArchive  = "user-archive"  // user 0 id(8) → nothing
	bktStats        = "stats"         // user 0 kind → stats record
	bktGuilds       = "guilds"        // guild → guild settings record
	bktUsers        = "users"         // user → user preferences record
	bktCommits      = "commits"       // interaction key → id(8) revision(8) kept(8, Unix ns) CRC-32C(4); before pruning: id(8) revision(8)
	bktTally        = "tally"         // kind 0 status → games(8), none for 0
	bktUserSeats    = "user-seats"    // user 0 id(8) → seat index entry (storage.Seating)
)

func allBuckets() []string {
	return []string{bktMeta, bktGames, bktActive, bktLog, bktSnapshots, bktDue, bktGuildActive,
		bktUserActive, bktGuildArchive, bktUserArchive, bktStats, bktGuilds, bktUsers, bktCommits, bktTally, bktUserSeats}
}

// layoutVersion is the version of the bucket layout above, kept in the
// meta bucket. A file with a newer layout is refused. Layout 2 added the
// commits bucket, and every record of a layout 2 file carries a checksum;
// layout 3 added the tally (games by kind and status); layout 4 the seat
// index (user-seats) and the games' waits it is made from. Open upgrades
// a file of an older layout once (see upgrade).
const layoutVersion = 4

// bucketSince is the layout that added a bucket.
func bucketSince(name string) uint64 {
	switch name {
	case bktCommits:
		return 2
	case bktTally:
		return 3
	case bktUserSeats:
		return 4
	}
	return 1
}

const keyLayout = "layout"

// maxBatch bounds how many writes share one transaction.
const maxBatch = 256

// Path is the database file's path.
func (s *Store) Path() string { return s.path }

// String names the store: its file's path.
func (s *Store) String() string { return s.path }

// Close waits for writes in progress and closes the file. Later calls fail
// with ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return storage.ErrClosed
	}
	s.closed = true
	close(s.writes)
	s.mu.Unlock()
	<-s.stopped
	return s.db.Close()
}

// Backup writes a consistent copy of the whole database to w while the
// store stays in use (bbolt's Tx.WriteTo in a read transaction), and returns
// the number of bytes written.
func (s *Store) Backup(w io.Writer) (int64, error) {
	n, err := s.writeTo(context.Background(), w)
	if err != nil {
		return n, fmt.Errorf("storage: backup: %w", err)
	}
	return n, nil
}

// writeTo is Backup without the error's prefix.
func (s *Store) writeTo(ctx context.Context, w io.Writer) (int64, error) {
	var n int64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// Verify checks every page of the file (on the state of one read
// transaction, so writes may go on), decodes every record (checking its
// checksum), then checks every game whole (see verifyGames), and returns
// the first problem found, naming the game and the record, wrapping
// ErrCorrupt or ErrNewerSchema. It reads the whole file.
func (s *Store) Verify() error {
	return s.view(context.Background(), func(tx *bolt.Tx) error {
		if err := s.checkPages(tx); err != nil {
			return fmt.Errorf("storage: verify %s: %w", s.path, err)
		}
		checks := []struct {
			bucket string
			decode func(k, v []byte) error
		}{
			{bktGames, func(k, v []byte) error { _, err := s.codec.DecodeGame(idString(k), v); return err }},
			{bktLog, func(k, v []byte) error { _, err := s.codec.DecodeEntry(logKeyString(k), v); return err }},
			{bktSnapshots, func(k, v []byte) error { _, err := s.codec.DecodeSnapshot(idString(k), v); return err }},
			{bktStats, func(k, v []byte) error {
				var st storage.Stats
				return s.codec.OpenJSON(storage.RecStats, string(k), v, &st)
			}},
			{bktGuilds, func(k, v []byte) error {
				var g storage.GuildSettings
				return s.codec.Keyed(string(k)).OpenJSON(storage.RecGuild, string(k), v, &g)
			}},
			{bktUsers, func(k, v []byte) error {
				var u storage.UserPrefs
				return s.codec.Keyed(string(k)).OpenJSON(storage.RecUser, string(k), v, &u)
			}},
		}
		for _, c := range checks {
			if err := bucket(tx, c.bucket).ForEach(c.decode); err != nil {
				return fmt.Errorf("storage: verify %s: %w", s.path, err)
			}
		}
		if err := s.verifyGames(tx); err != nil {
			return fmt.Errorf("storage: verify %s: %w", s.path, err)
		}
		return nil
	})
}

// checkPages runs the page check (checkFile) on the pages of tx, then
// bbolt's own check. tx keeps the pages it reaches from being reused by
// writers while the file is read; its header pages are the ones tx began
// with, taken from bbolt's copy of the file (Tx.WriteTo writes them first).
func (s *Store) checkPages(tx *bolt.Tx) error {
	f, err := os.Open(s.path)
	if err != nil {
		return err
	}
	defer f.Close()
	headers := &headerCapture{limit: 2 * tx.DB().Info().PageSize}
	if _, err := tx.WriteTo(headers); len(headers.buf) < headers.limit {
		return fmt.Errorf("reading the header pages: %v", err)
	}
	if err := checkFile(txFile{headers.buf, f}, tx.Size()); err != nil {
		return err
	}
	return boltCheck(tx)
}

// headerCapture keeps the first limit bytes written to it, then refuses more.
type headerCapture struct {
	buf   []byte
	limit int
}

var errEnough = errors.New("enough")

func (h *headerCapture) Write(p []byte) (int, error) {
	n := min(len(p), h.limit-len(h.buf))
	h.buf = append(h.buf, p[:n]...)
	if n < len(p) {
		return n, errEnough
	}
	return n, nil
}

// txFile reads the file as one read transaction sees it: its header pages,
// then the file.
type txFile struct {
	headers []byte
	file    io.ReaderAt
}

func (t txFile) ReadAt(p []byte, off int64) (int, error) {
	if off < int64(len(t.headers)) {
		n := copy(p, t.headers[off:])
		if n == len(p) {
			return n, nil
		}
		m, err := t.file.ReadAt(p[n:], off+int64(n))
		return n + m, err
	}
	return t.file.ReadAt(p, off)
}

// bucket returns the named bucket of tx; Open made sure it exists.
func bucket(tx *bolt.Tx, name string) *bolt.Bucket { return tx.Bucket([]byte(name)) }

// view runs fn in a read transaction, failing with ErrClosed after Close
// and with ctx's error when ctx is done before it starts.
func (s *Store) view(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return storage.ErrClosed
	}
	return s.guard(func() error { return s.db.View(fn) })
}

// guard runs a bbolt transaction and turns a panic inside it into an error
// wrapping ErrCorrupt: bbolt panics when it meets a damaged page, and a
// damaged page must cost one request, not the process. Memory faults (a
// page number pointing outside the file) become panics for the duration.
// bbolt rolls the transaction back as the panic passes. The error names
// the damaged page when the page check (Verify's) finds it.
func (s *Store) guard(tx func() error) error {
	err := guard(s.path, tx)
	var p panicked
	if errors.As(err, &p) {
		if found := guard(s.path, func() error { return s.db.View(s.checkPages) }); errors.Is(found, storage.ErrCorrupt) && !errors.As(found, &p) {
			return fmt.Errorf("%s: %w", s.path, found)
		}
	}
	return err
}

// guard is Store.guard for a file that is not open as a Store yet.
func guard(path string, tx func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = panicked{fmt.Errorf("%w: %s: %v", storage.ErrCorrupt, path, r)}
		}
	}()
	return tx()
}

// panicked is an error made from a panic in bbolt.
type panicked struct{ error }

func (p panicked) Unwrap() error { return p.error }

// writeReq is one write waiting for the commit loop.
type writeReq struct {
	fn   func(tx *bolt.Tx) error
	done chan error
}

// refusal marks an error a write function returned before writing
// anything, so the other writes of its transaction can still commit.
type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

// refuse wraps err as a refusal. Write functions return refusals only
// before their first write.
func refuse(err error) error { return refusal{err} }

// update runs fn in a write transaction and returns once the transaction
// is committed to disk (or fn refused). Concurrent calls share
// transactions. fn may run more than once and must return a refusal (see
// refuse) for any error it meets before writing. When ctx is done before
// the write joins a transaction, it writes nothing and returns ctx's error.
func (s *Store) update(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := &writeReq{fn: fn, done: make(chan error, 1)}
	if s.readOnly {
		return storage.ErrReadOnly
	}
	s.writers.Add(1)
	defer s.writers.Add(-1)
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return storage.ErrClosed
	}
	s.writes <- req
	s.mu.RUnlock()
	err := <-req.done
	var r refusal
	if errors.As(err, &r) {
		return r.err
	}
	return err
}

// gatherWait bounds how long the commit loop waits for writes that are on
// their way: one transaction for all of them costs one fsync instead of
// many. A lone writer never waits.
const gatherWait = time.Millisecond

// commitLoop commits the waiting writes in one transaction at a time, until
// Close. It takes everything queued and, within gatherWait, whatever the
// other callers inside update are about to send, so that writers answered
// by one transaction travel together in the next instead of splitting into
// cohorts that take turns.
func (s *Store) commitLoop() {
	defer close(s.stopped)
	timer := time.NewTimer(0)
	<-timer.C
	for req := range s.writes {
		batch := []*writeReq{req}
		open := true
		timer.Reset(gatherWait)
	gather:
		for open && len(batch) < maxBatch {
			select {
			case r, ok := <-s.writes:
				if open = ok; ok {
					batch = append(batch, r)
				}
				continue
			default:
			}
			if int64(len(batch)) >= s.writers.Load() {
				break
			}
			select {
			case r, ok := <-s.writes:
				if open = ok; ok {
					batch = append(batch, r)
				}
			case <-timer.C:
				break gather
			}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		s.commit(batch)
	}
}

// errNothingWritten rolls back a transaction whose writes were all refused.
var errNothingWritten = errors.New("nothing written")

// commit runs a batch in one transaction. A refusal answers only its own
// request; any other error rolls the transaction back, and then each request
// runs in a transaction of its own so that one failure cannot sink the rest.
func (s *Store) commit(batch []*writeReq) {
	results := make([]error, len(batch))
	err := s.guard(func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			wrote := false
			for i, req := range batch {
				results[i] = req.fn(tx)
				var r refusal
				if results[i] != nil && !errors.As(results[i], &r) {
					return results[i]
				}
				wrote = wrote || results[i] == nil
			}
			if !wrote {
				return errNothingWritten // roll back: bbolt would commit an empty transaction
			}
			return nil
		})
	})
	if err == nil || errors.Is(err, errNothingWritten) {
		for i, req := range batch {
			req.done <- results[i]
		}
		return
	}
	if len(batch) == 1 {
		batch[0].done <- err
		return
	}
	for _, req := range batch {
		req.done <- s.guard(func() error { return s.db.Update(req.fn) })
	}
}

// BackupFile writes a consistent copy of the database to path (see Backup)
// through a temporary file in the same folder that is synced, checked page
// by page and renamed into place, so path never holds half a backup or a
// damaged one. It replaces only a Meeple database (an older backup): it
// refuses the store's own file and any other file, so that a mistyped path
// cannot overwrite a config or a token file.
func (s *Store) BackupFile(path string) (int64, error) {
	return s.backupFile(context.Background(), path)
}

// backupFile is BackupFile that gives up, leaving path untouched, once ctx
// is done.
func (s *Store) backupFile(ctx context.Context, path string) (int64, error) {
	if err := s.replaceable(path); err != nil {
		return 0, fmt.Errorf("storage: backup to %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, fmt.Errorf("storage: backup: %w", err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	var w io.Writer = tmp       // *os.File copies file to file in the kernel
	if ctx.Done() != nil {
		w = ctxWriter{ctx, tmp}
	}
	n, err := s.writeTo(ctx, w)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("abandoned: %w", ctx.Err()) // bbolt does not wrap the writer's error
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		if err = checkFile(tmp, n); err != nil {
			err = fmt.Errorf("the copy is damaged, so the database is: %w", err)
		}
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// Every record of the copy is read back before it replaces
		// anything: a copy Check would refuse leaves path as it was.
		if _, err = Check(tmp.Name(), s.games); err != nil {
			err = fmt.Errorf("the copy does not check out, so the database does not (%s was left as it was): %w", path, err)
		}
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return 0, fmt.Errorf("storage: backup to %s: %w", path, err)
	}
	if dir, err := os.Open(filepath.Dir(path)); err == nil {
		dir.Sync() // make the rename durable; best effort where unsupported
		dir.Close()
	}
	return n, nil
}

// replaceable refuses a backup path that holds anything but an older copy
// of a Meeple database, or that is the store's own file.
func (s *Store) replaceable(path string) error {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !info.Mode().IsRegular():
		return fmt.Errorf("%w: %s exists and is not a regular file; refusing to replace it", storage.ErrInvalid, path)
	}
	if same, err := sameFile(path, s.path); err != nil || same {
		if err == nil {
			err = fmt.Errorf("%w: %s is the database itself", storage.ErrInvalid, path)
		}
		return err
	}
	if !isBoltFile(path) {
		return fmt.Errorf("%w: %s exists and is not a Meeple database; refusing to replace it (move it away or choose another name)", storage.ErrInvalid, path)
	}
	return nil
}

// sameFile reports whether a and b name the same existing file.
func sameFile(a, b string) (bool, error) {
	ia, err := os.Stat(a)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	ib, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(ia, ib), nil
}

// ctxWriter is a writer that fails with ctx's error once ctx is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// The store keeps the whole contract.
var _ storage.Store = (*Store)(nil)
