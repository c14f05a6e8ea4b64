package bot

import (
	"github.com/meeplegames/meeple/bot/transport"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/wording"
)

// maxDescription is what a select menu option's description holds.
const maxDescription = 100

// describe says what action does for seat in st, in the language of words,
// or "" when st cannot say (both games can: engine.Describer).
func describe(words *wording.Words, st engine.State, seat engine.Seat, action string) string {
	if d, ok := st.(engine.Describer); ok {
		return words.Say(d.Describe(seat, action))
	}
	return ""
}

// buttonLabel is a button's label for action: the action and, as room
// allows, what it does ("take 2 — Ice Machine → builds the Refrigerator"),
// so that a player need not open the picture to know.
func buttonLabel(words *wording.Words, st engine.State, seat engine.Seat, action string) string {
	if what := describe(words, st, seat, action); what != "" {
		return transport.Clip(action+" — "+what, transport.MaxLabel)
	}
	return action
}

// optionDescription is a select menu option's description for action.
func optionDescription(words *wording.Words, st engine.State, seat engine.Seat, action string) string {
	return transport.Clip(describe(words, st, seat, action), maxDescription)
}

// suggestion is an autocomplete entry: the action, and what it does as the
// name shown (matchChoices reads the tab and clips the name to Discord's
// 100 characters).
func suggestion(words *wording.Words, st engine.State, seat engine.Seat, action string) string {
	if what := describe(words, st, seat, action); what != "" {
		return action + "\t" + action + " — " + what
	}
	return action
}
