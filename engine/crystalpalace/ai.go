package crystalpalace

import (
	"slices"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// Heuristic is a computer player: it chooses dice values by budget, places
// dice where its estimate of the location's worth is highest and it is
// likely to act, and otherwise looks one action ahead, comparing its
// position with the best opponent's. Before answering a prompt of its own
// it may take free actions (see aiFree).
type Heuristic struct{}

// Choose implements engine.Player.
func (Heuristic) Choose(st engine.State, pr engine.Prompt, rng *engine.RNG) string {
	s, ok := st.(*State)
	if !ok {
		return pr.Actions[0]
	}
	seat := int(pr.Seat)
	if free := s.aiFree(seat, pr.Kind); free != "" {
		return free
	}
	if len(pr.Actions) == 1 {
		return pr.Actions[0]
	}
	if len(pr.Actions) == 2 && pr.Actions[1] == "pass always" {
		return pr.Actions[1] // nothing to place or build: no need to be asked again
	}
	switch pr.Kind {
	case "dice":
		return s.aiDice(seat)
	case "place":
		return s.aiPlace(seat, pr.Actions, rng)
	}
	best := s.aiLookahead(seat, pr.Seat, pr.Actions, rng)
	if pr.Kind == "down" && best == "skip" {
		return "skip always" // it seldom moves down: no need to be asked again
	}
	if (pr.Kind == "bonus" || pr.Kind == "action") && slices.Contains(pr.Actions, best+" always") {
		return best + " always" // a poster's bonus: the same choice every round
	}
	return best
}

// aiLookahead picks the action after which seat's position compared with
// the best opponent's is best.
func (s *State) aiLookahead(seat int, who engine.Seat, actions []string, rng *engine.RNG) string {
	best, bestV := actions[0], -1e18
	for _, a := range actions {
		t := s.clone()
		if _, err := t.Apply(who, a); err != nil {
			continue
		}
		v := t.relative(seat) + float64(rng.Intn(100))/1000
		if v > bestV {
			best, bestV = a, v
		}
	}
	return best
}

// aiFree is the free action seat takes before answering its prompt of
// kind, or "". Each one it takes gives up newspapers, gears or energy,
// which only other actions bring back, so it cannot take them forever:
//   - short of money for a debt, it raises pounds (newspapers first, then
//     energy, then gears) as long as that saves a loan;
//   - otherwise it turns 4 newspapers into a die while it has rounds to use
//     it, 3 into income while that pays back, and 2 into a gear before the
//     newspapers overflow.
func (s *State) aiFree(seat int, kind string) string {
	p := &s.Seats[seat]
	e := s.c.Tracks.Economy
	try := func(a Action) string {
		if s.checkFree(seat, a) == nil {
			return a.String()
		}
		return ""
	}
	if kind == "pay" {
		if !s.raisingSavesALoan(seat, p.Queue[0].Amount) {
			return ""
		}
		for _, a := range []Action{{Verb: vExchange, Key: "pound"}, {Verb: vSell, Key: "energy"}, {Verb: vSell, Key: "gear"}} {
			if text := try(a); text != "" {
				return text
			}
		}
		return ""
	}
	if kind != "dice" && kind != "place" && kind != "action" && kind != "build" {
		return ""
	}
	// A die exchanged before the reveal acts this round; later, from the next.
	dieRounds := 5 - s.Round
	if s.CurrentPhase == phaseDice {
		dieRounds++
	}
	if p.News >= e.DieNewspapers && dieRounds > 0 {
		if text := try(Action{Verb: vExchange, Key: "die"}); text != "" {
			return text
		}
	}
	inc := s.c.Tracks.Income
	if p.News >= e.IncomeNewspapers && p.Income+1 < len(inc) && (inc[p.Income+1].Income-inc[p.Income].Income)*(6-s.Round) > e.IncomeNewspapers+1 {
		if text := try(Action{Verb: vExchange, Key: "income"}); text != "" {
			return text
		}
	}
	if p.News+2 > e.MaxNewspapers {
		return try(Action{Verb: vExchange, Key: "gear"})
	}
	return ""
}

// loansFor is how many loans of size loan cover a shortfall of short pounds.
func loansFor(short, loan int) int {
	if short <= 0 {
		return 0
	}
	return (short + loan - 1) / loan
}

// aiDice spends a budget on dice values, highest first.
func (s *State) aiDice(seat int) string {
	n := s.Seats[seat].Dice
	return s.diceWithin(seat, min(max(s.diceBudget(seat), n), 4*n+2))
}

// aiPlace picks the placement with the best expected worth, or passes;
// a placement listed with answers to the decisions it leads to (assistant
// action, move down) is judged once, then its answers by looking ahead.
func (s *State) aiPlace(seat int, actions []string, rng *engine.RNG) string {
	best, ok := bestPlacement(s.placeWorths(seat, actions, rng))
	if !ok {
		return "pass"
	}
	if !best.base.Tail {
		return best.text
	}
	return s.aiLookahead(seat, engine.Seat(seat), s.answersOf(actions, best.base), rng)
}

// placeWorth is a placement's text and estimated worth; base is the
// placement without its answers.
type placeWorth struct {
	text string
	base Action
	v    float64
}

// bestPlacement is the placement of ws worth most, if one is worth more
// than passing.
func bestPlacement(ws []placeWorth) (placeWorth, bool) {
	best, bestV := placeWorth{}, 0.5
	for _, w := range ws {
		if w.v > bestV {
			best, bestV = w, w.v
		}
	}
	return best, bestV > 0.5
}

// placeWorths estimates each placement among actions: a placement listed
// with several answers appears once, under its first text.
func (s *State) placeWorths(seat int, actions []string, rng *engine.RNG) []placeWorth {
	var worth [locCount]float64
	for l := locPatent; l < locCount; l++ {
		worth[l] = s.locationWorth(seat, l)
	}
	out := make([]placeWorth, 0, len(actions)/2)
	for i, text := range actions {
		a, err := ParseAction(text)
		if err != nil || a.Verb != vPlace {
			continue
		}
		if i > 0 && strings.HasPrefix(actions[i-1], s.r.placeAt[locIndex(a.Key)][a.Vals[1]-1].plain[a.Vals[0]]+" ") {
			continue // the same placement with other answers, already judged
		}
		l := locIndex(a.Key)
		side := s.side(locKind(l))
		b := &s.Boards[l]
		ahead, own := 0, 0
		for i, d := range b.Dice {
			if d.Owner >= 0 && (d.Value > a.Vals[0] || (d.Value == a.Vals[0] && i < a.Vals[1]-1)) {
				ahead++
			}
			if d.Owner == seat {
				own++
			}
		}
		chance := 1.0
		if ahead >= len(side.Actions) {
			chance = 0.05
		}
		ds := side.Dice[a.Vals[1]-1]
		w := worth[l]
		if locKind(l) == locPort {
			w = max(w, s.ticketWorth(a.Vals[0]))
		}
		v := w*chance*(1-0.35*float64(own)) - 0.3*float64(ds.Fee) + float64(rng.Intn(100))/400
		if ds.Assistant {
			v += 0.8
		}
		// Keep high dice for contested places: a small cost for spending a high die.
		v -= 0.05 * float64(a.Vals[0])
		out = append(out, placeWorth{text: text, base: a, v: v})
	}
	return out
}

// answersOf is the placement base with each of the answers actions list.
func (s *State) answersOf(actions []string, base Action) []string {
	return withBase(actions, s.r.placeAt[locIndex(base.Key)][base.Vals[1]-1].plain[base.Vals[0]]+" ")
}

// withBase keeps the actions that begin with prefix.
func withBase(actions []string, prefix string) []string {
	var out []string
	for _, a := range actions {
		if strings.HasPrefix(a, prefix) {
			out = append(out, a)
		}
	}
	return out
}

// locationWorth estimates what an action at l is worth to seat now.
func (s *State) locationWorth(seat int, l locKind) float64 {
	switch l {
	case locPatent, locBank, locClub:
		best := 0.0
		for _, id := range s.display(l) {
			if w, ok := s.itemWorth(seat, l, id); ok {
				best = max(best, w)
			}
		}
		if l == locPatent {
			best += 0.5
		}
		return best
	case locMuseum:
		p := &s.Seats[seat]
		if !canReceiveResearch(p) {
			return 0
		}
		v := 2.0 + float64(5-s.Round)*0.5
		if freeSlot(p) >= 0 {
			v += 4 // and no empty space to pay for at the end
		}
		return v
	case locWestminster:
		return 4
	case locTimes:
		return float64(s.publisherBuzz(seat))*0.6 + 0.5
	case locPort:
		return 3
	case locWaterloo:
		return 2.5
	}
	return 0
}

// itemWorth estimates what taking card id from l's display is worth to
// seat now; false when seat cannot take it or the slot is empty.
func (s *State) itemWorth(seat int, l locKind, id int) (float64, bool) {
	if id < 0 {
		return 0, false
	}
	left := float64(5 - s.Round)
	switch l {
	case locPatent:
		return s.patentWorth(seat, id), true
	case locBank:
		sh := &s.c.Shares[id]
		return float64(sh.VP) + float64(sh.Income)*(left+1)*0.3, true
	case locClub:
		ch := &s.c.Characters[id]
		need, ok := s.affordable(seat, ch.Cost)
		if !ok {
			return 0, false
		}
		sal := float64(ch.Salary[s.c.Tracks.Westminster[s.Seats[seat].West].Salary])
		return float64(ch.VP[s.year()]) - 0.3*float64(need) - 0.8*float64(ch.Cost.Gears+ch.Cost.Energy) - sal*0.3*(left+1) + 1, true
	case locMuseum:
		r := &s.c.Research[id]
		return 2 + s.effectWorth(seat, r.Instant) + s.effectWorth(seat, r.Phase6)*(left+1), canReceiveResearch(&s.Seats[seat])
	}
	return 0, false
}

// ticketWorth is what a Port ticket taken with a die of value v is worth
// (its VP less the die's use in the rounds left), or 0 when none is left.
func (s *State) ticketWorth(v int) float64 {
	side := s.side(locPort)
	if len(s.TicketDice) >= side.TicketSpaces {
		return 0
	}
	return float64(side.TicketVP[s.year()]+v) - 1.5*float64(5-s.Round)
}

// patentWorth estimates a patent's value to seat: prototype VP, links and
// effect, less its cost.
func (s *State) patentWorth(seat, id int) float64 {
	pt := &s.c.Patents[id]
	v := float64(pt.VP[min(s.year()+1, 2)])
	for _, ch := range s.Seats[seat].Chars {
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
	for o := range s.Seats {
		if o != seat {
			best = max(best, s.estimate(o))
		}
	}
	return mine - best*0.5
}

// estimate is a rough worth of seat's position in VP.
func (s *State) estimate(seat int) float64 {
	p := &s.Seats[seat]
	if s.Done {
		return float64(p.VP)
	}
	left := float64(5 - s.Round)
	if s.CurrentPhase <= phaseIncome {
		left++
	}
	// Dice act in phases 2-3; salaries come in phase 4, income in phase 6.
	diceLeft, salaryLeft := float64(5-s.Round), float64(5-s.Round)
	if s.CurrentPhase <= phasePlace {
		diceLeft++
	}
	if s.CurrentPhase <= phaseSalaries {
		salaryLeft++
	}
	salary := s.salary(seat)
	// Money: what it will have after income and salaries; a shortfall
	// beyond what the dice will cost means loans, which cost dearly.
	cash := float64(p.Pounds) + left*float64(s.c.Tracks.Income[p.Income].Income) - salaryLeft*float64(salary)
	v := float64(p.VP)
	// After the last building phase patents are dead cards and goods are
	// worth the pound each the end scoring pays for them.
	gear, energy, news, patent := 1.4, 1.2, 0.45, 0.7
	if s.Round == 5 && s.CurrentPhase > phaseBuild || s.Round == 5 && s.CurrentPhase == phaseBuild && p.Passed {
		gear, energy, news, patent = 0.3, 0.3, 0.3, 0
	}
	v += 0.3*cash + gear*float64(p.Gears) + energy*float64(p.Energy) + news*float64(p.News)
	if short := cash - diceLeft*float64(p.Dice+p.New)*3.5; short < 0 {
		v += 0.5 * short
	}
	v += 0.3*float64(p.Buzz) + 0.7*float64(p.West) + 1.5*float64(s.count(seat, metricMarket))
	v += 1.5 * diceLeft * float64(p.Dice+p.New)
	for _, id := range p.Patents {
		v += max(0, s.patentWorth(seat, id)) * patent
	}
	for _, sl := range p.Slots {
		switch sl.Kind {
		case slotResearch:
			v += 2
			if len(s.c.Research[sl.ID].Phase6) > 0 {
				v += left
			}
		case slotEmpty:
			v -= 2 // an empty research space costs 2 VP at the end
		case slotLoan:
			if sl.Repaid {
				v -= 3
			} else {
				v -= 8
			}
		}
	}
	v -= 9 * float64(len(p.Extra))
	if p.Obj > 0 {
		v += float64(s.c.Mats[p.Mat].Objective[p.Obj-1].VP)
	}
	return v
}
