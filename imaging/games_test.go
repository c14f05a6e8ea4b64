package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/wording"
)

// position is a fixed game state for golden images: a seeded game played by
// random computer players for a number of actions (or to its end, -1).
type position struct {
	name    string
	rules   engine.Rules
	setup   engine.Setup
	actions int
}

// played caches the states positions reach, by name; play hands out clones.
var played sync.Map

// play reaches the position through the engine (once per test binary).
func (p position) play(t testing.TB) engine.State {
	t.Helper()
	if s, ok := played.Load(p.name); ok {
		return s.(engine.State).Clone()
	}
	s := p.playOut(t)
	played.Store(p.name, s)
	return s.Clone()
}

func (p position) playOut(t testing.TB) engine.State {
	t.Helper()
	s, err := p.rules.New(p.setup)
	if err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
	// Random players rarely finish a race; games played to the end use the
	// game's own computer player when it has one.
	var player engine.Player = ai.Random{}
	if p.actions < 0 {
		if h, err := ai.Lookup(p.rules, "heuristic"); err == nil {
			player = h
		}
	}
	players := make([]engine.Player, p.setup.Players)
	for i := range players {
		players[i] = player
	}
	rng := engine.NewRNG(p.setup.Seed)
	max := p.actions
	if max < 0 {
		max = 20000
	}
	out, err := ai.PlayOut(s, players, &rng, max)
	if err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
	if p.actions < 0 && out.Stalled {
		t.Fatalf("%s: the game did not end in %d actions", p.name, max)
	}
	return s
}

func cpRules(t testing.TB) engine.Rules {
	c, err := cp.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return cp.NewRules(c)
}

func edRules(t testing.TB) engine.Rules {
	c, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return eightydays.NewRules(c)
}

// positions are the golden states: Crystal Palace for 2-5 players and
// 80 Days for 2-6, at points chosen to show covered and revealed dice,
// busy boards and finished games.
func positions(t testing.TB) []position {
	cpr, edr := cpRules(t), edRules(t)
	var ps []position
	for n := 2; n <= 5; n++ {
		ps = append(ps, position{fmt.Sprintf("cp%d-midgame", n), cpr, engine.Setup{Players: n, Seed: uint64(10 + n)}, 30 * n})
	}
	ps = append(ps,
		position{"cp4-secret-dice", cpr, engine.Setup{Players: 4, Seed: 7}, 2},
		position{"cp3-end", cpr, engine.Setup{Players: 3, Seed: 3}, -1},
	)
	for n := 2; n <= 6; n++ {
		ps = append(ps, position{fmt.Sprintf("ed%d-midgame", n), edr, engine.Setup{Players: n, Seed: uint64(20 + n)}, 12 * n})
	}
	ps = append(ps,
		position{"ed2-two-pawns", edr, engine.Setup{Players: 2, Seed: 5, Options: map[string]string{"variant": "two-pawns"}}, 30},
		position{"ed4-end", edr, engine.Setup{Players: 4, Seed: 4}, -1},
	)
	return ps
}

// goldenNames are the display names the goldens show, one with a symbol
// the Go fonts lack (drawn from a fallback font).
var goldenNames = []string{"Ada", "Brunel", "Cole ☃", "Dickens", "Eliot", "Faraday"}

func TestGoldenImages(t *testing.T) {
	r := testRenderer(t)
	for _, p := range positions(t) {
		t.Run(p.name, func(t *testing.T) {
			s := p.play(t)
			board, err := r.Board(s.View(engine.Spectator), en(goldenNames))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, p.name+"-board", board)
			glance, err := r.Glance(s.View(engine.Spectator), en(goldenNames))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, p.name+"-glance", glance)
			mats := map[string]int{"cp4-midgame": 2, "cp4-secret-dice": 2, "cp3-end": 1}[p.name]
			for seat := 0; seat < mats; seat++ {
				mat, err := r.Mat(s.View(engine.Seat(seat)), en(goldenNames))
				if err != nil {
					t.Fatal(err)
				}
				checkGolden(t, fmt.Sprintf("%s-mat-p%d", p.name, seat+1), mat)
			}
			if s.Over() {
				scores, err := r.Scores(s.View(engine.Spectator), en(goldenNames))
				if err != nil {
					t.Fatal(err)
				}
				checkGolden(t, p.name+"-scores", scores)
			}
		})
	}
}

// findPosition returns the named golden position.
func findPosition(b testing.TB, name string) position {
	for _, p := range positions(b) {
		if p.name == name {
			return p
		}
	}
	b.Fatalf("no position %q", name)
	return position{}
}

// BenchmarkCrystalPalaceBoard renders and encodes a 4-player board in the
// middle of a game (target: median at most 25 ms, PNG at most 300 KB).
func BenchmarkCrystalPalaceBoard(b *testing.B) {
	s := findPosition(b, "cp4-midgame").play(b)
	benchBoard(b, s.View(engine.Spectator))
}

// BenchmarkCrystalPalaceBoardLayered renders the same board over a cached
// static layer, as a renderer with Options.LayerCache does.
func BenchmarkCrystalPalaceBoardLayered(b *testing.B) {
	s := findPosition(b, "cp4-midgame").play(b)
	benchLayered(b, s.View(engine.Spectator))
}

// BenchmarkCrystalPalaceMat renders and encodes a player's private mat.
func BenchmarkCrystalPalaceMat(b *testing.B) {
	s := findPosition(b, "cp4-midgame").play(b)
	r := testRenderer(b)
	v := s.View(0)
	benchImage(b, func() ([]byte, error) { return r.Mat(v, en(nil)) })
}

// BenchmarkCrystalPalaceScores renders and encodes the final scores.
func BenchmarkCrystalPalaceScores(b *testing.B) {
	s := findPosition(b, "cp3-end").play(b)
	r := testRenderer(b)
	v := s.View(engine.Spectator)
	benchImage(b, func() ([]byte, error) { return r.Scores(v, en(nil)) })
}

// BenchmarkEightyDaysBoard renders and encodes a 6-player board (target:
// at most 10 ms).
func BenchmarkEightyDaysBoard(b *testing.B) {
	s := findPosition(b, "ed6-midgame").play(b)
	benchBoard(b, s.View(engine.Spectator))
}

// BenchmarkEightyDaysBoardLayered renders the same board over a cached
// static layer.
func BenchmarkEightyDaysBoardLayered(b *testing.B) {
	s := findPosition(b, "ed6-midgame").play(b)
	benchLayered(b, s.View(engine.Spectator))
}

// BenchmarkCrystalPalaceGlance renders and encodes the glance posted with
// a 5-player board message, the most rows it has (target: at most 8 ms
// and 100 KB).
func BenchmarkCrystalPalaceGlance(b *testing.B) {
	s := findPosition(b, "cp5-midgame").play(b)
	r := testRenderer(b)
	v := s.View(engine.Spectator)
	benchImage(b, func() ([]byte, error) { return r.Glance(v, en(goldenNames)) })
}

// BenchmarkEightyDaysGlance renders and encodes the glance of a 6-player
// game (target: at most 5 ms).
func BenchmarkEightyDaysGlance(b *testing.B) {
	s := findPosition(b, "ed6-midgame").play(b)
	r := testRenderer(b)
	v := s.View(engine.Spectator)
	benchImage(b, func() ([]byte, error) { return r.Glance(v, en(goldenNames)) })
}

// Every seat's own view, secrets included, draws the spectator's board:
// posting any seat's board publicly leaks nothing.
func TestBoardsAreTheSameForEverySeat(t *testing.T) {
	r := testRenderer(t)
	for _, name := range []string{"cp4-secret-dice", "cp4-midgame", "ed4-midgame"} {
		s := findPosition(t, name).play(t)
		want, err := r.Board(s.View(engine.Spectator), en(goldenNames))
		if err != nil {
			t.Fatal(err)
		}
		for seat := 0; seat < s.Players(); seat++ {
			got, err := r.Board(s.View(engine.Seat(seat)), en(goldenNames))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: P%d's board differs from the spectator's", name, seat+1)
			}
		}
	}
}

// goldenLanguages are the positions drawn in German and French too: a
// board of each game with its glance, a private mat and score sheets.
var goldenLanguages = []string{"cp4-midgame", "cp3-end", "ed4-midgame", "ed4-end"}

// The goldens in German and French: every label from the catalogues, the
// content's names in the language.
func TestGoldenImagesInGermanAndFrench(t *testing.T) {
	r := testRenderer(t)
	for _, lang := range []string{"de", "fr"} {
		for _, name := range goldenLanguages {
			p := findPosition(t, name)
			t.Run(lang+"/"+name, func(t *testing.T) {
				s := p.play(t)
				w := wordsIn(t, lang, p.rules, goldenNames)
				for _, img := range languageImages(t, r, s, w) {
					checkGolden(t, lang+"-"+name+"-"+img.name, img.png)
				}
			})
		}
	}
}

// namedPNG is an image drawn for a test and what it shows.
type namedPNG struct {
	name string
	png  []byte
}

// languageImages draws every image of a state in w's words: the board,
// the glance, the first seat's mat where the game has mats, and the
// scores once the game is over.
func languageImages(t *testing.T, r *Renderer, s engine.State, w *wording.Words) []namedPNG {
	t.Helper()
	public := s.View(engine.Spectator)
	var out []namedPNG
	for _, draw := range []struct {
		name string
		fn   func() ([]byte, error)
	}{
		{"board", func() ([]byte, error) { return r.Board(public, w) }},
		{"glance", func() ([]byte, error) { return r.Glance(public, w) }},
		{"mat", func() ([]byte, error) { return r.Mat(s.View(0), w) }},
		{"scores", func() ([]byte, error) { return r.Scores(public, w) }},
	} {
		if draw.name == "scores" && !s.Over() {
			continue
		}
		png, err := draw.fn()
		if errors.Is(err, ErrNoMat) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", draw.name, err)
		}
		out = append(out, namedPNG{draw.name, png})
	}
	return out
}
