package crystalpalace

import (
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// testWords writes engine texts as the bot would in lang, naming items
// from the default content.
var testWords = sync.OnceValues(func() (map[string]*wording.Words, error) {
	cat, err := locale.New()
	if err != nil {
		return nil, err
	}
	c, err := DefaultContent()
	if err != nil {
		return nil, err
	}
	out := map[string]*wording.Words{}
	for _, lang := range cat.Languages() {
		out[lang] = wording.New(cat.For(lang), c, nil)
	}
	return out, nil
})

// say writes text in English, as the log showed it before texts were data.
func say(text engine.Text) string {
	all, err := testWords()
	if err != nil {
		panic(err)
	}
	return all[locale.English].Say(text)
}

// refusal writes why err refused an action in English, as a player reads
// it.
func refusal(err error) string {
	all, werr := testWords()
	if werr != nil {
		panic(werr)
	}
	return all[locale.English].Refusal(err)
}
