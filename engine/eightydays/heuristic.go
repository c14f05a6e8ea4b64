package eightydays

import (
	"sync"

	"github.com/meeplegames/meeple/engine"
)

// Heuristic is the computer player that plans its way home: it knows, for
// every space, amount of pounds and number of Rumor cards, the fewest turns
// a lone traveller needs to come home to London (ignoring other pawns and
// the cards), and picks the legal action that brings that number down most.
// Ties are broken at random. It never looks at the face-down deck.
type Heuristic struct{}

// Choose implements engine.Player.
func (Heuristic) Choose(st engine.State, p engine.Prompt, rng *engine.RNG) string {
	s, ok := st.(*State)
	if !ok || len(p.Actions) == 1 {
		return p.Actions[0]
	}
	// A plan can loop when other pawns keep blocking it; after a long game
	// an occasional random action breaks the loop.
	if s.Turns > stuckTurns*len(s.Seats) && rng.Intn(4) == 0 {
		return p.Actions[rng.Intn(len(p.Actions))]
	}
	pl := s.rules.planner()
	best, bestScore := []string(nil), int(^uint(0)>>1)
	for _, text := range p.Actions {
		a, err := s.parse(text)
		if err != nil {
			continue
		}
		score := s.score(pl, int(p.Seat), a)
		switch {
		case score < bestScore:
			best, bestScore = append(best[:0], text), score
		case score == bestScore:
			best = append(best, text)
		}
	}
	if len(best) == 0 {
		return p.Actions[rng.Intn(len(p.Actions))]
	}
	return best[rng.Intn(len(best))]
}

// stuckTurns is the number of turns per player after which a game counts
// as long and the heuristic sometimes acts at random.
const stuckTurns = 100

// Scores are in hundredths of a turn, so that small preferences can break
// ties between plans of the same length.
const (
	turnScore = 100
	winScore  = -1 << 20
)

// score is how far from home seat would be after the action, in turns: the
// turns the action itself takes plus the planned turns from the result.
func (s *State) score(pl *planner, seat int, a Action) int {
	me := &s.Seats[seat]
	m, r := me.Pounds, me.Rumors
	switch a.Verb {
	case VerbPlay:
		return s.playScore(pl, seat, a.ID)
	case VerbKeep:
		card := s.rules.content.Cards[s.Drawn[a.Card-1]]
		return s.position(pl, seat, -1, 0, m+card.Pounds+card.Discount, r+card.Rumors)
	case VerbDiscard:
		return turnScore + s.position(pl, seat, -1, 0, m, r-1)
	case VerbPass:
		return turnScore + s.position(pl, seat, -1, 0, m, r)
	case VerbStay:
		if a.Take {
			m += PoundStep
		} else {
			m -= PoundStep
		}
		return turnScore + s.position(pl, seat, -1, 0, m, r)
	case VerbRestart:
		return turnScore + s.position(pl, seat, a.Pawn, 0, max(m, RestartPounds), r)
	case VerbBack:
		from := s.pawn(seat, a.Pawn).Space
		to := s.rules.behind[from]
		return turnScore + s.position(pl, seat, a.Pawn, to, m+(from-to)*BackPayPerSpace, r)
	case VerbMove:
		from := s.pawn(seat, a.Pawn).Space
		m -= max(0, cost(a.To-from)-s.Discount)
		if a.To == LondonEnd {
			home := true // once this pawn arrives, are all of them home?
			for i, q := range me.Pawns {
				home = home && (i == max(a.Pawn-1, 0) || q.Space == LondonEnd)
			}
			if home {
				return winScore
			}
		}
		turns := turnScore
		kind := s.rules.kinds[a.To]
		if kind == spacePolice {
			turns += turnScore // the discard turn
			r--
			m += s.Rank(a.To) * PositionPayPerRank
		}
		score := turns + s.position(pl, seat, a.Pawn, a.To, m, r)
		if kind == spacePassepartout {
			score -= 5 // a card is worth a little on average
		}
		return score
	}
	return turnScore * 1000
}

// playScore values playing a character now against keeping it: a character
// is played when the best next action after it beats the best one without.
func (s *State) playScore(pl *planner, seat int, id string) int {
	c := s.clone()
	c.play(seat, id, func(bool, engine.Text) {})
	with := c.bestScore(pl, seat)
	without := s.bestScore(pl, seat)
	if with <= without {
		return with - 1
	}
	return without + 1
}

// bestScore is the best score among seat's moves (plays aside).
func (s *State) bestScore(pl *planner, seat int) int {
	best := turnScore * 1000
	for _, text := range s.legal(s.promptKind(), nil) {
		a, err := s.parse(text)
		if err != nil || a.Verb == VerbPlay {
			continue
		}
		best = min(best, s.score(pl, seat, a))
	}
	return best
}

// position is the planned number of turns home (in hundredths) for seat
// with pawn pw moved to space to (pw -1: pawns where they are), holding m
// pounds and r Rumors.
func (s *State) position(pl *planner, seat, pw, to, m, r int) int {
	me := &s.Seats[seat]
	spaces := [2]int{}
	for i, q := range me.Pawns {
		spaces[i] = q.Space
	}
	if pw == 0 {
		spaces[0] = to
	} else if pw > 0 {
		spaces[pw-1] = to
	}
	m, r = max(m, 0), max(r, 0)
	r -= s.heldRumorCures(seat)
	if len(me.Pawns) == 1 {
		return pl.turns(limitLondon, spaces[0], m, r)
	}
	a, b := spaces[0], spaces[1]
	switch {
	case a == LondonEnd:
		return pl.turns(limitSecond, b, m, r)
	case b == LondonEnd:
		return pl.turns(limitSecond, a, m, r)
	}
	// either pawn may go home first, once all the Rumors are gone
	return min(pl.turns(limitFirst, a, m, r)+pl.turns(limitSecond, b, m, 0),
		pl.turns(limitFirst, b, m, r)+pl.turns(limitSecond, a, m, 0))
}

// heldRumorCures counts kept characters that discard a Rumor.
func (s *State) heldRumorCures(seat int) int {
	n := 0
	for _, c := range s.Seats[seat].Characters {
		if s.rules.content.Cards[c].Rumors < 0 {
			n++
		}
	}
	return n
}

// The terminal conditions the planner knows.
const (
	limitLondon = iota // home with 10£ or less
	limitFirst         // the variant's first pawn: any pounds
	limitSecond        // the variant's second pawn: 20£ or less
	limits
)

// planner holds, for each terminal condition, the fewest turns home from
// every (Rumors, space, pounds), for a traveller alone on the track. Each
// table is computed the first time it is needed (the standard game needs
// only one) and read-only afterwards.
type planner struct {
	rules *Rules
	once  [limits]sync.Once
	table [limits][]uint8
}

const (
	planPounds = 240 // pounds beyond this cost turns to be rid of (excess)
	planRumors = 5   // Rumors beyond this count as this many
	planNever  = 255 // no way home
)

func (r *Rules) planner() *planner {
	r.plan.Do(func() { r.planning = newPlanner(r) })
	return r.planning
}

func planIndex(rumors, space, pounds int) int {
	return (rumors*spaceCount+space)*(planPounds+1) + pounds
}

// turns looks a position up, in hundredths of a turn; a position with no
// way home scores far worse than any other.
func (pl *planner) turns(limit, space, pounds, rumors int) int {
	if space == LondonEnd {
		return 0
	}
	rumors = min(max(rumors, 0), planRumors)
	pl.once[limit].Do(func() { pl.table[limit] = pl.rules.plan1(limit) })
	return (int(pl.table[limit][planIndex(rumors, space, min(max(pounds, 0), planPounds))]) + excess(pounds)) * turnScore
}

// excess is the turns it takes to be rid of pounds beyond the planner's
// reach, giving 10£ a turn on a Pound space: a traveller who piles up money
// can never come home with 10£ or less.
func excess(pounds int) int {
	if pounds <= planPounds {
		return 0
	}
	return (pounds - planPounds + PoundStep - 1) / PoundStep
}

func newPlanner(r *Rules) *planner { return &planner{rules: r} }

// plan1 computes one table by value iteration: sweeps from London backwards
// until no entry improves (moves back and Pound spaces make cycles).
func (r *Rules) plan1(limit int) []uint8 {
	maxLeft := map[int]int{limitLondon: LondonMaxPounds, limitFirst: planPounds, limitSecond: VariantSecondMax}[limit]
	const stride = planPounds + 1
	v := make([]uint8, (planRumors+1)*spaceCount*stride)
	for i := range v {
		v[i] = planNever
	}
	// at is the table entry for pounds, counting pounds beyond the table as
	// turns of giving them away (see excess).
	at := func(row, pounds int) int {
		if pounds > planPounds {
			return int(v[row+planPounds]) + excess(pounds)
		}
		return int(v[row+pounds])
	}
	// Sweeps alternate: down the track (forward moves see fresh values),
	// then up it (moves back do).
	for sweep, changed := 0, true; changed; sweep++ {
		changed = false
		for i := 0; i < LondonEnd; i++ {
			space := LondonEnd - 1 - i
			if sweep%2 == 1 {
				space = i
			}
			back := r.behind[space]
			pound := r.kinds[space] == spacePound
			for rumors := 0; rumors <= planRumors; rumors++ {
				row := planIndex(rumors, space, 0)
				for pounds := 0; pounds <= planPounds; pounds++ {
					best := int(v[row+pounds])
					for to := space + 1; to <= LondonEnd && cost(to-space) <= pounds; to++ {
						left := pounds - cost(to-space)
						t := planNever
						switch r.kinds[to] {
						case spaceLayover:
						case spaceLondon:
							if rumors == 0 && left <= maxLeft {
								t = 1
							}
						case spacePolice:
							if rumors > 0 {
								t = 2 + at(planIndex(rumors-1, to, 0), left+PositionPayPerRank)
							}
						default:
							t = 1 + at(planIndex(rumors, to, 0), left)
						}
						best = min(best, t)
					}
					if back >= 0 {
						best = min(best, 1+at(planIndex(rumors, back, 0), pounds+(space-back)*BackPayPerSpace))
					}
					if pound {
						best = min(best, 1+at(row, pounds+PoundStep))
						if pounds >= PoundStep {
							best = min(best, 1+at(row, pounds-PoundStep))
						}
					}
					if best < int(v[row+pounds]) {
						v[row+pounds] = uint8(best)
						changed = true
					}
				}
			}
		}
	}
	return v
}
