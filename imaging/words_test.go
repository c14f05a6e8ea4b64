package imaging

import (
	"sync"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

var (
	catOnce sync.Once
	cat     *locale.Catalogue
	catErr  error
)

// catalogue is the message catalogues, read once for the test binary.
func catalogue(t testing.TB) *locale.Catalogue {
	t.Helper()
	catOnce.Do(func() { cat, catErr = locale.New() })
	if catErr != nil {
		t.Fatalf("locale.New: %v", catErr)
	}
	return cat
}

// en is English words with the seats' names, naming no content item (the
// views' own names show).
func en(names []string) *wording.Words {
	catOnce.Do(func() { cat, catErr = locale.New() })
	if catErr != nil {
		panic(catErr)
	}
	return wording.New(cat.For(locale.English), nil, names)
}

// wordsIn is lang's words for a game of rules with the seats' names.
func wordsIn(t testing.TB, lang string, rules engine.Rules, names []string) *wording.Words {
	return wording.ForRules(catalogue(t).For(lang), rules, names)
}
