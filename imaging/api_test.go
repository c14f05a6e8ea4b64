package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"sync"
	"testing"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
)

func TestRefusesWhatItCannotDraw(t *testing.T) {
	r := testRenderer(t)
	cpView := fakeCPView(t, 3, 2)
	spectator := *cpView
	spectator.Private = nil
	for _, tc := range []struct {
		name string
		call func() ([]byte, error)
		want error
	}{
		{"board of a string", func() ([]byte, error) { return r.Board("board", en(nil)) }, ErrUnsupportedView},
		{"board of nil", func() ([]byte, error) { return r.Board(nil, en(nil)) }, ErrUnsupportedView},
		{"nil 80 Days view", func() ([]byte, error) { return r.Board((*eightydays.View)(nil), en(nil)) }, ErrUnsupportedView},
		{"nil Crystal Palace view", func() ([]byte, error) { return r.Board((*cp.View)(nil), en(nil)) }, ErrUnsupportedView},
		{"80 Days without a track", func() ([]byte, error) {
			return r.Board(&eightydays.View{Players: []eightydays.PlayerView{{}, {}}}, en(nil))
		}, ErrUnsupportedView},
		{"80 Days with seven players", func() ([]byte, error) {
			return r.Board(&eightydays.View{Players: make([]eightydays.PlayerView, 7), Track: fakeTrack()}, en(nil))
		}, ErrUnsupportedView},
		{"Crystal Palace seats disagree", func() ([]byte, error) {
			v := *cpView
			v.Players = 4
			return r.Board(&v, en(nil))
		}, ErrUnsupportedView},
		{"mat of a spectator", func() ([]byte, error) { return r.Mat(&spectator, en(nil)) }, ErrNoMat},
		{"mat in 80 Days", func() ([]byte, error) { return r.Mat(fakeEightyDays(4), en(nil)) }, ErrNoMat},
		{"scores of an int", func() ([]byte, error) { return r.Scores(42, en(nil)) }, ErrUnsupportedView},
	} {
		got, err := tc.call()
		if !errors.Is(err, tc.want) || got != nil {
			t.Errorf("%s: got %d bytes, %v; want %v", tc.name, len(got), err, tc.want)
		}
	}
}

// The public board is drawn from public parts of the view only: a seat's
// own view, holding its secret dice, draws exactly the spectator's board.
func TestBoardShowsNoSecret(t *testing.T) {
	r := testRenderer(t)
	own := fakeCPView(t, 4, 1)
	if own.Private == nil || len(own.Private.Dice) == 0 {
		t.Fatal("fixture has no private dice")
	}
	spectator := *own
	spectator.Private = nil
	spectator.Viewer = engine.Spectator
	a, err := r.Board(own, en(nil))
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Board(&spectator, en(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("the board of a seat's own view differs from the spectator's board")
	}
}

func TestConcurrentRendersAgree(t *testing.T) {
	r := testRenderer(t)
	views := []any{fakeCPView(t, 4, 3), fakeEightyDays(6), fakeCPView(t, 2, 1), fakeEightyDays(2)}
	want := make([][]byte, len(views))
	for i, v := range views {
		var err error
		if want[i], err = r.Board(v, en(nil)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 3; k++ {
				i := (g + k) % len(views)
				got, err := r.Board(views[i], en(nil))
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(got, want[i]) {
					errs <- errors.New("a concurrent render differs from the sequential one")
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestImagesAreSmallPNGs(t *testing.T) {
	r := testRenderer(t)
	for name, v := range map[string]any{"cp5": fakeCPView(t, 5, 3), "ed6": fakeEightyDays(6)} {
		b, err := r.Board(v, en(nil))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", name, err)
		}
		if len(b) > 300<<10 {
			t.Errorf("%s: %d bytes, want at most 300 KB", name, len(b))
		}
		if cfg.Width > 1600 || cfg.Height > 1800 {
			t.Errorf("%s: %dx%d, too big to read on a phone", name, cfg.Width, cfg.Height)
		}
	}
}

func TestSeatNames(t *testing.T) {
	r := testRenderer(t)
	got := r.seatNames(en([]string{"alice", "", "\x07bob\u2603", "a very long display name indeed",
		"🎲🎲🎲🎲🎲🎲🎲🎲👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧", "e\u0301lodie", "\u202eמשה", ""}), 9)
	want := []string{"alice", "P2", "bob☃", "a very long disp…", "🎲🎲🎲🎲🎲🎲🎲🎲👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧…",
		"élodie", "\u2068משה\u2069", "P8", "P9"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("seatNames[%d] = %q, want %q", i, got[i], want[i])
		}
	}
}

// Frames are reused over a background; what one render drew must not show
// through in the next.
func TestReusedFramesForgetEarlierRenders(t *testing.T) {
	r := testRenderer(t)
	busy, quiet := fakeCPView(t, 3, 3), fakeCPView(t, 3, 1)
	first, err := r.Board(quiet, en(nil))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := r.Board(busy, en(nil)); err != nil {
			t.Fatal(err)
		}
	}
	again, err := r.Board(quiet, en(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again) {
		t.Error("a board drawn after another differs from the same board drawn first")
	}
}

// The background cache stays within its bytes however many layouts pass
// through it, each drawn twice (the second time caches it), and a layout
// dropped from it draws the same again.
func TestBackgroundCacheIsBounded(t *testing.T) {
	r, err := NewWith(Options{LayerCache: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	first := fakeEightyDays(3)
	want, err := r.Board(first, en(nil))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		v := fakeEightyDays(3)
		v.Track[6].City = fmt.Sprintf("Paris %d", i) // a layout of its own
		for range 2 {
			if _, err := r.Board(v, en(nil)); err != nil {
				t.Fatal(err)
			}
		}
		r.bgMu.Lock()
		n, held := len(r.bgs), r.bgBytes
		r.bgMu.Unlock()
		if n == 0 || held > 32<<20 {
			t.Fatalf("after %d layouts: %d backgrounds cached in %d bytes, want at least one and at most %d bytes", i+1, n, held, 32<<20)
		}
	}
	got, err := r.Board(first, en(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("a board drawn again after its layout left the cache differs")
	}
}

// A board is the same image whether its layout is cached or not: drawn
// from scratch (the first time, or with no room in the cache) or over the
// cached background.
func TestBoardsAreTheSameWithoutTheCache(t *testing.T) {
	cached, err := NewWith(Options{LayerCache: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	bare, err := New() // no layers cached, the default
	if err != nil {
		t.Fatal(err)
	}
	bare.pieceLimit = 0
	for _, v := range []any{fakeEightyDays(3), fakeEightyDays(6), fakeCPView(t, 4, 3)} {
		var want []byte
		for range 3 { // the first draws from scratch, the second caches, the third reuses
			if want, err = cached.Board(v, en(nil)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := bare.Board(v, en(nil))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%T: the board drawn without the cache differs from the one over the cached background", v)
		}
	}
	if len(cached.bgs) == 0 || len(bare.bgs) != 0 || len(bare.pieces) != 0 {
		t.Errorf("backgrounds cached: %d with room, %d (and %d parts) without", len(cached.bgs), len(bare.bgs), len(bare.pieces))
	}
}

func TestViewsByValueDrawLikePointers(t *testing.T) {
	r := testRenderer(t)
	ed, cpv := fakeEightyDays(3), fakeCPView(t, 3, 3)
	for _, pair := range [][2]any{{ed, *ed}, {cpv, *cpv}} {
		byPointer, err := r.Board(pair[0], en(nil))
		if err != nil {
			t.Fatal(err)
		}
		byValue, err := r.Board(pair[1], en(nil))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(byPointer, byValue) {
			t.Errorf("%T: the board of the value differs from the pointer's", pair[1])
		}
	}
	if _, err := r.Mat(*cpv, en(nil)); err != nil {
		t.Errorf("Mat of a view value: %v", err)
	}
	if _, err := r.Scores(*ed, en(nil)); err != nil {
		t.Errorf("Scores of a view value: %v", err)
	}
}

// Drawn again, a Crystal Palace board of any player count paints none of
// its location panels: the panel cache holds a whole board's, however tall
// its rows.
func TestBoardPanelsStayCached(t *testing.T) {
	for _, name := range []string{"cp2-midgame", "cp4-midgame", "cp5-midgame"} {
		r, err := New()
		if err != nil {
			t.Fatal(err)
		}
		v := findPosition(t, name).play(t).View(engine.Spectator)
		for range 2 {
			if _, err := r.Board(v, en(nil)); err != nil {
				t.Fatal(err)
			}
		}
		r.bgMu.Lock()
		n, held := len(r.pieces), r.pieceBytes
		r.bgMu.Unlock()
		if want := len(v.(*cp.View).Locations); n != want {
			t.Errorf("%s: %d panels cached (%d bytes), want all %d", name, n, held, want)
		}
	}
}
