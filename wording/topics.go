package wording

import (
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// Topic finds the rules topic a reader typed among topics: by its name
// ("phase 3", the same in every language), by its title in the reader's
// language ("Kredite"), else the one topic whose name or title holds what
// was typed ("museum"). Case and spacing do not matter. It reports false
// when nothing was typed, nothing matches, or several topics hold it
// ("london": the London Times and the Port of London).
func (w *Words) Topic(topics []engine.Topic, typed string) (engine.Topic, bool) {
	key := spaced(typed)
	if key == "" {
		return engine.Topic{}, false
	}
	for _, t := range topics {
		if t.Name == key {
			return t, true
		}
	}
	titles := make([]string, len(topics))
	for i, t := range topics {
		if titles[i] = spaced(w.Say(t.Title)); titles[i] == key {
			return t, true
		}
	}
	found := -1
	for i, t := range topics {
		if strings.Contains(t.Name, key) || strings.Contains(titles[i], key) {
			if found >= 0 {
				return engine.Topic{}, false
			}
			found = i
		}
	}
	if found < 0 {
		return engine.Topic{}, false
	}
	return topics[found], true
}

// spaced is text in lower case with every run of spaces (a French narrow
// no-break space too) one plain space, as topics are compared.
func spaced(text string) string { return strings.ToLower(strings.Join(strings.Fields(text), " ")) }
