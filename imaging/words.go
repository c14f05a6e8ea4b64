package imaging

import (
	"sync"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// english writes the games' texts drawn in images in English, naming
// content items from Crystal Palace's embedded content: the images have no
// reader's language yet. Nil when the catalogues do not load.
var english = sync.OnceValue(func() *wording.Words {
	cat, err := locale.New()
	if err != nil {
		return nil
	}
	var names engine.Namer
	if c, err := cp.DefaultContent(); err == nil {
		names = cp.NewRules(c)
	}
	return wording.New(cat.For(locale.English), names, nil)
})

// decisionName says what an open decision asks, from its text (the
// prompt's), or names it by its kind without the catalogues.
func decisionName(w cp.WaitingView) string {
	if words := english(); words != nil && !w.Text.IsZero() {
		return words.Say(w.Text)
	}
	return w.Kind
}
