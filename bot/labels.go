package bot

import (
	"github.com/meeplegames/meeple/engine"
)

// describer is implemented by game states that can say in a few words what
// an action does for a seat (both games do: crystalpalace.State.Describe,
// eightydays.State.Describe).
type describer interface {
	Describe(seat engine.Seat, action string) string
}

// maxDescription is what a select menu option's description holds.
const maxDescription = 100

// describe says what action does for seat in st, or "" when st cannot say.
func describe(st engine.State, seat engine.Seat, action string) string {
	if d, ok := st.(describer); ok {
		return d.Describe(seat, action)
	}
	return ""
}

// buttonLabel is a button's label for action: the action and, as room
// allows, what it does ("take 2 — Ice Machine → builds the Refrigerator"),
// so that a player need not open the picture to know.
func buttonLabel(st engine.State, seat engine.Seat, action string) string {
	if what := describe(st, seat, action); what != "" {
		return clip(action+" — "+what, maxLabel)
	}
	return action
}

// optionDescription is a select menu option's description for action.
func optionDescription(st engine.State, seat engine.Seat, action string) string {
	return clip(describe(st, seat, action), maxDescription)
}

// suggestion is an autocomplete entry: the action, and what it does as the
// name shown (matchChoices reads the tab).
func suggestion(st engine.State, seat engine.Seat, action string) string {
	if what := describe(st, seat, action); what != "" {
		return action + "\t" + action + " — " + what
	}
	return action
}
