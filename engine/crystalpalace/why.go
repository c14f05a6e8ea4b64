package crystalpalace

import (
	"github.com/meeplegames/meeple/engine"
)

// Refusals say why as data (engine.Text, ids cp.refuse.*, worded in the
// catalogues refuse.<lang>.toml), never as sentences: the player reads
// them in their own language.

// illegal refuses an action the rules forbid now, for the reason id with
// its arguments.
func illegal(id string, args ...engine.Arg) error {
	return engine.RefuseWith(engine.ErrIllegalAction, engine.Say(id, args...))
}

// notYourTurn refuses an action seat may not take now, for the reason id.
func notYourTurn(id string, args ...engine.Arg) error {
	return engine.RefuseWith(engine.ErrNotYourTurn, engine.Say(id, args...))
}

// unknownAction refuses a text that is not an action, for the reason id.
func unknownAction(id string, args ...engine.Arg) error {
	return engine.RefuseWith(engine.ErrUnknownAction, engine.Say(id, args...))
}

// loc names where location l is, as argument "At": its at-phrase ("at
// the Patent Office", "im Patentamt"), which a sentence takes whole in
// every language, never its bare name (docs/languages.md, "Names in
// sentences").
func (s *State) loc(l locKind) engine.Arg {
	return engine.Item("At", keyAt+s.c.Locations[l].Key)
}

// costSay is cost c as data: "2 gears, 1 energy, 3 pounds".
func costSay(c Cost) engine.Text {
	args := make([]engine.Arg, 0, 3)
	if c.Gears > 0 {
		args = append(args, engine.Amount("goods.gears", c.Gears))
	}
	if c.Energy > 0 {
		args = append(args, engine.Amount("goods.energy", c.Energy))
	}
	if c.Pounds > 0 || len(args) == 0 {
		args = append(args, engine.Amount("cp.refuse.pounds", c.Pounds))
	}
	return engine.Text{ID: "cp.effects", Args: args}
}

// wrongAnswer is the refusal of a, which does not answer seat's pending
// decision t: why this answer is wrong, then the answers that are valid.
func (s *State) wrongAnswer(seat int, t Task, a Action) error {
	answers := s.decisionActions(seat, t)
	valid := actionStrings(answers)
	return engine.RefuseAnswer(engine.ErrIllegalAction, s.whyWrong(seat, t, a, answers), valid)
}

// whyWrong says why a does not answer decision t of seat.
func (s *State) whyWrong(seat int, t Task, a Action, answers []Action) engine.Text {
	p := &s.Seats[seat]
	answersVerb := false
	for _, b := range answers {
		answersVerb = answersVerb || b.Verb == a.Verb
	}
	if t.Kind == dAssistant && (a.Verb == vObjective || a.Verb == vPlaceAsst || a.Verb == vMoveAsst) {
		answersVerb = true // an assistant action, not open now: say which condition fails
	}
	if !answersVerb {
		label := engine.Ref("Label", s.decisionText(seat, t))
		if a.Verb == vSkip {
			return engine.Say("cp.refuse.no_skip", label)
		}
		return engine.Say("cp.refuse.not_the_question", engine.Code("Action", a.String()), label)
	}
	switch a.Verb {
	case vSkip:
		return engine.Say("cp.refuse.skip_always")
	case vGreen:
		return s.whyNotGreen(seat, a)
	case vReplace:
		k := a.Vals[0]
		switch {
		case k < 1 || k > len(p.Slots):
			return engine.Say("cp.refuse.no_research_space", engine.Num("Space", k), engine.Num("N", len(p.Slots)))
		case p.Slots[k-1].Kind == slotLoan:
			return engine.Say("cp.refuse.replace_loan", engine.Num("Space", k))
		}
		return engine.Say("cp.refuse.replace_empty", engine.Num("Space", k))
	case vDown:
		return engine.Say("cp.refuse.no_assistant_on", engine.Num("Tier", a.Vals[0]), s.ownTiers(seat))
	case vTarget:
		return engine.Say("cp.refuse.no_player", engine.Num("Target", a.Vals[0]), engine.Num("N", s.PlayerCount))
	case vBonus:
		return engine.Say("cp.refuse.no_bonus", engine.Code("Key", a.Key))
	case vObjective:
		mat := &s.c.Mats[p.Mat]
		if p.Obj >= len(mat.Objective) {
			return engine.Say("cp.refuse.objective_top")
		}
		return engine.Say("cp.refuse.objective_unmet", engine.Num("Level", p.Obj+1))
	case vPlaceAsst:
		tier := s.marketFreeAbove(0)
		switch {
		case p.Asst == 0:
			return engine.Say("cp.refuse.no_assistant_left")
		case tier < 0:
			return engine.Say("cp.refuse.market_full")
		}
		return engine.Say("cp.refuse.market_place_cost", engine.Num("Tier", tier+1), engine.Num("Cost", s.market().Spaces[tier].Cost), engine.Num("Pounds", p.Pounds))
	case vMoveAsst:
		from := a.Vals[0] - 1
		if from < 0 || from >= len(s.Market) || s.Market[from] != seat {
			return engine.Say("cp.refuse.no_assistant_on", engine.Num("Tier", a.Vals[0]), s.ownTiers(seat))
		}
		to := s.marketFreeAbove(from + 1)
		if to < 0 {
			return engine.Say("cp.refuse.market_full_above", engine.Num("Tier", a.Vals[0]))
		}
		return engine.Say("cp.refuse.market_move_cost", engine.Num("Tier", to+1), engine.Num("Cost", s.market().Spaces[to].Cost), engine.Num("Pounds", p.Pounds))
	}
	return engine.Say("cp.refuse.not_an_answer", engine.Code("Action", a.String()))
}

// whyNotGreen says why green bonus a cannot be used by seat.
func (s *State) whyNotGreen(seat int, a Action) engine.Text {
	p := &s.Seats[seat]
	switch a.Key {
	case srcResearch:
		k := a.Vals[0]
		if k < 1 || k > len(p.Slots) {
			return engine.Say("cp.refuse.no_research_space", engine.Num("Space", k), engine.Num("N", len(p.Slots)))
		}
		sl := p.Slots[k-1]
		switch {
		case sl.Kind == slotLoan:
			return engine.Say("cp.refuse.green_loan", engine.Num("Space", k))
		case sl.Kind != slotResearch:
			return engine.Say("cp.refuse.green_empty", engine.Num("Space", k))
		case len(s.c.Research[sl.ID].Phase6) == 0:
			return engine.Say("cp.refuse.green_none", engine.Num("Space", k), s.tileArg("Tile", sl.ID))
		}
		return engine.Say("cp.refuse.green_itself", s.tileArg("Tile", sl.ID))
	case srcMarket:
		k := a.Vals[0]
		if k < 1 || k > len(s.Market) || s.Market[k-1] != seat {
			return engine.Say("cp.refuse.no_assistant_on", engine.Num("Tier", k), s.ownTiers(seat))
		}
		if len(s.market().Spaces[k-1].Effect) == 0 {
			return engine.Say("cp.refuse.market_no_bonus", engine.Num("Tier", k))
		}
		return engine.Say("cp.refuse.market_green_itself", engine.Num("Tier", k))
	}
	if s.Watch != seat {
		return engine.Say("cp.refuse.no_watch")
	}
	return engine.Say("cp.refuse.watch_vp_side")
}

// ownTiers is " (your assistants are on tiers 2 and 5)" (or " (you have
// no assistant on the Black Market)") for seat, who answers the question,
// as argument "Own".
func (s *State) ownTiers(seat int) engine.Arg {
	var args []engine.Arg
	for t, o := range s.Market {
		if o == seat {
			args = append(args, engine.Part(engine.Num("", t+1)))
		}
	}
	if len(args) == 0 {
		return engine.Nested("Own", engine.Say("cp.refuse.own_none"))
	}
	return engine.Nested("Own", engine.Say("cp.refuse.own_tiers", append(args, engine.Num("Count", len(args)))...))
}

// waitingFor refuses an action while the players in s.Order with a
// pending decision decide: "waiting for P2 to …; and for P3 to …".
func (s *State) waitingFor() error {
	var say engine.Text
	for _, i := range s.Order {
		if len(s.Seats[i].Queue) == 0 {
			continue
		}
		who, label := engine.Who("Who", engine.Seat(i)), engine.Ref("Label", s.decisionText(i, s.Seats[i].Queue[0]))
		if say.IsZero() {
			say = engine.Say("cp.refuse.waiting", who, label)
		} else {
			say = engine.Say("cp.refuse.waiting_more", engine.Nested("Before", say), who, label)
		}
	}
	return engine.RefuseWith(engine.ErrNotYourTurn, say)
}
