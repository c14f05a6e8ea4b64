package boltdb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/meeplegames/meeple/storage"
)

// Online backups: while the bot holds the database file (bbolt locks it
// for one process), a second process cannot open it, so the bot answers
// backup requests on a Unix socket beside the file. The protocol has one
// request, "write a backup to this absolute path", and one answer, the
// bytes written or the error; the socket is mode 0600, so only the bot's
// own user (and root) can connect.

// BackupSocket is the path of the control socket that the bot serving the
// database file at dbPath listens on.
func BackupSocket(dbPath string) string { return dbPath + ".ctl" }

// backupRequest is the only request the socket takes: one JSON object.
type backupRequest struct {
	Backup string `json:"backup"` // absolute path of the copy to write
}

// backupReply answers a backupRequest: the bytes written, or the error.
type backupReply struct {
	Bytes int64  `json:"bytes"`
	Error string `json:"error,omitempty"`
}

const (
	// maxMessage bounds a request or reply on the socket.
	maxMessage = 8 << 10
	// requestWait is how long the server waits for a request, and for the
	// client to take its reply. A request is one short line.
	requestWait = 2 * time.Second
	// maxClients bounds the connections served at once; more wait to be
	// accepted.
	maxClients = 4
	// maxSocketPath is the longest socket path every Unix accepts (sun_path
	// holds 104 bytes on the BSDs and macOS, 108 on Linux, with the NUL).
	maxSocketPath = 103
)

// BackupServer answers backup requests for an open Store on its control
// socket, up to maxClients connections at a time, each given requestWait
// to send its request. Close stops it; it is safe to call from any
// goroutine.
type BackupServer struct {
	store  *Store
	ln     *net.UnixListener
	path   string
	info   os.FileInfo // the socket file as made, so Close removes only it
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	conns   map[net.Conn]bool // the connections being served, closed by Close
	serving sync.WaitGroup
	closing sync.Once
	err     error
}

// ServeBackups listens on socketPath (see BackupSocket) and writes a
// backup of s (Store.BackupFile) for each request, until Close. A stale
// socket left by a bot that did not stop cleanly is replaced; a path that
// is not a socket, or a socket another process listens on, is refused.
// Close the server before the store: a backup in progress is abandoned.
func ServeBackups(s *Store, socketPath string) (*BackupServer, error) {
	fail := func(err error) (*BackupServer, error) {
		return nil, fmt.Errorf("storage: backup socket %s: %w", socketPath, err)
	}
	tooLong := fmt.Errorf("%w: the path is too long for a Unix socket (at most %d bytes, with room for a temporary name); keep the database in a folder with a shorter path", storage.ErrInvalid, maxSocketPath)
	if len(socketPath) > maxSocketPath {
		return fail(tooLong)
	}
	if err := clearStaleSocket(socketPath); err != nil {
		return fail(err)
	}
	// Make the socket in a private folder, set its mode and move it into
	// place, so that it is never reachable with looser permissions.
	dir, err := os.MkdirTemp(filepath.Dir(socketPath), ".meeple-ctl-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	if len(tmp) > maxSocketPath {
		return fail(tooLong)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		return fail(err)
	}
	ln.SetUnlinkOnClose(false) // the socket moves; Close removes it by its new name
	err = os.Chmod(tmp, 0o600)
	if err == nil {
		err = os.Rename(tmp, socketPath)
	}
	var info os.FileInfo
	if err == nil {
		info, err = os.Lstat(socketPath)
	}
	if err != nil {
		ln.Close()
		return fail(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &BackupServer{store: s, ln: ln, path: socketPath, info: info, ctx: ctx, cancel: cancel, done: make(chan struct{}), conns: map[net.Conn]bool{}}
	go b.serve()
	return b, nil
}

// clearStaleSocket removes a socket at path that nobody listens on.
func clearStaleSocket(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("%w: the path exists and is not a socket; move it away", storage.ErrInvalid)
	}
	if conn, err := net.DialTimeout("unix", path, time.Second); err == nil {
		conn.Close()
		return fmt.Errorf("%w: another process listens on it", storage.ErrInvalid)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("a stale socket is in the way and cannot be removed: %w", err)
	}
	return nil
}

// Path is the socket's path.
func (b *BackupServer) Path() string { return b.path }

// Close stops listening, abandons a backup in progress (its file is left
// untouched), waits for the server to stop and removes the socket. It
// never waits for a client. Later calls return the first call's result.
func (b *BackupServer) Close() error {
	b.closing.Do(func() {
		b.cancel()
		b.err = b.ln.Close()
		b.mu.Lock()
		for conn := range b.conns {
			conn.Close()
		}
		b.mu.Unlock()
		<-b.done
		if fi, err := os.Lstat(b.path); err == nil && os.SameFile(fi, b.info) {
			if err := os.Remove(b.path); b.err == nil {
				b.err = err
			}
		}
		if b.err != nil {
			b.err = fmt.Errorf("storage: closing backup socket %s: %w", b.path, b.err)
		}
	})
	return b.err
}

// serve accepts connections until Close and answers each in a goroutine
// of its own, at most maxClients at once, so that a client that sends
// nothing holds up nobody else.
func (b *BackupServer) serve() {
	defer close(b.done)
	defer b.serving.Wait()
	slots := make(chan struct{}, maxClients)
	for {
		select {
		case slots <- struct{}{}:
		case <-b.ctx.Done():
			return
		}
		conn, err := b.ln.AcceptUnix()
		if err != nil {
			<-slots
			if b.ctx.Err() != nil {
				return
			}
			b.store.log.Warn("backup socket: accept failed", "socket", b.path, "err", err)
			select {
			case <-b.ctx.Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		if !b.track(conn, true) {
			conn.Close()
			<-slots
			return
		}
		b.serving.Add(1)
		go func() {
			defer b.serving.Done()
			defer func() { <-slots }()
			b.answer(conn)
			b.track(conn, false)
			conn.Close()
		}()
	}
}

// track records a connection being served (or done with) so that Close
// can cut it, and reports false once the server is closing.
func (b *BackupServer) track(conn net.Conn, serving bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if serving {
		b.conns[conn] = true
	} else {
		delete(b.conns, conn)
	}
	return b.ctx.Err() == nil
}

// answer reads one request from conn, carries it out and replies.
func (b *BackupServer) answer(conn net.Conn) {
	conn.SetReadDeadline(time.Now().Add(requestWait))
	var req backupRequest
	dec := json.NewDecoder(io.LimitReader(conn, maxMessage))
	dec.DisallowUnknownFields()
	var reply backupReply
	if err := dec.Decode(&req); err != nil {
		reply.Error = fmt.Sprintf("storage: backup: %v: %v", storage.ErrInvalid, err)
		b.store.log.Warn("backup socket: malformed request", "socket", b.path, "err", err)
	} else if n, err := b.backup(req.Backup); err != nil {
		reply.Error = err.Error()
		b.store.log.Warn("backup on request failed", "file", req.Backup, "err", err)
	} else {
		reply.Bytes = n
		b.store.log.Info("backup written on request", "file", req.Backup, "bytes", n)
	}
	conn.SetWriteDeadline(time.Now().Add(requestWait))
	json.NewEncoder(conn).Encode(reply) // a client that left misses its answer; nothing else depends on it
}

// backup writes the copy a request asks for.
func (b *BackupServer) backup(path string) (int64, error) {
	switch {
	case path == "":
		return 0, fmt.Errorf("storage: backup: %w: no file named", storage.ErrInvalid)
	case !filepath.IsAbs(path):
		return 0, fmt.Errorf("storage: backup to %s: %w: the path must be absolute", path, storage.ErrInvalid)
	}
	if same, err := sameFile(path, b.path); err == nil && same {
		return 0, fmt.Errorf("storage: backup to %s: %w: that is the control socket", path, storage.ErrInvalid)
	}
	return b.store.backupFile(b.ctx, filepath.Clean(path))
}

// RequestBackup asks the bot listening on socketPath (see BackupSocket) to
// write a consistent copy of its database to outPath, an absolute path
// that the bot's process can write, and returns the bytes written. It fails
// wrapping ErrNoBackupServer when the socket is missing or nobody listens
// on it, and with the bot's error when the bot could not write the copy.
func RequestBackup(ctx context.Context, socketPath, outPath string) (int64, error) {
	fail := func(err error) (int64, error) {
		return 0, fmt.Errorf("storage: backup through %s: %w", socketPath, err)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socketPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fail(fmt.Errorf("%w: the socket does not exist", ErrNoBackupServer))
	case errors.Is(err, syscall.ECONNREFUSED):
		return fail(fmt.Errorf("%w: nothing listens on the socket (a bot that stopped without removing it?)", ErrNoBackupServer))
	case err != nil:
		return fail(err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	conn.SetWriteDeadline(time.Now().Add(requestWait))
	if err := json.NewEncoder(conn).Encode(backupRequest{Backup: outPath}); err != nil {
		return fail(err)
	}
	var reply backupReply
	if err := json.NewDecoder(io.LimitReader(conn, maxMessage)).Decode(&reply); err != nil {
		switch {
		case ctx.Err() != nil:
			return fail(ctx.Err())
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			return fail(errors.New("the bot closed the connection without answering (is it stopping?)"))
		}
		return fail(err)
	}
	if reply.Error != "" {
		return fail(fmt.Errorf("the bot could not write the copy: %s", reply.Error))
	}
	return reply.Bytes, nil
}
