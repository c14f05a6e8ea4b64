package imaging

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

var worldOut = flag.String("world-out", "", "write the boards with names in many scripts to this folder")

// worldNames are display names in several scripts, with emoji sequences,
// a flag and a combining accent.
var worldNames = []string{"Ada 🎲", "李雷", "e\u0301lodie", "محمد", "שרה", "🇫🇷 Zoé", "👩‍👩‍👧 fam"}

// Boards draw names in any script: every seat name is laid out with no
// missing glyph, and the boards render (look at them with -world-out).
func TestBoardsWithWorldNames(t *testing.T) {
	r := testRenderer(t)
	fs := newFaceSet(r.fonts)
	for _, n := range r.seatNames(en(worldNames), len(worldNames)) {
		if m := fs.set.Missing(n); len(m) > 0 {
			t.Errorf("%q: missing glyphs for %q", n, m)
		}
	}
	for _, name := range []string{"cp4-midgame", "cp5-midgame", "ed6-midgame", "cp3-end"} {
		s := findPosition(t, name).play(t)
		board, err := r.Board(s.View(engine.Spectator), en(worldNames))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := r.Board(s.View(engine.Spectator), en(nil))
		if err != nil {
			t.Fatal(err)
		}
		if string(board) == string(plain) {
			t.Errorf("%s: the names changed nothing on the board", name)
		}
		if *worldOut != "" {
			if err := os.WriteFile(filepath.Join(*worldOut, name+"-world.png"), board, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The board benchmarks again, with names in many scripts.
func BenchmarkCrystalPalaceBoardWorldNames(b *testing.B) {
	s := findPosition(b, "cp4-midgame").play(b)
	r := testRenderer(b)
	v := s.View(engine.Spectator)
	benchImage(b, func() ([]byte, error) { return r.Board(v, en(worldNames)) })
}

func BenchmarkEightyDaysBoardWorldNames(b *testing.B) {
	s := findPosition(b, "ed6-midgame").play(b)
	r := testRenderer(b)
	v := s.View(engine.Spectator)
	benchImage(b, func() ([]byte, error) { return r.Board(v, en(worldNames)) })
}
