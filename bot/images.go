package bot

import (
	"runtime"
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// images renders board images with bounded concurrency (one CPU is left
// to interactions: rendering is CPU-bound, and more renders at once only
// add memory and latency) and remembers the latest board of each game, so that asking for
// the board again before anyone acts costs nothing.
type images struct {
	r     Renderer
	slots chan struct{}

	mu     sync.Mutex
	boards map[uint64]cachedImage // by game id
}

type cachedImage struct {
	version int
	png     []byte
}

// maxCachedBoards bounds the cache; past it an arbitrary entry goes.
const maxCachedBoards = 512

func newImages(r Renderer) *images {
	return &images{r: r, slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1)), boards: map[uint64]cachedImage{}}
}

// board returns the public board image of g at its current version.
func (im *images) board(g *storage.Game, st engine.State) ([]byte, error) {
	im.mu.Lock()
	c, ok := im.boards[g.ID]
	im.mu.Unlock()
	if ok && c.version == g.Version {
		return c.png, nil
	}
	png, err := im.render(func() ([]byte, error) { return im.r.Board(st.View(engine.Spectator), seatNames(g)) })
	if err != nil {
		return nil, err
	}
	im.mu.Lock()
	defer im.mu.Unlock()
	if old, ok := im.boards[g.ID]; !ok || old.version <= g.Version {
		if !ok && len(im.boards) >= maxCachedBoards {
			for id := range im.boards {
				delete(im.boards, id)
				break
			}
		}
		im.boards[g.ID] = cachedImage{version: g.Version, png: png}
	}
	return png, nil
}

// render runs one render when a slot is free.
func (im *images) render(draw func() ([]byte, error)) ([]byte, error) {
	im.slots <- struct{}{}
	defer func() { <-im.slots }()
	return draw()
}

// forget drops a game's cached board.
func (im *images) forget(id uint64) {
	im.mu.Lock()
	defer im.mu.Unlock()
	delete(im.boards, id)
}
