package eightydays

import (
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// englishWords writes engine texts in English, as the bot would.
var englishWords = sync.OnceValues(func() (*wording.Words, error) {
	cat, err := locale.New()
	if err != nil {
		return nil, err
	}
	c, err := DefaultContent()
	if err != nil {
		return nil, err
	}
	return wording.New(cat.For(locale.English), NewRules(c), nil), nil
})

// say writes text in English.
func say(text engine.Text) string {
	w, err := englishWords()
	if err != nil {
		panic(err)
	}
	return w.Say(text)
}

// refusal writes why err refused an action in English, as a player reads
// it.
func refusal(err error) string {
	w, werr := englishWords()
	if werr != nil {
		panic(werr)
	}
	return w.Refusal(err)
}
