package typeset

// budget is a map that holds at most about limit bytes of values (as its
// callers estimate them); past that it starts again empty. Lines, masks
// and pictures a board needs are few and redone in microseconds, so a
// full restart costs less than tracking recency.
type budget[K comparable, V any] struct {
	m     map[K]V
	used  int
	limit int
}

func newBudget[K comparable, V any](limit int) budget[K, V] {
	return budget[K, V]{m: map[K]V{}, limit: limit}
}

func (b *budget[K, V]) get(k K) (V, bool) {
	v, ok := b.m[k]
	return v, ok
}

// put stores v under k, counting size bytes for it.
func (b *budget[K, V]) put(k K, v V, size int) {
	if b.used+size > b.limit {
		clear(b.m)
		b.used = 0
	}
	b.m[k] = v
	b.used += size
}
