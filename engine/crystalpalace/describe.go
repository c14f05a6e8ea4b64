package crystalpalace

import (
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// Describe says in a few words what action would do for seat, for a player
// choosing from a list: "Charlotte Bronte · 2 gear, 1 energy · 10 VP" for
// "take 4" at the Reform Club, "fee 2 £ · assistant action" for a
// placement, "4 newspapers → a die" for an exchange. It is "" when the
// action is not legal for seat now or the words would add nothing. It only
// uses what seat may see.
func (s *State) Describe(seat engine.Seat, action string) string {
	if s.Done || seat < 0 || int(seat) >= s.N {
		return ""
	}
	a, err := ParseAction(action)
	if err != nil || s.check(int(seat), a) != nil {
		return ""
	}
	who := int(seat)
	p := &s.P[who]
	e := s.c.Tracks.Economy
	switch a.Verb {
	case vDice:
		return "costs " + pounds(sum(a.Vals)) + " at the reveal"
	case vPlace:
		return joinWords(s.describePlace(a), s.describeTail(who, a))
	case vPass:
		if a.Always {
			return "pass now, and pass without being asked whenever passing is all you can do (ask pass undoes it)"
		}
		return s.describePass(who)
	case vTake, vAdvance, vPublish, vUse:
		text := joinWords(s.describeBonus(), s.describeAction(who, a))
		if a.Always {
			text += " · from now on a die of yours with only this action takes it without asking (ask act undoes it)"
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
		effect := effectText(pt.Effect)
		if a.Tail {
			effect = s.describeTarget(a.Then[0].Vals[0]-1, pt.Effect)
		}
		return joinWords(pt.Prototype+" (patent "+pt.Name+")", s.costFor(who, pt.Cost), strconv.Itoa(vp)+" VP", effect)
	case vTarget:
		if t := p.Q[0]; t.K == dTarget {
			return s.describeTarget(a.Vals[0]-1, s.c.Patents[t.X].Effect)
		}
	case vObjective:
		mat := &s.c.Mats[p.Mat]
		if p.Obj < len(mat.Objective) {
			return "objective level " + strconv.Itoa(p.Obj+1) + " · " + strconv.Itoa(mat.Objective[p.Obj].VP) + " VP at the end"
		}
	case vPlaceAsst:
		tier := s.marketFreeAbove(0)
		fee := s.market().Spaces[tier].Cost
		if p.Q[0].F {
			fee = 0
		}
		return s.describeTier(tier, fee)
	case vMoveAsst:
		to := s.marketFreeAbove(a.Vals[0])
		return s.describeTier(to, s.market().Spaces[to].Cost)
	case vSkip:
		if a.Always {
			return "move no assistant down, now or after later placements (ask down undoes it)"
		}
		return ""
	case vAsk:
		switch a.Key {
		case "down":
			return "be asked again, after each placement, whether to move an assistant down"
		case "pass":
			return "be asked again to place or build when passing is all you can do"
		case "bonus":
			return "be asked again to choose your poster bonuses"
		}
		return "be asked again about each of your dice in phase 3"
	case vDown:
		to := "to tier " + strconv.Itoa(s.marketFreeBelow(a.Vals[0]-1)+1)
		if s.marketFreeBelow(a.Vals[0]-1) < 0 {
			to = "off the Black Market, back to your supply"
		}
		if p.Q[0].K == dDown && s.downGear(a.Vals[0]-1) {
			return to + " · +1 gear from the banner"
		}
		return to
	case vReplace:
		if sl := p.Slots[a.Vals[0]-1]; sl.K == slotResearch {
			return "discards " + s.tileName(sl.ID) + " from research space " + strconv.Itoa(a.Vals[0])
		}
	case vGreen:
		return s.describeGreen(who, a)
	case vPoster:
		return "every phase 6: " + posterText(s.c.Tracks.Buzz.Posters[p.Q[0].X])
	case vBonus:
		alts := s.c.Tracks.WestminsterV
		if t := p.Q[0]; t.X >= 0 {
			alts = s.c.Tracks.Buzz.Posters[t.X].Choice
		}
		for _, eff := range alts {
			if eff.gain.String() == a.Key {
				if a.Always {
					return oneEffectText(eff) + " now and in every phase 6, without being asked (ask bonus undoes it)"
				}
				return oneEffectText(eff)
			}
		}
	case vWatch:
		if a.Key == "vp" {
			return strconv.Itoa(s.c.Tracks.Watch.TakeVP) + " VP now"
		}
		return pounds(s.c.Tracks.Watch.Phase6Pounds) + " every phase 6"
	case vAccept:
		if t := p.Q[0]; t.K == dInstant {
			return oneEffectText(s.c.Characters[t.X].Instant[t.N])
		}
	case vPay:
		return "pay " + pounds(p.Q[0].N) + ", loans for what is missing"
	case vLoan:
		text := "+" + pounds(e.LoanPounds) + " now; the loan tile costs VP at the end unless repaid"
		if len(a.Vals) > 0 {
			if sl := p.Slots[a.Vals[0]-1]; sl.K == slotResearch {
				text += " · replaces " + s.tileName(sl.ID)
			}
		}
		return text
	case vRepay:
		return pounds(e.RepayPounds) + " → the " + strconv.Itoa(s.loanAt(p, a.Vals[0]-1)) + " VP loan scores " + signed(e.RepaidVP) + " VP"
	case vExchange:
		return s.describeExchange(a.Key)
	case vBuy:
		if a.Key == "gear" {
			return pounds(e.GearPounds) + " → 1 gear"
		}
		return pounds(e.EnergyPounds) + " → 1 energy"
	case vSell:
		if a.Key == "gear" {
			return "1 gear → " + pounds(e.SellGear)
		}
		return "1 energy → " + pounds(e.SellEnergy)
	}
	return ""
}

// describeTarget says what a prototype's effects do to target, and whether
// that is good or bad for them: "P2 gets +3 £, -1 VP (mixed for P2)".
func (s *State) describeTarget(target int, effs []Effect) string {
	if len(effs) == 0 {
		return seatName(target) + " gets nothing"
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
	verdict := "good for "
	switch {
	case good && bad:
		verdict = "mixed for "
	case bad:
		verdict = "bad for "
	}
	return seatName(target) + " gets " + effectText(effs) + " (" + verdict + seatName(target) + ")"
}

// describeTail says what the answer a placement carries does: "then an
// assistant on Black Market tier 3 (fee 1 £)", "no assistant action".
func (s *State) describeTail(seat int, a Action) string {
	if !a.Tail {
		return ""
	}
	if len(a.Then) == 0 {
		return "no assistant action"
	}
	f := a.Then[0]
	switch f.Verb {
	case vObjective:
		mat := &s.c.Mats[s.P[seat].Mat]
		return "then objective level " + strconv.Itoa(s.P[seat].Obj+1) + " (" + strconv.Itoa(mat.Objective[s.P[seat].Obj].VP) + " VP at the end)"
	case vPlaceAsst:
		tier := s.marketFreeAbove(0)
		return "then an assistant on " + s.describeTier(tier, s.market().Spaces[tier].Cost)
	case vMoveAsst:
		to := s.marketFreeAbove(f.Vals[0])
		return "then your assistant up from tier " + strconv.Itoa(f.Vals[0]) + " to " + s.describeTier(to, s.market().Spaces[to].Cost)
	}
	return ""
}

// tileName names research tile id for a player: its name, and what it
// does when another tile bears the same name ("Publicity (phase 6: +1
// Buzz)"), so that two tiles are never told apart by their space alone.
func (s *State) tileName(id int) string {
	if !s.r.sharedName[id] {
		return s.c.Research[id].Name
	}
	return s.c.Research[id].Name + " (" + s.researchView(id).Effect + ")"
}

// costFor is cost c as seat would pay it: "2 gear, 1 energy", with
// "(buys 1 energy for 4 £)" when seat lacks goods that the payment buys.
func (s *State) costFor(seat int, c Cost) string {
	if buys := s.buys(seat, c); buys != "" {
		return costText(c) + " (" + buys + ")"
	}
	return costText(c)
}

// buys is what paying c buys for seat, "buys 1 energy for 4 £", or "".
func (s *State) buys(seat int, c Cost) string {
	p := &s.P[seat]
	e := s.c.Tracks.Economy
	gears, energy := max(c.Gears-p.Gears, 0), max(c.Energy-p.Energy, 0)
	var goods []string
	if gears > 0 {
		goods = append(goods, strconv.Itoa(gears)+" "+plural(gears, "gear", "gears"))
	}
	if energy > 0 {
		goods = append(goods, strconv.Itoa(energy)+" energy")
	}
	if len(goods) == 0 {
		return ""
	}
	return "buys " + strings.Join(goods, " and ") + " for " + pounds(gears*e.GearPounds+energy*e.EnergyPounds)
}

// describePlace: the dice space's fee and assistant action.
func (s *State) describePlace(a Action) string {
	l := locIndex(a.Key)
	ds := s.side(locKind(l)).Dice[a.Vals[1]-1]
	fee := "no fee"
	if ds.Fee > 0 {
		fee = "fee " + pounds(ds.Fee)
	}
	if ds.Assistant {
		return s.c.Locations[l].Name + " · " + fee + " · assistant action"
	}
	return s.c.Locations[l].Name + " · " + fee
}

// describePass: what passing gives up in the phase at hand.
func (s *State) describePass(seat int) string {
	if len(s.P[seat].Q) > 0 {
		return ""
	}
	switch s.Ph {
	case 2:
		return "place no more dice this round"
	case 3:
		return "no action for this die; the space stays free"
	case 5:
		return "build no more prototypes this round"
	}
	return ""
}

// describeBonus is the bonus or cost of the action space a phase 3 action
// would take, received before the action.
func (s *State) describeBonus() string {
	k := freeAct(&s.Boards[s.Loc])
	if k < 0 {
		return ""
	}
	return actionSpaceText(s.side(locKind(s.Loc)).Actions[k])
}

// describeAction: the card, tile, share or possibility a phase 3 action
// takes.
func (s *State) describeAction(seat int, a Action) string {
	l := locKind(s.Loc)
	switch a.Verb {
	case vTake:
		id := s.display(l)[a.Vals[0]-1]
		switch l {
		case locPatent:
			pt := &s.c.Patents[id]
			return joinWords(pt.Name+" → builds the "+pt.Prototype+" (build "+pt.ID+")", "costs "+costText(pt.Cost), strconv.Itoa(pt.VP[s.year()])+" VP this round", effectText(pt.Effect))
		case locMuseum:
			return joinWords(s.c.Research[id].Name, s.researchView(id).Effect)
		case locBank:
			cv := s.cardView(l, id)
			return cv.Name + ": " + cv.Effect
		case locClub:
			ch := &s.c.Characters[id]
			vp := ch.VP[s.year()]
			for _, pt := range s.P[seat].Protos {
				if linked(s.c, pt, id) {
					vp += s.c.Tracks.Economy.LinkVP
				}
			}
			return joinWords(ch.Name, s.costFor(seat, ch.Cost), strconv.Itoa(vp)+" VP", effectText(ch.Instant))
		}
	case vAdvance:
		w := s.c.Tracks.Westminster
		if p := &s.P[seat]; p.West < len(w)-1 {
			return joinWords("to "+w[p.West+1].Name, effectText(w[p.West+1].Bonus))
		}
		return choiceText(s.c.Tracks.WestminsterV)
	case vPublish:
		return "+" + strconv.Itoa(s.publisherBuzz(seat)) + " Buzz"
	case vUse:
		side := s.side(l)
		for _, po := range side.Possibilities {
			switch {
			case po.Key != a.Key:
			case po.ticket:
				vp := side.TicketVP[s.year()] + s.Boards[s.Loc].Dice[s.nextDie()].V
				return po.Text + ": " + strconv.Itoa(vp) + " VP"
			default:
				return po.Text
			}
		}
	}
	return ""
}

// describeTier: the Black Market tier an assistant would go to.
func (s *State) describeTier(tier, fee int) string {
	text := "Black Market tier " + strconv.Itoa(tier+1)
	if fee > 0 {
		text += " · fee " + pounds(fee)
	}
	if eff := s.market().Spaces[tier].Effect; len(eff) > 0 {
		text += " · every phase 6: " + effectText(eff)
	}
	return text
}

// describeGreen: the effect of the green bonus a names.
func (s *State) describeGreen(seat int, a Action) string {
	switch a.Key {
	case srcResearch:
		id := s.P[seat].Slots[a.Vals[0]-1].ID
		return s.c.Research[id].Name + " on space " + strconv.Itoa(a.Vals[0]) + ": " + effectText(s.c.Research[id].Phase6)
	case srcMarket:
		return effectText(s.market().Spaces[a.Vals[0]-1].Effect)
	}
	return "+" + pounds(s.c.Tracks.Watch.Phase6Pounds) // srcWatch
}

// describeExchange: what a newspaper exchange costs and gives.
func (s *State) describeExchange(key string) string {
	e := s.c.Tracks.Economy
	switch key {
	case "die":
		if s.Ph == 1 && !s.Revealed {
			return strconv.Itoa(e.DieNewspapers) + " newspapers → a die this round"
		}
		return strconv.Itoa(e.DieNewspapers) + " newspapers → a die from next round"
	case "income":
		return strconv.Itoa(e.IncomeNewspapers) + " newspapers → +1 income"
	case "gear":
		return strconv.Itoa(e.GearNewspapers) + " newspapers → 1 gear"
	}
	return strconv.Itoa(e.PoundNewspapers) + " newspaper → " + pounds(1)
}

// loanAt is the VP value of the loan on research space k (from 0, the
// spaces beside the mat following the mat's).
func (s *State) loanAt(p *Player, k int) int {
	if k < len(p.Slots) {
		return p.Slots[k].ID
	}
	return p.Extra[k-len(p.Slots)].ID
}

func posterText(po Poster) string {
	if len(po.Choice) > 0 {
		return choiceText(po.Choice)
	}
	return effectText(po.Effect)
}

func pounds(n int) string { return strconv.Itoa(n) + " £" }

func sum(vals []int) int {
	n := 0
	for _, v := range vals {
		n += v
	}
	return n
}

// joinWords joins the non-empty parts with " · ".
func joinWords(parts ...string) string { return joinParts(" · ", parts...) }
