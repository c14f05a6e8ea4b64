package enginetest

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// TestPromptsMustSayWhatTheyAsk: the contract refuses a prompt without a
// legal action or without a Text, the only label a prompt has.
func TestPromptsMustSayWhatTheyAsk(t *testing.T) {
	text := engine.Say("game.move")
	for _, c := range []struct {
		p    engine.Prompt
		want string // in the error; "" for none
	}{
		{engine.Prompt{Kind: "move", Text: &text, Actions: []string{"roll"}}, ""},
		{engine.Prompt{Kind: "move", Actions: []string{"roll"}}, "no Text"},
		{engine.Prompt{Kind: "move", Text: &engine.Text{}, Actions: []string{"roll"}}, "no Text"},
		{engine.Prompt{Kind: "move", Text: &text}, "no legal action"},
	} {
		err := checkPrompt(c.p)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
}
