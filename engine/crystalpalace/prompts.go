package crystalpalace

import (
	"github.com/meeplegames/meeple/engine"
)

// Prompts implements engine.State: open decisions first (several seats at
// once in phases 4 and 6), else the phase's prompt: every seat that has not
// chosen its dice in phase 1, the seat whose turn it is in phases 2, 3 and 5.
func (s *State) Prompts() []engine.Prompt {
	if s.Done {
		return nil
	}
	var out []engine.Prompt
	for _, seat := range s.Order {
		p := &s.Seats[seat]
		if len(p.Queue) == 0 {
			continue
		}
		t := p.Queue[0]
		out = append(out, engine.Prompt{Seat: engine.Seat(seat), Kind: decisionKind(t.Kind),
			Text: s.decisionText(seat, t), Actions: actionTexts(s.decisionActions(seat, t), s.r.actionText)})
	}
	if len(out) > 0 {
		return out
	}
	if s.CurrentPhase == phaseDice {
		out = make([]engine.Prompt, 0, s.PlayerCount)
		for seat := range s.Seats {
			p := &s.Seats[seat]
			if !p.Sub {
				out = append(out, engine.Prompt{Seat: engine.Seat(seat), Kind: "dice",
					Text: &s.r.texts.dice[p.Dice], Actions: s.r.dice[p.Dice], Secret: true})
			}
		}
		return out
	}
	seat := s.current()
	if seat < 0 {
		return nil
	}
	return []engine.Prompt{s.phasePrompt(seat)}
}

func (s *State) phasePrompt(seat int) engine.Prompt {
	pr := engine.Prompt{Seat: engine.Seat(seat), Actions: s.phaseActions(seat), Text: s.phaseLabel(s.CurrentPhase)}
	switch s.CurrentPhase {
	case phasePlace:
		pr.Kind = "place"
	case phaseActions:
		pr.Kind = "action"
	case phaseBuild:
		pr.Kind = "build"
	}
	return pr
}

// phaseActions enumerates the candidate actions of the phase prompt and
// keeps those check allows; the strings come ready-made from Rules.
func (s *State) phaseActions(seat int) []string {
	if s.CurrentPhase == phasePlace {
		return s.placeActions(seat)
	}
	p := &s.Seats[seat]
	var buf [32]string // the list is made here and leaves in an exact copy
	out := buf[:0]
	after := new(*State)
	keep := func(a Action, text string) {
		if s.checkWith(seat, a, after) == nil {
			out = append(out, text)
		}
	}
	switch s.CurrentPhase {
	case phaseActions:
		l := locKind(s.Location)
		switch l {
		case locWestminster:
			keep(Action{Verb: vAdvance}, "advance")
		case locTimes:
			keep(Action{Verb: vPublish}, "publish")
		case locPort, locWaterloo:
			for i := range s.side(l).Possibilities { // checkAction's use rule
				if problem, _ := s.useProblem(l, i); problem == useOK {
					out = append(out, s.r.use[l][i])
				}
			}
		default:
			for k := range s.display(l) { // checkAction's take rule
				if problem, _ := s.takeProblem(seat, l, k, after); problem == takeOK {
					out = append(out, s.r.take[k])
				}
			}
		}
	case phaseBuild:
		for _, i := range p.Patents {
			if s.buildable(seat, i) {
				out = s.appendBuilds(out, i)
			}
		}
		if len(out) == 0 {
			return passOnly
		}
	}
	if s.CurrentPhase == phaseActions && len(out) == 1 { // one action only: it may be taken for good
		always, ok := s.r.always[out[0]]
		if !ok {
			always = out[0] + " always"
		}
		return []string{out[0], always, "pass"}
	}
	return append(append(make([]string, 0, len(out)+1), out...), "pass")
}

// FreeActions implements engine.State: loans, repayments, newspaper
// exchanges and buying or selling gears and energy, as the rules allow now.
func (s *State) FreeActions(seat engine.Seat) []string {
	if s.Done || seat < 0 || int(seat) >= s.PlayerCount {
		return nil
	}
	who := int(seat)
	p := &s.Seats[who]
	cands := []Action{{Verb: vLoan}}
	for i := range p.Slots {
		cands = append(cands, Action{Verb: vLoan, Vals: []int{i + 1}})
	}
	for i := 0; i < len(p.Slots)+len(p.Extra); i++ {
		cands = append(cands, Action{Verb: vRepay, Vals: []int{i + 1}})
	}
	for _, k := range []string{"die", "income", "gear", "pound"} {
		cands = append(cands, Action{Verb: vExchange, Key: k})
	}
	for _, k := range []string{"energy", "gear"} {
		cands = append(cands, Action{Verb: vBuy, Key: k}, Action{Verb: vSell, Key: k})
	}
	cands = append(cands, Action{Verb: vAsk, Key: "down"}, Action{Verb: vAsk, Key: "pass"}, Action{Verb: vAsk, Key: "bonus"}, Action{Verb: vAsk, Key: "act"})
	var out []string
	for _, a := range cands {
		if s.checkFree(who, a) == nil {
			out = append(out, a.String())
		}
	}
	return out
}

// passOnly is the phase 2 or 5 prompt of a seat that can only pass; it
// may pass from now on without being asked (see Player.AutoPass). Shared:
// callers must not modify it.
var passOnly = []string{"pass", "pass always"}

func actionStrings(as []Action) []string { return actionTexts(as, Action.String) }

// actionTexts writes each action with text.
func actionTexts(as []Action, text func(Action) string) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = text(a)
	}
	return out
}

func decisionKind(k taskKind) string {
	switch k {
	case dAssistant:
		return "assistant"
	case dDown, dForcedDown:
		return "down"
	case dGreen:
		return "green"
	case dReplace, dLoanSlot:
		return "replace"
	case dPoster:
		return "poster"
	case dBonus:
		return "bonus"
	case dTarget:
		return "target"
	case dWatch:
		return "watch"
	case dPay:
		return "pay"
	case dInstant:
		return "instant"
	}
	return "decide"
}

// placeActions lists the legal placements of phase 2 and pass (this runs
// once per placement, so it avoids waste). It applies placeProblem's rule
// space by space: the open spaces seat can pay for are found once, then
// each distinct die value keeps those whose minimum it meets, in the order
// placeProblem's callers expect (value, location, space).
func (s *State) placeActions(seat int) []string {
	p := &s.Seats[seat]
	type openSpace struct { // packed: this list is walked often
		texts *placeTexts
		min   int8
		// tails are the kinds of answer a placement here carries (see
		// checkPlaceTail), kinds[from:to]; none when it leads to no question
		from, to uint8
	}
	var buf [40]openSpace
	open := buf[:0]
	var kindBuf [64]int
	kinds := kindBuf[:0]
	var asst assistantOptions
	haveAsst := false
	var atMin [8]int // texts of the open spaces by minimum die value (7: above 6)
	pounds := p.Pounds
	sides := s.r.sides[s.PlayerCount]
	for l := range s.Boards {
		dice, spaces, texts := s.Boards[l].Dice, sides[l].Dice, s.r.placeAt[l]
		n := min(len(dice), len(spaces), len(texts))
		dice, spaces, texts = dice[:n], spaces[:n], texts[:n]
		for sp := range dice {
			ds := &spaces[sp]
			if dice[sp].Owner >= 0 || pounds < ds.Fee {
				continue
			}
			m, w := min(max(ds.Min, 0), 7), 1
			from := len(kinds)
			if ds.Assistant {
				if !haveAsst {
					s.assistantOptions(&asst, seat)
					haveAsst = true
				}
				kinds = asst.appendKinds(kinds)
				w = max(len(kinds)-from, 1)
			}
			open = append(open, openSpace{texts: &texts[sp], min: int8(m), from: uint8(from), to: uint8(len(kinds))})
			atMin[m] += w // a die of value v lists this space's texts when v >= its minimum
		}
	}
	// The list is sized exactly: a value lists the texts of every space
	// whose minimum it meets.
	n, seen := 1, 0 // pass
	var distinct [7]int
	values := distinct[:0] // in the order of the seat's dice
	for _, v := range p.Vals {
		if v >= 0 && v <= 6 && seen&(1<<v) == 0 {
			seen |= 1 << v
			values = append(values, v)
			for m := range atMin[:v+1] {
				n += atMin[m]
			}
		}
	}
	if n == 1 {
		return passOnly
	}
	// A placement on a space with an assistant action is listed with each
	// answer it may carry, in ready-made texts.
	out := make([]string, 0, n)
	for _, v := range values {
		for _, o := range open {
			switch {
			case v < int(o.min):
			case o.to > o.from:
				texts := o.texts.with[v]
				for _, k := range kinds[o.from:o.to] {
					out = append(out, texts[k])
				}
			default:
				out = append(out, o.texts.plain[v])
			}
		}
	}
	return append(out, "pass")
}

// Revisable implements engine.Revisable: in phase 1, before the reveal, a
// seat that has chosen its dice may choose them again.
func (s *State) Revisable(seat engine.Seat) (engine.Prompt, bool) {
	if s.Done || s.CurrentPhase != phaseDice || s.Revealed || s.waiting() || seat < 0 || int(seat) >= s.PlayerCount {
		return engine.Prompt{}, false
	}
	p := &s.Seats[seat]
	if !p.Sub {
		return engine.Prompt{}, false
	}
	return engine.Prompt{Seat: seat, Kind: "dice", Text: &s.r.texts.revise[p.Dice],
		Actions: s.r.dice[p.Dice], Secret: true}, true
}
