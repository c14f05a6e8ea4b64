package engine

import (
	"errors"
	"fmt"
	"strconv"
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

// RuleError is a refusal with the rule's reason; Kind is the sentinel it
// wraps. The games give the reason as data, Say, which the wording layer
// writes in the reader's language (wording.Words.Refusal); Reason holds
// words only for a refusal that has no Say (test games, tools), and is
// written as it stands.
type RuleError struct {
	Kind error
	// Say is the reason as data: a message id and its arguments.
	Say Text
	// Reason is the reason in words, for a refusal with no Say.
	Reason string
	// Valid lists, for a refused answer to a pending question, the answers
	// that would be accepted (canonical actions); Say names them too.
	Valid []string
}

// Error returns Reason, or for a refusal given as data its kind and its
// text's message id and arguments ("illegal action:
// cp.refuse.taken(Space=2)"): words for logs and tests, not for players,
// who read Say in their language.
func (e *RuleError) Error() string {
	if e.Say.IsZero() {
		return e.Reason
	}
	var b strings.Builder
	if e.Kind != nil {
		b.WriteString(e.Kind.Error())
		b.WriteString(": ")
	}
	dump(&b, e.Say)
	return b.String()
}

// dump writes t as its id and arguments, for Error.
func dump(b *strings.Builder, t Text) {
	if t.ID == PlainID && len(t.Args) > 0 {
		b.WriteString(strconv.Quote(t.Args[0].S))
		return
	}
	b.WriteString(t.ID)
	if len(t.Args) == 0 {
		return
	}
	b.WriteByte('(')
	for i, a := range t.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		if a.Name != "" {
			b.WriteString(a.Name)
			b.WriteByte('=')
		}
		switch a.Kind {
		case ArgNum, ArgSigned:
			b.WriteString(strconv.Itoa(int(a.N)))
		case ArgSeat:
			b.WriteString("P" + strconv.Itoa(int(a.N)+1))
		case ArgCode:
			b.WriteString(strconv.Quote(a.S))
		case ArgText:
			if a.Sub != nil {
				dump(b, *a.Sub)
			}
		case ArgSeats:
			b.WriteString("seats:" + strconv.FormatInt(int64(a.N), 2))
		case ArgMsg, ArgAmount:
			b.WriteString(a.S + ":" + strconv.Itoa(int(a.N)))
		default: // items, changes, inline texts: by key or id
			b.WriteString(a.S)
		}
	}
	b.WriteByte(')')
}

// Unwrap returns the sentinel kind, for errors.Is.
func (e *RuleError) Unwrap() error { return e.Kind }

// RefuseWith returns a *RuleError of the given kind whose reason is the
// text why: how the games refuse.
func RefuseWith(kind error, why Text) error {
	return &RuleError{Kind: kind, Say: why}
}

// Refuse returns a *RuleError of the given kind with the reason in words
// that no language layer translates: for test games and tools. The games
// use RefuseWith.
func Refuse(kind error, reason string) error {
	return &RuleError{Kind: kind, Reason: reason}
}

// Refusef is Refuse with a formatted reason.
func Refusef(kind error, format string, args ...any) error {
	return &RuleError{Kind: kind, Reason: fmt.Sprintf(format, args...)}
}

// RefuseAnswer refuses an answer to a pending question: the reason why it
// is wrong, then the answers that would be accepted (the first few, and
// how many more), also kept in Valid. Its text is engine.refuse.answers
// (or .answers_more), given the reason as "Reason", the answers shown as
// "Valid" (see Typed) and the number left out as "Count".
func RefuseAnswer(kind error, why Text, valid []string) error {
	const shown = 8
	if len(valid) == 0 {
		return &RuleError{Kind: kind, Say: why}
	}
	list := Typed("Valid", valid[:min(len(valid), shown)])
	say := Say("engine.refuse.answers", Nested("Reason", why), list)
	if len(valid) > shown {
		say = Say("engine.refuse.answers_more", Nested("Reason", why), list, Num("Count", len(valid)-shown))
	}
	return &RuleError{Kind: kind, Say: say, Valid: valid}
}
