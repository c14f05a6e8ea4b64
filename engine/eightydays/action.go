package eightydays

import (
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// Verb is what an action does.
type Verb uint8

// The verbs of the game's notation.
const (
	VerbMove    Verb = iota + 1 // "move 14": forward to space 14, paying the cost
	VerbBack                    // "back": back to the nearest Layover, taking 10£ a space
	VerbPass                    // "pass": no move is possible
	VerbRestart                 // "restart": too poor to move before Paris: back to London, up to 80£
	VerbStay                    // "stay take" / "stay give": stay on a Pound space
	VerbDiscard                 // "discard": the turn after a Police space, discard a Rumor
	VerbKeep                    // "keep 2": which of two drawn Passepartout cards to apply
	VerbPlay                    // "play aouda": play a kept character
)

var verbNames = [...]string{"", "move", "back", "pass", "restart", "stay", "discard", "keep", "play"}

// Action is one move in the game's notation. Its text form (String) is the
// canonical one: typed by players, stored in scripts and logs.
type Action struct {
	Verb Verb
	// Pawn is 0 with one pawn; 1 ("a") or 2 ("b") in the two-pawns variant.
	// It is written right after the verb: "move a 14", "back b".
	Pawn int
	To   int    // VerbMove: the destination space
	Take bool   // VerbStay: take 10£ (true) or give 10£ (false)
	Card int    // VerbKeep: 1 or 2, the drawn card to apply
	ID   string // VerbPlay: the character's id
}

// pawned reports whether the verb acts on a pawn and so takes a pawn letter.
func (v Verb) pawned() bool {
	return v == VerbMove || v == VerbBack || v == VerbRestart || v == VerbStay || v == VerbDiscard
}

// String returns the canonical text of the action.
func (a Action) String() string {
	if a.Verb == 0 || int(a.Verb) >= len(verbNames) {
		return ""
	}
	var b strings.Builder
	b.WriteString(verbNames[a.Verb])
	if a.Pawn > 0 && a.Verb.pawned() {
		b.WriteByte(' ')
		b.WriteByte(byte('a' + a.Pawn - 1))
	}
	switch a.Verb {
	case VerbMove:
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(a.To))
	case VerbStay:
		if a.Take {
			b.WriteString(" take")
		} else {
			b.WriteString(" give")
		}
	case VerbKeep:
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(a.Card))
	case VerbPlay:
		b.WriteByte(' ')
		b.WriteString(a.ID)
	}
	return b.String()
}

// ParseAction reads an action's text. It checks only the notation, not
// whether the action is legal now; extra spaces and capitals are accepted,
// and String gives the canonical form back.
func ParseAction(text string) (Action, error) { return parseAction(text, true) }

// parseAction is ParseAction whose usage hints mention pawn letters only
// when pawns is set (the two-pawns variant).
func parseAction(text string, pawns bool) (Action, error) {
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 {
		return Action{}, engine.RefuseWith(engine.ErrUnknownAction, engine.Say("ed.refuse.parse.empty"))
	}
	var a Action
	for v := VerbMove; int(v) < len(verbNames); v++ {
		if f[0] == verbNames[v] {
			a.Verb = v
		}
	}
	if a.Verb == 0 {
		return Action{}, engine.RefuseWith(engine.ErrUnknownAction, engine.Say("ed.refuse.parse.unknown", engine.Code("Verb", f[0])))
	}
	args := f[1:]
	if a.Verb.pawned() && len(args) > 0 && (args[0] == "a" || args[0] == "b") {
		a.Pawn = int(args[0][0]-'a') + 1
		args = args[1:]
	}
	usage := func() (Action, error) {
		hint := usages[a.Verb]
		if pawns && a.Verb.pawned() {
			hint += "_pawns"
		}
		return Action{}, engine.RefuseWith(engine.ErrUnknownAction, engine.Say("ed.refuse.parse.usage", engine.Code("Text", strings.Join(f, " ")), engine.Msg("Hint", hint, 0)))
	}
	switch a.Verb {
	case VerbMove, VerbKeep:
		if len(args) != 1 {
			return usage()
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 || n > 999 || args[0] != strconv.Itoa(n) {
			return usage()
		}
		if a.Verb == VerbMove {
			a.To = n
		} else {
			a.Card = n
		}
	case VerbStay:
		if len(args) != 1 || (args[0] != "take" && args[0] != "give") {
			return usage()
		}
		a.Take = args[0] == "take"
	case VerbPlay:
		if len(args) != 1 {
			return usage()
		}
		a.ID = args[0]
	default:
		if len(args) != 0 {
			return usage()
		}
	}
	return a, nil
}

var usages = [...]string{
	VerbMove:    "ed.refuse.usage.move",
	VerbBack:    "ed.refuse.usage.back",
	VerbPass:    "ed.refuse.usage.pass",
	VerbRestart: "ed.refuse.usage.restart",
	VerbStay:    "ed.refuse.usage.stay",
	VerbDiscard: "ed.refuse.usage.discard",
	VerbKeep:    "ed.refuse.usage.keep",
	VerbPlay:    "ed.refuse.usage.play",
}
