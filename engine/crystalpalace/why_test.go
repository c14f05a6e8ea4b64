package crystalpalace

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// wrongAnswers are answers of every kind to try at a pending question of a
// game with n players: other verbs, numbers out of range and each number in
// range (most of which a given question refuses), words it does not offer.
func wrongAnswers(n int) []string {
	out := []string{"pass", "advance", "take 1", "place 1 patent 1", "build crane", "build crane target 1", "skip", "skip always",
		"accept", "poster", "watch vp", "watch pounds", "pay", "objective", "market place", "green watch", "bonus nonsense",
		"bonus energy", "bonus pounds always", "publish", "use gears"}
	for k := 0; k <= 12; k++ {
		for _, verb := range []string{"replace", "down", "target", "green research", "green market", "market move"} {
			out = append(out, verb+" "+strconv.Itoa(k))
		}
	}
	return append(out, "target "+strconv.Itoa(n+1), "replace 99", "down 99")
}

// A refused answer to a pending question says why it is wrong and lists the
// valid ones: over whole games, at every question, every kind of wrong
// answer is refused with the state unchanged, a reason that is more than
// the question again, the number it got wrong (when it has one) and the
// valid answers, speaking to the player who answered; another player
// answering is told whose question it is, by name, never "you"/"your".
func TestRefusalsOfAnswersTeach(t *testing.T) {
	questions, refusals := 0, 0
	eachHeuristicPrompt(t, 8, 500, func(g int, s *State, pr engine.Prompt) {
		if len(s.Seats[pr.Seat].Queue) > 0 {
			questions++
			before, _ := s.Encode()
			for _, wrong := range wrongAnswers(s.PlayerCount) {
				if slices.Contains(pr.Actions, wrong) || slices.Contains(s.FreeActions(pr.Seat), wrong) {
					continue
				}
				a, perr := ParseAction(wrong)
				_, err := s.Apply(pr.Seat, wrong)
				if err == nil {
					t.Fatalf("game %d, %s asked %q: %q accepted", g, seatName(int(pr.Seat)), say(*pr.Text), wrong)
				}
				if after, _ := s.Encode(); !bytes.Equal(before, after) {
					t.Fatalf("%q refused but the state changed", wrong)
				}
				if perr != nil {
					continue // not an action at all: the parser's own message
				}
				refusals++
				var rule *engine.RuleError
				if !errors.As(err, &rule) || !errors.Is(err, engine.ErrIllegalAction) {
					t.Fatalf("%q: %v is not an illegal-action refusal", wrong, err)
				}
				msg := refusal(err)
				if !strings.Contains(msg, "Valid answers: "+pr.Actions[0]) || !slices.Equal(rule.Valid, pr.Actions) {
					t.Fatalf("%q at %q: %q does not list the valid answers %v", wrong, say(*pr.Text), msg, pr.Actions)
				}
				reason, _, _ := strings.Cut(msg, ". Valid answers:")
				if strings.Contains(reason, seatName(int(pr.Seat))) {
					t.Fatalf("%q at %q: %q speaks of %s, who answered, in the third person", wrong, say(*pr.Text), reason, seatName(int(pr.Seat)))
				}
				if reason == say(*pr.Text) || reason == "first "+say(*pr.Text) {
					t.Fatalf("%q: the refusal only repeats the question: %q", wrong, msg)
				}
				if answersVerb(pr.Actions, a) && len(a.Vals) > 0 && !strings.Contains(reason, strconv.Itoa(a.Vals[0])) {
					t.Fatalf("%q at %q: reason %q does not name %d", wrong, say(*pr.Text), reason, a.Vals[0])
				}
			}
			for other := 0; other < s.PlayerCount; other++ {
				if other == int(pr.Seat) || len(s.Seats[other].Queue) > 0 {
					continue
				}
				_, err := s.Apply(engine.Seat(other), pr.Actions[0])
				if err == nil {
					continue // a free action open to all (none answers a question)
				}
				msg := " " + refusal(err) + " "
				if !strings.Contains(msg, seatName(int(pr.Seat))) {
					t.Fatalf("%s trying %q while %s decides: %q does not name %s", seatName(other), pr.Actions[0], seatName(int(pr.Seat)), msg, seatName(int(pr.Seat)))
				}
				for _, second := range []string{" you ", " your ", " you:", " you;", " you,"} {
					if strings.Contains(strings.ToLower(msg), second) {
						t.Fatalf("%s is told about %s's question in the second person: %q", seatName(other), seatName(int(pr.Seat)), msg)
					}
				}
			}
		}
	})
	t.Logf("%d questions, %d wrong answers refused", questions, refusals)
	if questions < 50 {
		t.Fatalf("only %d questions met", questions)
	}
}

// answersVerb reports whether one of actions has a's verb.
func answersVerb(actions []string, a Action) bool {
	for _, text := range actions {
		if b, err := ParseAction(text); err == nil && b.Verb == a.Verb {
			return true
		}
	}
	return false
}
