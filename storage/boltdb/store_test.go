package boltdb_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/storetest"
)

func registry() *engine.Registry { return storetest.Games() }

// openStore opens a store at path (in t.TempDir() when empty) and closes
// it when the test ends.
func openStore(t testing.TB, path string, opts boltdb.Options) *boltdb.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "meeple.db")
	}
	s, err := boltdb.Open(path, registry(), opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The helpers below are the contract suite's, for a *boltdb.Store.

func raceSetup(players int) engine.Setup { return storetest.RaceSetup(players) }

func newRace(t testing.TB, s *boltdb.Store, guild, channel string, players int, goal string) *storage.Game {
	t.Helper()
	return storetest.NewRace(t, s, guild, channel, players, goal)
}

func nextAction(v int) string { return storetest.NextAction(v) }

func play(t testing.TB, s *boltdb.Store, channel string) int {
	t.Helper()
	return storetest.Play(t, s, channel)
}

func step(s *boltdb.Store, g *storage.Game, state engine.State) (int, error) {
	return storetest.Step(s, g, state)
}

func replayed(t testing.TB, g *storage.Game) []byte {
	t.Helper()
	return storetest.Replayed(t, g)
}

// TestContract runs the store contract's suite on bbolt files.
func TestContract(t *testing.T) { storetest.Run(t, bboltDB) }

// TestGamesDoNotBlockEachOther holds a write transaction open on one game
// (inside Update's function) and shows that another game's append waits
// for that one transaction only, that reads go on meanwhile, and that a
// refused write to one game does not sink another's in the same commit.
func TestGamesDoNotBlockEachOther(t *testing.T) {
	s := openStore(t, "", boltdb.Options{})
	newRace(t, s, "g1", "a", 2, "1000000")
	newRace(t, s, "g1", "b", 2, "1000000")
	inside, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		_, err := s.Update(context.Background(), "a", storetest.GameIn(t, s, "a"), func(g *storage.Game) error {
			close(inside)
			<-release
			g.Messages = map[string]string{"board": "m1"}
			return nil
		})
		held <- err
	}()
	<-inside
	appended := make(chan error, 1)
	go func() {
		g, state, err := s.Load(context.Background(), "b") // reads are not blocked by the writer
		if err == nil {
			_, err = step(s, g, state)
		}
		appended <- err
	}()
	// Reads of both games work while a's transaction is open.
	if _, err := s.Get(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListActive(context.Background(), "g1"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-appended:
		t.Fatalf("append to b finished (%v) while a's transaction was still open", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	if err := <-appended; err != nil {
		t.Fatalf("append to b after a's transaction: %v", err)
	}

	// Stale writes to a, racing with good writes to b, never fail b.
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := s.Append(context.Background(), "a", storetest.GuardAt(t, s, "a", 999), storage.Entry{Seat: 0, Action: "roll"}, []byte("x")); !errors.Is(err, storage.ErrStale) {
				t.Errorf("stale append to a: %v", err)
			}
		}()
		go func() {
			defer wg.Done()
			for {
				g, state, err := s.Load(context.Background(), "b")
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := step(s, g, state); !errors.Is(err, storage.ErrStale) {
					if err != nil {
						t.Error(err)
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	if g, _ := s.Get(context.Background(), "b"); g.Version != 51 || !bytes.Equal(g.Snapshot, replayed(t, g)) {
		t.Fatalf("b at version %d, want 51 with a snapshot equal to its replay", g.Version)
	}
}

// logBuffer collects a store's log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newLogger(l *logBuffer) *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

func mustContain(t *testing.T, what, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%s %q does not mention %q", what, s, p)
		}
	}
}

func TestOpenRefusesAFileInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meeple.db")
	openStore(t, path, boltdb.Options{})
	_, err := boltdb.Open(path, registry(), boltdb.Options{LockTimeout: 50 * time.Millisecond})
	if !errors.Is(err, boltdb.ErrInUse) || !strings.Contains(err.Error(), "in use by another process") || !strings.Contains(err.Error(), path) {
		t.Fatalf("second open: %v, want an error saying the file is in use", err)
	}
	if _, err := boltdb.Open(path, nil, boltdb.Options{}); err == nil {
		t.Fatal("open without a registry succeeded")
	}
}
