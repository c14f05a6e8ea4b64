// Package storage keeps Meeple's games in one embedded bbolt file: the
// active game of each Discord channel (setup, seats, the full action log and
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
// The package imports the engine (to replay logs) and bbolt, and nothing of
// Discord. A Store is safe for concurrent use by many goroutines; concurrent
// writes are committed together in one transaction (group commit), so a
// write waits at most for the transaction in progress, up to a millisecond
// while other writers' requests are on their way, and its own transaction.
package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/meeplegames/meeple/engine"
	bolt "go.etcd.io/bbolt"
)

// Options tune a Store. The zero value is usable.
type Options struct {
	// Logger receives repairs and other notable events; nil discards them.
	Logger *slog.Logger
	// LockTimeout is how long Open waits for another process holding the
	// file; 0 means one second.
	LockTimeout time.Duration
	// Verify walks every page of the file at open (bbolt's consistency
	// check), which takes time proportional to the file's size. Without it
	// Open checks only the file's header pages and its length.
	Verify bool
	// Now is the clock for Created and Updated times; nil means time.Now.
	Now func() time.Time
}

// Store is an open Meeple database file.
type Store struct {
	db    *bolt.DB
	path  string
	games *engine.Registry
	log   *slog.Logger
	now   func() time.Time
	codec codec

	claims claimBook // timers handed out by ClaimDue

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
)

func allBuckets() []string {
	return []string{bktMeta, bktGames, bktActive, bktLog, bktSnapshots, bktDue, bktGuildActive,
		bktUserActive, bktGuildArchive, bktUserArchive, bktStats, bktGuilds, bktUsers}
}

// layoutVersion is the version of the bucket layout above, kept in the
// meta bucket. A file with a newer layout is refused.
const layoutVersion = 1

const keyLayout = "layout"

// maxBatch bounds how many writes share one transaction.
const maxBatch = 256

// Open opens (creating if needed) the database file at path. games is used
// to replay logs (Load's repair, Undo, Create with a log). It fails with an
// error naming the path and wrapping ErrCorrupt when the file is damaged or
// truncated, and with ErrNewerSchema when a newer build wrote it.
func Open(path string, games *engine.Registry, opts Options) (*Store, error) {
	if games == nil {
		return nil, fmt.Errorf("storage: open %s: no game registry", path)
	}
	if err := checkHeader(path); err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	timeout := opts.LockTimeout
	if timeout <= 0 {
		timeout = time.Second
	}
	var db *bolt.DB
	err := guard(path, func() error {
		var err error
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
		return err
	})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("storage: open %s: %w (is the bot running?)", path, ErrInUse)
		}
		if !errors.Is(err, ErrCorrupt) {
			err = fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	s := &Store{
		db: db, path: path, games: games, log: opts.Logger, now: opts.Now, codec: newCodec(),
		writes: make(chan *writeReq, maxBatch), stopped: make(chan struct{}),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if err := s.initialize(opts.Verify); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	go s.commitLoop()
	return s, nil
}

// initialize creates the buckets of a new file and checks those of an old one.
func (s *Store) initialize(verify bool) error {
	if verify {
		if err := s.guard(func() error { return s.db.View(checkPages) }); err != nil {
			return err
		}
	}
	return s.guard(func() error { return s.db.Update(s.layout) })
}

// layout creates the buckets of a new file and checks those of an old one.
func (s *Store) layout(tx *bolt.Tx) error {
	meta := bucket(tx, bktMeta)
	if meta == nil {
		if bucket(tx, bktGames) != nil {
			return fmt.Errorf("%w: games without a meta bucket", ErrCorrupt)
		}
		for _, name := range allBuckets() {
			if _, err := tx.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		return bucket(tx, bktMeta).Put([]byte(keyLayout), binary.AppendUvarint(nil, layoutVersion))
	}
	v, n := binary.Uvarint(meta.Get([]byte(keyLayout)))
	switch {
	case n <= 0:
		return fmt.Errorf("%w: no layout version", ErrCorrupt)
	case v > layoutVersion:
		return &SchemaError{Record: "layout", Key: keyLayout, Got: v, Max: layoutVersion}
	}
	for _, name := range allBuckets() {
		if bucket(tx, name) == nil {
			return fmt.Errorf("%w: bucket %q is missing", ErrCorrupt, name)
		}
	}
	return nil
}

// checkHeader reads bbolt's two header (meta) pages and refuses a file
// shorter than the newest valid header says it is: bbolt maps the file into
// memory and would crash reading past its end. A file whose headers are
// both unreadable is left to bbolt, which reports it as invalid.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	size := info.Size()
	if size == 0 {
		return nil // bbolt initialises an empty file
	}
	m0, ok0 := readMeta(f, 0)
	offset := int64(4096)
	if ok0 {
		offset = int64(m0.pageSize)
	}
	m1, ok1 := readMeta(f, offset)
	best, ok := m0, ok0
	if ok1 && (!ok0 || m1.txid > m0.txid) {
		best, ok = m1, true
	}
	if !ok {
		if size < 2*1024 {
			return fmt.Errorf("%w: file is only %d bytes, too short for a database", ErrCorrupt, size)
		}
		return nil
	}
	if need := int64(best.pgid) * int64(best.pageSize); size < need {
		return fmt.Errorf("%w: file is truncated: %d bytes, the database needs %d", ErrCorrupt, size, need)
	}
	// bbolt reads the freelist page while opening and panics if it is
	// damaged, so look at its header first: its own page id, then flags.
	if best.freelist != noFreelist {
		if best.freelist >= best.pgid {
			return fmt.Errorf("%w: freelist page %d is past the end", ErrCorrupt, best.freelist)
		}
		head := make([]byte, 16)
		if _, err := f.ReadAt(head, int64(best.freelist)*int64(best.pageSize)); err != nil {
			return fmt.Errorf("%w: reading the freelist page: %v", ErrCorrupt, err)
		}
		const freelistFlag = 0x10
		if binary.LittleEndian.Uint64(head) != best.freelist || binary.LittleEndian.Uint16(head[8:]) != freelistFlag {
			return fmt.Errorf("%w: freelist page %d is damaged", ErrCorrupt, best.freelist)
		}
	}
	return nil
}

// noFreelist is the freelist page id of a file that does not store one.
const noFreelist = ^uint64(0)

// boltMeta is the part of bbolt's meta page checkHeader needs.
type boltMeta struct {
	pageSize uint32
	freelist uint64 // page id of the freelist
	pgid     uint64 // high-water mark: pages in use
	txid     uint64
}

// readMeta reads and validates the bbolt meta page at offset: a 16-byte page
// header, then magic, version, page size, flags, root bucket (16 bytes),
// freelist page, high-water mark, transaction id and an FNV-64a checksum of
// everything before it, all in the machine's (little-endian) byte order.
func readMeta(f *os.File, offset int64) (boltMeta, bool) {
	const header, metaLen = 16, 64
	buf := make([]byte, header+metaLen)
	if _, err := f.ReadAt(buf, offset); err != nil {
		return boltMeta{}, false
	}
	m := buf[header:]
	le := binary.LittleEndian
	const magic, version = 0xED0CDAED, 2
	h := fnv.New64a()
	h.Write(m[:56])
	if le.Uint32(m[0:]) != magic || le.Uint32(m[4:]) != version || le.Uint64(m[56:]) != h.Sum64() {
		return boltMeta{}, false
	}
	return boltMeta{pageSize: le.Uint32(m[8:]), freelist: le.Uint64(m[32:]), pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, true
}

// checkPages runs bbolt's consistency check of every page and returns its
// first complaint. It reads the checker's channel to the end, so that the
// checker is done before the transaction closes.
func checkPages(tx *bolt.Tx) error {
	var first error
	for err := range tx.Check() {
		if first == nil {
			first = fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	return first
}

// Path is the database file's path.
func (s *Store) Path() string { return s.path }

// Close waits for writes in progress and closes the file. Later calls fail
// with ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
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
	n, err := s.writeTo(w)
	if err != nil {
		return n, fmt.Errorf("storage: backup: %w", err)
	}
	return n, nil
}

// writeTo is Backup without the error's prefix.
func (s *Store) writeTo(w io.Writer) (int64, error) {
	var n int64
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// Verify walks every page of the file (bbolt's consistency check) and
// decodes every record, and returns the first problem found, wrapping
// ErrCorrupt or ErrNewerSchema. It reads the whole file.
func (s *Store) Verify() error {
	return s.view(func(tx *bolt.Tx) error {
		if err := checkPages(tx); err != nil {
			return fmt.Errorf("storage: verify %s: %w", s.path, err)
		}
		checks := []struct {
			bucket string
			decode func(k, v []byte) error
		}{
			{bktGames, func(k, v []byte) error { _, err := s.codec.decodeGame(idString(k), v); return err }},
			{bktLog, func(k, v []byte) error { _, err := s.codec.decodeEntry(logKeyString(k), v); return err }},
			{bktSnapshots, func(k, v []byte) error { _, err := s.codec.decodeSnapshot(idString(k), v); return err }},
			{bktStats, func(k, v []byte) error { var st Stats; return s.codec.openJSON(recStats, string(k), v, &st) }},
			{bktGuilds, func(k, v []byte) error { var g GuildSettings; return s.codec.openJSON(recGuild, string(k), v, &g) }},
			{bktUsers, func(k, v []byte) error { var u UserPrefs; return s.codec.openJSON(recUser, string(k), v, &u) }},
		}
		for _, c := range checks {
			if err := bucket(tx, c.bucket).ForEach(c.decode); err != nil {
				return fmt.Errorf("storage: verify %s: %w", s.path, err)
			}
		}
		return nil
	})
}

// bucket returns the named bucket of tx; Open made sure it exists.
func bucket(tx *bolt.Tx, name string) *bolt.Bucket { return tx.Bucket([]byte(name)) }

// view runs fn in a read transaction, failing with ErrClosed after Close.
func (s *Store) view(fn func(tx *bolt.Tx) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	return s.guard(func() error { return s.db.View(fn) })
}

// guard runs a bbolt transaction and turns a panic inside it into an error
// wrapping ErrCorrupt: bbolt panics when it meets a damaged page, and a
// damaged page must cost one request, not the process. Memory faults (a
// page number pointing outside the file) become panics for the duration.
// bbolt rolls the transaction back as the panic passes.
func (s *Store) guard(tx func() error) error { return guard(s.path, tx) }

func guard(path string, tx func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %s: %v", ErrCorrupt, path, r)
		}
	}()
	return tx()
}

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
// refuse) for any error it meets before writing.
func (s *Store) update(fn func(tx *bolt.Tx) error) error {
	req := &writeReq{fn: fn, done: make(chan error, 1)}
	s.writers.Add(1)
	defer s.writers.Add(-1)
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return ErrClosed
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

// commit runs a batch in one transaction. A refusal answers only its own
// request; any other error rolls the transaction back, and then each request
// runs in a transaction of its own so that one failure cannot sink the rest.
func (s *Store) commit(batch []*writeReq) {
	results := make([]error, len(batch))
	err := s.guard(func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			for i, req := range batch {
				results[i] = req.fn(tx)
				var r refusal
				if results[i] != nil && !errors.As(results[i], &r) {
					return results[i]
				}
			}
			return nil
		})
	})
	if err == nil {
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
// through a temporary file in the same folder that is synced and renamed
// into place, so path never holds half a backup. It refuses to overwrite
// the store's own file.
func (s *Store) BackupFile(path string) (int64, error) {
	return s.backupFile(context.Background(), path)
}

// backupFile is BackupFile that gives up, leaving path untouched, once ctx
// is done.
func (s *Store) backupFile(ctx context.Context, path string) (int64, error) {
	if same, err := sameFile(path, s.path); err != nil || same {
		if err == nil {
			err = fmt.Errorf("%w: %s is the database itself", ErrInvalid, path)
		}
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
	n, err := s.writeTo(w)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("abandoned: %w", ctx.Err()) // bbolt does not wrap the writer's error
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
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
