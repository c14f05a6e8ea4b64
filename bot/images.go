package bot

import (
	"runtime"
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// images renders board images with bounded concurrency (one CPU is left
// to interactions: rendering is CPU-bound, and more renders at once only
// add memory and latency) and remembers the latest glance and full board
// of each game, so that asking for either again before anyone acts costs
// nothing.
type images struct {
	r     Renderer
	slots chan struct{}

	mu     sync.Mutex
	boards map[imageKey]cachedImage
}

// imageKey names a game's cached image: its glance or its full board.
type imageKey struct {
	game uint64
	full bool
}

type cachedImage struct {
	version int
	png     []byte
}

// maxCachedBoards bounds the cache; past it an arbitrary entry goes.
const maxCachedBoards = 512

func newImages(r Renderer) *images {
	return &images{r: r, slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1)), boards: map[imageKey]cachedImage{}}
}

// board returns the full public board image of g at its current version.
func (im *images) board(g *storage.Game, st engine.State) ([]byte, error) {
	return im.cached(imageKey{g.ID, true}, g.Version, func() ([]byte, error) {
		return im.r.Board(st.View(engine.Spectator), seatNames(g))
	})
}

// glance returns the glance of g at its current version.
func (im *images) glance(g *storage.Game, st engine.State) ([]byte, error) {
	return im.cached(imageKey{g.ID, false}, g.Version, func() ([]byte, error) {
		return im.r.Glance(st.View(engine.Spectator), seatNames(g))
	})
}

// cached returns the image under k drawn at version, drawing it when the
// cache holds an older one.
func (im *images) cached(k imageKey, version int, draw func() ([]byte, error)) ([]byte, error) {
	im.mu.Lock()
	c, ok := im.boards[k]
	im.mu.Unlock()
	if ok && c.version == version {
		return c.png, nil
	}
	png, err := im.render(draw)
	if err != nil {
		return nil, err
	}
	im.mu.Lock()
	defer im.mu.Unlock()
	if old, ok := im.boards[k]; !ok || old.version <= version {
		if !ok && len(im.boards) >= maxCachedBoards {
			for id := range im.boards {
				delete(im.boards, id)
				break
			}
		}
		im.boards[k] = cachedImage{version: version, png: png}
	}
	return png, nil
}

// render runs one render when a slot is free.
func (im *images) render(draw func() ([]byte, error)) ([]byte, error) {
	im.slots <- struct{}{}
	defer func() { <-im.slots }()
	return draw()
}

// forget drops a game's cached images.
func (im *images) forget(id uint64) {
	im.mu.Lock()
	defer im.mu.Unlock()
	delete(im.boards, imageKey{id, false})
	delete(im.boards, imageKey{id, true})
}
