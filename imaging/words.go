package imaging

import (
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/wording"
)

// Every word an image draws comes from the reader's *wording.Words: the
// image's own labels from the catalogue files image.<lang>.toml (ids
// image.*, cp.image.*, ed.image.*), content items (locations, cities,
// rounds) by their names in the content files, and the seats by the
// names the Words were made with. The texts a view carries as plain
// strings (card effects, prompt labels) are drawn as the view gives them.

// say writes the catalogue message id in w's language, args given as
// name, value pairs.
func say(w *wording.Words, id string, args ...any) string { return w.Printer().T(id, args...) }

// item names the content item key in w's language, or fallback (the
// view's English name) when w's game does not name it.
func item(w *wording.Words, key, fallback string) string {
	if n := w.Item(key); n != "" && n != key {
		return n
	}
	return fallback
}

// sayOr writes t in w's language, or fallback (a view's English text)
// when t says nothing.
func sayOr(w *wording.Words, t engine.Text, fallback string) string {
	if t.IsZero() {
		return fallback
	}
	if s := w.Say(t); s != t.ID { // the id: a text the catalogue cannot write (an empty list)
		return s
	}
	return fallback
}

// itemOr names the content item key in w's language, or fallback when
// there is no key or w's game does not name it.
func itemOr(w *wording.Words, key, fallback string) string {
	if key == "" {
		return fallback
	}
	return item(w, key, fallback)
}

// and joins names as "a, b and c" in w's language.
func and(w *wording.Words, names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return say(w, "list.and", "List", strings.Join(names[:len(names)-1], say(w, "list.sep")), "Last", names[len(names)-1])
}

// ordinal is a place, 1 to 6, in w's language: "2nd", "2.", "2e".
func ordinal(w *wording.Words, n int) string {
	if n < 1 || n > maxSeats {
		return strconv.Itoa(n)
	}
	return say(w, "image.ordinal."+strconv.Itoa(n))
}

// langKey is what a cached layer drawn with w's words depends on besides
// its layout: the language.
func langKey(w *wording.Words) string { return w.Lang() }
