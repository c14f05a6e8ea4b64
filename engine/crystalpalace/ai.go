package crystalpalace

import (
	"github.com/meeplegames/meeple/engine"
)

// Heuristic is a computer player: it chooses dice values by budget, places
// dice where its estimate of the location's worth is highest and it is
// likely to act, and otherwise looks one action ahead, comparing its
// position with the best opponent's.
type Heuristic struct{}

// Choose implements engine.Player.
func (Heuristic) Choose(st engine.State, pr engine.Prompt, rng *engine.RNG) string {
	s, ok := st.(*State)
	if !ok || len(pr.Actions) == 1 {
		return pr.Actions[0]
	}
	seat := int(pr.Seat)
	switch pr.Kind {
	case "dice":
		return s.aiDice(seat)
	case "place":
		return s.aiPlace(seat, pr.Actions, rng)
	}
	best, bestV := pr.Actions[0], -1e18
	for _, a := range pr.Actions {
		t := s.clone()
		if _, err := t.Apply(pr.Seat, a); err != nil {
			continue
		}
		v := t.relative(seat) + float64(rng.Intn(100))/1000
		if v > bestV {
			best, bestV = a, v
		}
	}
	return best
}

// aiDice spends a budget on dice values, highest first.
func (s *State) aiDice(seat int) string {
	p := &s.P[seat]
	colour := s.c.Tracks.Westminster[p.West].Salary
	salary := 0
	for _, ch := range p.Chars {
		salary += s.c.Characters[ch].Salary[colour]
	}
	budget := p.Pounds - salary - 8
	if s.Round == 5 {
		budget = p.Pounds - salary
	}
	budget = min(max(budget, p.Dice), 4*p.Dice+2)
	vals := make([]int, p.Dice)
	for i := range vals {
		rest := p.Dice - i - 1
		v := min(6, budget-rest)
		v = max(v, 1)
		if i == 0 {
			v = min(v, 6)
		} else {
			v = min(v, vals[i-1])
		}
		vals[i] = v
		budget -= v
	}
	return Action{Verb: vDice, Vals: vals}.String()
}

// aiPlace picks the placement with the best expected worth, or passes.
func (s *State) aiPlace(seat int, actions []string, rng *engine.RNG) string {
	worth := make([]float64, locCount)
	for l := locPatent; l < locCount; l++ {
		worth[l] = s.locationWorth(seat, l)
	}
	best, bestV := "pass", 0.5
	for _, text := range actions {
		a, err := ParseAction(text)
		if err != nil || a.Verb != vPlace {
			continue
		}
		l := locIndex(a.Key)
		side := s.side(locKind(l))
		b := &s.Boards[l]
		ahead := 0
		for i, d := range b.Dice {
			if d.O >= 0 && (d.V > a.Vals[0] || (d.V == a.Vals[0] && i < a.Vals[1]-1)) {
				ahead++
			}
		}
		chance := 1.0
		if ahead >= len(side.Actions) {
			chance = 0.05
		}
		own := 0
		for _, d := range b.Dice {
			if d.O == seat {
				own++
			}
		}
		ds := side.Dice[a.Vals[1]-1]
		v := worth[l]*chance*(1-0.35*float64(own)) - 0.3*float64(ds.Fee) + float64(rng.Intn(100))/400
		if ds.Assistant {
			v += 0.8
		}
		// Keep high dice for contested places: a small cost for spending a high die.
		v -= 0.05 * float64(a.Vals[0])
		if v > bestV {
			best, bestV = text, v
		}
	}
	return best
}

// locationWorth estimates what an action at l is worth to seat now.
func (s *State) locationWorth(seat int, l locKind) float64 {
	p := &s.P[seat]
	left := float64(5 - s.Round)
	switch l {
	case locPatent:
		best := 0.0
		for _, id := range s.PatentDisp {
			if id >= 0 {
				best = max(best, s.patentWorth(seat, id))
			}
		}
		return best + 0.5
	case locMuseum:
		if !canReceiveResearch(p) {
			return 0
		}
		v := 2.0 + left*0.5
		if freeSlot(p) >= 0 {
			v += 2
		}
		return v
	case locBank:
		best := 0.0
		for _, id := range s.BankDisp {
			if id >= 0 {
				sh := &s.c.Shares[id]
				best = max(best, float64(sh.VP)+float64(sh.Income)*(left+1)*0.3)
			}
		}
		return best
	case locWestminster:
		return 2.5
	case locClub:
		best := 0.0
		for _, id := range s.CharDisp {
			if id < 0 {
				continue
			}
			ch := &s.c.Characters[id]
			need, ok := s.affordable(seat, ch.Cost)
			if !ok {
				continue
			}
			sal := float64(ch.Salary[s.c.Tracks.Westminster[p.West].Salary])
			best = max(best, float64(ch.VP[s.year()])-0.3*float64(need)-0.8*float64(ch.Cost.Gears+ch.Cost.Energy)-sal*0.3*(left+1)+1)
		}
		return best
	case locTimes:
		return float64(s.publisherBuzz(seat))*0.6 + 0.5
	case locPort:
		return 3
	case locWaterloo:
		return 2.5
	}
	return 0
}

// patentWorth estimates a patent's value to seat: prototype VP, links and
// effect, less its cost.
func (s *State) patentWorth(seat, id int) float64 {
	pt := &s.c.Patents[id]
	v := float64(pt.VP[min(s.year()+1, 2)])
	for _, ch := range s.P[seat].Chars {
		if linked(s.c, id, ch) {
			v += 4
		}
	}
	v -= 1.3*float64(pt.Cost.Gears+pt.Cost.Energy) + 0.3*float64(pt.Cost.Pounds)
	return v + 2
}

// relative is seat's estimated standing less the best opponent's.
func (s *State) relative(seat int) float64 {
	mine := s.estimate(seat)
	best := -1e18
	for o := range s.P {
		if o != seat {
			best = max(best, s.estimate(o))
		}
	}
	return mine - best*0.5
}

// estimate is a rough worth of seat's position in VP.
func (s *State) estimate(seat int) float64 {
	p := &s.P[seat]
	if s.Done {
		return float64(p.VP)
	}
	left := float64(5 - s.Round)
	if s.Ph <= 6 {
		left++
	}
	v := float64(p.VP)
	v += 0.3*float64(p.Pounds) + 1.4*float64(p.Gears) + 1.2*float64(p.Energy) + 0.45*float64(p.News)
	v += 0.3 * left * float64(s.c.Tracks.Income[p.Income].Income)
	v += 0.3*float64(p.Buzz) + 0.7*float64(p.West) + 1.5*float64(s.count(seat, metricMarket))
	v += 1.5 * left * float64(p.Dice+p.New)
	for _, id := range p.Patents {
		v += max(0, s.patentWorth(seat, id)) * 0.7
	}
	for _, sl := range p.Slots {
		switch sl.K {
		case slotResearch:
			v += 2
			if len(s.c.Research[sl.ID].Phase6) > 0 {
				v += left
			}
		case slotLoan:
			if sl.Repaid {
				v -= 3
			} else {
				v -= 8
			}
		}
	}
	v -= 9 * float64(len(p.Extra))
	colour := s.c.Tracks.Westminster[p.West].Salary
	for _, ch := range p.Chars {
		v -= 0.3 * left * float64(s.c.Characters[ch].Salary[colour])
	}
	if p.Obj > 0 {
		v += float64(s.c.Mats[p.Mat].Objective[p.Obj-1].VP)
	}
	return v
}
