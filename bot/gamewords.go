package bot

import (
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// gameWords writes the engine texts of a game of kind (events, refusals)
// with p, naming its content items in p's language.
func gameWords(p *locale.Printer, games *engine.Registry, kind string) *wording.Words {
	rules, _ := games.Lookup(kind) // nil rules name no items: keys show as they stand
	if rules == nil {
		return wording.New(p, nil, nil)
	}
	return wording.ForRules(p, rules, nil)
}

// words writes the engine texts of a game of kind with p (see gameWords).
func (b *views) words(p *locale.Printer, kind string) *wording.Words {
	return gameWords(p, b.games, kind)
}
