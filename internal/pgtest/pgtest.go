// Package pgtest runs a throwaway PostgreSQL server for tests: initdb into
// a temporary folder (in /dev/shm when it has room), the server listening
// only on a Unix socket inside it, and a fresh database per test. It
// needs PostgreSQL's server binaries (Debian's postgresql package);
// without them the tests that ask for a database are skipped with the
// reason.
//
// Running as root, the server runs as the "postgres" user (initdb refuses
// root) in a folder that user owns.
//
// A Server is safe for concurrent use. It is for tests only.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// BinEnv names an environment variable holding the folder of PostgreSQL's
// server binaries, for machines where they are not in a standard place.
const BinEnv = "MEEPLE_PG_BIN"

// Server is a PostgreSQL server started on first use. The zero value is
// ready; Run (from TestMain) or Stop ends the server.
type Server struct {
	once    sync.Once
	skip    string // why there is no server (binaries missing): tests skip
	err     error  // the server should have started and did not: tests fail
	dir     string
	bin     string              // the server binaries' folder
	cred    *syscall.Credential // the server's user, or nil
	cmd     *exec.Cmd
	exited  chan struct{}
	socket  string
	mu      sync.Mutex
	created int
}

// Database creates an empty database for t and returns its connection
// string (a postgres:// URL, for pgx or libpq). It skips t when PostgreSQL
// is not installed, or fails it when RequireEnv is set (.ci/run sets it
// after installing PostgreSQL, so CI never skips these tests), and fails
// it when the server would not start.
func (s *Server) Database(t testing.TB) string {
	t.Helper()
	dsn, err := s.NewDatabase()
	if errors.Is(err, ErrUnavailable) {
		if os.Getenv(RequireEnv) != "" {
			t.Fatalf("%v, and %s asks that the tests needing it run", err, RequireEnv)
		}
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}

// RequireEnv names the environment variable that makes a missing
// PostgreSQL fail the tests that need it instead of skipping them.
const RequireEnv = "MEEPLE_REQUIRE_POSTGRES"

// ErrUnavailable means PostgreSQL's server binaries are not on this machine
// (or cannot run as a user other than root).
var ErrUnavailable = errors.New("pgtest: PostgreSQL is not installed here (Debian: apt-get install postgresql)")

// NewDatabase creates an empty database and returns its connection string,
// starting the server first if need be.
func (s *Server) NewDatabase() (string, error) {
	s.once.Do(s.start)
	if s.skip != "" {
		return "", fmt.Errorf("%w: %s", ErrUnavailable, s.skip)
	}
	if s.err != nil {
		return "", s.err
	}
	s.mu.Lock()
	s.created++
	name := "meeple_test_" + strconv.Itoa(s.created)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.dsn("postgres"))
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"); err != nil {
		return "", fmt.Errorf("pgtest: create database: %w", err)
	}
	return s.dsn(name), nil
}

// dsn is the postgres:// URL of database name on the server's socket.
func (s *Server) dsn(name string) string {
	return "postgres://meeple@/" + name + "?host=" + url.QueryEscape(s.socket) + "&sslmode=disable"
}

// Run runs the package's tests (m.Run), then stops the server, and
// returns the exit code for os.Exit: call it from TestMain.
func (s *Server) Run(m *testing.M) int {
	code := m.Run()
	if err := s.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest: stopping PostgreSQL:", err)
		code = 1
	}
	return code
}

// Stop shuts the server down and removes its folder. It is safe to call
// on a Server that never started.
func (s *Server) Stop() error {
	s.once.Do(func() { s.skip = "stopped" })
	if s.cmd == nil {
		if s.dir != "" { // crashed, and not restarted
			return os.RemoveAll(s.dir)
		}
		return nil
	}
	s.cmd.Process.Signal(syscall.SIGINT) // "fast" shutdown: roll back sessions, checkpoint, exit
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
	return os.RemoveAll(s.dir)
}

// start runs initdb and the server, recording why not in skip or err.
func (s *Server) start() {
	bin, why := findBin()
	if bin == "" {
		s.skip = why
		return
	}
	cred, why := serverUser()
	if why != "" {
		s.skip = why
		return
	}
	if err := s.run(bin, cred); err != nil {
		s.err = fmt.Errorf("pgtest: starting PostgreSQL from %s: %w", bin, err)
		if s.dir != "" && s.cmd == nil {
			os.RemoveAll(s.dir)
		}
	}
}

func (s *Server) run(bin string, cred *syscall.Credential) error {
	dir, err := serverFolder(cred)
	if err != nil {
		return err
	}
	s.dir, s.bin, s.cred = dir, bin, cred
	s.socket = filepath.Join(dir, "sock")
	data := filepath.Join(dir, "data")
	for _, d := range []string{s.socket, data} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	if cred != nil {
		// The server's user must reach its folders; the temporary folder
		// itself stays closed to everyone else.
		for _, d := range []string{dir, s.socket, data} {
			if err := os.Chown(d, int(cred.Uid), int(cred.Gid)); err != nil {
				return err
			}
		}
	}
	attr := &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "meeple", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = attr
	if out, err := initdb.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %v\n%s", err, out)
	}
	return s.serve()
}

// serve starts the server on its data folder and waits until it accepts
// connections.
func (s *Server) serve() error {
	bin, data := s.bin, filepath.Join(s.dir, "data")
	attr := &syscall.SysProcAttr{Credential: s.cred, Pdeathsig: syscall.SIGQUIT}
	var logBuf strings.Builder
	// Shared memory segments live in the data folder, so that a server the
	// tests kill leaves none behind in the machine's memory folder.
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-k", s.socket,
		"-c", "listen_addresses=", "-c", "max_connections=200", "-c", "shared_buffers=32MB", "-c", "dynamic_shared_memory_type=mmap")
	cmd.SysProcAttr = attr
	cmd.Stdout, cmd.Stderr = &syncWriter{w: &logBuf}, nil
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd, s.exited = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(s.exited) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, s.dsn("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-s.exited:
			s.cmd = nil
			return fmt.Errorf("the server exited:\n%s", cmd.Stdout.(*syncWriter).String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the server did not accept connections within a minute: %v", err)
		}
	}
}

// Crash stops the server at once, as `pg_ctl stop -m immediate` does: every
// connection is cut and nothing is checkpointed, so the next start
// recovers from the write-ahead log, as after a power loss of the server
// process. Restart starts it again on the same data.
func (s *Server) Crash() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return errors.New("pgtest: no server to crash")
	}
	s.cmd.Process.Signal(syscall.SIGQUIT) // PostgreSQL's immediate shutdown
	<-s.exited
	s.cmd = nil
	return nil
}

// Restart starts a crashed server again on the same data and socket.
func (s *Server) Restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return errors.New("pgtest: the server is running")
	}
	return s.serve()
}

// serverFolder makes the server's temporary folder. Every database is a
// few hundred files, which a disk's file system takes longer to create
// than the tests take to use them, so the folder is in memory where the
// machine has a memory-backed folder with room.
func serverFolder(cred *syscall.Credential) (string, error) {
	removeAbandoned(memoryFolder)
	if free(memoryFolder) >= memoryNeeded && (cred == nil || reachable(memoryFolder)) {
		if dir, err := os.MkdirTemp(memoryFolder, "meeple-pgtest-"); err == nil {
			return dir, nil
		}
	}
	parent := os.TempDir()
	if cred != nil && !reachable(parent) {
		parent = "/tmp" // the server's user must pass through every folder above its own
	}
	return os.MkdirTemp(parent, "meeple-pgtest-")
}

// memoryFolder is the memory-backed folder Linux mounts for every user,
// and memoryNeeded the room a server takes there at most: a package's
// tests make a hundred databases of some 8 MB each, and two packages run
// at once.
const (
	memoryFolder = "/dev/shm"
	memoryNeeded = 4 << 30
)

// removeAbandoned removes the server folders in dir of test runs killed
// before they could (their age is past any test timeout): in memory, they
// would hold it until the machine restarts.
func removeAbandoned(dir string) {
	old, _ := filepath.Glob(filepath.Join(dir, "meeple-pgtest-*"))
	for _, d := range old {
		if info, err := os.Stat(d); err == nil && time.Since(info.ModTime()) > abandonedAfter {
			os.RemoveAll(d)
		}
	}
}

// abandonedAfter is an age no test run reaches (go test stops a package
// after 10 minutes unless told otherwise; .ci/run allows 20).
const abandonedAfter = 6 * time.Hour

// free is how many bytes the file system of dir has left for this process.
func free(dir string) uint64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0
	}
	return st.Bavail * uint64(st.Bsize)
}

// reachable reports whether every folder from / down to dir lets other
// users pass through.
func reachable(dir string) bool {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err != nil || info.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

// findBin returns the folder of the newest installed PostgreSQL server
// binaries, or "" and why none was found.
func findBin() (string, string) {
	if dir := os.Getenv(BinEnv); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err != nil {
			return "", "$" + BinEnv + " is " + dir + ", which holds no initdb"
		}
		return dir, ""
	}
	if path, err := exec.LookPath("pg_config"); err == nil {
		if out, err := exec.Command(path, "--bindir").Output(); err == nil {
			dir := strings.TrimSpace(string(out))
			if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
				return dir, ""
			}
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return majorOf(b) - majorOf(a) })
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir, ""
		}
	}
	return "", "no initdb in /usr/lib/postgresql/*/bin, on PATH (pg_config) or in $" + BinEnv
}

// majorOf is the version number in /usr/lib/postgresql/<n>/bin.
func majorOf(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// serverUser returns the credentials to run the server with: nil for the
// current user, the "postgres" user's when running as root.
func serverUser() (*syscall.Credential, string) {
	if os.Geteuid() != 0 {
		return nil, ""
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, "running as root and there is no postgres user to run the server as"
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, "the postgres user has a non-numeric id"
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, ""
}

// syncWriter collects the server's output for an error message.
type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.w.Len() > 64<<10 {
		return len(p), nil
	}
	return w.w.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.String()
}
