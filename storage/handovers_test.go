package storage_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

func TestHandoversNudgesAndTheWholeArchive(t *testing.T) {
	path := t.TempDir() + "/m.db"
	s := openStore(t, path, storage.Options{})
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	newRace(t, s, "g1", "c1", 2, "50")
	play(t, s, "c1")
	h := storage.Handover{Seat: 1, From: storage.Seat{User: "u2"}, To: storage.Seat{User: "u9", Name: "Nine"}, By: "u1", At: at}
	if _, err := s.Update("c1", func(g *storage.Game) error {
		g.Seats[1] = h.To
		g.Handovers = append(g.Handovers, h)
		g.Nudged = at
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for name, fn := range map[string]func(g *storage.Game) error{
		"a handover of a seat the game lacks": func(g *storage.Game) error {
			g.Handovers = append(g.Handovers, storage.Handover{Seat: 5})
			return nil
		},
		"a handover forgotten": func(g *storage.Game) error { g.Handovers = nil; return nil },
	} {
		if _, err := s.Update("c1", fn); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := s.Finish("c1", 1, storage.StatusFinished, &engine.Result{Over: true, Scores: []int{3, 5}, Winners: []engine.Seat{1}}); err != nil {
		t.Fatal(err)
	}
	newRace(t, s, "g2", "c2", 2, "50")
	play(t, s, "c2")
	if _, err := s.Finish("c2", 1, storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	newRace(t, s, "g1", "c3", 2, "50") // active: not in the archive
	// a game in a thread keeps its parent channel
	if err := s.Create(&storage.Game{Kind: "race", Guild: "g1", Channel: "t9", Parent: "c1", Status: storage.StatusLobby,
		Setup: raceSetup(2), Seats: []storage.Seat{{User: "u1"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update("t9", func(g *storage.Game) error { g.Parent = "c2"; return nil }); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("moving a game to another parent: %v", err)
	}
	s.Close()

	s = openStore(t, path, storage.Options{}) // the records survive a restart
	all, err := s.Archive(0, 0)
	if err != nil || len(all) != 2 || all[0].Channel != "c1" || all[1].Channel != "c2" {
		t.Fatalf("archive: %v, %v", channels(all), err)
	}
	g := all[0]
	if len(g.Handovers) != 1 || g.Handovers[0] != h || !g.Nudged.Equal(at) || g.Seats[1].User != "u9" {
		t.Fatalf("archived game: handovers %+v nudged %v seats %+v", g.Handovers, g.Nudged, g.Seats)
	}
	if page, _ := s.Archive(all[0].ID, 1); len(page) != 1 || page[0].ID != all[1].ID {
		t.Fatalf("the page after the first game: %v", channels(page))
	}
	if g, err := s.Get("t9"); err != nil || g.Parent != "c1" {
		t.Fatalf("the thread's game after a restart: %+v %v", g, err)
	}
	if page, _ := s.Archive(all[1].ID, 0); len(page) != 0 {
		t.Fatalf("past the last game: %v", channels(page))
	}
}

// BenchmarkArchive reads a whole archive of 1,000 finished games of 20
// actions, a page of 500 at a time, as ratings do for every leaderboard.
func BenchmarkArchive(b *testing.B) {
	path := buildLargeStore(b, 1000, 20, false)
	s := openStore(b, path, storage.Options{})
	for i := 1; i <= 1000; i++ {
		ch := "c" + strconv.Itoa(i)
		if _, err := s.Finish(ch, 20, storage.StatusFinished, &engine.Result{Over: true, Scores: []int{1, 2}, Winners: []engine.Seat{1}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for after := uint64(0); ; {
			page, err := s.Archive(after, 500)
			if err != nil {
				b.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			n += len(page)
			after = page[len(page)-1].ID
		}
		if n != 1000 {
			b.Fatalf("%d games", n)
		}
	}
}
