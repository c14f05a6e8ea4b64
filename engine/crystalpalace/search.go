package crystalpalace

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// perSecond is the search's work (ai.Search.Work) one core of the
// reference machine (the project's 2-core CI machine) does in a second, as
// BenchmarkStrongDecision measures it.
const perSecond = 100_000

// searchPlayer is a searching computer player with the given budget.
func searchPlayer(work int) ai.Search {
	return ai.Search{Knowledge: knowledge{}, Work: work, PerSecond: perSecond}
}

// knowledge teaches engine/ai's search about Crystal Palace (ai.Knowledge).
type knowledge struct{}

// Observe implements engine.Observable: decks sorted, the generator zeroed,
// and in phase 1 the other seats' dice withdrawn, their prompts open again.
func (s *State) Observe(seat engine.Seat) engine.State {
	o := s.clone()
	for _, d := range o.decks() {
		slices.Sort(d)
	}
	o.RNG = engine.RNG{}
	if o.CurrentPhase == phaseDice {
		for i := range o.Seats {
			if i != int(seat) {
				o.Seats[i].Vals, o.Seats[i].Sub = nil, false
			}
		}
	}
	return o
}

// decks are the face-down piles, whose order nobody knows.
func (s *State) decks() [][]int {
	return append([][]int{s.PatentDeck, s.CharDeck, s.GreenDeck, s.VioletBlue, s.VioletOrange, s.Loans}, s.ShareDecks...)
}

// Determinize implements ai.Knowledge: every pile shuffled, a new generator.
// The other seats' dice, withdrawn by Observe, are chosen again in the
// search by the rollout policy.
func (knowledge) Determinize(view engine.State, _ engine.Seat, rng *engine.RNG) engine.State {
	s := view.(*State).clone()
	for _, d := range s.decks() {
		rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	}
	s.RNG = engine.NewRNG(rng.Uint64())
	return s
}

// Progress implements ai.Knowledge: the round and phase.
func (knowledge) Progress(st engine.State) int {
	s := st.(*State)
	return s.Round*8 + int(s.CurrentPhase)
}

// Horizon implements ai.Knowledge: a rollout plays to the start of the next
// round, where every seat's position is judged at the same point of the
// cycle; in the last round, to the end.
func (knowledge) Horizon(st engine.State) int {
	s := st.(*State)
	if s.Round == 5 {
		return math.MaxInt
	}
	return (s.Round+1)*8 + 1
}

// Evaluate implements ai.Knowledge. A finished game counts its win, its
// final points and its margin over the best opponent. An unfinished one,
// which a rollout leaves at the start of a round, counts the points each
// seat can expect at the end (worth): its own, not its margin, since a
// margin rewards spoiling a rival's round as much as building one's own,
// and searches that all do it leave every seat poorer.
func (knowledge) Evaluate(st engine.State, v []float64) {
	s := st.(*State)
	if s.Done {
		res := s.Result()
		var final [8]float64
		for i := range s.Seats {
			final[i] = float64(s.Seats[i].VP)
		}
		for i := range s.Seats {
			v[i] = 0.15*sigmoid((final[i]-bestOther(final[:s.PlayerCount], i))/10) + 0.45*sigmoid((final[i]-goodScore)/15)
		}
		for _, w := range res.Winners {
			v[w] += 0.4 / float64(len(res.Winners))
		}
		return
	}
	for i := range s.Seats {
		v[i] = sigmoid((s.worth(i) - goodScore) / 15)
	}
}

// goodScore is the points a good player ends a game with.
const goodScore = 60

// bestOther is the highest of worth but worth[i].
func bestOther(worth []float64, i int) float64 {
	best := math.Inf(-1)
	for j, w := range worth {
		if j != i {
			best = max(best, w)
		}
	}
	return best
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Rollout implements ai.Knowledge: the heuristic's rules of thumb without
// its look-ahead, which would cost a copy of the state per action.
func (knowledge) Rollout(st engine.State, p engine.Prompt, rng *engine.RNG) string {
	s := st.(*State)
	seat := int(p.Seat)
	if free := s.aiFree(seat, p.Kind); free != "" {
		return free
	}
	if len(p.Actions) == 1 {
		return p.Actions[0]
	}
	switch p.Kind {
	case "dice":
		n := s.Seats[seat].Dice
		return s.diceWithin(seat, min(s.diceBudget(seat), 3*n, s.Seats[seat].Pounds-3)+rng.Intn(7)-3)
	case "place":
		best, ok := bestPlacement(s.placeWorths(seat, p.Actions, rng))
		if !ok {
			return passOf(p.Actions)
		}
		if !best.base.Tail {
			return best.text
		}
		return preferredAnswer(s.answersOf(p.Actions, best.base))
	case "action":
		return s.orderTakes(seat, p.Actions)[0]
	case "down":
		if slices.Contains(p.Actions, "skip") {
			return "skip"
		}
	case "build":
		if a := firstDoing(p.Actions); a != "pass" {
			what, _, _ := strings.Cut(a, " target ")
			return s.targeted(seat, what, p.Actions)
		}
	case "target":
		if q := s.Seats[seat].Queue; len(q) > 0 {
			return s.targetText(seat, q[0].Subject, "target ")
		}
	}
	return firstDoing(p.Actions)
}

// targeted is build (a "build …" action without its target) aimed at the
// seat its prototype's effect suits best, when actions offer it so; else
// the first of actions that does something.
func (s *State) targeted(seat int, build string, actions []string) string {
	i, ok := s.c.patentByID[strings.TrimPrefix(build, "build ")]
	if !ok {
		return firstDoing(actions)
	}
	if a := s.targetText(seat, i, build+" target "); slices.Contains(actions, a) {
		return a
	}
	return firstDoing(actions)
}

// targetText is prefix followed by the seat (numbered from 1) on whom seat
// plays prototype i's effect: itself when the effect is worth having,
// else the rival with the most points.
func (s *State) targetText(seat, i int, prefix string) string {
	target := seat
	if s.effectWorth(seat, s.c.Patents[i].Effect) < 0 {
		best := -1
		for o := range s.Seats {
			if o != seat && (best < 0 || s.Seats[o].VP > s.Seats[best].VP) {
				best = o
			}
		}
		target = max(best, 0)
	}
	return prefix + strconv.Itoa(target+1)
}

// possibilityWorth is a rough worth in points of using the possibility
// key of location l (Port, Waterloo) with the die that acts now.
func (s *State) possibilityWorth(seat int, l locKind, key string) float64 {
	for _, po := range s.side(l).Possibilities {
		if po.Key != key {
			continue
		}
		if po.ticket {
			if i := s.nextDie(); i >= 0 {
				return s.ticketWorth(s.Boards[l].Dice[i].Value)
			}
		}
		return s.effectWorth(seat, po.Effect)
	}
	return 0
}

// effectWorth is a rough worth in points of effects played on seat.
func (s *State) effectWorth(seat int, effects []Effect) float64 {
	v := 0.0
	for _, e := range effects {
		n := float64(e.N)
		if e.metric != metricNone {
			n *= float64(s.count(seat, e.metric) / max(e.Div, 1))
		}
		if e.N == 0 {
			n = 1
		}
		switch e.gain {
		case gainPounds:
			v += 0.3 * n
		case gainVP:
			v += n
		case gainGears:
			v += 1.4 * n
		case gainEnergy:
			v += 1.2 * n
		case gainNewspapers:
			v += 0.45 * n
		case gainIncome:
			v += 0.3 * n * float64(6-s.Round)
		case gainBuzz:
			v += 0.4 * n
		case gainMarketDown:
			v -= 1
		case gainDie:
			if p := &s.Seats[seat]; p.Dice+p.New+p.Tick < s.c.Tracks.Economy.MaxDice {
				v += n * float64(5-s.Round)
			}
		case gainMuseum, gainVioletBlue, gainVioletOrange:
			v += 3 * n
		case gainGreen:
			v += 1.5 * n
		default:
			v += n
		}
	}
	return v
}

// Candidates implements ai.Knowledge: the heuristic's free action first,
// then the prompt's actions in the heuristic's order of preference, without
// the "always" forms (a computer is never asked twice for nothing) and, for
// dice and placements, only the likelier ones.
func (knowledge) Candidates(st engine.State, p engine.Prompt) []string {
	s := st.(*State)
	seat := int(p.Seat)
	var out []string
	if free := s.aiFree(seat, p.Kind); free != "" {
		out = append(out, free)
	}
	switch p.Kind {
	case "dice":
		return append(out, s.diceCandidates(seat, p.Actions)...)
	case "place":
		return append(out, s.placeCandidates(seat, p.Actions)...)
	case "action":
		return append(out, s.orderTakes(seat, p.Actions)...)
	case "build":
		return append(out, s.buildCandidates(seat, p.Actions)...)
	case "target":
		if q := s.Seats[seat].Queue; len(q) > 0 && q[0].Kind == dTarget {
			out = append(out, s.targetText(seat, q[0].Subject, "target "))
		}
	case "down":
		out = append(out, "skip")
	}
	for _, a := range p.Actions {
		if !strings.HasSuffix(a, " always") && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// salary is what seat's characters cost each phase 4.
func (s *State) salary(seat int) int {
	p := &s.Seats[seat]
	colour := s.c.Tracks.Westminster[p.West].Salary
	salary := 0
	for _, ch := range p.Chars {
		salary += s.c.Characters[ch].Salary[colour]
	}
	return salary
}

// diceBudget is what the heuristic would spend on its dice.
func (s *State) diceBudget(seat int) int {
	p := &s.Seats[seat]
	salary := s.salary(seat)
	if s.Round == 5 {
		return p.Pounds - salary
	}
	return p.Pounds - salary - 4
}

// diceWithin spends budget on seat's dice, highest first, each die at most
// the one before.
func (s *State) diceWithin(seat, budget int) string {
	n := s.Seats[seat].Dice
	budget = min(max(budget, n), 6*n)
	vals := make([]int, n)
	for i := range vals {
		v := max(1, min(6, budget-(n-i-1)))
		if i > 0 {
			v = min(v, vals[i-1])
		}
		vals[i] = v
		budget -= v
	}
	return Action{Verb: vDice, Vals: vals}.String()
}

// evenDice spends total on n dice as evenly as it can.
func evenDice(n, total int) string {
	vals := make([]int, n)
	for i := range vals {
		vals[i] = total / n
		if i < total%n {
			vals[i]++
		}
	}
	return Action{Verb: vDice, Vals: vals}.String()
}

// diceCandidates are dice choices of totals from all ones to the
// heuristic's budget and a little over, the cheaper half first, each in
// the greedy shape (high dice first) and the even one.
func (s *State) diceCandidates(seat int, actions []string) []string {
	n := s.Seats[seat].Dice
	if n == 0 {
		return actions
	}
	top := min(max(s.diceBudget(seat), n), 4*n+2)
	var out []string
	add := func(a string) {
		if slices.Contains(actions, a) && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	for _, total := range []int{(n + top) / 2, 2 * n, top, n + 5, (n + 3*top) / 4, (3*n + top) / 4, n, top + 3, 3 * n} {
		if total > max(n, s.Seats[seat].Pounds-s.salary(seat)) {
			continue // a loan: -9 points for 10 pounds
		}
		total = min(max(total, n), 6*n)
		add(s.diceWithin(seat, total))
		add(evenDice(n, total))
	}
	if len(out) == 0 {
		return actions
	}
	return out
}

// placeCandidates are the placements best first by the heuristic's
// estimate, each with its preferred answer and with none, then passing.
func (s *State) placeCandidates(seat int, actions []string) []string {
	rng := engine.NewRNG(0)
	ws := s.placeWorths(seat, actions, &rng)
	slices.SortStableFunc(ws, func(a, b placeWorth) int { return cmp.Compare(b.v, a.v) })
	out := make([]string, 0, 2*len(ws)+1)
	for _, w := range ws {
		if !w.base.Tail {
			out = append(out, w.text)
			continue
		}
		answers := s.answersOf(actions, w.base)
		out = append(out, preferredAnswer(answers))
		if only := answers[0]; only != out[len(out)-1] && strings.HasSuffix(only, " only") {
			out = append(out, only)
		}
	}
	if pass := passOf(actions); pass != "" && slices.Contains(actions, pass) {
		out = append(out, pass)
	}
	return out
}

// buildCandidates are a build prompt's actions with each prototype aimed
// at the seat its effect suits first (targeted), then passing, then the
// other targets: a search that compares only its first few candidates
// weighs which prototype to build, and whether to build at all, before
// whom it aims at.
func (s *State) buildCandidates(seat int, actions []string) []string {
	out := make([]string, 0, len(actions))
	var rest []string
	var built []string
	for _, a := range actions {
		if strings.HasSuffix(a, " always") || a == "pass" {
			continue
		}
		what, _, _ := strings.Cut(a, " target ")
		if !slices.Contains(built, what) {
			built = append(built, what)
			if t := s.targeted(seat, what, actions); t != a && !slices.Contains(out, t) {
				out = append(out, t)
				rest = append(rest, a)
				continue
			}
			if !slices.Contains(out, a) {
				out = append(out, a)
				continue
			}
		}
		if !slices.Contains(out, a) {
			rest = append(rest, a)
		}
	}
	if slices.Contains(actions, "pass") {
		out = append(out, "pass")
	}
	return append(out, rest...)
}

// preferredAnswer picks a placement's assistant action without looking
// ahead: reaching the objective, else a new assistant at the market, else
// the highest move up, else none.
func preferredAnswer(answers []string) string {
	best, rank := answers[0], 0
	for _, a := range answers {
		r := 1
		switch {
		case strings.HasSuffix(a, " objective"):
			r = 4
		case strings.HasSuffix(a, " market place"):
			r = 3
		case strings.Contains(a, " market move "):
			r = 2
		}
		if r > rank || r == 2 && rank == 2 && a > best {
			best, rank = a, r
		}
	}
	return best
}

// orderTakes orders a phase 3 prompt's actions: cards by their worth to
// seat, any other action before passing, "always" forms left out.
func (s *State) orderTakes(seat int, actions []string) []string {
	type worth struct {
		text string
		v    float64
	}
	l := locKind(s.Location)
	disp := s.display(l)
	ws := make([]worth, 0, len(actions))
	for _, a := range actions {
		if strings.HasSuffix(a, " always") {
			continue
		}
		v := 0.0
		switch {
		case a == "pass":
			v = -100
		case strings.HasPrefix(a, "take "):
			k := int(a[len(a)-1] - '1')
			if k >= 0 && k < len(disp) {
				v, _ = s.itemWorth(seat, l, disp[k])
			}
		case strings.HasPrefix(a, "use "):
			v = s.possibilityWorth(seat, l, strings.TrimPrefix(a, "use "))
		}
		ws = append(ws, worth{a, v})
	}
	slices.SortStableFunc(ws, func(a, b worth) int { return cmp.Compare(b.v, a.v) })
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	if len(out) == 0 {
		return actions
	}
	return out
}

// passOf is the plain "pass" when actions offer it, else the first action.
func passOf(actions []string) string {
	if slices.Contains(actions, "pass") {
		return "pass"
	}
	return actions[0]
}

// firstDoing is the first action that does something: not a pass or skip,
// unless nothing else is offered.
func firstDoing(actions []string) string {
	for _, a := range actions {
		if a != "pass" && a != "skip" && !strings.HasSuffix(a, " always") {
			return a
		}
	}
	return actions[0]
}
