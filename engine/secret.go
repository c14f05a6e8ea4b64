package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Revision returns the secret choice seat has made in s and may still
// change, when s implements Revisable.
func Revision(s State, seat Seat) (Prompt, bool) {
	if r, ok := s.(Revisable); ok {
		return r.Revisable(seat)
	}
	return Prompt{}, false
}

// IsSecret reports whether seat taking action in s answers one of seat's
// secret prompts, or changes such an answer (see Revisable): until the
// rules reveal it, the action's text is for seat's eyes only. A free action
// is never secret.
func IsSecret(s State, seat Seat, action string) bool {
	for _, free := range s.FreeActions(seat) {
		if free == action {
			return false
		}
	}
	for _, p := range s.Prompts() {
		if p.Seat == seat && p.Secret {
			return true
		}
	}
	p, ok := Revision(s, seat)
	return ok && p.Secret
}

// DescribeRefusal describes seat's refused action and err for an
// operator's log. A secret action (see IsSecret) shows only its verb and
// the kind of refusal, never its text or the rule's reason, which may
// quote the action.
func DescribeRefusal(seat Seat, action string, secret bool, err error) string {
	if !secret {
		return fmt.Sprintf("P%d %q: %v", seat+1, action, err)
	}
	verb, _, _ := strings.Cut(action, " ")
	if len(verb) > 20 || strings.IndexFunc(verb, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		verb = "" // not a word of the notation: it may be part of the secret
	}
	kind := "refused"
	for _, k := range []error{ErrUnknownAction, ErrNotYourTurn, ErrIllegalAction, ErrGameOver, ErrBadSetup} {
		if errors.Is(err, k) {
			kind = k.Error()
			break
		}
	}
	return fmt.Sprintf("P%d %q, a secret choice: %s", seat+1, strings.TrimSpace(verb+" …"), kind)
}
