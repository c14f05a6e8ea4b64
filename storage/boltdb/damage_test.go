package boltdb_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// damageEnv holds "file seed trials" when the test binary runs as the
// process that damages files in TestRandomDamageNeverCrashes.
const damageEnv = "MEEPLE_STORAGE_DAMAGE"

// TestRandomDamageNeverCrashes damages a file hundreds of times, each time
// with 1 to 64 random bytes at a random offset past the header pages (in
// page headers, element tables, keys and values alike), and uses it as the
// commands do. A memory fault cannot be recovered from, so the trials run
// in a child process: if it dies, the test names the trial. Every refusal
// must wrap ErrCorrupt and name the file, and nothing may be written to a
// file Open refused or opened read-only.
func TestRandomDamageNeverCrashes(t *testing.T) {
	skipInChild(t, damageEnv)
	trials := bySize(250, 60)
	path := fillStore(t, 30, 20)
	// A fixed seed keeps the test the same from run to run;
	// MEEPLE_DAMAGE_SEED=random tries new damage each time, and a number
	// repeats a run it reported.
	seed := uint64(20261123)
	switch env := os.Getenv("MEEPLE_DAMAGE_SEED"); env {
	case "":
	case "random":
		seed = rand.Uint64()
	default:
		n, err := strconv.ParseUint(env, 10, 64)
		if err != nil {
			t.Fatalf("MEEPLE_DAMAGE_SEED=%q: want a number or \"random\"", env)
		}
		seed = n
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDamageTrials$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d", damageEnv, path, seed, trials))
	out, err := cmd.CombinedOutput()
	text := string(out)
	if err != nil || !strings.Contains(text, "trials done") {
		last := text[strings.LastIndex(text, "trial "):]
		if i := strings.LastIndex(text, "\ntrial "); i >= 0 {
			last = text[i+1:]
		}
		t.Fatalf("the damaging process failed (%v), seed %d; from its last trial on:\n%.3000s", err, seed, last)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "trials done") || strings.Contains(line, "FAIL") || strings.Contains(line, "damage_test.go") {
			t.Log(strings.TrimSpace(line))
		}
	}
}

// skipInChild skips a test that starts child processes when this process
// is one of them (env is set).
func skipInChild(t *testing.T, env string) {
	if os.Getenv(env) != "" {
		t.Skip("this process is a child of the test")
	}
}

// bySize is full normally and short with -short or the race detector,
// which slows these tests tenfold.
func bySize(full, short int) int {
	if testing.Short() || raceEnabled {
		return short
	}
	return full
}

// TestDamageTrials is the child process of TestRandomDamageNeverCrashes.
func TestDamageTrials(t *testing.T) {
	args := strings.Fields(os.Getenv(damageEnv))
	if len(args) != 3 {
		t.Skip("run by TestRandomDamageNeverCrashes")
	}
	seed, _ := strconv.ParseUint(args[1], 10, 64)
	trials, _ := strconv.Atoi(args[2])
	good, err := os.ReadFile(args[0])
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	path := filepath.Join(t.TempDir(), "damaged.db")
	const pageSize = 4096
	refused, trial := 0, 0
	for ; trial < trials && !t.Failed(); trial++ {
		data := bytes.Clone(good)
		n := 1 + rng.IntN(64)
		at := 2*pageSize + rng.IntN(len(data)-2*pageSize-n)
		for i := range n {
			data[at+i] = byte(rng.Uint32())
		}
		fmt.Printf("trial %d: %d bytes at offset %d (page %d, byte %d)\n", trial, n, at, at/pageSize, at%pageSize)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		unchanged := func(when string) {
			if now, _ := os.ReadFile(path); !bytes.Equal(now, data) {
				t.Errorf("trial %d: %s changed the file", trial, when)
			}
		}
		refusal := func(what string, err error) {
			named := strings.Contains(what, "open") == strings.Contains(fmt.Sprint(err), path) || !strings.Contains(what, "open")
			// A damaged schema number reads as a newer record's.
			damage := errors.Is(err, storage.ErrCorrupt) || errors.Is(err, storage.ErrNewerSchema)
			if err != nil && (!damage || !named) {
				t.Errorf("trial %d: %s: %v, want ErrCorrupt (naming the file, at open)", trial, what, err)
			}
		}
		// What backup and export do: read-only, with and without the page check.
		for _, verify := range []bool{true, false} {
			s, err := boltdb.Open(path, registry(), boltdb.Options{ReadOnly: true, Verify: verify})
			refusal("read-only open", err)
			if err == nil {
				useDamaged(t, s, trial, refusal)
				s.Close()
			}
			unchanged("a read-only open")
		}
		// What run and import do: check every page before writing.
		s, err := boltdb.Open(path, registry(), boltdb.Options{Verify: true})
		refusal("open with Verify", err)
		if err != nil {
			refused++
			unchanged("a refused open")
			continue
		}
		useDamaged(t, s, trial, refusal)
		backup := filepath.Join(t.TempDir(), "backup.db")
		if _, err := s.BackupFile(backup); err != nil {
			refusal("backup", err)
		}
		s.Close()
	}
	fmt.Printf("%d trials done: %d files refused at open, no crash\n", trial, refused)
}

// useDamaged reads and plays every game of a damaged store.
func useDamaged(t *testing.T, s *boltdb.Store, trial int, refusal func(string, error)) {
	refusal("Verify", s.Verify())
	for i := 0; i < 30; i++ {
		ch := fmt.Sprintf("c%d", i)
		g, state, err := s.Load(context.Background(), ch)
		if err == nil && state != nil {
			_, err = step(s, g, state)
		}
		var re *storage.ReplayError
		if err != nil && !errors.Is(err, storage.ErrNotFound) && !errors.Is(err, storage.ErrStale) &&
			!errors.Is(err, storage.ErrReadOnly) && !errors.As(err, &re) {
			refusal("game "+ch, err)
		}
	}
	if _, err := s.ListActive(context.Background(), "g1"); err != nil {
		refusal("ListActive", err)
	}
	if _, _, err := s.Counts(context.Background()); err != nil {
		refusal("Counts", err)
	}
}
