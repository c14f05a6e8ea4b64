package bot

import (
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
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

// imageWords are the words of g's images in p's language: the game's
// content names and the seats' display names.
func imageWords(p *locale.Printer, games *engine.Registry, g *storage.Game) *wording.Words {
	names := seatNames(g)
	if rules, _ := games.Lookup(g.Kind); rules != nil {
		return wording.ForRules(p, rules, names)
	}
	return wording.New(p, nil, names)
}

// words writes the engine texts of a game of kind with p (see gameWords).
func (vw *views) words(p *locale.Printer, kind string) *wording.Words {
	return gameWords(p, vw.games, kind)
}
