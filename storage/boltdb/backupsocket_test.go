package boltdb_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// serveBackups starts a backup server for s and closes it when the test ends.
func serveBackups(t *testing.T, s *boltdb.Store) *boltdb.BackupServer {
	t.Helper()
	srv, err := boltdb.ServeBackups(s, boltdb.BackupSocket(s.Path()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func TestBackupSocketWritesACopyOnRequest(t *testing.T) {
	s := openStore(t, "", boltdb.Options{})
	newRace(t, s, "g1", "c1", 2, "1000000")
	for i := 0; i < 10; i++ {
		play(t, s, "c1")
	}
	srv := serveBackups(t, s)
	fi, err := os.Lstat(srv.Path())
	if err != nil || fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %s: %v, %v; want a socket with mode 0600", srv.Path(), fi, err)
	}
	out := filepath.Join(t.TempDir(), "copy.db")
	n, err := boltdb.RequestBackup(context.Background(), srv.Path(), out)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(out); err != nil || st.Size() != n || n == 0 {
		t.Fatalf("copy %s: %v, %v; the bot said %d bytes", out, st, err, n)
	}
	cp := openStore(t, out, boltdb.Options{Verify: true})
	if g, err := cp.Get(context.Background(), "c1"); err != nil || g.Version != 10 {
		t.Fatalf("game in the copy: %+v, %v", g, err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(srv.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket after Close: %v, want it removed", err)
	}
	if err := srv.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(s.Path()))
	if len(entries) != 1 {
		t.Fatalf("the server left files beside the database: %v", entries)
	}
}

func TestBackupSocketRefusesBadRequests(t *testing.T) {
	s := openStore(t, "", boltdb.Options{})
	srv := serveBackups(t, s)
	dir := t.TempDir()
	cases := []struct{ out, want string }{
		{"", "no file named"},
		{"copy.db", "must be absolute"},
		{s.Path(), "is the database itself"},
		{srv.Path(), "is the control socket"},
		{filepath.Join(dir, "missing", "copy.db"), "no such file or directory"},
	}
	for _, c := range cases {
		_, err := boltdb.RequestBackup(context.Background(), srv.Path(), c.out)
		if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, boltdb.ErrNoBackupServer) {
			t.Errorf("backup to %q: %v, want an error mentioning %q", c.out, err, c.want)
		}
	}
	// Anything but the one request is refused, and the server carries on.
	for _, raw := range []string{
		`{"backup": "` + filepath.Join(dir, "x.db") + `", "restore": "/etc/passwd"}`,
		`{"restore": "/tmp/x"}`,
		`not json`,
		`{"backup": 7}`,
	} {
		conn, err := net.Dial("unix", srv.Path())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(conn, raw)
		reply := make([]byte, 1024)
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		k, _ := conn.Read(reply)
		conn.Close()
		if !strings.Contains(string(reply[:k]), `"error":"storage: backup: invalid request`) {
			t.Errorf("request %s: answer %q, want a refusal", raw, reply[:k])
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("refused requests wrote files: %v", entries)
	}
	if _, err := boltdb.RequestBackup(context.Background(), srv.Path(), filepath.Join(dir, "ok.db")); err != nil {
		t.Fatalf("a good request after the bad ones: %v", err)
	}
}

func TestBackupSocketMissingStaleOrInTheWay(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "meeple.db.ctl")
	out := filepath.Join(dir, "copy.db")
	_, err := boltdb.RequestBackup(context.Background(), sock, out)
	if !errors.Is(err, boltdb.ErrNoBackupServer) || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), sock) {
		t.Fatalf("missing socket: %v", err)
	}
	// A socket left behind by a process that died: nobody listens on it.
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	_, err = boltdb.RequestBackup(context.Background(), sock, out)
	if !errors.Is(err, boltdb.ErrNoBackupServer) || !strings.Contains(err.Error(), "nothing listens") {
		t.Fatalf("stale socket: %v", err)
	}
	// A new server replaces the stale socket; a second one is refused.
	s := openStore(t, filepath.Join(dir, "meeple.db"), boltdb.Options{})
	srv := serveBackups(t, s)
	if _, err := boltdb.RequestBackup(context.Background(), sock, out); err != nil {
		t.Fatalf("through the replaced socket: %v", err)
	}
	if _, err := boltdb.ServeBackups(s, sock); err == nil || !strings.Contains(err.Error(), "another process listens") {
		t.Fatalf("second server on a live socket: %v", err)
	}
	srv.Close()
	// A file that is not a socket is never removed.
	if err := os.WriteFile(sock, []byte("notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := boltdb.ServeBackups(s, sock); err == nil || !strings.Contains(err.Error(), "not a socket") || !strings.Contains(err.Error(), sock) {
		t.Fatalf("server over a regular file: %v", err)
	}
	if data, _ := os.ReadFile(sock); string(data) != "notes" {
		t.Fatalf("the file in the way was changed: %q", data)
	}
	long := filepath.Join(dir, strings.Repeat("x", 120)+".ctl")
	if _, err := boltdb.ServeBackups(s, long); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Fatalf("server on a long path: %v", err)
	}
}

// TestBackupSocketCloseDoesNotWaitForClients: a client that connects and
// says nothing does not hold up the bot's shutdown, and learns that the
// bot went away.
func TestBackupSocketCloseDoesNotWaitForClients(t *testing.T) {
	s := openStore(t, "", boltdb.Options{})
	srv := serveBackups(t, s)
	conn, err := net.Dial("unix", srv.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// the server takes connections in the order they came: once a later
	// client's backup is written, the silent one is being served
	if _, err := boltdb.RequestBackup(context.Background(), srv.Path(), filepath.Join(t.TempDir(), "copy.db")); err != nil {
		t.Fatal(err)
	}
	closed := make(chan error)
	go func() { closed <- srv.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for a silent client")
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Fatal("the silent client's connection is still open")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("closing the store after the server: %v", err)
	}
}

// TestBackupSocketServesClientsConcurrently keeps clients connected that
// send nothing: another client's backup is still written, long before the
// silent ones are given up on.
func TestBackupSocketServesClientsConcurrently(t *testing.T) {
	s := openStore(t, "", boltdb.Options{})
	newRace(t, s, "g1", "c1", 2, "1000000")
	srv := serveBackups(t, s)
	for i := 0; i < 2; i++ {
		silent, err := net.Dial("unix", srv.Path())
		if err != nil {
			t.Fatal(err)
		}
		defer silent.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := boltdb.RequestBackup(ctx, srv.Path(), filepath.Join(t.TempDir(), "copy.db")); err != nil {
		t.Fatalf("a backup while two silent clients are connected: %v", err)
	}
}

// TestBackupReplacesOnlyADatabase: a backup may replace an older backup,
// but never a file that is not a Meeple database (a config, a token
// file), a symbolic link or a folder; what was there is left untouched.
func TestBackupReplacesOnlyADatabase(t *testing.T) {
	s := openStore(t, "", boltdb.Options{})
	newRace(t, s, "g1", "c1", 2, "1000000")
	srv := serveBackups(t, s)
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	os.WriteFile(token, []byte("secret token\n"), 0o600)
	link := filepath.Join(dir, "link.db")
	os.Symlink(token, link)
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	for _, path := range []string{token, link, empty, dir} {
		_, err := boltdb.RequestBackup(context.Background(), srv.Path(), path)
		if err == nil || !strings.Contains(err.Error(), "refusing to replace it") {
			t.Errorf("backup over %s: %v, want a refusal", path, err)
		}
		if _, err := s.BackupFile(path); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("BackupFile over %s: %v, want ErrInvalid", path, err)
		}
	}
	if data, _ := os.ReadFile(token); string(data) != "secret token\n" {
		t.Fatalf("the token file now holds %d bytes", len(data))
	}
	older := filepath.Join(dir, "older.db")
	for i := 0; i < 2; i++ { // the second replaces the first
		if _, err := boltdb.RequestBackup(context.Background(), srv.Path(), older); err != nil {
			t.Fatalf("backup %d over an older backup: %v", i+1, err)
		}
	}
}

// TestBackupDoesNotWaitForTheLock: a store opened with a negative lock
// timeout fails at once, with ErrInUse, on a file another store holds, and
// leaves it alone.
func TestBackupDoesNotWaitForTheLock(t *testing.T) {
	s := openStore(t, "", boltdb.Options{})
	start := time.Now()
	_, err := boltdb.Open(s.Path(), registry(), boltdb.Options{ReadOnly: true, LockTimeout: -1})
	if !errors.Is(err, boltdb.ErrInUse) {
		t.Fatalf("open of a held file: %v, want ErrInUse", err)
	}
	// A generous bound: the old default waited out a whole second (bbolt
	// gives up about 50 ms before its timeout).
	if waited := time.Since(start); waited > 800*time.Millisecond {
		t.Fatalf("open waited %s for the lock", waited)
	}
}
