package boltdb_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// crashEnv names the database file when the test binary runs as the
// writer of TestAcknowledgedAppendsSurviveKill.
const crashEnv = "MEEPLE_STORAGE_CRASH_WRITER"

const crashGames = 4

// TestAcknowledgedAppendsSurviveKill runs this test binary as a writer
// process that appends to several games at once and prints a line for
// every acknowledged append, kills it with SIGKILL at a random moment,
// reopens the file and checks that every acknowledged action is in the log
// and that every snapshot equals its log replayed. It repeats until well
// over 1,000 appends were acknowledged.
func TestAcknowledgedAppendsSurviveKill(t *testing.T) {
	skipInChild(t, crashEnv)
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	acked := map[string]map[int]string{} // channel → version → action
	total, kills := 0, 0
	for round := 0; round < 200 && (total < 1200 || kills < 10); round++ {
		n, killed := crashRound(t, path, acked)
		total += n
		if killed {
			kills++
		}
		checkAcked(t, path, acked)
		if t.Failed() {
			return
		}
	}
	if total < 1000 || kills < 10 {
		t.Fatalf("only %d acknowledged appends and %d kills", total, kills)
	}
	t.Logf("%d acknowledged appends over %d kills, none lost", total, kills)
}

// crashRound starts a writer, kills it after a random delay, and records
// its acknowledgements. It reports how many it read and whether the kill
// hit a running writer.
func crashRound(t *testing.T, path string, acked map[string]map[int]string) (int, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill after a random number of acknowledgements, while the writer's
	// other goroutines are somewhere in their next appends.
	var lines []string
	killAt := 1 + rand.IntN(150)
	done, reached := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines = append(lines, sc.Text())
			if len(lines) == killAt {
				close(reached)
			}
		}
	}()
	select {
	case <-reached:
	case <-done:
	case <-time.After(10 * time.Second):
	}
	time.Sleep(time.Duration(rand.IntN(500)) * time.Microsecond)
	killErr := cmd.Process.Kill()
	<-done
	werr := cmd.Wait()
	killed := killErr == nil
	var exit *exec.ExitError
	if errors.As(werr, &exit) && exit.Exited() {
		t.Fatalf("writer exited by itself (%v): %s\n%s", werr, stderr.String(), strings.Join(lines, "\n"))
	}
	n := 0
	for _, line := range lines {
		f := strings.SplitN(line, " ", 4)
		if len(f) != 4 || f[0] != "ack" {
			continue
		}
		var v int
		if _, err := fmt.Sscan(f[2], &v); err != nil {
			t.Fatalf("bad ack line %q", line)
		}
		if acked[f[1]] == nil {
			acked[f[1]] = map[int]string{}
		}
		acked[f[1]][v] = f[3]
		n++
	}
	return n, killed
}

// checkAcked reopens the file and checks every acknowledged append.
func checkAcked(t *testing.T, path string, acked map[string]map[int]string) {
	t.Helper()
	var logs logBuffer
	s, err := boltdb.Open(path, registry(), boltdb.Options{Logger: newLogger(&logs), Verify: true})
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer s.Close()
	for ch, versions := range acked {
		g, err := s.Get(context.Background(), ch)
		if err != nil {
			t.Fatalf("%s: %v", ch, err)
		}
		for v, action := range versions {
			if v > g.Version || g.Log[v-1].Action != action {
				t.Fatalf("%s: acknowledged version %d (%s) lost: the game is at version %d", ch, v, action, g.Version)
			}
		}
		if !bytes.Equal(g.Snapshot, replayed(t, g)) {
			t.Fatalf("%s: snapshot differs from the replay of its %d actions", ch, g.Version)
		}
		if _, _, err := s.Load(context.Background(), ch); err != nil {
			t.Fatalf("%s: load: %v", ch, err)
		}
	}
	if logs.String() != "" {
		t.Fatalf("reopening needed repairs: %s", logs.String())
	}
}

// TestCrashWriter is the writer process of TestAcknowledgedAppendsSurviveKill;
// it does nothing in a normal test run.
func TestCrashWriter(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("run by TestAcknowledgedAppendsSurviveKill")
	}
	s, err := boltdb.Open(path, registry(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	ack := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(os.Stdout, format+"\n", args...)
	}
	for i := 0; i < crashGames; i++ {
		ch := fmt.Sprintf("c%d", i)
		if _, err := s.Get(context.Background(), ch); errors.Is(err, storage.ErrNotFound) {
			newRace(t, s, "g1", ch, 3, "1000000000")
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				g, state, err := s.Load(context.Background(), ch)
				if err != nil {
					t.Error(err)
					return
				}
				action := nextAction(g.Version)
				v, err := step(s, g, state)
				if err != nil {
					t.Error(err)
					return
				}
				ack("ack %s %d %s", ch, v, action)
			}
		}()
	}
	wg.Wait() // until killed
}
