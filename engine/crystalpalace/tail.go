package crystalpalace

import (
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// Answers given with the action that leads to the decision (Action.Then):
// a placement on a space with an assistant action carries that action (or
// "only", none), a build carries the prototype's target, so that the
// question is answered in the prompt that leads to it instead of asked
// after it. The older notation without them still asks the decision, so
// stored logs replay unchanged. The move down after a placement, which a
// player rarely wants, is asked until the player answers "skip always"
// (see Player.NoDown).

// Kinds of answer a placement carries, indexes into Rules.placeWith: a
// move up from tier t+1 is tailMove+t.
const (
	tailOnly = iota
	tailObjective
	tailMarket
	tailMove
)

// checkPlaceTail refuses the answer a placement of seat on space sp of
// location l carries (see Action.Then) unless the placement's question
// would accept it: "only", or an assistant action the space allows, as
// doPlace's question lists them.
func (s *State) checkPlaceTail(seat, l, sp int, a Action) error {
	ds := s.side(locKind(l)).Dice[sp]
	var buf [8]Action
	var answers []Action
	if ds.Assistant {
		answers = s.appendAssistantAnswers(buf[:0], seat)
		answers = answers[:len(answers)-1] // the last is "skip", which "only" says
	}
	if len(answers) == 0 {
		return illegal("cp.refuse.tail_none", engine.Code("Tail", tailText(a.Then)))
	}
	if len(a.Then) == 0 {
		return nil
	}
	for _, b := range answers {
		if sameAction(a.Then[0], b) {
			return nil
		}
	}
	valid := []string{"only"}
	for _, b := range answers {
		valid = append(valid, b.String())
	}
	return illegal("cp.refuse.tail_wrong", engine.Code("Tail", tailText(a.Then)), engine.Typed("Valid", valid))
}

// tailText is the text of answers as written after an action: "only" for
// none.
func tailText(then []Action) string {
	if len(then) == 0 {
		return "only"
	}
	parts := make([]string, len(then))
	for i, f := range then {
		parts[i] = f.String()
	}
	return strings.Join(parts, " ")
}

// appendBuilds appends the build of patent i with each target.
func (s *State) appendBuilds(out []string, i int) []string {
	return append(out, s.r.buildAt[i][:s.PlayerCount]...)
}

// follow answers the decisions seat's action a led to with a.Then, in
// order, and declines the assistant action when a says "only". check has
// made sure (checkPlaceTail) that each answer fits the decision it meets.
func (s *State) follow(seat int, a Action) {
	if !a.Tail {
		return
	}
	p := &s.Seats[seat]
	s.settle()
	if len(p.Queue) == 0 {
		return
	}
	t := p.Queue[0]
	if len(a.Then) == 0 {
		if t.Kind == dAssistant {
			s.pop(seat) // "only": no assistant action
		}
		return
	}
	f := a.Then[0]
	s.pop(seat)
	if text := s.narrate(seat, f); !text.IsZero() {
		s.emitDoing(seat, text)
	}
	s.answer(seat, t, f)
}

// moveTexts are "market move t+1" for every tier a valid Black Market may
// have (maxTiers).
func moveTexts() []string {
	out := make([]string, maxTiers)
	for t := range out {
		out[t] = "market move " + strconv.Itoa(t+1)
	}
	return out
}

// hasOwnAssistant reports whether seat has an assistant on the Black Market.
func (s *State) hasOwnAssistant(seat int) bool {
	for _, o := range s.Market {
		if o == seat {
			return true
		}
	}
	return false
}

// canPlace reports whether seat can place a die now: placeActions would
// list more than "pass".
func (s *State) canPlace(seat int) bool {
	for l := range s.Boards {
		for sp := range s.Boards[l].Dice {
			for _, v := range s.Seats[seat].Vals {
				if s.placeProblem(seat, v, l, sp) == placeOK {
					return true
				}
			}
		}
	}
	return false
}

// canBuild reports whether seat can build a prototype now.
func (s *State) canBuild(seat int) bool {
	for _, i := range s.Seats[seat].Patents {
		if s.buildable(seat, i) {
			return true
		}
	}
	return false
}
