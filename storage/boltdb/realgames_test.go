package boltdb_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/storetest"
	bolt "go.etcd.io/bbolt"
)

// realGames is a registry of the real games with their embedded content.
func realGames(t testing.TB) *engine.Registry { return storetest.RealGames(t) }

// TestRealGamesThroughTheStore plays each real game to its end through
// Load and Append, undoing now and then, and checks at every step that the
// stored snapshot is the replay of the log; then finishes it and checks the
// statistics.
func TestRealGamesThroughTheStore(t *testing.T) {
	reg := realGames(t)
	s, err := boltdb.Open(filepath.Join(t.TempDir(), "meeple.db"), reg, boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, name := range reg.Names() {
		channel := fmt.Sprintf("c%d", i)
		g := &storage.Game{
			Kind: name, Guild: "g1", Channel: channel, Status: storage.StatusRunning,
			Setup: engine.Setup{Players: 3, Seed: uint64(100 + i)},
			Seats: []storage.Seat{{User: "u1"}, {User: "u2"}, {Computer: "random"}},
		}
		if err := s.Create(context.Background(), g); err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRNG(uint64(7 + i))
		undone := 0
		for step := 0; step < 5000; step++ {
			g, state, err := s.Load(context.Background(), channel)
			if err != nil {
				t.Fatalf("%s: load at step %d: %v", name, step, err)
			}
			if state.Over() {
				break
			}
			if step%97 == 96 && g.Version >= 3 {
				if _, _, err := s.Undo(context.Background(), channel, storetest.GuardAt(t, s, channel, g.Version), 3); err != nil {
					t.Fatalf("%s: undo at version %d: %v", name, g.Version, err)
				}
				undone++
				continue
			}
			prompts := state.Prompts()
			p := prompts[rng.Intn(len(prompts))]
			action := ai.Random{}.Choose(state, p, &rng)
			if _, err := state.Apply(p.Seat, action); err != nil {
				t.Fatalf("%s: legal action %q refused: %v", name, action, err)
			}
			snap, err := state.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Append(context.Background(), channel, storetest.GuardAt(t, s, channel, g.Version), storage.Entry{Seat: p.Seat, Action: action}, snap); err != nil {
				t.Fatalf("%s: append: %v", name, err)
			}
			if step%50 == 0 {
				if ok, err := s.Verified(context.Background(), channel); !ok || err != nil {
					t.Fatalf("%s: at version %d the snapshot is not the replay (%v)", name, g.Version+1, err)
				}
			}
		}
		g, state, err := s.Load(context.Background(), channel)
		if err != nil || !state.Over() {
			t.Fatalf("%s: the game did not end in 5000 steps (%v)", name, err)
		}
		if ok, err := s.Verified(context.Background(), channel); !ok || err != nil {
			t.Fatalf("%s: final snapshot is not the replay (%v)", name, err)
		}
		res := state.Result()
		if _, err := s.Finish(context.Background(), channel, storetest.GuardAt(t, s, channel, g.Version), storage.StatusFinished, &res); err != nil {
			t.Fatal(err)
		}
		stats, _ := s.Stats(context.Background(), "u1")
		var mine *storage.Stats
		for i := range stats {
			if stats[i].Kind == name {
				mine = &stats[i]
			}
		}
		if mine == nil || mine.Played != 1 || mine.ScoreSum != int64(res.Scores[0]) {
			t.Fatalf("%s: u1's stats %+v after scoring %d", name, mine, res.Scores[0])
		}
		archived, err := s.GetByID(context.Background(), g.ID)
		if err != nil || !bytes.Equal(archived.Snapshot, g.Snapshot) || archived.Status != storage.StatusFinished {
			t.Fatalf("%s: archived game: %v", name, err)
		}
		t.Logf("%s: %d actions stored, %d undos, scores %v", name, g.Version, undone, res.Scores)
	}
}

// TestReplayErrorKeepsSecretsOut damages a Crystal Palace game on disk so
// that a secret dice choice in its log no longer replays: neither the
// error nor the log may quote the dice.
func TestReplayErrorKeepsSecretsOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meeple.db")
	s, err := boltdb.Open(path, realGames(t), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := &storage.Game{Kind: "crystalpalace", Guild: "g1", Channel: "c1", Status: storage.StatusRunning,
		Setup: engine.Setup{Players: 2, Seed: 3}, Seats: []storage.Seat{{User: "u1"}, {User: "u2"}}}
	if err := s.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	_, state, err := s.Load(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := state.Apply(0, "dice 6 5 3 1"); err != nil {
		t.Fatal(err)
	}
	snap, err := state.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(context.Background(), "c1", storetest.GuardAt(t, s, "c1", 0), storage.Entry{Seat: 0, Action: "dice 6 5 3 1", At: time.Now()}, snap); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	const secret = "6 6 6 6 6" // five dice for a player who has four
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		log := tx.Bucket([]byte("log"))
		k, v := log.Cursor().First()
		c := storage.NewCodec()
		e, err := c.DecodeEntry("1/0", v)
		if err != nil {
			return err
		}
		e.Action = "dice " + secret // a well-formed record of an action that no longer replays
		if err := log.Put(k, c.EncodeEntry(e)); err != nil {
			return err
		}
		snaps := tx.Bucket([]byte("snapshots"))
		k, v = snaps.Cursor().First()
		return snaps.Put(k, flipByte(v, len(v)-3)) // Load must replay the log
	})
	var logs logBuffer
	if s, err = boltdb.Open(path, realGames(t), boltdb.Options{Logger: newLogger(&logs)}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, _, err = s.Load(context.Background(), "c1")
	var re *storage.ReplayError
	if !errors.As(err, &re) || !re.Secret || re.Index != 0 || !errors.Is(err, engine.ErrIllegalAction) {
		t.Fatalf("load of a game whose secret choice no longer replays: %v", err)
	}
	_, verr := s.Verified(context.Background(), "c1")
	for _, text := range []string{err.Error(), verr.Error(), logs.String()} {
		if strings.Contains(text, secret) || strings.Contains(text, "6 5 3 1") {
			t.Errorf("a secret choice leaks: %s", text)
		}
	}
	mustContain(t, "the error", err.Error(), "replay of action 1", `P1 "dice …", a secret choice`, "illegal action")
}
