package crystalpalace

import (
	"slices"

	"github.com/meeplegames/meeple/engine"
)

// phase is one of the seven phases of a round, by the rulebook's number,
// which is also what a stored state holds.
type phase int

const (
	phaseDice     phase = 1 // choose dice values in secret, then reveal them
	phasePlace    phase = 2 // place dice, in turn order
	phaseActions  phase = 3 // resolve the locations one by one
	phaseSalaries phase = 4 // pay assistants; phase-4 abilities
	phaseBuild    phase = 5 // build prototypes, in turn order
	phaseIncome   phase = 6 // income, expenses, green effects, Buzz posters
	phaseNewRound phase = 7 // set up the next round
)

// run settles tasks and moves the game on until it waits for someone.
func (s *State) run() {
	for guard := 0; guard < 10000; guard++ {
		if s.settle() {
			s.reportAll("") // what came before was reported already
		}
		if s.Done || s.waiting() {
			return
		}
		ph := s.CurrentPhase
		s.cause = stepCause(ph)
		stepped := s.step()
		s.cause = ""
		s.reportAll(stepCause(ph))
		if !stepped {
			return
		}
	}
}

func (s *State) setPhase(ph phase) {
	s.CurrentPhase = ph
	s.emit(engine.EventPhase, -1, s.phaseText(), false)
}

// step advances the phase machine by one automatic step; false means the
// game waits for a phase prompt.
func (s *State) step() bool {
	switch s.CurrentPhase {
	case phaseDice:
		for i := range s.Seats {
			if !s.Seats[i].Sub {
				return false
			}
		}
		s.reveal()
		return true
	case phasePlace:
		if s.Moved {
			s.Moved = false
			s.Turn = (s.Turn + 1) % s.PlayerCount
		}
		for k := 0; k < s.PlayerCount; k++ {
			seat := s.Order[(s.Turn+k)%s.PlayerCount]
			if p := &s.Seats[seat]; !p.Passed && len(p.Vals) > 0 {
				if !s.canPlace(seat) && (p.AutoPass || s.placesNowhere(seat)) {
					// "pass always" passes when no space is paid for by the
					// pounds at hand; without it, only when pass is the one answer
					id := "cp.log.pass.auto.dice"
					if !p.AutoPass {
						id = "cp.log.pass.none.dice"
					}
					p.Passed = true
					s.emit(engine.EventAction, seat, s.say(id, engine.Who("Who", engine.Seat(seat))), false)
					continue
				}
				s.Turn = (s.Turn + k) % s.PlayerCount
				return false
			}
		}
		s.Location = 0
		s.setPhase(phaseActions)
		return true
	case phaseActions:
		return s.step3()
	case phaseSalaries:
		if !s.Queued { // salaries and abilities first, then phase 5
			s.Queued = true
			for _, seat := range s.Order {
				s.phase4(seat)
			}
			return true
		}
		s.Queued = false
		s.Turn = 0
		for i := range s.Seats {
			s.Seats[i].Built, s.Seats[i].Ability5, s.Seats[i].Passed = 0, false, false
		}
		s.setPhase(phaseBuild)
		return true
	case phaseBuild:
		if s.Turn >= s.PlayerCount {
			s.Turn = 0
			s.setPhase(phaseIncome)
			return true
		}
		seat := s.Order[s.Turn]
		p := &s.Seats[seat]
		if !p.Ability5 {
			p.Ability5 = true
			for _, ch := range p.Chars {
				if a := s.c.Characters[ch].Ability; a.Phase == phaseBuild {
					s.pushEffects(seat, a.Effect, vpCharacters)
				}
			}
			return true
		}
		if !p.Passed && p.Built < s.c.Tracks.Economy.PrototypesPerRound && len(p.Patents) > 0 {
			if !p.AutoPass || s.canBuild(seat) {
				return false
			}
			p.Passed = true
			s.emit(engine.EventAction, seat, s.say("cp.log.pass.auto.build", engine.Who("Who", engine.Seat(seat))), false)
		}
		s.Turn++
		return true
	case phaseIncome:
		// The four steps are played together, step by step, in player
		// order: a step starts once every seat has finished the one before,
		// so step 3 uses the green effects a seat has after step 2.
		if s.Turn < phase6Steps {
			for _, seat := range s.Order {
				s.Seats[seat].Queue = s.appendPhase6Tasks(s.Seats[seat].Queue, seat, s.Turn)
			}
			s.Turn++
			return true
		}
		if s.Round == 5 {
			s.endScoring()
			return false
		}
		s.setPhase(phaseNewRound)
		s.phase7()
		return true
	}
	return false
}

// phase6Steps is the number of steps of phase 6.
const phase6Steps = 4

// appendPhase6Tasks appends to q seat's tasks for step (from 0) of phase
// 6: income, special expenses, green effects, Buzz posters.
func (s *State) appendPhase6Tasks(q []Task, seat, step int) []Task {
	switch step {
	case 0:
		return append(q, Task{Kind: tIncome})
	case 1:
		return append(q, Task{Kind: tExpense})
	case 2:
		return s.appendGreenEffects(q, seat)
	}
	return append(q, Task{Kind: tPosters})
}

// reveal ends phase 1: dice shown and paid, first player, newspapers.
func (s *State) reveal() {
	s.Revealed = true
	totals := make([]int, s.PlayerCount)
	var shown engine.Text // each seat's dice, the first seat's outermost (cp.log.reveal_seat)
	for seat := len(s.Seats) - 1; seat >= 0; seat-- {
		p := &s.Seats[seat]
		p.Shown = cloneInts(p.Vals)
		for _, v := range p.Vals {
			totals[seat] += v
		}
		shown = engine.Say("cp.log.reveal_seat", engine.Who("Who", engine.Seat(seat)),
			engine.Code("Dice", Action{Verb: vDice, Vals: p.Vals}.String()[5:]), engine.Nested("Next", shown))
	}
	s.emit(engine.EventReveal, -1, s.say("cp.log.reveal", engine.Nested("Dice", shown)), true)
	for seat := range s.Seats {
		s.pay(seat, totals[seat])
	}
	s.First = s.firstPlayer(totals)
	s.Order = make([]int, s.PlayerCount)
	for i := range s.Order {
		s.Order[i] = (s.First + i) % s.PlayerCount
	}
	low, high := totals[0], totals[0]
	for _, t := range totals {
		low, high = min(low, t), max(high, t)
	}
	for seat, t := range totals {
		if t == low && !(low == high && seat == s.First) {
			// After the dice are paid for: the newspaper cannot pay for them.
			s.Seats[seat].Queue = append(s.Seats[seat].Queue, Task{Kind: tEffect, Gain: gainNewspapers, Amount: 1, Src: vpEffects, Subject: causeLowestDice})
		}
	}
	s.reportAll("dice paid")
	s.emit(engine.EventAction, s.First, s.say("cp.log.first", engine.Who("Who", engine.Seat(s.First))), false)
	s.Turn = 0
	s.Moved = false
	for i := range s.Seats {
		s.Seats[i].Passed = false
		s.Seats[i].Sub = false
	}
	s.setPhase(phasePlace)
}

// firstPlayer applies the tiebreak: highest total, then highest single
// values in turn, then earlier in last round's order, at random in round 1.
func (s *State) firstPlayer(totals []int) int {
	cmp := func(a, b int) int { // >0 when a beats b
		if totals[a] != totals[b] {
			return totals[a] - totals[b]
		}
		va, vb := s.Seats[a].Vals, s.Seats[b].Vals
		for i := 0; i < len(va) && i < len(vb); i++ {
			if va[i] != vb[i] {
				return va[i] - vb[i]
			}
		}
		return len(va) - len(vb)
	}
	best := []int{0}
	for seat := 1; seat < s.PlayerCount; seat++ {
		switch c := cmp(seat, best[0]); {
		case c > 0:
			best = []int{seat}
		case c == 0:
			best = append(best, seat)
		}
	}
	if len(best) == 1 {
		return best[0]
	}
	if s.First < 0 {
		return best[s.RNG.Intn(len(best))]
	}
	for _, seat := range s.Order { // last round's order
		if slices.Contains(best, seat) {
			return seat
		}
	}
	return best[0]
}

// step3 resolves the next die of phase 3, or moves to the next location.
func (s *State) step3() bool {
	for s.Location < int(locCount) {
		i := s.nextDie()
		if i < 0 {
			s.Location++
			continue
		}
		b := &s.Boards[s.Location]
		if freeAct(b) < 0 {
			d := &b.Dice[i]
			d.Done = true
			s.Seats[d.Owner].Pounds += s.c.Tracks.Economy.Compensation
			s.emit(engine.EventAction, d.Owner, s.say("cp.log.no_space", engine.Who("Who", engine.Seat(d.Owner)), s.at(locKind(s.Location))), false)
			continue
		}
		if seat := b.Dice[i].Owner; len(s.Seats[seat].Queue) == 0 {
			switch text, ok := s.unaskedAction(seat); {
			case !ok:
			case text == "pass":
				s.autoPass(seat)
				return true
			default:
				s.autoAct(seat, text)
				return true
			}
		}
		return false
	}
	s.setPhase(phaseSalaries)
	return true
}

// autoAct takes action text for seat's die, which has no other possible
// action, without asking (see Player.AutoAt), its changes reported as the
// action's own.
func (s *State) autoAct(seat int, text string) {
	a, _ := ParseAction(text)
	s.reportAll(s.cause)
	outer := s.cause
	s.cause = ""
	s.emitDoing(seat, s.say("cp.log.as_always", engine.Nested("Doing", s.narrate(seat, a))))
	s.doAction(seat, a)
	s.settle()
	s.reportAll("")
	s.cause = outer
}

// placesNowhere reports whether none of seat's dice fits an open space in
// phase 2, whatever money it raises: passing is its one answer.
func (s *State) placesNowhere(seat int) bool {
	return !s.withRaisedMoney(seat).canPlace(seat)
}

// unaskedAction is the action seat's current die takes in phase 3 without
// asking, if any: pass when it has no possible action, or its one possible
// action when seat answered "… always" at this location (see
// Player.AutoAt). Either only
// when raising money would open no other action.
func (s *State) unaskedAction(seat int) (string, bool) {
	list := s.phaseActions(seat)
	if len(list) == 1 || s.Seats[seat].AutoAt&(1<<s.Location) != 0 && oneAction(list) {
		if slices.Equal(list, s.withRaisedMoney(seat).phaseActions(seat)) {
			return list[0], true
		}
	}
	return "", false
}

// oneAction reports whether a phase 3 prompt's answers offer one action:
// it, the same "always", and pass.
func oneAction(list []string) bool {
	if len(list) != 3 {
		return false
	}
	a, err := ParseAction(list[1])
	return err == nil && a.Always
}

// autoPass passes the current die of seat, which has no possible action,
// without asking; the log says why.
func (s *State) autoPass(seat int) {
	s.reportAll(s.cause)
	s.emit(engine.EventAction, seat, s.say("cp.log.pass.none.action", engine.Who("Who", engine.Seat(seat)), s.at(locKind(s.Location))), false)
	s.doAction(seat, Action{Verb: vPass})
}

// raisedPounds is more than any cost the content allows (see maxAmount),
// gears and energy bought with pounds included: what a seat could raise
// with loans, which can be taken at any time.
const raisedPounds = 1 << 20

// withRaisedMoney is a copy of s in which seat has raised every pound it
// could need. An automatic answer (a pass, a skipped decision, an action
// taken "always") is given only when this copy would not be offered more:
// raising money is a choice the player keeps.
func (s *State) withRaisedMoney(seat int) *State {
	t := s.clone()
	t.Seats[seat].Pounds += raisedPounds
	return t
}

// nextDie is the dice space of the unresolved die at the current location
// with the highest value, leftmost on ties; -1 when none.
func (s *State) nextDie() int {
	b := &s.Boards[s.Location]
	best := -1
	for i, d := range b.Dice {
		if d.Owner >= 0 && !d.Done && (best < 0 || d.Value > b.Dice[best].Value) {
			best = i
		}
	}
	return best
}

func freeAct(b *Board) int {
	for i, a := range b.Acts {
		if a.Owner < 0 {
			return i
		}
	}
	return -1
}

// phase4 pays seat's salaries and queues its phase 4 abilities.
func (s *State) phase4(seat int) {
	p := &s.Seats[seat]
	colour := s.c.Tracks.Westminster[p.West].Salary
	due := 0
	for _, ch := range p.Chars {
		due += s.c.Characters[ch].Salary[colour]
	}
	if due > 0 {
		s.pay(seat, due)
	}
	for _, ch := range p.Chars {
		if a := s.c.Characters[ch].Ability; a.Phase == phaseSalaries {
			s.Seats[seat].Queue = appendEffectTasks(s.Seats[seat].Queue, a.Effect, vpCharacters)
		}
	}
}

// phase7 prepares the next round.
func (s *State) phase7() {
	m := s.market()
	if s.MarketGears != m.Gears {
		s.emit(engine.EventAction, -1, s.say("cp.log.banner", engine.Num("Count", m.Gears)), false)
	}
	s.MarketGears = m.Gears
	s.stepMarketDown()
	for l := range s.Boards {
		b := &s.Boards[l]
		for i := range b.Dice {
			b.Dice[i] = Die{Owner: -1}
		}
		for i := range b.Acts {
			b.Acts[i] = Die{Owner: -1}
		}
		for i := range b.Poss {
			b.Poss[i] = -1
		}
	}
	for _, c := range s.PatentDisp {
		if c >= 0 {
			s.PatentDeck = append(s.PatentDeck, c)
		}
	}
	for _, c := range s.CharDisp {
		if c >= 0 {
			s.CharDeck = append(s.CharDeck, c)
		}
	}
	s.Round++
	s.fillDisplays()
	s.emit(engine.EventAction, -1, s.say("cp.log.refill"), true)
	for i := range s.Seats {
		p := &s.Seats[i]
		p.Dice += p.New
		p.New = 0
		p.Vals, p.Shown = nil, nil
		p.Sub, p.Passed, p.PosterStep = false, false, false
		p.Ability5 = false // Built lasts until phase 5: the prototype limit's reason
	}
	s.Revealed = false
	s.setPhase(phaseDice)
}

// stepMarketDown moves every assistant on the Black Market one tier down,
// the one on the lowest tier back to its owner, each move in the log.
func (s *State) stepMarketDown() {
	for t, o := range s.Market {
		if o < 0 {
			continue
		}
		text := s.say("cp.log.market.step_off", engine.Who("Who", engine.Seat(o)))
		if t == 0 {
			s.Seats[o].Asst++
		} else {
			text = s.say("cp.log.market.step_down", engine.Who("Who", engine.Seat(o)), engine.Num("From", t+1), engine.Num("To", t))
		}
		s.emit(EventChange, o, text, false)
	}
	copy(s.Market, s.Market[1:])
	s.Market[len(s.Market)-1] = -1
}

// decisionActions lists the answers to decision t of seat.
func (s *State) decisionActions(seat int, t Task) []Action {
	return s.appendDecisionActions(make([]Action, 0, 4), seat, t)
}

// appendDecisionActions appends the answers to decision t of seat to out;
// callers that only look at them pass a buffer on their stack.
func (s *State) appendDecisionActions(out []Action, seat int, t Task) []Action {
	p := &s.Seats[seat]
	switch t.Kind {
	case dAssistant:
		out = s.appendAssistantAnswers(out, seat)
	case dDown, dForcedDown:
		for tier, o := range s.Market {
			if o == seat {
				out = append(out, Action{Verb: vDown, Vals: s.num(tier + 1)})
			}
		}
		if t.Kind == dDown {
			out = append(out, Action{Verb: vSkip}, Action{Verb: vSkip, Always: true})
		}
	case dGreen:
		out = s.appendGreenSources(out, seat)
	case dReplace, dLoanSlot:
		for i, sl := range p.Slots {
			if sl.Kind == slotResearch {
				out = append(out, Action{Verb: vReplace, Vals: s.num(i + 1)})
			}
		}
	case dPoster:
		// a bonus paid this phase is chosen with the token, in one
		// question; the token alone (its bonus asked when paid) stays a
		// legal answer, as games logged before the one question hold it
		alts := s.posterChoiceNow(seat, t)
		for _, e := range alts {
			out = append(out, Action{Verb: vPoster, Key: e.gain.String()})
		}
		for _, e := range alts {
			out = append(out, Action{Verb: vPoster, Key: e.gain.String(), Always: true})
		}
		out = append(out, Action{Verb: vPoster}, Action{Verb: vSkip})
	case dBonus:
		alts := s.c.Tracks.WestminsterV
		if t.Subject >= 0 {
			alts = s.c.Tracks.Buzz.Posters[t.Subject].Choice
		}
		for _, e := range alts {
			out = append(out, Action{Verb: vBonus, Key: e.gain.String()})
		}
		if t.Subject >= 0 { // a poster's bonus comes back every phase 6: it may be chosen for good
			for _, e := range alts {
				out = append(out, Action{Verb: vBonus, Key: e.gain.String(), Always: true})
			}
		}
	case dTarget:
		for i := 0; i < s.PlayerCount; i++ {
			out = append(out, Action{Verb: vTarget, Vals: s.num(i + 1)})
		}
	case dWatch:
		out = append(out, Action{Verb: vWatch, Key: "vp"}, Action{Verb: vWatch, Key: "pounds"})
	case dPay:
		out = append(out, Action{Verb: vPay})
	case dInstant:
		out = append(out, Action{Verb: vAccept}, Action{Verb: vSkip})
	}
	return out
}

// appendAssistantAnswers appends the answers to an assistant action of
// seat. Each placement and move is offered whatever seat's pounds: a loan
// can be taken at any time, so raising money makes every one affordable,
// and a cost the pounds do not cover is settled as any debt is (see pay).
func (s *State) appendAssistantAnswers(out []Action, seat int) []Action {
	var o assistantOptions
	s.assistantOptions(&o, seat)
	return o.appendAnswers(out, s)
}

// assistantOptions are the assistant actions open to seat: whether its
// objective is met, what placing an assistant costs (-1: impossible), and
// each of its assistants that can move up with what the move costs.
type assistantOptions struct {
	objective bool
	place     int
	moves     [maxTiers]struct{ tier, cost int32 }
	n         int
}

// assistantOptions fills o with seat's assistant options.
func (s *State) assistantOptions(o *assistantOptions, seat int) {
	o.objective, o.place, o.n = s.objectiveMet(seat), -1, 0
	if tier := s.marketFreeAbove(0); tier >= 0 && s.Seats[seat].Asst > 0 {
		o.place = s.market().Spaces[tier].Cost
	}
	for tier, owner := range s.Market {
		if owner != seat || o.n == len(o.moves) {
			continue
		}
		if to := s.marketFreeAbove(tier + 1); to >= 0 {
			o.moves[o.n].tier, o.moves[o.n].cost = int32(tier), int32(s.market().Spaces[to].Cost)
			o.n++
		}
	}
}

// appendAnswers appends the answers to an assistant action of a seat with
// these options, skip last.
func (o *assistantOptions) appendAnswers(out []Action, s *State) []Action {
	if o.objective {
		out = append(out, Action{Verb: vObjective})
	}
	if o.place >= 0 {
		out = append(out, Action{Verb: vPlaceAsst})
	}
	for _, m := range o.moves[:o.n] {
		out = append(out, Action{Verb: vMoveAsst, Vals: s.num(int(m.tier) + 1)})
	}
	return append(out, Action{Verb: vSkip})
}

// appendKinds appends the kinds of the answers (tailOnly first, then
// tailObjective, tailMarket, tailMove+tier) a placement may carry for a
// seat with these options; nothing when the assistant action could only be
// skipped. It lists what appendAnswers lists.
func (o *assistantOptions) appendKinds(out []int) []int {
	start := len(out)
	out = append(out, tailOnly)
	if o.objective {
		out = append(out, tailObjective)
	}
	if o.place >= 0 {
		out = append(out, tailMarket)
	}
	for _, m := range o.moves[:o.n] {
		out = append(out, tailMove+int(m.tier))
	}
	if len(out) == start+1 {
		return out[:start]
	}
	return out
}

// posterChoiceNow is the bonus to choose between with the token when
// seat places one on the poster of decision t in phase 6: the posters
// step pays it this very phase (at once when the step is over), so the
// bonus is asked with the token, in one question. It is nil when there
// is nothing to choose, or when seat chose the poster's bonus for good.
func (s *State) posterChoiceNow(seat int, t Task) []Effect {
	p := &s.Seats[seat]
	po := &s.c.Tracks.Buzz.Posters[t.Subject]
	if s.CurrentPhase != phaseIncome || len(po.Choice) == 0 {
		return nil
	}
	for _, pk := range p.Picks {
		if pk.Poster == t.Subject {
			return nil
		}
	}
	return po.Choice
}

// answer performs decision t of seat with a (already checked against
// decisionActions). The caller removes t from the queue first.
func (s *State) answer(seat int, t Task, a Action) {
	p := &s.Seats[seat]
	switch a.Verb {
	case vObjective:
		p.Obj++
		s.emit(engine.EventAction, seat, s.say("cp.log.objective", engine.Who("Who", engine.Seat(seat)), engine.Num("Level", p.Obj)), false)
	case vPlaceAsst:
		tier := s.marketFreeAbove(0)
		if !t.Free {
			s.pay(seat, s.market().Spaces[tier].Cost)
		}
		p.Asst--
		s.occupy(seat, tier)
	case vMoveAsst:
		from := a.Vals[0] - 1
		to := s.marketFreeAbove(from + 1)
		s.pay(seat, s.market().Spaces[to].Cost)
		s.Market[from] = -1
		s.occupy(seat, to)
	case vDown:
		s.moveDown(seat, a.Vals[0]-1, t.Kind == dDown)
	case vSkip:
		if a.Always {
			p.NoDown = true
		}
	case vGreen:
		s.applyGreen(seat, a)
	case vReplace:
		i := a.Vals[0] - 1
		s.Discarded = append(s.Discarded, p.Slots[i].ID)
		if t.Kind == dLoanSlot {
			p.Slots[i] = Slot{Kind: slotLoan, ID: t.Subject}
		} else {
			p.Slots[i] = Slot{Kind: slotResearch, ID: t.Subject}
			s.pushEffects(seat, s.c.Research[t.Subject].Instant, vpEffects)
		}
	case vPoster:
		po := s.c.Tracks.Buzz.Posters[t.Subject]
		p.Tokens = append(p.Tokens, po.Space)
		switch {
		case p.PosterStep && s.CurrentPhase == phaseIncome:
			s.posterBonus(seat, po.Space)
			if a.Key != "" && len(p.Queue) > 0 && p.Queue[0].Kind == dBonus {
				bonus := p.Queue[0]
				s.pop(seat)
				s.answer(seat, bonus, Action{Verb: vBonus, Key: a.Key, Always: a.Always})
			}
		case a.Key != "":
			// the posters step of this phase is still to come: it pays
			// the bonus chosen now
			p.Picks = append(p.Picks, Pick{Poster: t.Subject, Key: a.Key, Once: !a.Always})
		}
	case vBonus:
		alts := s.c.Tracks.WestminsterV
		src := vpEffects
		if t.Subject >= 0 {
			alts, src = s.c.Tracks.Buzz.Posters[t.Subject].Choice, vpPosters
		}
		for _, e := range alts {
			if e.gain.String() == a.Key {
				s.pushEffects(seat, []Effect{e}, src)
				break
			}
		}
		if a.Always {
			p.Picks = append(p.Picks, Pick{Poster: t.Subject, Key: a.Key})
		}
	case vTarget:
		target := a.Vals[0] - 1
		s.emit(engine.EventAction, seat, s.say("cp.log.target", engine.Who("Who", engine.Seat(seat)), engine.Item("Prototype", s.c.keys.proto[t.Subject]), engine.Who("Target", engine.Seat(target))), false)
		s.pushEffects(target, s.c.Patents[t.Subject].Effect, vpEffects)
		for i := range s.c.Patents[t.Subject].Effect {
			s.Seats[target].Queue[i].Subject = causeTarget
		}
	case vPay:
		s.payWithLoans(seat, t.Amount)
	case vAccept:
		inst := s.c.Characters[t.Subject].Instant
		s.pushEffects(seat, inst[t.Amount:t.Amount+1], vpCharacters)
	case vWatch:
		s.Watch = seat
		s.WatchPounds = a.Key == "pounds"
		if !s.WatchPounds {
			s.addVP(seat, s.c.Tracks.Watch.TakeVP, vpWatch)
		}
	}
}
