package bot

import (
	"bytes"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// The image cache holds at most its bytes of PNG, drops the least recently
// used image first, and draws again only what it dropped or what is older
// than the game.
func TestImageCacheIsBoundedByBytes(t *testing.T) {
	im := newImages(nil)
	im.limit = 10_000
	draws := 0
	image := func(size int) func() ([]byte, error) {
		return func() ([]byte, error) {
			draws++
			return bytes.Repeat([]byte{byte(size)}, size), nil
		}
	}
	get := func(game uint64, version, size int) {
		t.Helper()
		png, err := im.cached(imageKey{game: game}, version, image(size))
		if err != nil || len(png) != size {
			t.Fatalf("game %d: %d bytes, %v", game, len(png), err)
		}
	}
	for game := range uint64(4) {
		get(game, 1, 3_000) // 12,000 bytes asked for: game 0 goes
	}
	if draws != 4 || im.bytes != 9_000 || len(im.boards) != 3 {
		t.Fatalf("after 4 images of 3,000 bytes: %d draws, %d bytes in %d images", draws, im.bytes, len(im.boards))
	}
	get(1, 1, 3_000) // cached: game 1 is now the most recent
	get(4, 1, 3_000) // game 2 goes, not game 1
	if draws != 5 {
		t.Errorf("a cached image was drawn again: %d draws", draws)
	}
	if _, ok := im.boards[imageKey{game: 2}]; ok {
		t.Error("the least recently used image stayed")
	}
	if _, ok := im.boards[imageKey{game: 1}]; !ok {
		t.Error("a recently used image went")
	}
	get(1, 2, 5_000) // a new version replaces the old one
	if im.bytes > im.limit || im.boards[imageKey{game: 1}].version != 2 {
		t.Errorf("%d bytes cached (limit %d); game 1 at version %d", im.bytes, im.limit, im.boards[imageKey{game: 1}].version)
	}
	get(9, 1, 20_000) // over the whole limit: drawn, not kept
	if _, ok := im.boards[imageKey{game: 9}]; ok || im.bytes > im.limit {
		t.Errorf("an image over the limit was kept: %d bytes", im.bytes)
	}
	im.forget(1)
	total := 0
	for _, c := range im.boards {
		total += len(c.png)
	}
	if total != im.bytes {
		t.Errorf("the cache counts %d bytes but holds %d", im.bytes, total)
	}
}

// The board's recent events keep at most recentKept texts a game and their
// limit of bytes in all, forgetting first the games that moved least
// recently.
func TestRecentEventsAreBoundedByBytes(t *testing.T) {
	r := newRecentEvents()
	r.limit = 900
	text := func(n int) []engine.Event {
		var out []engine.Event
		for range n {
			out = append(out, engine.Event{Text: strings.Repeat("x", 10)})
		}
		return out
	}
	r.add("a", text(30)) // 20 kept: 200 bytes
	if got := r.last("a", 100); len(got) != recentKept || r.bytes != 200 {
		t.Fatalf("after 30 events: %d kept, %d bytes", len(got), r.bytes)
	}
	for _, ch := range []string{"b", "c", "d", "e"} {
		r.add(ch, text(20))
	}
	// a moved first and went when e came
	if len(r.last("a", 100)) != 0 || len(r.last("e", 100)) != recentKept || r.bytes > r.limit {
		t.Errorf("a keeps %d, e %d; %d bytes held (limit %d)", len(r.last("a", 100)), len(r.last("e", 100)), r.bytes, r.limit)
	}
	r.add("b", text(1)) // b moved again: c is now the least recent
	r.add("f", text(20))
	if len(r.last("b", 100)) == 0 || len(r.last("c", 100)) != 0 {
		t.Errorf("b keeps %d, c %d: the least recently moved game should go", len(r.last("b", 100)), len(r.last("c", 100)))
	}
	r.forget("b")
	total := 0
	for _, g := range r.games {
		for _, s := range g.text {
			total += len(s)
		}
	}
	if total != r.bytes {
		t.Errorf("counted %d bytes, hold %d", r.bytes, total)
	}
}
