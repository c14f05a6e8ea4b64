package crystalpalace

import (
	"strconv"

	"github.com/meeplegames/meeple/engine"
)

// Describe says in a few words what action would do for seat, for a player
// choosing from a list: "Charlotte Bronte · 2 gears, 1 energy · 10 VP" for
// "take 4" at the Reform Club, "fee 2 £ · assistant action" for a
// placement, "4 newspapers → a die" for an exchange, as data for the
// wording layer (engine.Describer). It is the zero Text when the action is
// not legal for seat now or the words would add nothing. It only uses what
// seat may see.
func (s *State) Describe(seat engine.Seat, action string) engine.Text {
	if s.Done || seat < 0 || int(seat) >= s.PlayerCount {
		return engine.Text{}
	}
	a, err := ParseAction(action)
	if err != nil || s.check(int(seat), a) != nil {
		return engine.Text{}
	}
	who := int(seat)
	p := &s.Seats[who]
	e := s.c.Tracks.Economy
	switch a.Verb {
	case vDice:
		return engine.Say("cp.describe.dice", engine.Num("Pounds", sum(a.Vals)))
	case vPlace:
		return engine.Dotted(s.describePlace(a), s.describeTail(who, a))
	case vPass:
		if a.Always {
			return engine.Say("cp.describe.pass_always")
		}
		return s.describePass(who)
	case vTake, vAdvance, vPublish, vUse:
		text := engine.Dotted(s.describeBonus(), s.describeAction(who, a))
		if a.Always {
			text = engine.Dotted(text, engine.Say("cp.describe.act_always"))
		}
		return text
	case vBuild:
		i := s.c.patentByID[a.Key]
		pt := &s.c.Patents[i]
		vp := pt.VP[s.year()]
		for _, ch := range p.Chars {
			if linked(s.c, i, ch) {
				vp += e.LinkVP
			}
		}
		effect := effectsText(pt.Effect)
		if a.Tail {
			effect = s.describeTarget(a.Then[0].Vals[0]-1, pt.Effect)
		}
		return engine.Dotted(engine.Say("cp.describe.build", engine.Item("Prototype", s.c.keys.proto[i]), engine.Item("Patent", s.c.keys.patent[i])),
			s.costFor(who, pt.Cost), engine.Say("cp.describe.vp", engine.Num("VP", vp)), effect)
	case vTarget:
		if t := p.Queue[0]; t.Kind == dTarget {
			return s.describeTarget(a.Vals[0]-1, s.c.Patents[t.Subject].Effect)
		}
	case vObjective:
		mat := &s.c.Mats[p.Mat]
		if p.Obj < len(mat.Objective) {
			return engine.Say("cp.describe.objective", engine.Num("Level", p.Obj+1), engine.Num("VP", mat.Objective[p.Obj].VP))
		}
	case vPlaceAsst:
		tier := s.marketFreeAbove(0)
		fee := s.market().Spaces[tier].Cost
		if p.Queue[0].Free {
			fee = 0
		}
		return s.describeTier(tier, fee)
	case vMoveAsst:
		to := s.marketFreeAbove(a.Vals[0])
		return s.describeTier(to, s.market().Spaces[to].Cost)
	case vSkip:
		if a.Always {
			return engine.Say("cp.describe.skip_always")
		}
	case vAsk:
		switch a.Key {
		case "down", "pass", "bonus":
			return engine.Say("cp.describe.ask." + a.Key)
		}
		return engine.Say("cp.describe.ask.act")
	case vDown:
		to := engine.Say("cp.describe.down", engine.Num("Tier", s.marketFreeBelow(a.Vals[0]-1)+1))
		if s.marketFreeBelow(a.Vals[0]-1) < 0 {
			to = engine.Say("cp.describe.down_off")
		}
		if p.Queue[0].Kind == dDown && s.downGear(a.Vals[0]-1) {
			return engine.Dotted(to, engine.Say("cp.describe.down_gear"))
		}
		return to
	case vReplace:
		if sl := p.Slots[a.Vals[0]-1]; sl.Kind == slotResearch {
			return engine.Say("cp.describe.replace", s.tileArg("Tile", sl.ID), engine.Num("Space", a.Vals[0]))
		}
	case vGreen:
		return s.greenText(who, a)
	case vPoster:
		if a.Key == "" {
			return engine.Say("cp.describe.phase6", engine.Nested("What", posterSay(s.c.Tracks.Buzz.Posters[p.Queue[0].Subject])))
		}
		fallthrough // the token and the bonus it pays at once: told as the bonus
	case vBonus:
		alts := s.c.Tracks.WestminsterV
		if t := p.Queue[0]; t.Subject >= 0 {
			alts = s.c.Tracks.Buzz.Posters[t.Subject].Choice
		}
		for _, eff := range alts {
			if eff.gain.String() == a.Key {
				if a.Always {
					return engine.Say("cp.describe.bonus_always", engine.Nested("What", oneEffect(eff)))
				}
				return oneEffect(eff)
			}
		}
	case vWatch:
		if a.Key == "vp" {
			return engine.Say("cp.describe.watch.vp", engine.Num("VP", s.c.Tracks.Watch.TakeVP))
		}
		return engine.Say("cp.describe.watch.pounds", engine.Num("Pounds", s.c.Tracks.Watch.Phase6Pounds))
	case vAccept:
		if t := p.Queue[0]; t.Kind == dInstant {
			return oneEffect(s.c.Characters[t.Subject].Instant[t.Amount])
		}
	case vPay:
		return engine.Say("cp.describe.pay", engine.Num("Pounds", p.Queue[0].Amount))
	case vLoan:
		text := engine.Say("cp.describe.loan", engine.Num("Pounds", e.LoanPounds))
		if len(a.Vals) > 0 {
			if sl := p.Slots[a.Vals[0]-1]; sl.Kind == slotResearch {
				text = engine.Dotted(text, engine.Say("cp.describe.loan_replaces", s.tileArg("Tile", sl.ID)))
			}
		}
		return text
	case vRepay:
		return engine.Say("cp.describe.repay", engine.Num("Pounds", e.RepayPounds), engine.Num("VP", s.loanAt(p, a.Vals[0]-1)), engine.Signed("Repaid", e.RepaidVP))
	case vExchange:
		return s.exchangeText(a.Key)
	case vBuy:
		if a.Key == "gear" {
			return engine.Say("cp.describe.buy.gear", engine.Num("Pounds", e.GearPounds))
		}
		return engine.Say("cp.describe.buy.energy", engine.Num("Pounds", e.EnergyPounds))
	case vSell:
		if a.Key == "gear" {
			return engine.Say("cp.describe.sell.gear", engine.Num("Pounds", e.SellGear))
		}
		return engine.Say("cp.describe.sell.energy", engine.Num("Pounds", e.SellEnergy))
	}
	return engine.Text{}
}

// oneEffect is effect e alone as a text: "+1 energy".
func oneEffect(e Effect) engine.Text {
	return engine.Text{ID: "cp.effects", Args: []engine.Arg{effectPart(e)}}
}

// describeTarget says what a prototype's effects do to target, and whether
// that is good or bad for them: "P2 gets +3 £, -1 VP (mixed for P2)".
func (s *State) describeTarget(target int, effs []Effect) engine.Text {
	who := engine.Who("Who", engine.Seat(target))
	if len(effs) == 0 {
		return engine.Say("cp.describe.target.nothing", who)
	}
	good, bad := false, false
	for _, e := range effs {
		switch {
		case e.N >= 0: // a gain without an amount (a green bonus, the Pocket Watch) is a benefit
			good = true
		case e.N < 0:
			bad = true
		}
	}
	id := "cp.describe.target.good"
	switch {
	case good && bad:
		id = "cp.describe.target.mixed"
	case bad:
		id = "cp.describe.target.bad"
	}
	return engine.Say(id, who, engine.Nested("Effect", effectsText(effs)))
}

// describeTail says what the answer a placement carries does: "then an
// assistant on Black Market tier 3 (fee 1 £)", "no assistant action".
func (s *State) describeTail(seat int, a Action) engine.Text {
	if !a.Tail {
		return engine.Text{}
	}
	if len(a.Then) == 0 {
		return engine.Say("cp.describe.tail.none")
	}
	f := a.Then[0]
	switch f.Verb {
	case vObjective:
		mat := &s.c.Mats[s.Seats[seat].Mat]
		return engine.Say("cp.describe.tail.objective", engine.Num("Level", s.Seats[seat].Obj+1), engine.Num("VP", mat.Objective[s.Seats[seat].Obj].VP))
	case vPlaceAsst:
		tier := s.marketFreeAbove(0)
		return engine.Say("cp.describe.tail.market_place", engine.Nested("Tier", s.describeTier(tier, s.market().Spaces[tier].Cost)))
	case vMoveAsst:
		to := s.marketFreeAbove(f.Vals[0])
		return engine.Say("cp.describe.tail.market_move", engine.Num("From", f.Vals[0]), engine.Nested("Tier", s.describeTier(to, s.market().Spaces[to].Cost)))
	}
	return engine.Text{}
}

// costFor is cost c as seat would pay it: "2 gears, 1 energy", with
// "(buys 1 energy for 4 £)" when seat lacks goods that the payment buys.
func (s *State) costFor(seat int, c Cost) engine.Text {
	if buys := s.buysText(seat, c); !buys.IsZero() {
		return engine.Say("cp.describe.cost_buying", engine.Nested("Cost", costSay(c)), engine.Nested("Buys", buys))
	}
	return costSay(c)
}

// describePlace: the location, the dice space's fee and assistant action.
func (s *State) describePlace(a Action) engine.Text {
	l := locIndex(a.Key)
	ds := s.side(locKind(l)).Dice[a.Vals[1]-1]
	fee := engine.Say("cp.describe.no_fee")
	if ds.Fee > 0 {
		fee = engine.Say("cp.describe.fee", engine.Num("Pounds", ds.Fee))
	}
	where := engine.Say("cp.describe.name", engine.Item("Name", keyLoc+s.c.Locations[l].Key))
	if ds.Assistant {
		return engine.Dotted(where, fee, engine.Say("cp.effect.assistant"))
	}
	return engine.Dotted(where, fee)
}

// describePass: what passing gives up in the phase at hand.
func (s *State) describePass(seat int) engine.Text {
	if len(s.Seats[seat].Queue) > 0 {
		return engine.Text{}
	}
	switch s.CurrentPhase {
	case phasePlace:
		return engine.Say("cp.describe.pass.dice")
	case phaseActions:
		return engine.Say("cp.describe.pass.action")
	case phaseBuild:
		return engine.Say("cp.describe.pass.build")
	}
	return engine.Text{}
}

// describeBonus is the bonus or cost of the action space a phase 3 action
// would take, received before the action: "+1 Buzz", "-2 £".
func (s *State) describeBonus() engine.Text {
	k := freeAct(&s.Boards[s.Location])
	if k < 0 {
		return engine.Text{}
	}
	t := actionSpaceSay(s.side(locKind(s.Location)).Actions[k])
	if len(t.Args) == 0 {
		return engine.Text{}
	}
	return t
}

// describeAction: the card, tile, share or possibility a phase 3 action
// takes.
func (s *State) describeAction(seat int, a Action) engine.Text {
	l := locKind(s.Location)
	switch a.Verb {
	case vTake:
		id := s.display(l)[a.Vals[0]-1]
		switch l {
		case locPatent:
			pt := &s.c.Patents[id]
			return engine.Dotted(engine.Say("cp.describe.patent", engine.Item("Patent", s.c.keys.patent[id]), engine.Item("Prototype", s.c.keys.proto[id]), engine.Code("ID", pt.ID)),
				engine.Say("cp.describe.costs", engine.Nested("Cost", costSay(pt.Cost))), engine.Say("cp.describe.vp_round", engine.Num("VP", pt.VP[s.year()])), effectsText(pt.Effect))
		case locMuseum:
			return engine.Dotted(engine.Say("cp.describe.name", engine.Item("Name", s.c.keys.research[id])), s.r.texts.research[id])
		case locBank:
			return engine.Say("cp.describe.share", engine.Nested("Effect", s.r.view.share[id]))
		case locClub:
			ch := &s.c.Characters[id]
			vp := ch.VP[s.year()]
			for _, pt := range s.Seats[seat].Protos {
				if linked(s.c, pt, id) {
					vp += s.c.Tracks.Economy.LinkVP
				}
			}
			return engine.Dotted(engine.Say("cp.describe.name", engine.Item("Name", s.c.keys.char[id])), s.costFor(seat, ch.Cost),
				engine.Say("cp.describe.vp", engine.Num("VP", vp)), effectsText(ch.Instant))
		}
	case vAdvance:
		w := s.c.Tracks.Westminster
		if p := &s.Seats[seat]; p.West < len(w)-1 {
			return engine.Dotted(engine.Say("cp.describe.advance", engine.Item("Space", s.c.keys.west[p.West+1])), effectsText(w[p.West+1].Bonus))
		}
		return choicesText(s.c.Tracks.WestminsterV)
	case vPublish:
		return engine.Text{ID: "cp.effects", Args: []engine.Arg{engine.Amount("unit.buzz", s.publisherBuzz(seat))}}
	case vUse:
		side := s.side(l)
		for _, po := range side.Possibilities {
			switch {
			case po.Key != a.Key:
			case po.ticket:
				vp := side.TicketVP[s.year()] + s.Boards[s.Location].Dice[s.nextDie()].Value
				return engine.Say("cp.describe.ticket", engine.Item("What", po.item), engine.Num("VP", vp))
			default:
				return engine.Say("cp.describe.name", engine.Item("Name", po.item))
			}
		}
	}
	return engine.Text{}
}

// describeTier: the Black Market tier an assistant would go to.
func (s *State) describeTier(tier, fee int) engine.Text {
	text := engine.Say("cp.describe.tier", engine.Num("Tier", tier+1))
	if fee > 0 {
		text = engine.Dotted(text, engine.Say("cp.describe.fee", engine.Num("Pounds", fee)))
	}
	if eff := s.market().Spaces[tier].Effect; len(eff) > 0 {
		text = engine.Dotted(text, engine.Say("cp.describe.phase6", engine.Nested("What", effectsText(eff))))
	}
	return text
}

// loanAt is the VP value of the loan on research space k (from 0, the
// spaces beside the mat following the mat's).
func (s *State) loanAt(p *Player, k int) int {
	if k < len(p.Slots) {
		return p.Slots[k].ID
	}
	return p.Extra[k-len(p.Slots)].ID
}

func pounds(n int) string { return strconv.Itoa(n) + " £" }

func sum(vals []int) int {
	n := 0
	for _, v := range vals {
		n += v
	}
	return n
}
