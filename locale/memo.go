package locale

import "sync"

// A message is written by executing its template, which costs dozens of
// allocations; the game images write the same card effects and labels on
// every render. A Catalogue therefore remembers what it wrote for
// arguments that are plain values (strings, integers, booleans), in a
// table that starts again empty when it holds maxMemo messages.
const maxMemo = 8192

// memoArgs is how many arguments (names and values) a remembered message
// may have.
const memoArgs = 16

type memoKey struct {
	lang, id string
	n        int
	args     [memoArgs]memoArg
}

// memoArg is a plain argument: a string, or an integer of kind k.
type memoArg struct {
	s string
	i int64
	k uint8
}

// Kinds of memoArg.
const (
	argString uint8 = iota + 1
	argInt
	argBool
	argUint
)

// memo is a Catalogue's table of written messages.
type memo struct {
	mu sync.RWMutex
	m  map[memoKey]string
}

// memoKeyOf returns the key of a message, and false when an argument is not a
// plain value (its text could change while the key stays the same).
func memoKeyOf(lang, id string, args []any) (memoKey, bool) {
	k := memoKey{lang: lang, id: id, n: len(args)}
	if len(args) > memoArgs {
		return k, false
	}
	for i, a := range args {
		var m memoArg
		switch v := a.(type) {
		case string:
			m = memoArg{s: v, k: argString}
		case int:
			m = memoArg{i: int64(v), k: argInt}
		case int64:
			m = memoArg{i: v, k: argInt}
		case int32:
			m = memoArg{i: int64(v), k: argInt}
		case uint8:
			m = memoArg{i: int64(v), k: argUint}
		case bool:
			m = memoArg{k: argBool}
			if v {
				m.i = 1
			}
		default:
			return k, false
		}
		k.args[i] = m
	}
	return k, true
}

func (m *memo) get(k memoKey) (string, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s, ok := m.m[k]
	return s, ok
}

func (m *memo) put(k memoKey, s string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= maxMemo {
		m.m = make(map[memoKey]string)
	}
	m.m[k] = s
}
