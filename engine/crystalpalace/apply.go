package crystalpalace

import (
	"strconv"

	"github.com/meeplegames/meeple/engine"
)

// Apply implements engine.State: it checks action for seat with check, the
// predicate the prompts' actions are listed by, performs it and runs the
// game on until it waits for someone. On error the state is unchanged.
func (s *State) Apply(seat engine.Seat, text string) ([]engine.Event, error) {
	if s.Done {
		return nil, engine.RefuseWith(engine.ErrGameOver, engine.Say("cp.refuse.game_over"))
	}
	if seat < 0 || int(seat) >= s.PlayerCount {
		return nil, notYourTurn("cp.refuse.not_seated")
	}
	a, err := ParseAction(text)
	if err != nil {
		return nil, err
	}
	who := int(seat)
	if err := s.check(who, a); err != nil {
		return nil, err
	}
	s.startLedger()
	s.ev = s.out[len(s.out):] // written straight into the events' block (see emit)
	if text := s.narrate(who, a); !text.IsZero() {
		s.emitDoing(who, text)
	}
	s.do(who, a)
	s.reportAll("")
	s.run()
	return s.events(), nil
}

func isFree(v verb) bool {
	return v == vLoan || v == vRepay || v == vExchange || v == vBuy || v == vSell || v == vAsk
}

func sameAction(a, b Action) bool {
	if a.Verb != b.Verb || a.Key != b.Key || len(a.Vals) != len(b.Vals) || a.Tail != b.Tail || a.Always != b.Always || len(a.Then) != len(b.Then) {
		return false
	}
	for i := range a.Vals {
		if a.Vals[i] != b.Vals[i] {
			return false
		}
	}
	for i := range a.Then {
		if !sameAction(a.Then[i], b.Then[i]) {
			return false
		}
	}
	return true
}

// current is the seat the phase prompt belongs to (phases 2, 3 and 5), or -1.
func (s *State) current() int {
	if s.Done || s.waiting() {
		return -1
	}
	switch s.CurrentPhase {
	case phasePlace:
		return s.Order[s.Turn]
	case phaseActions:
		if s.Location < int(locCount) {
			if i := s.nextDie(); i >= 0 {
				return s.Boards[s.Location].Dice[i].Owner
			}
		}
	case phaseBuild:
		if s.Turn < s.PlayerCount {
			return s.Order[s.Turn]
		}
	}
	return -1
}

// hasPrompt reports whether seat has an open prompt.
func (s *State) hasPrompt(seat int) bool {
	if s.Done {
		return false
	}
	if len(s.Seats[seat].Queue) > 0 {
		return true
	}
	if s.CurrentPhase == phaseDice && !s.waiting() {
		return true // before the reveal every seat may (re)choose its dice
	}
	return s.current() == seat
}

// check is the one legality predicate: nil when seat may take a now.
func (s *State) check(seat int, a Action) error { return s.checkWith(seat, a, new(*State)) }

// checkWith is check sharing after, the state once the next action space's
// bonus is received (made when first needed), between the checks of one
// prompt's actions.
func (s *State) checkWith(seat int, a Action, after **State) error {
	if isFree(a.Verb) {
		return s.checkFree(seat, a)
	}
	p := &s.Seats[seat]
	if len(p.Queue) > 0 {
		t := p.Queue[0]
		var buf [8]Action
		for _, b := range s.appendDecisionActions(buf[:0], seat, t) {
			if sameAction(a, b) {
				return nil
			}
		}
		return s.wrongAnswer(seat, t, a)
	}
	if a.Verb == vBuild {
		if err := s.prototypeLimit(seat); err != nil {
			return err
		}
	}
	if s.waiting() {
		return s.waitingFor()
	}
	switch s.CurrentPhase {
	case phaseDice:
		if a.Verb != vDice {
			return illegal("cp.refuse.dice_first", engine.Code("Example", s.r.dice[max(p.Dice, 1)][0]))
		}
		if len(a.Vals) != p.Dice {
			return illegal("cp.refuse.dice_count", engine.Num("Count", p.Dice))
		}
		return nil
	case phasePlace, phaseActions, phaseBuild:
		if cur := s.current(); cur != seat {
			if cur < 0 {
				return notYourTurn("cp.refuse.nobody")
			}
			return notYourTurn("cp.refuse.turn_of", engine.Who("Who", engine.Seat(cur)))
		}
	default:
		return notYourTurn("cp.refuse.nothing_now")
	}
	if a.Verb == vDice {
		return illegal("cp.refuse.dice_phase", engine.Num("Phase", int(s.CurrentPhase)))
	}
	switch s.CurrentPhase {
	case phasePlace:
		return s.checkPlace(seat, a)
	case phaseActions:
		return s.checkAction(seat, a, after)
	}
	return s.checkBuild(seat, a)
}

func (s *State) checkPlace(seat int, a Action) error {
	switch a.Verb {
	case vPass:
		if a.Always && s.canPlace(seat) {
			return illegal("cp.refuse.pass_always_place")
		}
		return nil
	case vPlace:
	default:
		return illegal("cp.refuse.want_place")
	}
	v, l, sp := a.Vals[0], locIndex(a.Key), a.Vals[1]-1
	problem := s.placeProblem(seat, v, l, sp)
	if problem == placeOK {
		if !a.Tail {
			return nil
		}
		return s.checkPlaceTail(seat, l, sp, a)
	}
	side := s.side(locKind(l))
	loc, space := s.loc(locKind(l)), engine.Num("Space", sp+1)
	switch problem {
	case placeNoDie:
		return illegal("cp.refuse.no_die", engine.Num("Value", v))
	case placeNoSpace:
		return illegal("cp.refuse.no_dice_space", loc, engine.Num("Count", len(side.Dice)))
	case placeTaken:
		return illegal("cp.refuse.space_taken", loc, space)
	case placeTooLow:
		return illegal("cp.refuse.die_too_low", loc, space, engine.Num("Min", side.Dice[sp].Min))
	}
	return illegal("cp.refuse.fee", loc, space, engine.Num("Fee", side.Dice[sp].Fee), engine.Num("Pounds", s.Seats[seat].Pounds))
}

// Reasons a placement is refused; placeOK when it is legal.
const (
	placeOK = iota
	placeNoDie
	placeNoSpace
	placeTaken
	placeTooLow
	placeFee
)

// placeProblem is the placement rule of phase 2: seat puts its die showing
// v on dice space sp of location l.
func (s *State) placeProblem(seat, v, l, sp int) int {
	p := &s.Seats[seat]
	if !hasInt(p.Vals, v) {
		return placeNoDie
	}
	side := s.side(locKind(l))
	switch {
	case sp < 0 || sp >= len(side.Dice):
		return placeNoSpace
	case s.Boards[l].Dice[sp].Owner >= 0:
		return placeTaken
	case v < side.Dice[sp].Min:
		return placeTooLow
	case p.Pounds < side.Dice[sp].Fee:
		return placeFee
	}
	return placeOK
}

// affordable reports whether seat can pay cost, buying missing gears and
// energy with pounds, and what that costs in pounds.
func (s *State) affordable(seat int, c Cost) (pounds int, ok bool) {
	p := &s.Seats[seat]
	e := &s.c.Tracks.Economy
	pounds = c.Pounds + max(c.Gears-p.Gears, 0)*e.GearPounds + max(c.Energy-p.Energy, 0)*e.EnergyPounds
	return pounds, pounds <= p.Pounds
}

// payCost pays c, buying missing gears and energy; pounds the seat lacks
// by now (it spent some since the check) are raised as any debt is.
func (s *State) payCost(seat int, c Cost) {
	p := &s.Seats[seat]
	pounds, _ := s.affordable(seat, c)
	p.Gears = max(p.Gears-c.Gears, 0)
	p.Energy = max(p.Energy-c.Energy, 0)
	s.pay(seat, pounds)
}

// display is the row of cards or tiles on offer at l (nil elsewhere).
func (s *State) display(l locKind) []int {
	switch l {
	case locPatent:
		return s.PatentDisp
	case locMuseum:
		return s.MuseumDisp
	case locBank:
		return s.BankDisp
	case locClub:
		return s.CharDisp
	}
	return nil
}

// Reasons taking from a display is refused; takeOK when it is allowed.
const (
	takeOK = iota
	takeEmpty
	takeNoResearch
	takeCost
)

// takeProblem is the rule for seat taking display slot k (from 0) at
// location l in phase 3; need is what a character costs seat in pounds when
// it cannot pay it.
func (s *State) takeProblem(seat int, l locKind, k int, after **State) (problem, need int) {
	disp := s.display(l)
	if k < 0 || k >= len(disp) || disp[k] < 0 {
		return takeEmpty, 0
	}
	switch l {
	case locMuseum:
		if !canReceiveResearch(&s.Seats[seat]) {
			return takeNoResearch, 0
		}
	case locClub:
		if need, ok := s.affordableAfterBonus(seat, s.c.Characters[disp[k]].Cost, after); !ok {
			return takeCost, need
		}
	}
	return takeOK, 0
}

func (s *State) checkAction(seat int, a Action, after **State) error {
	if a.Verb == vPass {
		return nil
	}
	if a.Always {
		list := s.phaseActions(seat)
		if len(list) != 3 || list[1] != a.String() {
			return illegal("cp.refuse.act_always", engine.Typed("Actions", list))
		}
		return nil
	}
	l := locKind(s.Location)
	want := func() error {
		switch l {
		case locWestminster:
			return illegal("cp.refuse.want_advance", s.at(l))
		case locTimes:
			return illegal("cp.refuse.want_publish", s.at(l))
		case locPort, locWaterloo:
			return illegal("cp.refuse.want_use", s.at(l))
		}
		return illegal("cp.refuse.want_take", s.at(l))
	}
	switch l {
	case locPatent, locMuseum, locBank, locClub:
		if a.Verb != vTake {
			return want()
		}
		k := a.Vals[0] - 1
		switch problem, need := s.takeProblem(seat, l, k, after); problem {
		case takeEmpty:
			if n := len(s.display(l)); k == n && len(s.stack(l)) > 0 {
				return illegal("cp.refuse.stack_top", engine.Num("Slot", a.Vals[0]), s.at(l), engine.Num("Count", n))
			}
			return illegal("cp.refuse.slot_empty", s.loc(l), engine.Num("Slot", a.Vals[0]))
		case takeNoResearch:
			return illegal("cp.refuse.no_research")
		case takeCost:
			ch := s.display(l)[k]
			return illegal("cp.refuse.cost", engine.Item("Item", s.c.keys.char[ch]), engine.Nested("Cost", costSay(s.c.Characters[ch].Cost)), engine.Num("Need", need))
		}
		return nil
	case locWestminster:
		if a.Verb != vAdvance {
			return want()
		}
		return nil
	case locTimes:
		if a.Verb != vPublish {
			return want()
		}
		return nil
	}
	if a.Verb != vUse {
		return want()
	}
	side := s.side(l)
	for i, po := range side.Possibilities {
		if po.Key != a.Key {
			continue
		}
		switch problem, j := s.useProblem(l, i); problem {
		case useFewPlayers:
			return illegal("cp.refuse.min_players", engine.Code("Key", po.Key), engine.Num("Count", po.MinPlayers))
		case useTaken:
			by := engine.Who("Who", engine.Seat(s.Boards[l].Poss[j]))
			if other := side.Possibilities[j]; other.Key != po.Key {
				return illegal("cp.refuse.used_box", engine.Code("Key", po.Key), engine.Code("Other", other.Key), by)
			}
			return illegal("cp.refuse.used", engine.Code("Key", po.Key), by)
		case useNoTicket:
			return illegal("cp.refuse.ticket_full")
		}
		return nil
	}
	return illegal("cp.refuse.no_possibility", s.loc(l), engine.Code("Key", a.Key))
}

// Reasons using a possibility is refused; useOK when it is allowed.
const (
	useOK = iota
	useFewPlayers
	useTaken
	useNoTicket
)

// useProblem is the rule for using possibility i of location l (Port or
// Waterloo) in phase 3; j is the possibility of its box already used.
func (s *State) useProblem(l locKind, i int) (problem, j int) {
	side := s.side(l)
	po := &side.Possibilities[i]
	if po.MinPlayers > s.PlayerCount {
		return useFewPlayers, 0
	}
	for j, other := range side.Possibilities {
		if other.Group == po.Group && s.Boards[l].Poss[j] >= 0 {
			return useTaken, j
		}
	}
	if po.ticket && len(s.TicketDice) >= side.TicketSpaces {
		return useNoTicket, 0
	}
	return useOK, 0
}

func (s *State) checkBuild(seat int, a Action) error {
	p := &s.Seats[seat]
	if a.Verb == vPass {
		if a.Always && s.canBuild(seat) {
			return illegal("cp.refuse.pass_always_build")
		}
		return nil
	}
	if a.Verb != vBuild {
		return illegal("cp.refuse.want_build")
	}
	i, ok := s.c.patentByID[a.Key]
	if !ok || !hasInt(p.Patents, i) {
		return illegal("cp.refuse.no_patent", engine.Code("Key", a.Key))
	}
	if s.buildable(seat, i) {
		if a.Tail && (a.Then[0].Vals[0] < 1 || a.Then[0].Vals[0] > s.PlayerCount) {
			return illegal("cp.refuse.target_range", engine.Item("Prototype", s.c.keys.proto[i]), engine.Num("N", s.PlayerCount))
		}
		return nil
	}
	if p.Built >= s.c.Tracks.Economy.PrototypesPerRound {
		return illegal("cp.refuse.build_most", engine.Num("Count", s.c.Tracks.Economy.PrototypesPerRound))
	}
	need, _ := s.affordable(seat, s.c.Patents[i].Cost)
	return illegal("cp.refuse.cost", engine.Item("Item", s.c.keys.proto[i]), engine.Nested("Cost", costSay(s.c.Patents[i].Cost)), engine.Num("Need", need))
}

// prototypeLimit refuses a build once seat has built the most prototypes a
// round allows. Player.Built lasts until the next phase 5, so the reason
// holds after the game has moved on to the next round's first phases.
func (s *State) prototypeLimit(seat int) error {
	most := s.c.Tracks.Economy.PrototypesPerRound
	if s.Seats[seat].Built < most {
		return nil
	}
	if s.CurrentPhase >= phaseBuild {
		return illegal("cp.refuse.built_this_round", engine.Num("Count", most))
	}
	return illegal("cp.refuse.built_last_round", engine.Num("Count", most))
}

// buildable is the phase 5 rule for a patent seat holds: fewer than two
// prototypes built this round and the cost affordable.
func (s *State) buildable(seat, patent int) bool {
	_, ok := s.affordable(seat, s.c.Patents[patent].Cost)
	return ok && s.Seats[seat].Built < s.c.Tracks.Economy.PrototypesPerRound
}

func (s *State) checkFree(seat int, a Action) error {
	p := &s.Seats[seat]
	e := &s.c.Tracks.Economy
	switch a.Verb {
	case vLoan:
		if len(a.Vals) == 0 {
			if freeSlot(p) < 0 && researchSlots(p) > 0 {
				return illegal("cp.refuse.loan_which", engine.Code("Example", "loan "+strconv.Itoa(firstResearch(p)+1)))
			}
			return nil
		}
		k := a.Vals[0] - 1
		if freeSlot(p) >= 0 {
			return illegal("cp.refuse.loan_free_space")
		}
		if k < 0 || k >= len(p.Slots) || p.Slots[k].Kind != slotResearch {
			return illegal("cp.refuse.loan_replaces_tile")
		}
		return nil
	case vRepay:
		if !s.hasPrompt(seat) {
			return notYourTurn("cp.refuse.repay_turn")
		}
		k := a.Vals[0] - 1
		var sl *Slot
		if k >= 0 && k < len(p.Slots) {
			sl = &p.Slots[k]
		} else if k >= len(p.Slots) && k < len(p.Slots)+len(p.Extra) {
			sl = &p.Extra[k-len(p.Slots)]
		}
		if sl == nil || sl.Kind != slotLoan || sl.Repaid {
			return illegal("cp.refuse.no_loan", engine.Num("Space", a.Vals[0]))
		}
		if p.Pounds < e.RepayPounds {
			return illegal("cp.refuse.repay_cost", engine.Num("Pounds", e.RepayPounds), engine.Num("Have", p.Pounds))
		}
		return nil
	case vExchange:
		need := e.PoundNewspapers
		switch a.Key {
		case "die":
			need = e.DieNewspapers
		case "income":
			need = e.IncomeNewspapers
		case "gear":
			need = e.GearNewspapers
		}
		if p.News < need {
			return illegal("cp.refuse.exchange_cost", engine.Code("Key", a.Key), engine.Num("Count", need), engine.Num("Have", p.News))
		}
		if a.Key == "die" && p.Dice+p.New+p.Tick >= e.MaxDice {
			return illegal("cp.refuse.all_dice", engine.Num("Count", e.MaxDice))
		}
		return nil
	case vBuy:
		if !s.hasPrompt(seat) {
			return notYourTurn("cp.refuse.buy_turn")
		}
		price, id := e.EnergyPounds, "cp.refuse.buy_energy"
		if a.Key == "gear" {
			price, id = e.GearPounds, "cp.refuse.buy_gear"
		}
		if p.Pounds < price {
			return illegal(id, engine.Num("Price", price), engine.Num("Pounds", p.Pounds))
		}
		return nil
	case vSell:
		if a.Key == "gear" && p.Gears == 0 {
			return illegal("cp.refuse.sell_gear")
		}
		if a.Key == "energy" && p.Energy == 0 {
			return illegal("cp.refuse.sell_energy")
		}
		return nil
	case vAsk:
		if a.Key == "down" && !p.NoDown {
			return illegal("cp.refuse.ask_down")
		}
		if a.Key == "pass" && !p.AutoPass {
			return illegal("cp.refuse.ask_pass")
		}
		if a.Key == "bonus" && len(p.Picks) == 0 {
			return illegal("cp.refuse.ask_bonus")
		}
		if a.Key == "act" && p.AutoAt == 0 {
			return illegal("cp.refuse.ask_act")
		}
		return nil
	}
	return illegal("cp.refuse.not_free")
}

func firstResearch(p *Player) int {
	for i, sl := range p.Slots {
		if sl.Kind == slotResearch {
			return i
		}
	}
	return 0
}

// do performs a checked action.
func (s *State) do(seat int, a Action) {
	p := &s.Seats[seat]
	e := &s.c.Tracks.Economy
	if isFree(a.Verb) {
		switch a.Verb {
		case vLoan:
			slot := -1
			if len(a.Vals) > 0 {
				slot = a.Vals[0] - 1
			}
			s.takeLoan(seat, slot, false)
		case vRepay:
			k := a.Vals[0] - 1
			if k < len(p.Slots) {
				p.Slots[k].Repaid = true
			} else {
				p.Extra[k-len(p.Slots)].Repaid = true
			}
			p.Pounds -= e.RepayPounds
		case vExchange:
			switch a.Key {
			case "die":
				p.News -= e.DieNewspapers
				if s.CurrentPhase == phaseDice && !s.Revealed {
					p.Dice++
					p.Sub, p.Vals = false, nil
				} else {
					p.New++
				}
			case "income":
				p.News -= e.IncomeNewspapers
				s.moveIncome(seat, 1)
			case "gear":
				p.News -= e.GearNewspapers
				p.Gears++
			case "pound":
				p.News -= e.PoundNewspapers
				p.Pounds++
			}
		case vBuy:
			if a.Key == "gear" {
				p.Pounds -= e.GearPounds
				p.Gears++
			} else {
				p.Pounds -= e.EnergyPounds
				p.Energy++
			}
		case vAsk:
			switch a.Key {
			case "down":
				p.NoDown = false
			case "pass":
				p.AutoPass = false
			case "act":
				p.AutoAt = 0
			default:
				p.Picks = nil
			}
		case vSell:
			if a.Key == "gear" {
				p.Gears--
				p.Pounds += e.SellGear
			} else {
				p.Energy--
				p.Pounds += e.SellEnergy
			}
		}
		return
	}
	if len(p.Queue) > 0 {
		t := p.Queue[0]
		s.pop(seat)
		s.answer(seat, t, a)
		return
	}
	switch s.CurrentPhase {
	case phaseDice:
		p.Vals = cloneInts(a.Vals)
		p.Sub = true
	case phasePlace:
		s.doPlace(seat, a)
	case phaseActions:
		if a.Always {
			p.AutoAt |= 1 << s.Location
		}
		s.doAction(seat, a)
	case phaseBuild:
		if a.Verb == vPass {
			p.Passed = true
			p.AutoPass = p.AutoPass || a.Always
			return
		}
		i := s.c.patentByID[a.Key]
		pt := &s.c.Patents[i]
		s.payCost(seat, pt.Cost)
		p.Patents = removeInt(p.Patents, i)
		p.Protos = append(p.Protos, i)
		p.Built++
		vp := pt.VP[s.year()]
		for _, ch := range p.Chars {
			if linked(s.c, i, ch) {
				vp += e.LinkVP
			}
		}
		s.addVP(seat, vp, vpPrototypes)
		s.push(seat, Task{Kind: dTarget, Subject: i})
		s.follow(seat, a)
	}
}

// offerInstant asks seat, bonus by bonus, whether to take the instant
// bonuses of character ci: the rulebook makes them a "may". An assistant
// action needs no asking, as it can be skipped itself.
func (s *State) offerInstant(seat, ci int) {
	inst := s.c.Characters[ci].Instant
	tasks := make([]Task, 0, len(inst))
	for k, e := range inst {
		if e.gain == gainAssistant {
			tasks = append(tasks, effectTask(e, vpCharacters))
			continue
		}
		tasks = append(tasks, Task{Kind: dInstant, Subject: ci, Amount: k})
	}
	if len(tasks) > 0 {
		s.push(seat, tasks...)
	}
}

// linked: patent pt and character ch are linked (either card shows the link).
func linked(c *Content, pt, ch int) bool {
	return c.Patents[pt].link == ch || c.Characters[ch].link == pt
}

// removeInt removes the first v from a, in place: a seat's lists are its
// own (clones and views copy them).
func removeInt(a []int, v int) []int {
	for i, x := range a {
		if x == v {
			return append(a[:i], a[i+1:]...)
		}
	}
	return a
}

func (s *State) doPlace(seat int, a Action) {
	p := &s.Seats[seat]
	s.Moved = true
	if a.Verb == vPass {
		p.Passed = true
		p.AutoPass = p.AutoPass || a.Always
		return
	}
	v, l, sp := a.Vals[0], locIndex(a.Key), a.Vals[1]-1
	p.Vals = removeInt(p.Vals, v)
	s.Boards[l].Dice[sp] = Die{Owner: seat, Value: v}
	ds := s.side(locKind(l)).Dice[sp]
	p.Pounds -= ds.Fee
	var buf [2]Task
	tasks := buf[:0]
	if ds.Assistant {
		tasks = append(tasks, Task{Kind: dAssistant})
	}
	tasks = append(tasks, Task{Kind: dDown})
	s.push(seat, tasks...)
	s.own = "fee"
	s.report(seat, s.own)
	s.own = ""
	s.follow(seat, a)
}

func (s *State) doAction(seat int, a Action) {
	l := locKind(s.Location)
	b := &s.Boards[l]
	i := s.nextDie()
	die := &b.Dice[i]
	die.Done = true
	if a.Verb == vPass {
		return
	}
	k := freeAct(b)
	b.Acts[k] = Die{Owner: seat, Value: die.Value}
	act := Task{Kind: tAct, Amount: die.Value}
	switch l {
	case locPatent, locMuseum, locBank, locClub:
		act.Subject = a.Vals[0] - 1
	case locPort, locWaterloo:
		for j, po := range s.side(l).Possibilities {
			if po.Key == a.Key {
				act.Subject = j
			}
		}
	}
	// The action waits behind the space's bonus or cost: a cost the seat
	// cannot pay at once is paid (money raised, or loans) before it.
	s.Seats[seat].Queue = append(s.Seats[seat].Queue, act)
	outer := s.cause
	s.cause = "action space" // a cost paid later says what it was for
	s.receiveBonus(seat, s.side(l).Actions[k])
	s.cause = outer
}

// act performs the action of the current location for seat: t.Subject is the
// display slot or possibility, t.Amount the die's value.
func (s *State) act(seat int, t Task) {
	l := locKind(s.Location)
	p := &s.Seats[seat]
	e := &s.c.Tracks.Economy
	switch l {
	case locPatent:
		p.Patents = append(p.Patents, s.PatentDisp[t.Subject])
		s.PatentDisp[t.Subject] = -1
	case locMuseum:
		tile := s.MuseumDisp[t.Subject]
		s.MuseumDisp[t.Subject] = -1
		s.giveResearch(seat, tile)
	case locBank:
		sh := &s.c.Shares[s.BankDisp[t.Subject]]
		p.Shares = append(p.Shares, s.BankDisp[t.Subject])
		s.BankDisp[t.Subject] = -1
		s.addVP(seat, sh.VP, vpShares)
		s.moveIncome(seat, sh.Income)
	case locWestminster:
		s.advanceWestminster(seat)
	case locClub:
		ci := s.CharDisp[t.Subject]
		ch := &s.c.Characters[ci]
		s.CharDisp[t.Subject] = -1
		s.payCost(seat, ch.Cost)
		p.Chars = append(p.Chars, ci)
		vp := ch.VP[s.year()]
		for _, pt := range p.Protos {
			if linked(s.c, pt, ci) {
				vp += e.LinkVP
			}
		}
		s.addVP(seat, vp, vpCharacters)
		s.offerInstant(seat, ci)
	case locTimes:
		s.moveBuzz(seat, s.publisherBuzz(seat))
	case locPort, locWaterloo:
		side := s.side(l)
		po := side.Possibilities[t.Subject]
		s.Boards[l].Poss[t.Subject] = seat
		if po.ticket {
			s.TicketDice = append(s.TicketDice, Die{Owner: seat, Value: t.Amount})
			p.Dice--
			p.Tick++
			s.addVP(seat, side.TicketVP[s.year()]+t.Amount, vpTickets)
		}
		s.pushEffects(seat, po.Effect, vpEffects)
	}
}

// receiveBonus gives seat the bonus of action space as, or makes it pay the
// space's cost, with what that sets off at once (a flyer reached by the Buzz)
// settled: all of it comes before the action (rulebook, phase 3).
func (s *State) receiveBonus(seat int, as ActionSpace) {
	p := &s.Seats[seat]
	if as.Pounds > 0 {
		p.Pounds += as.Pounds
	} else if as.Pounds < 0 {
		s.pay(seat, -as.Pounds)
	}
	p.News = min(p.News+as.Newspapers, s.c.Tracks.Economy.MaxNewspapers)
	if as.Buzz > 0 {
		s.moveBuzz(seat, as.Buzz)
	}
	s.own = "action space"
	s.report(seat, s.own) // the bonus or cost first, then the action's own changes
	s.own = ""
	s.settleSeat(seat)
}

// affordableAfterBonus is affordable once seat has received the bonus of
// the next free action space. Only a space that costs more than seat
// holds, or Buzz that reaches a flyer, needs the bonus played out on a
// copy; otherwise the bonus's pounds (or the cost, paid outright) simply
// count.
func (s *State) affordableAfterBonus(seat int, c Cost, after **State) (pounds int, ok bool) {
	pounds, ok = s.affordable(seat, c)
	k := freeAct(&s.Boards[s.Location])
	if k < 0 {
		return pounds, ok
	}
	as := s.side(locKind(s.Location)).Actions[k]
	if s.Seats[seat].Pounds+as.Pounds >= 0 && !s.flyerWithin(seat, as.Buzz) {
		return pounds, pounds <= s.Seats[seat].Pounds+as.Pounds
	}
	if *after == nil {
		*after = s.afterBonus(seat)
	}
	return (*after).affordable(seat, c)
}

// flyerWithin reports whether n Buzz steps take seat onto a flyer.
func (s *State) flyerWithin(seat, n int) bool {
	from := s.Seats[seat].Buzz
	for _, f := range s.FlyerAt {
		if f.Space > from && f.Space <= from+n {
			return true
		}
	}
	return false
}

// afterBonus is s as seat's die would find it on the next free action space
// of the current location, its bonus received; the action is chosen there.
// It is s itself when the space has neither bonus nor cost.
func (s *State) afterBonus(seat int) *State {
	b := &s.Boards[s.Location]
	k := freeAct(b)
	if k < 0 {
		return s
	}
	as := s.side(locKind(s.Location)).Actions[k]
	if as == (ActionSpace{}) {
		return s
	}
	t := s.clone()
	t.receiveBonus(seat, as)
	if q := t.Seats[seat].Queue; len(q) > 0 && q[0].Kind == dPay {
		t.Seats[seat].Pounds -= q[0].Amount // the cost is owed before the action
	}
	return t
}

// publisherBuzz is the Buzz seat earns at the London Times this round.
func (s *State) publisherBuzz(seat int) int {
	pr := &s.c.Publishers[s.Publisher].Rounds[s.Round-1]
	n := 0
	for _, m := range pr.metrics {
		n += s.count(seat, m)
	}
	buzz := 0
	for _, lv := range pr.Levels {
		if n >= lv.Min {
			buzz = max(buzz, lv.Buzz)
		}
	}
	return buzz
}
