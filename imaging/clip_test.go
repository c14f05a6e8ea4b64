package imaging

import (
	"sort"
	"strings"
	"sync"
	"testing"
)

// cutRenderer is a Renderer of its own that records every text it draws
// shortened.
type cutRenderer struct {
	*Renderer
	mu   sync.Mutex
	cuts map[string]bool
}

func newCutRenderer(t *testing.T) *cutRenderer {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	cr := &cutRenderer{Renderer: r, cuts: map[string]bool{}}
	r.cut = func(s string) {
		cr.mu.Lock()
		defer cr.mu.Unlock()
		cr.cuts[s] = true
	}
	return cr
}

// take returns the texts cut since the last call, sorted.
func (cr *cutRenderer) take() []string {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	out := make([]string, 0, len(cr.cuts))
	for s := range cr.cuts {
		out = append(out, s)
	}
	clear(cr.cuts)
	sort.Strings(out)
	return out
}

// No image cuts a text short in any language: every board, glance, mat
// and score sheet of the golden and legibility positions, drawn in
// English, German and French with plain names, shows each of its words
// whole at full size.
func TestNoTextIsCut(t *testing.T) {
	cr := newCutRenderer(t)
	var states []legiblePosition
	for _, p := range positions(t) {
		states = append(states, legiblePosition{p.name, p.play(t)})
	}
	if !testing.Short() {
		states = append(states, legiblePositions(t)...)
	}
	cpr, edr := cpRules(t), edRules(t)
	for _, lang := range catalogue(t).Languages() {
		for _, p := range states {
			rules := edr
			if strings.HasPrefix(p.name, "cp") {
				rules = cpr
			}
			w := wordsIn(t, lang, rules, legibleNames)
			languageImages(t, cr.Renderer, p.state, w)
			if cuts := cr.take(); len(cuts) > 0 {
				t.Errorf("%s %s: cut %q", lang, p.name, cuts)
			}
		}
	}
}
