package boltdb

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Open opens the database file at path. games is used to replay logs
// (Load's repair, Undo, Create with a log).
//
// A missing file is created (Created then reports true) unless
// opts.MustExist or opts.ReadOnly is set; then it fails with
// ErrNoDatabase. Other failures wrap one sentinel each, and name the path:
// ErrNoFolder, ErrNotDatabase, ErrPermission, ErrInUse, ErrCorrupt (the
// file is damaged or truncated) and ErrNewerSchema (a newer build wrote
// it). Nothing is written to a file that fails its checks.
func Open(path string, games *engine.Registry, opts Options) (*Store, error) {
	if games == nil {
		return nil, fmt.Errorf("storage: open %s: no game registry", path)
	}
	mustExist := opts.MustExist || opts.ReadOnly
	created, err := prepareFile(path, !mustExist)
	if err != nil {
		return nil, err
	}
	o := opener{path: path, readOnly: opts.ReadOnly, verify: opts.Verify && !created, wait: opts.LockTimeout}
	if o.wait == 0 {
		o.wait = time.Second
	}
	var db *bolt.DB
	err = guard(path, func() error {
		var err error
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: opts.ReadOnly, OpenFile: o.open})
		return err
	})
	if err != nil {
		if created {
			os.Remove(path)
		}
		return nil, openError(path, err)
	}
	s := &Store{
		db: db, path: path, created: created, readOnly: opts.ReadOnly, games: games, log: opts.Logger, now: opts.Now,
		codec: storage.NewCodec(), writes: make(chan *writeReq, maxBatch), stopped: make(chan struct{}),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.rules = storage.NewContract(games, s.now)
	if s.now == nil {
		s.now = time.Now
	}
	err = s.initialize(o.verify)
	if err == nil && o.verify {
		err = s.Verify()
	}
	if err != nil {
		db.Close()
		if created {
			os.Remove(path)
		}
		return nil, openError(path, err)
	}
	go s.commitLoop()
	return s, nil
}

// Created reports whether Open made the file.
func (s *Store) Created() bool { return s.created }

// openError names the path in an error of Open, and calls anything bbolt
// refused that is not one of ours damage.
func openError(path string, err error) error {
	known := []error{storage.ErrNoDatabase, ErrNoFolder, storage.ErrNotDatabase, storage.ErrPermission, ErrInUse, storage.ErrCorrupt, storage.ErrNewerSchema}
	for _, k := range known {
		if errors.Is(err, k) {
			return fmt.Errorf("storage: open %s: %w", path, err)
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("storage: open %s: %w: %v", path, storage.ErrPermission, err)
	}
	if errors.Is(err, bolterrors.ErrTimeout) { // where bbolt takes the lock itself
		return fmt.Errorf("storage: open %s: %w (is the bot running?)", path, ErrInUse)
	}
	return fmt.Errorf("storage: open %s: %w: %v", path, storage.ErrCorrupt, err)
}

// prepareFile says why the file at path cannot be opened, if it can tell
// before trying: a missing file (created when create is set: it then
// reports true), a missing folder, a folder or other non-file in the way,
// no permission.
func prepareFile(path string, create bool) (bool, error) {
	fail := func(format string, args ...any) (bool, error) {
		return false, fmt.Errorf("storage: "+format, args...)
	}
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return fail("cannot open %s: %w: it is a folder", path, storage.ErrNotDatabase)
	case err == nil && !info.Mode().IsRegular():
		return fail("cannot open %s: %w: it is not a regular file", path, storage.ErrNotDatabase)
	case err == nil:
		return false, nil
	case errors.Is(err, fs.ErrPermission):
		return fail("cannot open %s: %w", path, storage.ErrPermission)
	case errors.Is(err, syscall.ENOTDIR):
		return fail("cannot open %s: %w: part of the path is a file, not a folder", path, ErrNoFolder)
	case !errors.Is(err, fs.ErrNotExist):
		return fail("cannot open %s: %v", path, err)
	}
	dir := filepath.Dir(path)
	if dinfo, err := os.Stat(dir); err != nil || !dinfo.IsDir() {
		if errors.Is(err, fs.ErrPermission) {
			return fail("cannot open %s: %w to its folder %s", path, storage.ErrPermission, dir)
		}
		return fail("cannot open %s: %w: the folder %s does not exist", path, ErrNoFolder, dir)
	}
	if !create {
		return fail("%w at %s", storage.ErrNoDatabase, path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, fs.ErrExist):
		return false, nil // made by someone else meanwhile: open it as it is
	case errors.Is(err, fs.ErrPermission):
		return fail("cannot create %s: %w to write in the folder %s", path, storage.ErrPermission, dir)
	case err != nil:
		return fail("cannot create %s: %v", path, err)
	}
	return true, f.Close()
}

// opener is the file opener bbolt calls (its OpenFile option). It takes
// the lock bbolt is about to take, so that nobody writes the file while it
// is checked, and checks the file's headers and length (all of its pages
// when verify is set) before bbolt maps it into memory.
type opener struct {
	path     string
	readOnly bool
	verify   bool
	wait     time.Duration // negative: do not wait for the lock
}

func (o opener) open(name string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			mode := "for reading and writing"
			if o.readOnly {
				mode = "for reading"
			}
			return nil, fmt.Errorf("%w to open the file %s", storage.ErrPermission, mode)
		}
		return nil, err
	}
	if err := o.lockAndCheck(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (o opener) lockAndCheck(f *os.File) error {
	if err := lockFile(f, !o.readOnly, o.wait); err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Size() == 0 {
		if o.readOnly {
			return fmt.Errorf("%w: the file is empty", storage.ErrNoDatabase)
		}
		return nil // bbolt writes the headers of a new file
	}
	if _, ok := newestMeta(f); !ok && !hasMagic(f) {
		return fmt.Errorf("%w: it does not start like one", storage.ErrNotDatabase)
	}
	if o.verify {
		return checkFile(f, info.Size())
	}
	return checkLength(f, info.Size())
}

// hasMagic reports whether the file looks like a bbolt file whose headers
// are damaged: either of the first two pages carries bbolt's magic number,
// or the third page's header names it page 2. A file with none of these is
// not a database.
func hasMagic(f *os.File) bool {
	le := binary.LittleEndian
	for _, off := range []int64{0, 4096} {
		var b [20]byte
		if _, err := f.ReadAt(b[:], off); err == nil && le.Uint32(b[16:]) == 0xED0CDAED {
			return true
		}
	}
	var b [pageHeaderSize]byte
	if _, err := f.ReadAt(b[:], 2*4096); err != nil {
		return false
	}
	flags := le.Uint16(b[8:])
	return le.Uint64(b[:]) == 2 && (flags == flagBranch || flags == flagLeaf || flags == flagFreelist)
}

// initialize creates the buckets of a new file and checks those of an old
// one; with verify it also runs bbolt's consistency check, which the page
// check before it made safe to run.
func (s *Store) initialize(verify bool) error {
	fresh := false
	err := s.guard(func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			var err error
			fresh, err = s.checkLayout(tx)
			if err == nil && verify {
				err = boltCheck(tx)
			}
			return err
		})
	})
	if err == nil && !fresh && !s.readOnly && verify {
		err = s.guard(func() error { return s.db.View(s.checkSchemas) })
	}
	if err != nil {
		return err
	}
	if !fresh {
		return s.useLayout()
	}
	if s.readOnly {
		return fmt.Errorf("%w: the file holds no Meeple data", storage.ErrNoDatabase)
	}
	if err := s.guard(func() error { return s.db.Update(s.createLayout) }); err != nil {
		return err
	}
	return s.useLayout()
}

// useLayout upgrades a writable file of an older layout (see upgrade),
// and makes the codec strict on a file whose every record carries a
// checksum.
func (s *Store) useLayout() error {
	var layout uint64
	if err := s.guard(func() error {
		return s.db.View(func(tx *bolt.Tx) error { layout = fileLayout(tx); return nil })
	}); err != nil {
		return err
	}
	if layout < layoutVersion && !s.readOnly {
		if err := s.upgrade(layout); err != nil {
			return err
		}
		layout = layoutVersion
	}
	if layout >= 2 {
		s.codec = s.codec.Strict()
	}
	return nil
}

// checkLayout checks the buckets of a file, and reports a file that holds
// none (a new one).
func (s *Store) checkLayout(tx *bolt.Tx) (fresh bool, err error) {
	meta := bucket(tx, bktMeta)
	if meta == nil {
		if bucket(tx, bktGames) != nil {
			return false, fmt.Errorf("%w: games without a meta bucket", storage.ErrCorrupt)
		}
		var any bool
		tx.ForEach(func([]byte, *bolt.Bucket) error { any = true; return nil })
		if any {
			return false, fmt.Errorf("%w: a bbolt file of another program (it holds no meta bucket)", storage.ErrNotDatabase)
		}
		return true, nil
	}
	v, n := binary.Uvarint(meta.Get([]byte(keyLayout)))
	switch {
	case n <= 0:
		return false, fmt.Errorf("%w: no layout version", storage.ErrCorrupt)
	case v > layoutVersion:
		return false, &storage.SchemaError{Record: "layout", Key: keyLayout, Got: v, Max: layoutVersion}
	}
	for _, name := range allBuckets() {
		if bucket(tx, name) == nil && v >= bucketSince(name) {
			return false, fmt.Errorf("%w: bucket %q is missing", storage.ErrCorrupt, name)
		}
	}
	return false, nil
}

// checkSchemas refuses a file holding any record newer than this build
// reads, before anything is written to it: a newer build wrote it, and
// this one would write beside records it does not understand. It reads
// each record's schema number only, and runs with Verify (which reads every
// page anyway); without it, each write refuses the newer records it would
// replace or extend. Snapshots are left out: Load rebuilds
// one it cannot read from the game's log.
func (s *Store) checkSchemas(tx *bolt.Tx) error {
	kinds := []struct{ bucket, kind string }{
		{bktGames, storage.RecGame}, {bktLog, storage.RecEntry}, {bktStats, storage.RecStats}, {bktGuilds, storage.RecGuild}, {bktUsers, storage.RecUser},
	}
	if bucket(tx, bktPending) != nil {
		kinds = append(kinds, struct{ bucket, kind string }{bktPending, storage.RecPending})
	}
	for _, k := range kinds {
		err := bucket(tx, k.bucket).ForEach(func(key, v []byte) error {
			return s.codec.NotNewer(k.kind, func() string { return recordKey(k.bucket, key) }, v)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// recordKey writes a record's key as errors name it.
func recordKey(bucket string, k []byte) string {
	switch bucket {
	case bktGames:
		return idString(k)
	case bktLog:
		return logKeyString(k)
	}
	return fmt.Sprintf("%q", k)
}

// createLayout creates the buckets of a new file.
func (s *Store) createLayout(tx *bolt.Tx) error {
	for _, name := range allBuckets() {
		if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
			return err
		}
	}
	return bucket(tx, bktMeta).Put([]byte(keyLayout), binary.AppendUvarint(nil, layoutVersion))
}

// boltCheck runs bbolt's consistency check and returns its first
// complaint. It reads the checker's channel to the end, so that the
// checker is done before the transaction closes. The checker runs in a
// goroutine of its own where no fault guard applies: call it only on a
// file that passed checkFile.
func boltCheck(tx *bolt.Tx) error {
	var first error
	for err := range tx.Check() {
		if first == nil {
			first = fmt.Errorf("%w: %v", storage.ErrCorrupt, err)
		}
	}
	return first
}

// Summary is what Check found in a sound file.
type Summary struct {
	Active int    // games in the lobby or running
	Total  int    // every game, archived ones included
	Layout uint64 // the file's layout version (see Store.Layout)
}

// Check opens the database at path read-only, checks every page, decodes
// every record and counts the games, for a preflight check or a backup's
// verification. It never writes to the file and does not wait for a lock:
// a file a running bot holds fails with ErrInUse. Its errors are Open's
// and Verify's.
func Check(path string, games *engine.Registry) (Summary, error) {
	s, err := Open(path, games, Options{ReadOnly: true, Verify: true, LockTimeout: -1})
	if err != nil {
		return Summary{}, err
	}
	defer s.Close()
	if err := s.Verify(); err != nil {
		return Summary{}, err
	}
	var sum Summary
	if sum.Layout, _, err = s.Layout(); err != nil {
		return Summary{}, err
	}
	sum.Active, sum.Total, err = s.Counts(context.Background())
	return sum, err
}
