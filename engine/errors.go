package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors every game wraps, so callers can tell kinds of refusal apart
// with errors.Is without reading the words.
var (
	// ErrUnknownAction: the text is not an action of this game's notation.
	ErrUnknownAction = errors.New("unknown action")
	// ErrNotYourTurn: the seat has no prompt that this action answers.
	ErrNotYourTurn = errors.New("not your turn")
	// ErrIllegalAction: the action is well formed but the rules forbid it now.
	ErrIllegalAction = errors.New("illegal action")
	// ErrGameOver: the game has ended.
	ErrGameOver = errors.New("game over")
	// ErrBadSetup: the setup (player count, option) is not valid for the game.
	ErrBadSetup = errors.New("bad setup")
)

// RuleError is a refusal with the rule's reason. Its message is only the
// reason, written for the player; Kind is the sentinel it wraps.
type RuleError struct {
	Kind   error
	Reason string
	// Valid lists, for a refused answer to a pending question, the answers
	// that would be accepted (canonical actions); Reason names them too.
	Valid []string
	// Say is the reason as data, for the wording layer to write in the
	// reader's language; zero when only Reason (English) exists.
	Say Text
}

// Error returns the reason, for the player.
func (e *RuleError) Error() string { return e.Reason }

// Unwrap returns the sentinel kind, for errors.Is.
func (e *RuleError) Unwrap() error { return e.Kind }

// Refuse returns a *RuleError of the given kind with the reason.
func Refuse(kind error, reason string) error {
	return &RuleError{Kind: kind, Reason: reason}
}

// RefuseAnswer refuses an answer to a pending question: the reason it is
// wrong, then the answers that would be accepted (the first few, and how
// many more), also kept in Valid.
func RefuseAnswer(kind error, reason string, valid []string) error {
	const shown = 8
	text := reason
	if len(valid) > 0 {
		text += ". Valid answers: " + strings.Join(valid[:min(len(valid), shown)], ", ")
		if len(valid) > shown {
			text += fmt.Sprintf(" (and %d more)", len(valid)-shown)
		}
	}
	return &RuleError{Kind: kind, Reason: text, Valid: valid}
}

// Refusef is Refuse with a formatted reason.
func Refusef(kind error, format string, args ...any) error {
	return &RuleError{Kind: kind, Reason: fmt.Sprintf(format, args...)}
}
