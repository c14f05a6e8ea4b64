package bot

import (
	"bytes"
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

// The board's recent events keep at most recentKept events a game and
// their limit of bytes in all, forgetting first the games that moved least
// recently.
func TestRecentEventsAreBoundedByBytes(t *testing.T) {
	r := newRecentEvents()
	event := engine.Event{Kind: "test", Text: engine.Text{ID: "log.test"}}
	per := eventBytes(event)
	r.limit = 90 * per // four and a half games of 20 events
	events := func(n int) []engine.Event {
		var out []engine.Event
		for range n {
			out = append(out, event)
		}
		return out
	}
	kept := func(ch string) int {
		if g := r.games[ch]; g != nil {
			return len(g.events)
		}
		return 0
	}
	r.add("a", events(30))
	if kept("a") != recentKept || r.bytes != recentKept*per {
		t.Fatalf("after 30 events: %d kept, %d bytes", kept("a"), r.bytes)
	}
	for _, ch := range []string{"b", "c", "d", "e"} {
		r.add(ch, events(20))
	}
	// a moved first and went when e came
	if kept("a") != 0 || kept("e") != recentKept || r.bytes > r.limit {
		t.Errorf("a keeps %d, e %d; %d bytes held (limit %d)", kept("a"), kept("e"), r.bytes, r.limit)
	}
	r.add("b", events(1)) // b moved again: c is now the least recent
	r.add("f", events(20))
	if kept("b") == 0 || kept("c") != 0 {
		t.Errorf("b keeps %d, c %d: the least recently moved game should go", kept("b"), kept("c"))
	}
	r.forget("b")
	total := 0
	for _, g := range r.games {
		for _, e := range g.events {
			total += eventBytes(e)
		}
	}
	if total != r.bytes {
		t.Errorf("counted %d bytes, hold %d", r.bytes, total)
	}
}
