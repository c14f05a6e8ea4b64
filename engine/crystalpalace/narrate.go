package crystalpalace

import "strconv"

// narrate is the log line of seat taking action a, said as what happens
// ("P3 takes the Hydraulic Crane at the Patent Office"). It is called
// before the action is performed, while the cards it names are still on
// display. What the action changes follows in EventChange lines.
func (s *State) narrate(seat int, a Action) string {
	who := seatName(seat)
	p := &s.P[seat]
	e := s.c.Tracks.Economy
	switch a.Verb {
	case vDice:
		return who + " has chosen their dice"
	case vPlace:
		l := locKind(locIndex(a.Key))
		return who + " places a " + strconv.Itoa(a.Vals[0]) + " on space " + strconv.Itoa(a.Vals[1]) + " " + s.at(l)
	case vPass:
		switch {
		case len(p.Q) > 0:
		case s.Ph == 2:
			return who + " passes: no more dice this round"
		case s.Ph == 3:
			return who + " passes " + s.at(locKind(s.Loc)) + " (the die takes no action)"
		case s.Ph == 5:
			return who + " passes: no more prototypes this round"
		}
	case vTake:
		l := locKind(s.Loc)
		id := s.display(l)[a.Vals[0]-1]
		switch l {
		case locPatent:
			return who + " takes the " + s.c.Patents[id].Name + " " + s.at(l)
		case locMuseum:
			return who + " takes the research tile " + s.tileName(id) + " " + s.at(l)
		case locBank:
			return who + " takes share " + s.c.Shares[id].ID + " " + s.at(l)
		case locClub:
			ch := &s.c.Characters[id]
			return joinParts(", ", who+" recruits "+ch.Name+" "+s.at(l), s.buys(seat, ch.Cost))
		}
	case vAdvance:
		return who + " advances " + s.at(locWestminster)
	case vPublish:
		return who + " publishes " + s.at(locTimes)
	case vUse:
		l := locKind(s.Loc)
		for _, po := range s.side(l).Possibilities {
			if po.Key == a.Key {
				return who + " uses “" + po.Key + "” " + s.at(l) + " (" + po.Text + ")"
			}
		}
	case vBuild:
		pt := &s.c.Patents[s.c.patentByID[a.Key]]
		return joinParts(", ", who+" builds the "+pt.Prototype+" prototype", s.buys(seat, pt.Cost))
	case vObjective, vTarget, vLoan:
		return "" // their own events say what happens
	case vPlaceAsst:
		return who + " places an assistant on the Black Market, tier " + strconv.Itoa(s.marketFreeAbove(0)+1)
	case vMoveAsst:
		return who + " moves their assistant up the Black Market, tier " + strconv.Itoa(a.Vals[0]) + " → " + strconv.Itoa(s.marketFreeAbove(a.Vals[0])+1)
	case vDown:
		if to := s.marketFreeBelow(a.Vals[0] - 1); to >= 0 {
			return who + " moves their assistant down the Black Market, tier " + strconv.Itoa(a.Vals[0]) + " → " + strconv.Itoa(to+1)
		}
		return who + " moves their assistant off the Black Market (tier " + strconv.Itoa(a.Vals[0]) + "), back to their supply"
	case vReplace:
		if sl := p.Slots[a.Vals[0]-1]; sl.K == slotResearch {
			return who + " discards the research tile " + s.tileName(sl.ID)
		}
	case vGreen:
		return who + " uses a green bonus: " + s.describeGreen(seat, a)
	case vPoster:
		return who + " places a Buzz token on poster " + strconv.Itoa(s.c.Tracks.Buzz.Posters[p.Q[0].X].Space)
	case vBonus:
		if a.Always {
			return who + " chooses " + a.Key + ", and will get it from this poster without being asked (ask bonus to be asked again)"
		}
		return who + " chooses " + a.Key
	case vWatch:
		return who + " takes the Pocket Watch, " + a.Key + " side"
	case vPay:
		if why := p.Q[0].Why; why != "" {
			return who + " pays " + pounds(p.Q[0].N) + " (" + why + "), with loans for what is missing"
		}
		return who + " pays " + pounds(p.Q[0].N) + ", with loans for what is missing"
	case vAccept:
		return who + " takes " + s.c.Characters[p.Q[0].X].Name + "'s instant bonus"
	case vSkip:
		if len(p.Q) == 0 {
			break
		}
		switch t := p.Q[0]; t.K {
		case dAssistant:
			return who + " takes no assistant action"
		case dDown:
			if a.Always {
				return who + " moves no assistant down, and will not be asked again after a placement (ask down to be asked again)"
			}
			return who + " moves no assistant down"
		case dPoster:
			return who + " places no Buzz token on poster " + strconv.Itoa(s.c.Tracks.Buzz.Posters[t.X].Space)
		case dInstant:
			return who + " declines " + s.c.Characters[t.X].Name + "'s instant bonus"
		}
	case vAsk:
		if a.Key == "down" {
			return who + " will be asked again, after each placement, whether to move an assistant down"
		}
		if a.Key == "pass" {
			return who + " will be asked again to place or build when passing is all they can do"
		}
		return who + " will be asked again to choose their poster bonuses"
	case vRepay:
		return who + " pays back the " + strconv.Itoa(s.loanAt(p, a.Vals[0]-1)) + " VP loan"
	case vExchange:
		return who + " exchanges " + s.describeExchange(a.Key)
	case vBuy:
		price := e.EnergyPounds
		if a.Key == "gear" {
			price = e.GearPounds
		}
		return who + " buys 1 " + a.Key + " for " + pounds(price)
	case vSell:
		price := e.SellEnergy
		if a.Key == "gear" {
			price = e.SellGear
		}
		return who + " sells 1 " + a.Key + " for " + pounds(price)
	}
	return who + ": " + a.String()
}

// at is "at the Patent Office", "at Westminster".
func (s *State) at(l locKind) string {
	switch l {
	case locWestminster, locWaterloo:
		return "at " + s.c.Locations[l].Name
	}
	return "at the " + s.c.Locations[l].Name
}
