package table

import (
	"hash/maphash"
	"sync"
)

// Locks serialises work on one game: a fixed set of mutexes striped by
// channel id, so memory stays bounded however many games exist. Two games
// may share a stripe, which only costs them some waiting.
type Locks struct {
	seed    maphash.Seed
	stripes [256]sync.Mutex
}

// NewLocks returns a pool of unlocked stripes.
func NewLocks() *Locks { return &Locks{seed: maphash.MakeSeed()} }

// Lock locks channel's stripe and returns its unlock function.
func (p *Locks) Lock(channel string) func() {
	m := &p.stripes[maphash.String(p.seed, channel)%uint64(len(p.stripes))]
	m.Lock()
	return m.Unlock
}

// With runs fn with channel's stripe locked; the lock is released even
// when fn panics.
func (p *Locks) With(channel string, fn func() error) error {
	defer p.Lock(channel)()
	return fn()
}
