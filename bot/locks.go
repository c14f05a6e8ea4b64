package bot

import (
	"hash/maphash"
	"sync"
)

// lockPool serialises work on one game: a fixed set of mutexes striped by
// channel id, so memory stays bounded however many games exist. Two games
// may share a stripe, which only costs them some waiting.
type lockPool struct {
	seed    maphash.Seed
	stripes [256]sync.Mutex
}

func newLockPool() *lockPool { return &lockPool{seed: maphash.MakeSeed()} }

// lock locks channel's stripe and returns its unlock function.
func (p *lockPool) lock(channel string) func() {
	m := &p.stripes[maphash.String(p.seed, channel)%uint64(len(p.stripes))]
	m.Lock()
	return m.Unlock
}

// with runs fn with channel's stripe locked; the lock is released even
// when fn panics.
func (p *lockPool) with(channel string, fn func() error) error {
	defer p.lock(channel)()
	return fn()
}
