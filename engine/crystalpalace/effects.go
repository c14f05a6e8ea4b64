package crystalpalace

import (
	"slices"

	"github.com/meeplegames/meeple/engine"
)

// push puts tasks at the front of seat's queue, keeping their order.
func (s *State) push(seat int, tasks ...Task) {
	p := s.makeRoom(seat, len(tasks))
	copy(p.Queue, tasks)
}

// makeRoom moves seat's queue up by n tasks, for n new ones in front,
// and returns the seat's player.
func (s *State) makeRoom(seat, n int) *Player {
	p := &s.Seats[seat]
	old := len(p.Queue)
	if cap(p.Queue)-old < n {
		p.Queue = slices.Grow(p.Queue, max(n, 4)) // a queue holds a few tasks
	}
	p.Queue = p.Queue[:old+n]
	copy(p.Queue[n:], p.Queue[:old])
	return p
}

// pop removes the first task of seat's queue, keeping the queue's array for
// the tasks pushed later.
func (s *State) pop(seat int) {
	p := &s.Seats[seat]
	p.Queue = p.Queue[:copy(p.Queue, p.Queue[1:])]
}

// effectTask is effect e as a task attributing VP to src.
func effectTask(e Effect, src int) Task {
	return Task{Kind: tEffect, Gain: e.gain, Amount: e.N, Per: e.metric, Div: e.Div, Free: e.Free, Src: src}
}

// appendEffectTasks appends effects as tasks attributing VP to src.
func appendEffectTasks(out []Task, effs []Effect, src int) []Task {
	for _, e := range effs {
		out = append(out, effectTask(e, src))
	}
	return out
}

// pushEffects queues effects for seat before its other tasks.
func (s *State) pushEffects(seat int, effs []Effect, src int) {
	if len(effs) > 0 {
		p := s.makeRoom(seat, len(effs))
		for i, e := range effs {
			p.Queue[i] = effectTask(e, src)
		}
	}
}

// count is the value of metric m for seat.
func (s *State) count(seat int, m metric) int {
	p := &s.Seats[seat]
	switch m {
	case metricCharacters:
		return len(p.Chars)
	case metricPrototypes:
		return len(p.Protos)
	case metricPatents:
		return len(p.Patents)
	case metricResearch, metricInstantResearch, metricGreenResearch:
		n := 0
		for _, sl := range p.Slots {
			if sl.Kind != slotResearch {
				continue
			}
			r := &s.c.Research[sl.ID]
			if m == metricResearch || (m == metricInstantResearch && len(r.Instant) > 0) || (m == metricGreenResearch && len(r.Phase6) > 0) {
				n++
			}
		}
		return n
	case metricWestminster:
		return p.West
	case metricDice:
		return p.Dice + p.New + p.Tick
	case metricBuzz:
		return p.Buzz
	case metricShares:
		return len(p.Shares)
	case metricIncome:
		return s.c.Tracks.Income[p.Income].Income
	case metricMarket:
		n := 0
		for _, o := range s.Market {
			if o == seat {
				n++
			}
		}
		return n
	case metricNewspapers:
		return p.News
	case metricGears:
		return p.Gears
	case metricEnergy:
		return p.Energy
	case metricLoans:
		n := 0
		for _, sl := range p.Slots {
			if sl.Kind == slotLoan {
				n++
			}
		}
		return n + len(p.Extra)
	case metricPounds:
		return p.Pounds
	}
	return 0
}

// maxEffect bounds the size of one effect. Content bounds keep N small,
// but an effect counted per pounds (or Buzz, …) could otherwise grow a
// little more each time until it overflowed.
const maxEffect = 1000

// amount is the size of an effect for seat: N, or N per Div of the metric,
// within ±maxEffect.
func (s *State) amount(seat int, t Task) int {
	if t.Per == metricNone {
		return t.Amount
	}
	d := max(t.Div, 1)
	n := min(s.count(seat, t.Per)/d, maxEffect)
	return min(max(t.Amount*n, -maxEffect), maxEffect)
}

func (s *State) addVP(seat, n, src int) {
	p := &s.Seats[seat]
	p.VP += n
	p.VPBy[src] += n
}

// pay takes n pounds from seat. When seat is short but holds newspapers or
// goods, it first decides: raise the money with free actions (exchanges,
// selling) or pay with loans. With nothing to raise, loans cover the rest at once.
func (s *State) pay(seat, n int) {
	p := &s.Seats[seat]
	switch {
	case p.Pounds >= n:
		p.Pounds -= n
	case p.News+p.Gears+p.Energy > 0:
		s.push(seat, Task{Kind: dPay, Amount: n, Why: s.cause})
	default:
		s.payWithLoans(seat, n)
	}
}

// payWithLoans pays n pounds, taking loans for what is missing.
func (s *State) payWithLoans(seat, n int) {
	p := &s.Seats[seat]
	for p.Pounds < n {
		s.takeLoan(seat, -1, true)
	}
	p.Pounds -= n
}

// takeLoan draws a loan tile for seat and gives the pounds. slot is the
// research space the loan replaces when the mat is full (-1: ask, or place
// it beside the mat when every space holds a loan).
func (s *State) takeLoan(seat, slot int, forced bool) {
	p := &s.Seats[seat]
	vp := -10 // the pile is empty: a loan still costs the most
	if n := len(s.Loans); n > 0 {
		vp = s.Loans[n-1]
		s.Loans = s.Loans[:n-1]
	}
	p.Pounds += s.c.Tracks.Economy.LoanPounds
	id := "cp.log.loan"
	if forced {
		id = "cp.log.loan_forced"
	}
	s.emit(engine.EventAction, seat, s.say(id, engine.Who("Who", engine.Seat(seat)), engine.Num("VP", vp)), true)
	loan := Slot{Kind: slotLoan, ID: vp}
	if i := freeSlot(p); i >= 0 {
		p.Slots[i] = loan
		return
	}
	if slot >= 0 {
		s.Discarded = append(s.Discarded, p.Slots[slot].ID)
		p.Slots[slot] = loan
		return
	}
	if researchSlots(p) == 0 {
		p.Extra = append(p.Extra, loan)
		return
	}
	s.push(seat, Task{Kind: dLoanSlot, Subject: vp})
}

func freeSlot(p *Player) int {
	for i, sl := range p.Slots {
		if sl.Kind == slotEmpty {
			return i
		}
	}
	return -1
}

func researchSlots(p *Player) int {
	n := 0
	for _, sl := range p.Slots {
		if sl.Kind == slotResearch {
			n++
		}
	}
	return n
}

// canReceiveResearch: a free space, or a research tile to replace.
func canReceiveResearch(p *Player) bool { return freeSlot(p) >= 0 || researchSlots(p) > 0 }

// giveResearch puts tile on seat's mat, asking which tile to replace when full.
func (s *State) giveResearch(seat, tile int) {
	p := &s.Seats[seat]
	if i := freeSlot(p); i >= 0 {
		p.Slots[i] = Slot{Kind: slotResearch, ID: tile}
		s.pushEffects(seat, s.c.Research[tile].Instant, vpEffects)
		return
	}
	if researchSlots(p) > 0 {
		s.push(seat, Task{Kind: dReplace, Subject: tile})
	}
}

// moveIncome moves seat n steps on the income track: pounds beyond the top,
// a pound per step below the bottom.
func (s *State) moveIncome(seat, n int) {
	p := &s.Seats[seat]
	top := len(s.c.Tracks.Income) - 1
	to := p.Income + n
	switch {
	case to > top:
		p.Pounds += to - top
		to = top
	case to < 0:
		s.pay(seat, -to)
		to = 0
	}
	p.Income = to
}

// moveBuzz advances seat n steps on the Buzz track, with flyers and posters
// on the way; steps beyond the end are forfeited.
func (s *State) moveBuzz(seat, n int) {
	p := &s.Seats[seat]
	bt := &s.c.Tracks.Buzz
	from := p.Buzz
	to := min(from+n, bt.Length)
	if to <= from {
		return
	}
	p.Buzz = to
	var tasks []Task
	for sp := from + 1; sp <= to; sp++ {
		for _, f := range s.FlyerAt {
			if f.Space == sp {
				for _, e := range s.c.Flyers[f.Flyer].Effect {
					t := effectTask(e, vpEffects)
					t.Subject = causeFlyer
					tasks = append(tasks, t)
				}
			}
		}
		for i, po := range bt.Posters {
			if po.Space == sp && len(p.Tokens) < 2 && !hasInt(p.Tokens, sp) {
				tasks = append(tasks, Task{Kind: dPoster, Subject: i})
			}
		}
	}
	if to == bt.Length && !hasInt(s.Tickets, seat) && len(s.Tickets) < bt.Tickets {
		s.Tickets = append(s.Tickets, seat)
	}
	if len(tasks) > 0 {
		s.push(seat, tasks...)
	}
}

func hasInt(a []int, v int) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

// advanceWestminster moves seat one step with the space's bonus, or offers
// the choice on the last space.
func (s *State) advanceWestminster(seat int) {
	p := &s.Seats[seat]
	w := s.c.Tracks.Westminster
	if p.West >= len(w)-1 {
		s.push(seat, Task{Kind: dBonus, Subject: -1})
		return
	}
	p.West++
	s.pushEffects(seat, w[p.West].Bonus, vpEffects)
}

// marketFree returns the lowest free tier at or above from, or -1.
func (s *State) marketFreeAbove(from int) int {
	for t := from; t < len(s.Market); t++ {
		if s.Market[t] < 0 {
			return t
		}
	}
	return -1
}

// occupy puts seat's assistant on tier t; filling the last free space bursts
// the Black Market.
func (s *State) occupy(seat, t int) {
	s.Market[t] = seat
	if s.marketFreeAbove(0) >= 0 {
		return
	}
	s.emit(engine.EventAction, seat, s.say("cp.log.market.burst"), false)
	for i, o := range s.Market {
		if i != t && o >= 0 {
			s.Seats[o].Asst++
			s.Market[i] = -1
			s.emit(EventChange, o, s.say("cp.log.market.home", engine.Who("Who", engine.Seat(o)), engine.Num("Tier", i+1)), false)
		}
	}
}

// marketFreeBelow is the highest free tier below t, or -1.
func (s *State) marketFreeBelow(t int) int {
	for i := t - 1; i >= 0; i-- {
		if s.Market[i] < 0 {
			return i
		}
	}
	return -1
}

// moveDown moves seat's assistant on tier t to the next free space below,
// or off the market; with gear, a gear from the yellow banner when it moved
// from the banner tier or higher.
func (s *State) moveDown(seat, t int, gear bool) {
	s.Market[t] = -1
	if to := s.marketFreeBelow(t); to >= 0 {
		s.Market[to] = seat
	} else {
		s.Seats[seat].Asst++
	}
	if gear && s.downGear(t) {
		s.MarketGears--
		s.Seats[seat].Gears++
	}
}

// downGear reports whether moving an assistant down from tier t (from 0)
// after a placement takes a gear from the yellow banner.
func (s *State) downGear(t int) bool {
	return t+1 >= s.market().BannerTier && s.MarketGears > 0
}

// objectiveMet: the condition of seat's next objective level holds.
func (s *State) objectiveMet(seat int) bool {
	p := &s.Seats[seat]
	obj := s.c.Mats[p.Mat].Objective
	if p.Obj >= len(obj) {
		return false
	}
	o := obj[p.Obj]
	return s.count(seat, o.metric) >= o.Min
}

// appendGreenSources appends seat's green bonuses to out as "green …" actions.
// The one-off green bonus (Westminster IV, Waterloo) uses a green-banner
// bonus: the rulebook names research tiles and Black Market spaces there,
// and its phase 6 list adds the Pocket Watch. Characters' phase 6 abilities
// sit on a phase banner, not a green one, so they are no source.
func (s *State) appendGreenSources(out []Action, seat int) []Action {
	p := &s.Seats[seat]
	for i, sl := range p.Slots {
		if sl.Kind == slotResearch && len(s.c.Research[sl.ID].Phase6) > 0 && !hasGreen(s.c.Research[sl.ID].Phase6) {
			out = append(out, Action{Verb: vGreen, Key: srcResearch, Vals: s.num(i + 1)})
		}
	}
	for t, o := range s.Market {
		if o == seat && len(s.market().Spaces[t].Effect) > 0 && !hasGreen(s.market().Spaces[t].Effect) {
			out = append(out, Action{Verb: vGreen, Key: srcMarket, Vals: s.num(t + 1)})
		}
	}
	if s.Watch == seat && s.WatchPounds {
		out = append(out, Action{Verb: vGreen, Key: srcWatch})
	}
	return out
}

// greenEffects queues every green bonus of seat (phase 6 step 3).
func (s *State) greenEffects(seat int) []Task { return s.appendGreenEffects(nil, seat) }

// appendGreenEffects appends seat's green bonuses to tasks.
func (s *State) appendGreenEffects(tasks []Task, seat int) []Task {
	p := &s.Seats[seat]
	for _, sl := range p.Slots {
		if sl.Kind == slotResearch {
			tasks = appendEffectTasks(tasks, s.c.Research[sl.ID].Phase6, vpEffects)
		}
	}
	for t, o := range s.Market {
		if o == seat {
			tasks = appendEffectTasks(tasks, s.market().Spaces[t].Effect, vpEffects)
		}
	}
	for _, ch := range p.Chars {
		if a := s.c.Characters[ch].Ability; a.Phase == phaseIncome {
			tasks = appendEffectTasks(tasks, a.Effect, vpCharacters)
		}
	}
	if s.Watch == seat && s.WatchPounds {
		tasks = append(tasks, Task{Kind: tEffect, Gain: gainPounds, Amount: s.c.Tracks.Watch.Phase6Pounds, Src: vpWatch})
	}
	return tasks
}

// applyGreen uses the green bonus named by a (already checked).
func (s *State) applyGreen(seat int, a Action) {
	if a.Key == srcWatch {
		s.push(seat, Task{Kind: tEffect, Gain: gainPounds, Amount: s.c.Tracks.Watch.Phase6Pounds, Src: vpWatch})
		return
	}
	s.pushEffects(seat, s.greenSourceEffects(seat, a), vpEffects)
}

// greenSourceEffects are the effects of green bonus source a of seat: a
// research tile's or a Black Market space's (none for the Pocket Watch,
// which pays pounds).
func (s *State) greenSourceEffects(seat int, a Action) []Effect {
	switch a.Key {
	case srcResearch:
		return s.c.Research[s.Seats[seat].Slots[a.Vals[0]-1].ID].Phase6
	case srcMarket:
		return s.market().Spaces[a.Vals[0]-1].Effect
	}
	return nil
}

// applyEffect performs one immediate task for seat.
func (s *State) applyEffect(seat int, t Task) {
	p := &s.Seats[seat]
	e := &s.c.Tracks.Economy
	n := s.amount(seat, t)
	switch t.Gain {
	case gainPounds:
		if n >= 0 {
			p.Pounds += n
		} else {
			s.pay(seat, -n)
		}
	case gainVP:
		s.addVP(seat, n, t.Src)
	case gainGears:
		p.Gears = max(p.Gears+n, 0)
	case gainEnergy:
		p.Energy = max(p.Energy+n, 0)
	case gainNewspapers:
		p.News = min(max(p.News+n, 0), e.MaxNewspapers)
	case gainIncome:
		s.moveIncome(seat, n)
	case gainBuzz:
		s.moveBuzz(seat, n)
	case gainWestminster:
		for i := 0; i < n; i++ {
			s.advanceWestminster(seat)
		}
	case gainAssistant:
		s.push(seat, Task{Kind: dAssistant, Free: t.Free})
	case gainMarketPlace:
		if p.Asst > 0 {
			if tier := s.marketFreeAbove(0); tier >= 0 {
				p.Asst--
				s.emit(EventChange, seat, s.say("cp.log.market.place", engine.Who("Who", engine.Seat(seat)), engine.Num("Tier", tier+1)), false)
				s.occupy(seat, tier)
			}
		}
	case gainMarketDown:
		s.push(seat, Task{Kind: dForcedDown})
	case gainDie:
		if p.Dice+p.New+p.Tick < e.MaxDice {
			p.New++
		}
	case gainGreen:
		s.push(seat, Task{Kind: dGreen})
	case gainMuseum, gainVioletBlue, gainVioletOrange:
		deck := &s.GreenDeck
		if t.Gain == gainVioletBlue {
			deck = &s.VioletBlue
		} else if t.Gain == gainVioletOrange {
			deck = &s.VioletOrange
		}
		if len(*deck) > 0 && canReceiveResearch(p) {
			tile := (*deck)[0]
			*deck = (*deck)[1:]
			s.emit(engine.EventAction, seat, s.say("cp.log.draw", engine.Who("Who", engine.Seat(seat)), s.tileArg("Tile", tile)), true)
			s.giveResearch(seat, tile)
		}
	case gainWatch:
		s.push(seat, Task{Kind: dWatch})
	case gainObjective:
		if s.objectiveMet(seat) {
			p.Obj++
		}
	}
}

// autoResolve settles decisions with no real choice. It returns false when
// seat must decide t.
func (s *State) autoResolve(seat int, t Task) (done bool) {
	switch t.Kind {
	case dAssistant:
		var buf [8]Action
		return len(s.appendDecisionActions(buf[:0], seat, t)) <= 1 // only "skip"
	case dDown:
		return s.Seats[seat].NoDown || !s.hasOwnAssistant(seat)
	case dForcedDown, dGreen:
		var buf [8]Action
		opts := s.appendDecisionActions(buf[:0], seat, t)
		if len(opts) == 1 {
			s.answerOnly(seat, t, opts[0])
		}
		return len(opts) <= 1
	case dPoster:
		p := &s.Seats[seat]
		return len(p.Tokens) >= 2 || hasInt(p.Tokens, s.c.Tracks.Buzz.Posters[t.Subject].Space)
	case dBonus:
		p := &s.Seats[seat]
		for i, pk := range p.Picks {
			if pk.Poster != t.Subject {
				continue
			}
			who, bonus := engine.Who("Who", engine.Seat(seat)), s.bonusArg(t.Subject, pk.Key)
			if pk.Once {
				p.Picks = append(p.Picks[:i], p.Picks[i+1:]...)
				s.emit(engine.EventAction, seat, s.say("cp.log.bonus_chosen", who, bonus, engine.Num("Poster", s.c.Tracks.Buzz.Posters[t.Subject].Space)), false)
			} else {
				s.emit(engine.EventAction, seat, s.say("cp.log.bonus_auto", who, bonus), false)
			}
			s.answer(seat, t, Action{Verb: vBonus, Key: pk.Key})
			return true
		}
	case dPay:
		if p := &s.Seats[seat]; p.Pounds >= t.Amount {
			s.report(seat, "") // the money raised has causes of its own
			p.Pounds -= t.Amount
			s.report(seat, t.Why)
			return true
		}
	case dReplace, dLoanSlot:
		if researchSlots(&s.Seats[seat]) == 0 {
			if t.Kind == dLoanSlot {
				s.Seats[seat].Extra = append(s.Seats[seat].Extra, Slot{Kind: slotLoan, ID: t.Subject})
			}
			return true
		}
	}
	return false
}

// answerOnly gives a, the one answer decision t of seat has, without
// asking; the log says so.
func (s *State) answerOnly(seat int, t Task, a Action) {
	if text := s.narrate(seat, a); !text.IsZero() {
		s.emitDoing(seat, s.say("cp.log.only_answer", engine.Nested("Doing", text)))
	}
	s.answer(seat, t, a)
}

// settle applies every immediate task of every seat until each queue is
// empty or waits for a decision; it reports whether it did anything.
func (s *State) settle() (did bool) {
	for changed := true; changed; {
		changed = false
		for _, seat := range s.Order {
			if len(s.Seats[seat].Queue) > 0 && s.settleSeat(seat) { // most queues are empty
				changed, did = true, true
			}
		}
	}
	return did
}

// settleSeat works through seat's queue; it reports whether it did anything.
func (s *State) settleSeat(seat int) (did bool) {
	for {
		p := &s.Seats[seat]
		if len(p.Queue) == 0 {
			return did
		}
		t := p.Queue[0]
		if t.Kind.decision() {
			if !s.autoResolve(seat, t) {
				return did
			}
			s.popTask(seat, t)
			did = true
			continue
		}
		did = true
		s.pop(seat)
		s.applyTask(seat, t)
	}
}

// applyTask performs the immediate task t of seat. Changes with a cause of
// their own (income, salaries, …) are reported to the log at once; the
// others join the action's changes, reported when the game settles.
func (s *State) applyTask(seat int, t Task) {
	p := &s.Seats[seat]
	cause := s.taskCause(t)
	if cause != "" {
		s.report(seat, "") // what came before has a cause of its own
	}
	outer := s.cause
	s.cause = cause
	switch t.Kind {
	case tEffect:
		s.applyEffect(seat, t)
	case tIncome:
		sp := s.c.Tracks.Income[p.Income]
		p.Pounds += sp.Income
		if sp.Red {
			s.addVP(seat, s.c.Tracks.Economy.RedSpaceVP, vpIncomePenalty)
		}
	case tExpense:
		s.moveIncome(seat, -s.c.Tracks.Economy.ExpenseSteps)
	case tAct:
		s.act(seat, t)
	case tPosters:
		p.PosterStep = true
		for _, sp := range p.Tokens {
			s.posterBonus(seat, sp)
		}
	}
	s.cause = outer
	if cause != "" {
		s.report(seat, cause)
	}
}

// popTask removes the decision t that autoResolve settled, wherever it went
// in the queue after new tasks were pushed in front of it.
func (s *State) popTask(seat int, t Task) {
	p := &s.Seats[seat]
	for i := range p.Queue {
		if p.Queue[i] == t {
			p.Queue = append(p.Queue[:i], p.Queue[i+1:]...) // in place, as pop
			return
		}
	}
}

// posterBonus gives the phase 6 bonus of the poster on space sp.
func (s *State) posterBonus(seat, sp int) {
	for i, po := range s.c.Tracks.Buzz.Posters {
		if po.Space != sp {
			continue
		}
		if len(po.Choice) > 0 {
			s.push(seat, Task{Kind: dBonus, Subject: i})
		} else {
			s.pushEffects(seat, po.Effect, vpPosters)
		}
	}
}

func (s *State) waiting() bool {
	for i := range s.Seats {
		if len(s.Seats[i].Queue) > 0 {
			return true
		}
	}
	return false
}

// hasGreen: the effects use a green bonus themselves, so they cannot be the
// green bonus chosen (that would never end).
func hasGreen(effs []Effect) bool {
	for _, e := range effs {
		if e.gain == gainGreen {
			return true
		}
	}
	return false
}
