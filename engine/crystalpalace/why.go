package crystalpalace

import (
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// wrongAnswer is the refusal of a, which does not answer seat's pending
// decision t: why this answer is wrong, then the answers that are valid.
func (s *State) wrongAnswer(seat int, t Task, a Action) error {
	answers := s.decisionActions(seat, t)
	valid := actionStrings(answers)
	return engine.RefuseAnswer(engine.ErrIllegalAction, s.whyWrong(seat, t, a, answers), valid)
}

// whyWrong says why a does not answer decision t of seat.
func (s *State) whyWrong(seat int, t Task, a Action, answers []Action) string {
	p := &s.P[seat]
	quoted := "“" + a.String() + "”"
	answersVerb := false
	for _, b := range answers {
		answersVerb = answersVerb || b.Verb == a.Verb
	}
	if !answersVerb {
		if a.Verb == vSkip {
			return "this cannot be skipped: " + s.decisionLabel(seat, t)
		}
		return quoted + " does not answer the question asked now; first " + s.decisionLabel(seat, t)
	}
	switch a.Verb {
	case vSkip:
		return "always only applies to moving assistants down after a placement"
	case vGreen:
		return s.whyNotGreen(seat, a)
	case vReplace:
		k := a.Vals[0]
		switch {
		case k < 1 || k > len(p.Slots):
			return "there is no research space " + strconv.Itoa(k) + ": the mat has spaces 1 to " + strconv.Itoa(len(p.Slots))
		case p.Slots[k-1].K == slotLoan:
			return "research space " + strconv.Itoa(k) + " holds a loan: only a research tile can be replaced"
		}
		return "research space " + strconv.Itoa(k) + " is empty: nothing to replace there"
	case vDown:
		return "no assistant of " + seatName(seat) + " stands on Black Market tier " + strconv.Itoa(a.Vals[0]) + s.ownTiers(seat)
	case vTarget:
		return "there is no player " + strconv.Itoa(a.Vals[0]) + ": " + strconv.Itoa(s.N) + " players play, target 1 to " + strconv.Itoa(s.N)
	case vBonus:
		return "“" + a.Key + "” is not one of the bonuses offered here"
	case vObjective:
		mat := &s.c.Mats[p.Mat]
		if p.Obj >= len(mat.Objective) {
			return "the objective track is already at its top"
		}
		return "objective level " + strconv.Itoa(p.Obj+1) + " is not met yet"
	case vPlaceAsst:
		tier := s.marketFreeAbove(0)
		switch {
		case p.Asst == 0:
			return "no assistant is left in " + seatName(seat) + "'s supply"
		case tier < 0:
			return "the Black Market has no free space"
		}
		return "the lowest free Black Market space, tier " + strconv.Itoa(tier+1) + ", costs " + pounds(s.market().Spaces[tier].Cost) + "; " + seatName(seat) + " has " + pounds(p.Pounds)
	case vMoveAsst:
		from := a.Vals[0] - 1
		if from < 0 || from >= len(s.Market) || s.Market[from] != seat {
			return "no assistant of " + seatName(seat) + " stands on Black Market tier " + strconv.Itoa(a.Vals[0]) + s.ownTiers(seat)
		}
		to := s.marketFreeAbove(from + 1)
		if to < 0 {
			return "there is no free Black Market space above tier " + strconv.Itoa(a.Vals[0])
		}
		return "the next free space above, tier " + strconv.Itoa(to+1) + ", costs " + pounds(s.market().Spaces[to].Cost) + "; " + seatName(seat) + " has " + pounds(p.Pounds)
	}
	return quoted + " is not one of the answers open now"
}

// whyNotGreen says why green bonus a cannot be used by seat.
func (s *State) whyNotGreen(seat int, a Action) string {
	p := &s.P[seat]
	switch a.Key {
	case srcResearch:
		k := a.Vals[0]
		if k < 1 || k > len(p.Slots) {
			return "there is no research space " + strconv.Itoa(k) + ": the mat has spaces 1 to " + strconv.Itoa(len(p.Slots))
		}
		sl := p.Slots[k-1]
		switch {
		case sl.K == slotLoan:
			return "research space " + strconv.Itoa(k) + " holds a loan, not a research tile"
		case sl.K != slotResearch:
			return "research space " + strconv.Itoa(k) + " is empty"
		case len(s.c.Research[sl.ID].Phase6) == 0:
			return "the research tile on space " + strconv.Itoa(k) + ", " + s.tileName(sl.ID) + ", has no green bonus"
		}
		return "the green bonus of " + s.tileName(sl.ID) + " is itself a green bonus: it cannot be the one used"
	case srcMarket:
		k := a.Vals[0]
		if k < 1 || k > len(s.Market) || s.Market[k-1] != seat {
			return "no assistant of " + seatName(seat) + " stands on Black Market tier " + strconv.Itoa(k) + s.ownTiers(seat)
		}
		if len(s.market().Spaces[k-1].Effect) == 0 {
			return "Black Market tier " + strconv.Itoa(k) + " has no bonus"
		}
		return "the bonus of Black Market tier " + strconv.Itoa(k) + " is itself a green bonus: it cannot be the one used"
	}
	if s.Watch != seat {
		return seatName(seat) + " does not hold the Pocket Watch"
	}
	return "the Pocket Watch lies on its VP side: it pays nothing in phase 6"
}

// ownTiers is ", whose assistants stand on tiers 2 and 5" (or ", who has
// no assistant on the Black Market") for seat.
func (s *State) ownTiers(seat int) string {
	var tiers []string
	for t, o := range s.Market {
		if o == seat {
			tiers = append(tiers, strconv.Itoa(t+1))
		}
	}
	switch len(tiers) {
	case 0:
		return " (" + seatName(seat) + " has no assistant on the Black Market)"
	case 1:
		return " (" + seatName(seat) + "'s assistant is on tier " + tiers[0] + ")"
	}
	return " (" + seatName(seat) + "'s assistants are on tiers " + strings.Join(tiers, ", ") + ")"
}
