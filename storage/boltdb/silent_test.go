package boltdb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// silentEnv sets how many damaged copies TestDamageIsNeverSilent tries
// (default 200, 20 with -short; the full run is 1,000: see docs/operations.md).
const silentEnv = "MEEPLE_SILENT_DAMAGE_TRIALS"

// TestDamageIsNeverSilent damages copies of a database (running,
// finished and abandoned games, statistics, settings, preferences and
// timers) with one to three random bytes anywhere in the file, and runs
// Check (what "meeple check" and every command's open run) on each. When
// Check passes, every game and every listing must read back exactly as
// from the undamaged file: damage that would change what a game reads
// back is always reported, never served as data.
func TestDamageIsNeverSilent(t *testing.T) {
	trials := 200
	if n, err := strconv.Atoi(os.Getenv(silentEnv)); err == nil {
		trials = n
	}
	if testing.Short() {
		trials = min(trials, 20)
	}
	orig := richStore(t)
	want := readBack(t, orig)
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(20261126, 19))
	dir := t.TempDir()
	reported, harmless := 0, 0
	for trial := range trials {
		damaged := bytes.Clone(data)
		for range 1 + rng.IntN(3) {
			damaged[rng.IntN(len(damaged))] ^= byte(1 + rng.IntN(255))
		}
		path := filepath.Join(dir, fmt.Sprintf("trial-%d.db", trial))
		if err := os.WriteFile(path, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := boltdb.Check(path, registry()); err != nil {
			reported++
			os.Remove(path)
			continue
		}
		if got := readBack(t, path); got != want {
			t.Errorf("trial %d: check passed, but the games read back differently:\n%s", trial, firstDifference(want, got))
		} else {
			harmless++
		}
		os.Remove(path)
	}
	t.Logf("%d damaged copies: %d reported by check, %d harmless (check passed and everything read back the same), %d silent",
		trials, reported, harmless, trials-reported-harmless)
}

// richStore makes a database of every kind of record.
func richStore(t *testing.T) string {
	path := fillStore(t, 6, 9)
	s := openStore(t, path, boltdb.Options{})
	for i, ch := range []string{"c0", "c1"} {
		g, err := s.Get(context.Background(), ch)
		if err != nil {
			t.Fatal(err)
		}
		status, res := storage.StatusFinished, &engine.Result{Over: true, Scores: []int{7 + i, 3}, Winners: []engine.Seat{0}}
		if i == 1 {
			status, res = storage.StatusAbandoned, nil
		}
		if _, err := s.Finish(context.Background(), ch, g.Guard(), status, res); err != nil {
			t.Fatal(err)
		}
	}
	g, _ := s.Get(context.Background(), "c2")
	if _, err := s.Update(context.Background(), "c2", g.ID, func(g *storage.Game) error {
		g.Deadline, g.RemindAt = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
		g.Messages = map[string]string{"board": "123456"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutGuildSettings(context.Background(), "g1", storage.GuildSettings{TurnDeadline: time.Hour, GamesChannel: "777"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutUserPrefs(context.Background(), "u1", storage.UserPrefs{Secrets: storage.SecretsDM}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	return path
}

// readBack reads everything a store serves from the file at path: every
// game whole (by id, and by channel with its state), the listings, the
// timers, the statistics, the settings and the preferences.
func readBack(t *testing.T, path string) string {
	t.Helper()
	s, err := boltdb.Open(path, registry(), boltdb.Options{ReadOnly: true, LockTimeout: -1})
	if err != nil {
		return "open: " + err.Error()
	}
	defer s.Close()
	var out bytes.Buffer
	put := func(what string, v any, err error) {
		data, _ := json.Marshal(v)
		fmt.Fprintf(&out, "%s: %s %v\n", what, data, err)
	}
	ids, err := s.GameIDs(context.Background(), 0, 0)
	put("ids", ids, err)
	for _, id := range ids {
		g, err := s.GetByID(context.Background(), id)
		put(fmt.Sprint("game ", id), g, err)
	}
	for i := range 6 {
		ch := fmt.Sprintf("c%d", i)
		g, st, err := s.Load(context.Background(), ch)
		var state []byte
		if st != nil {
			state, _ = st.Encode()
		}
		put("load "+ch, []any{g, state}, err)
	}
	active, err := s.ListActive(context.Background(), "g1")
	put("active", active, err)
	archive, err := s.Archive(context.Background(), 0, 0)
	put("archive", archive, err)
	for _, u := range []string{"u1", "u2"} {
		mine, err := s.ActiveForUser(context.Background(), u)
		put("active of "+u, mine, err)
		old, err := s.ArchiveForUser(context.Background(), u, 0, 100)
		put("archive of "+u, old, err)
		stats, err := s.Stats(context.Background(), u)
		put("stats of "+u, stats, err)
		prefs, err := s.UserPrefs(context.Background(), u)
		put("prefs of "+u, prefs, err)
	}
	due, err := s.Due(context.Background(), time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC))
	put("due", due, err)
	gs, err := s.GuildSettings(context.Background(), "g1")
	put("settings", gs, err)
	guilds, users, err := s.SavedSettings(context.Background())
	put("saved", []any{guilds, users}, err)
	return out.String()
}

// firstDifference shows the first line where a and b differ.
func firstDifference(a, b string) string {
	al, bl := bytes.Split([]byte(a), []byte("\n")), bytes.Split([]byte(b), []byte("\n"))
	for i := range min(len(al), len(bl)) {
		if !bytes.Equal(al[i], bl[i]) {
			return fmt.Sprintf("undamaged: %.300s\ndamaged:   %.300s", al[i], bl[i])
		}
	}
	return "(one is longer)"
}
