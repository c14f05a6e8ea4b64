package crystalpalace

import (
	"github.com/meeplegames/meeple/engine"
)

// narrate is the log line of seat taking action a, said as what happens
// ("P3 takes the Hydraulic Crane at the Patent Office"), as data for the
// wording layer. It is called before the action is performed, while the
// cards it names are still on display. What the action changes follows in
// EventChange lines.
func (s *State) narrate(seat int, a Action) engine.Text {
	who := engine.Who("Who", engine.Seat(seat))
	p := &s.Seats[seat]
	e := &s.c.Tracks.Economy
	switch a.Verb {
	case vDice:
		return s.say("cp.log.dice", who)
	case vPlace:
		l := locKind(locIndex(a.Key))
		return s.say("cp.log.place", who, engine.Num("Die", a.Vals[0]), engine.Num("Space", a.Vals[1]), s.at(l))
	case vPass:
		switch {
		case len(p.Queue) > 0:
		case s.CurrentPhase == phasePlace:
			return s.say("cp.log.pass.dice", who)
		case s.CurrentPhase == phaseActions:
			return s.say("cp.log.pass.action", who, s.at(locKind(s.Location)))
		case s.CurrentPhase == phaseBuild:
			return s.say("cp.log.pass.build", who)
		}
	case vTake:
		l := locKind(s.Location)
		id := s.display(l)[a.Vals[0]-1]
		switch l {
		case locPatent:
			return s.say("cp.log.take.patent", who, engine.Item("Patent", s.c.keys.patent[id]), s.at(l))
		case locMuseum:
			return s.say("cp.log.take.research", who, s.tileArg("Tile", id), s.at(l))
		case locBank:
			return s.say("cp.log.take.share", who, engine.Nested("Effect", s.r.view.share[id]), s.at(l))
		case locClub:
			ch := &s.c.Characters[id]
			if buys := s.buysText(seat, ch.Cost); !buys.IsZero() {
				return s.say("cp.log.recruit_buying", who, engine.Item("Character", s.c.keys.char[id]), s.at(l), engine.Nested("Buys", buys))
			}
			return s.say("cp.log.recruit", who, engine.Item("Character", s.c.keys.char[id]), s.at(l))
		}
	case vAdvance:
		return s.say("cp.log.advance", who, s.at(locWestminster))
	case vPublish:
		return s.say("cp.log.publish", who, s.at(locTimes))
	case vUse:
		l := locKind(s.Location)
		for _, po := range s.side(l).Possibilities {
			if po.Key == a.Key {
				return s.say("cp.log.use", who, s.at(l), engine.Item("What", po.item))
			}
		}
	case vBuild:
		i := s.c.patentByID[a.Key]
		if buys := s.buysText(seat, s.c.Patents[i].Cost); !buys.IsZero() {
			return s.say("cp.log.build_buying", who, engine.Item("Prototype", s.c.keys.proto[i]), engine.Nested("Buys", buys))
		}
		return s.say("cp.log.build", who, engine.Item("Prototype", s.c.keys.proto[i]))
	case vObjective, vTarget, vLoan:
		return engine.Text{} // their own events say what happens
	case vPlaceAsst:
		return s.say("cp.log.market.place", who, engine.Num("Tier", s.marketFreeAbove(0)+1))
	case vMoveAsst:
		return s.say("cp.log.market.up", who, engine.Num("From", a.Vals[0]), engine.Num("To", s.marketFreeAbove(a.Vals[0])+1))
	case vDown:
		if to := s.marketFreeBelow(a.Vals[0] - 1); to >= 0 {
			return s.say("cp.log.market.down", who, engine.Num("From", a.Vals[0]), engine.Num("To", to+1))
		}
		return s.say("cp.log.market.off", who, engine.Num("From", a.Vals[0]))
	case vReplace:
		if sl := p.Slots[a.Vals[0]-1]; sl.Kind == slotResearch {
			return s.say("cp.log.discard", who, s.tileArg("Tile", sl.ID))
		}
	case vGreen:
		return s.say("cp.log.green", who, engine.Nested("What", s.greenText(seat, a)))
	case vPoster:
		subject := p.Queue[0].Subject
		poster := engine.Num("Poster", s.c.Tracks.Buzz.Posters[subject].Space)
		switch {
		case a.Key == "":
			return s.say("cp.log.poster", who, poster)
		case a.Always:
			return s.say("cp.log.poster_bonus_always", who, poster, s.bonusArg(subject, a.Key))
		}
		return s.say("cp.log.poster_bonus", who, poster, s.bonusArg(subject, a.Key))
	case vBonus:
		if a.Always {
			return s.say("cp.log.bonus_always", who, s.bonusArg(p.Queue[0].Subject, a.Key))
		}
		return s.say("cp.log.bonus", who, s.bonusArg(p.Queue[0].Subject, a.Key))
	case vWatch:
		side := "cp.watch_side.pounds"
		if a.Key == "vp" {
			side = "cp.watch_side.vp"
		}
		return s.say("cp.log.watch", who, engine.Msg("Side", side, 0))
	case vPay:
		if why := p.Queue[0].Why; why != "" {
			return s.say("cp.log.pay_why", who, engine.Num("Pounds", p.Queue[0].Amount), engine.Msg("Why", causeID(why), 0))
		}
		return s.say("cp.log.pay", who, engine.Num("Pounds", p.Queue[0].Amount))
	case vAccept:
		return s.say("cp.log.instant.take", who, engine.Item("Character", s.c.keys.char[p.Queue[0].Subject]))
	case vSkip:
		if len(p.Queue) == 0 {
			break
		}
		switch t := p.Queue[0]; t.Kind {
		case dAssistant:
			return s.say("cp.log.skip.assistant", who)
		case dDown:
			if a.Always {
				return s.say("cp.log.skip.down_always", who)
			}
			return s.say("cp.log.skip.down", who)
		case dPoster:
			return s.say("cp.log.skip.poster", who, engine.Num("Poster", s.c.Tracks.Buzz.Posters[t.Subject].Space))
		case dInstant:
			return s.say("cp.log.instant.decline", who, engine.Item("Character", s.c.keys.char[t.Subject]))
		}
	case vAsk:
		switch a.Key {
		case "down":
			return s.say("cp.log.ask.down", who)
		case "pass":
			return s.say("cp.log.ask.pass", who)
		}
		return s.say("cp.log.ask.bonus", who)
	case vRepay:
		return s.say("cp.log.repay", who, engine.Num("VP", s.loanAt(p, a.Vals[0]-1)))
	case vExchange:
		return s.say("cp.log.exchange", who, engine.Nested("What", s.exchangeText(a.Key)))
	case vBuy:
		if a.Key == "gear" {
			return s.say("cp.log.buy.gear", who, engine.Num("Pounds", e.GearPounds))
		}
		return s.say("cp.log.buy.energy", who, engine.Num("Pounds", e.EnergyPounds))
	case vSell:
		if a.Key == "gear" {
			return s.say("cp.log.sell.gear", who, engine.Num("Pounds", e.SellGear))
		}
		return s.say("cp.log.sell.energy", who, engine.Num("Pounds", e.SellEnergy))
	}
	return s.say("cp.log.action", who, engine.Code("Action", a.String()))
}

// at is "at the Patent Office", "at Westminster", as argument "At".
func (s *State) at(l locKind) engine.Arg {
	return engine.Item("At", s.c.keys.at[l])
}

// bonusArg is alternative key of the bonus decision on subject (a
// poster; Westminster V when negative) as argument "Bonus", written as
// what it gives ("+2 £"), not as its notation.
func (s *State) bonusArg(subject int, key string) engine.Arg {
	alts := s.c.Tracks.WestminsterV
	if subject >= 0 {
		alts = s.c.Tracks.Buzz.Posters[subject].Choice
	}
	for _, e := range alts {
		if e.gain.String() == key {
			return engine.Nested("Bonus", engine.Text{ID: "cp.effects", Args: []engine.Arg{effectPart(e)}})
		}
	}
	return engine.Code("Bonus", key)
}

// tileArg names research tile id as argument name: its name, and what it
// does when another tile bears the same name ("Publicity (phase 6: +1
// Buzz)"), so that two tiles are never told apart by their space alone.
func (s *State) tileArg(name string, id int) engine.Arg {
	if !s.r.sharedName[id] {
		return engine.Nested(name, s.say("cp.tile.named", engine.Item("Name", s.c.keys.research[id])))
	}
	return engine.Nested(name, s.say("cp.tile.shared", engine.Item("Name", s.c.keys.research[id]),
		engine.Nested("Effect", s.r.texts.research[id])))
}

// buysText is what paying c buys for seat ("buys 1 energy for 4 £"), or
// the zero Text.
func (s *State) buysText(seat int, c Cost) engine.Text {
	p := &s.Seats[seat]
	e := &s.c.Tracks.Economy
	gears, energy := max(c.Gears-p.Gears, 0), max(c.Energy-p.Energy, 0)
	if gears == 0 && energy == 0 {
		return engine.Text{}
	}
	args := s.room(3)
	if gears > 0 {
		args = append(args, engine.Amount("goods.gears", gears))
	}
	if energy > 0 {
		args = append(args, engine.Amount("goods.energy", energy))
	}
	args = append(args, engine.Num("Pounds", gears*e.GearPounds+energy*e.EnergyPounds))
	return engine.Text{ID: "cp.buys", Args: args}
}

// greenText: the effect of the green bonus a names.
func (s *State) greenText(seat int, a Action) engine.Text {
	switch a.Key {
	case srcResearch:
		id := s.Seats[seat].Slots[a.Vals[0]-1].ID
		return s.say("cp.green.research", engine.Item("Tile", s.c.keys.research[id]), engine.Num("Space", a.Vals[0]),
			engine.Nested("Effect", effectsText(s.c.Research[id].Phase6)))
	case srcMarket:
		return effectsText(s.market().Spaces[a.Vals[0]-1].Effect)
	}
	return s.say("cp.green.watch", engine.Num("Pounds", s.c.Tracks.Watch.Phase6Pounds)) // srcWatch
}

// exchangeText: what a newspaper exchange costs and gives.
func (s *State) exchangeText(key string) engine.Text {
	e := &s.c.Tracks.Economy
	switch key {
	case "die":
		if s.CurrentPhase == phaseDice && !s.Revealed {
			return s.say("cp.exchange.die.now", engine.Num("Count", e.DieNewspapers))
		}
		return s.say("cp.exchange.die.next", engine.Num("Count", e.DieNewspapers))
	case "income":
		return s.say("cp.exchange.income", engine.Num("Count", e.IncomeNewspapers))
	case "gear":
		return s.say("cp.exchange.gear", engine.Num("Count", e.GearNewspapers))
	}
	return s.say("cp.exchange.pound", engine.Num("Count", e.PoundNewspapers))
}
