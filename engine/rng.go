package engine

import "math/bits"

// RNG is a small, fast, seedable random number generator (wyrand) whose whole
// state is one exported number, so it serialises with the game state and a
// replay draws exactly the same numbers. The zero value is usable.
type RNG struct {
	State uint64 `json:"state"`
}

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) RNG { return RNG{State: seed} }

// Uint64 returns the next pseudo-random number.
func (r *RNG) Uint64() uint64 {
	r.State += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(r.State, r.State^0xe7037ed1a0b428db)
	return hi ^ lo
}

// Intn returns a uniform number in [0, n). It returns 0 when n <= 0.
func (r *RNG) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	bound := uint64(n)
	threshold := -bound % bound // 2^64 mod n: reject the biased low results
	for {
		hi, lo := bits.Mul64(r.Uint64(), bound)
		if lo >= threshold {
			return int(hi)
		}
	}
}

// Shuffle puts n elements in random order, calling swap to exchange two.
func (r *RNG) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.Intn(i+1))
	}
}
