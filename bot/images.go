package bot

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// images renders board images with bounded concurrency (one CPU is left
// to interactions: rendering is CPU-bound, and more renders at once only
// add memory and latency) and remembers the latest glance and full board
// of recently drawn games, so that asking for either again before anyone
// acts costs nothing. The cache holds at most maxCachedImageBytes of PNG;
// past it the least recently used image goes.
type images struct {
	r     Renderer
	slots chan struct{}

	mu     sync.Mutex
	boards map[imageKey]*cachedImage
	bytes  int    // the PNG bytes in boards
	limit  int    // the most bytes may reach
	uses   uint64 // a clock for the least recently used
}

// imageKey names a game's cached image: its glance or its full board, in
// a language.
type imageKey struct {
	game uint64
	full bool
	lang string
}

type cachedImage struct {
	version int
	png     []byte
	used    uint64 // when it was last used, by images.uses
}

// maxCachedImageBytes bounds the image cache: some 100 glances (30-40 KB
// each) or 25 full boards (80-160 KB). An image is worth keeping while
// people look at the game it shows; a game nobody acts in is drawn again
// when next asked for.
const maxCachedImageBytes = 4 << 20

func newImages(r Renderer) *images {
	return &images{r: r, slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1)), boards: map[imageKey]*cachedImage{}, limit: maxCachedImageBytes}
}

// board returns the full public board image of g at its current version,
// in w's words.
func (im *images) board(g *storage.Game, st engine.State, w *wording.Words) ([]byte, error) {
	return im.cached(imageKey{g.ID, true, w.Lang()}, g.Version, func() ([]byte, error) {
		return im.r.Board(st.View(engine.Spectator), w)
	})
}

// glance returns the glance of g at its current version, in w's words.
func (im *images) glance(g *storage.Game, st engine.State, w *wording.Words) ([]byte, error) {
	return im.cached(imageKey{g.ID, false, w.Lang()}, g.Version, func() ([]byte, error) {
		return im.r.Glance(st.View(engine.Spectator), w)
	})
}

// cached returns the image under k drawn at version, drawing it when the
// cache holds an older one.
func (im *images) cached(k imageKey, version int, draw func() ([]byte, error)) ([]byte, error) {
	im.mu.Lock()
	c, ok := im.boards[k]
	if ok && c.version == version {
		im.uses++
		c.used = im.uses
		im.mu.Unlock()
		return c.png, nil
	}
	im.mu.Unlock()
	png, err := im.render(draw)
	if err != nil {
		return nil, err
	}
	im.mu.Lock()
	defer im.mu.Unlock()
	if old, ok := im.boards[k]; ok {
		if old.version > version {
			return png, nil // a newer one came meanwhile
		}
		im.drop(k)
	}
	if len(png) > im.limit {
		return png, nil
	}
	if cap(png) > len(png)+len(png)/8 {
		png = bytes.Clone(png) // the encoder's buffer is larger than its PNG
	}
	for im.bytes+len(png) > im.limit {
		im.dropLeastRecent()
	}
	im.uses++
	im.boards[k] = &cachedImage{version: version, png: png, used: im.uses}
	im.bytes += len(png)
	return png, nil
}

// drop forgets the image under k; im.mu is held.
func (im *images) drop(k imageKey) {
	if c, ok := im.boards[k]; ok {
		im.bytes -= len(c.png)
		delete(im.boards, k)
	}
}

// dropLeastRecent forgets the least recently used image; im.mu is held.
// A scan of the map is cheap beside the render that precedes it.
func (im *images) dropLeastRecent() {
	var oldest imageKey
	var at uint64
	first := true
	for k, c := range im.boards {
		if first || c.used < at {
			oldest, at, first = k, c.used, false
		}
	}
	im.drop(oldest)
}

// render runs one render when a slot is free.
func (im *images) render(draw func() ([]byte, error)) ([]byte, error) {
	im.slots <- struct{}{}
	defer func() { <-im.slots }()
	return draw()
}

// forget drops a game's cached images, in every language.
func (im *images) forget(id uint64) {
	im.mu.Lock()
	defer im.mu.Unlock()
	for k := range im.boards {
		if k.game == id {
			im.drop(k)
		}
	}
}
