package ai

import (
	"cmp"
	"context"
	"math"
	"math/bits"
	"slices"

	"github.com/meeplegames/meeple/engine"
)

// Knowledge is what a game teaches the search about itself: how to guess
// what a seat cannot see, which actions are worth trying first, how to play
// on fast, and what an unfinished position is worth.
type Knowledge interface {
	// Determinize returns a whole state that agrees with view, a seat's
	// observation (see engine.Observe): everything the seat cannot see,
	// such as the order of face-down decks and the random generator, is
	// drawn from rng. view itself is left as it is.
	Determinize(view engine.State, seat engine.Seat, rng *engine.RNG) engine.State
	// Candidates lists the actions worth searching for prompt p of s, the
	// most promising first. It may leave out actions that are never worth
	// taking and may add free actions (engine.State.FreeActions); it is
	// never empty.
	Candidates(s engine.State, p engine.Prompt) []string
	// Rollout answers prompt p of s quickly, with a free action first when
	// one is worth taking. A rollout calls it hundreds of times, so it must
	// cost no more than a few microseconds.
	Rollout(s engine.State, p engine.Prompt, rng *engine.RNG) string
	// Progress says how far the game has come at s; it never goes down.
	Progress(s engine.State) int
	// Horizon is the Progress at which a rollout that begins at s ends and
	// is judged by Evaluate rather than played on.
	Horizon(s engine.State) int
	// Evaluate writes each seat's worth of position s into v (one entry
	// per seat), from 0 (a sure loss) to 1 (a sure win). s may be over.
	Evaluate(s engine.State, v []float64)
}

// Search is a computer player that looks ahead with information-set Monte
// Carlo tree search: each iteration deals one guess of everything its seat
// cannot see (Knowledge.Determinize), walks one tree shared by all guesses
// down to a new position, plays on with the fast rollout policy and
// credits every seat on the way with its worth of the outcome. Other
// seats' secret, simultaneous choices are never part of the tree: they are
// drawn from the rollout policy, so the search cannot react to a choice it
// could not have seen.
type Search struct {
	Knowledge Knowledge
	// Work is the budget of one decision: the actions the search may apply
	// in all its iterations, each guess dealt counting as dealCost more.
	// Work measures thinking time without a clock, whatever the position:
	// a decision depends only on Work, the position and the random
	// generator, so it is the same on every machine and every run.
	Work int
	// PerSecond is the Work one core of the reference machine does in a
	// second, to turn a thinking time into Work (Think).
	PerSecond int
}

// dealCost is the Work of dealing one guess (a copy of the state, its
// piles shuffled), in actions applied.
const dealCost = 20

// The searching levels' budgets, in milliseconds of one core of the
// reference machine.
const (
	normalMS = 100
	strongMS = 1000
)

// Level is the searching player of level name ("normal" or "strong") for a
// game whose knowledge k does perSecond work a second on the reference
// machine; false for any other name.
func Level(k Knowledge, perSecond int, name string) (Search, bool) {
	m := Search{Knowledge: k, PerSecond: perSecond}
	switch name {
	case "normal":
		return m.Think(normalMS), true
	case "strong":
		return m.Think(strongMS), true
	}
	return Search{}, false
}

// Choose implements engine.Player: it searches s for p's best answer.
func (m Search) Choose(s engine.State, p engine.Prompt, rng *engine.RNG) string {
	return m.Best(context.Background(), s, p, rng).Action
}

// Think returns m with its budget set to ms milliseconds of one core of
// the reference machine, or m unchanged when ms <= 0.
func (m Search) Think(ms int) Search {
	if ms > 0 && m.PerSecond > 0 {
		m.Work = max(1, m.PerSecond/1000*ms)
	}
	return m
}

// Choice is a searched answer and what the search learnt of it.
type Choice struct {
	Action string
	// Worth is the seat's mean worth after Action (0 to 1), and Runner the
	// best other action's, with RunnerUp its text ("" when there was none).
	Worth, Runner float64
	RunnerUp      string
	Iterations    int // iterations searched; fewer than asked when ctx ended first
}

// node is one position of the tree, reached by action.
type node struct {
	action    string
	seat      engine.Seat // who took action
	visits    int
	available int     // iterations in which action could be taken here
	reward    float64 // summed worth to seat
	// What was asked at this node the first time, and the candidates then,
	// best first; children follow that order.
	kind     string
	asked    engine.Seat
	order    []string
	children []*node
}

// Exploration weighs trying little-known actions against repeating good
// ones (UCB1's constant for worths from 0 to 1).
const exploration = 0.7

// Progressive widening: a node searches its first widenMin candidates at
// once and one more each time its visits pass widenStep·k².
const (
	widenMin  = 6
	widenStep = 2
)

// maxRollout bounds the actions of one rollout, against a policy that would
// keep taking free actions.
const maxRollout = 4000

// Best searches position s, as its seat sees it, for the answer to p.
// When ctx ends first it answers from the iterations searched so far.
//
// The root is searched by sequential halving rather than UCB1: the widest
// set of candidates the budget affords gets an equal share of iterations,
// the better half by mean worth goes on to the next share, and so on until
// one is left. Every candidate of a share is tried on the same guesses,
// with the same random stream for the rollouts (common random numbers), so
// that two candidates are told apart by what they do, not by the luck of
// their deals. Below the root the tree is searched with UCB1.
func (m Search) Best(ctx context.Context, s engine.State, p engine.Prompt, rng *engine.RNG) Choice {
	if len(p.Actions) == 1 && len(s.FreeActions(p.Seat)) == 0 {
		return Choice{Action: p.Actions[0], Worth: math.NaN(), Runner: math.NaN()}
	}
	var seeds []uint64 // the guesses' seeds, the j-th shared by every candidate
	guess := func(j int) (engine.State, engine.RNG) {
		for len(seeds) <= j {
			seeds = append(seeds, rng.Uint64())
		}
		g := engine.NewRNG(seeds[j])
		return m.Knowledge.Determinize(s, p.Seat, &g), g
	}
	root := &node{seat: engine.Spectator, visits: 1, kind: p.Kind, asked: p.Seat}
	first, _ := guess(0)
	free := s.FreeActions(p.Seat)
	for _, a := range m.Knowledge.Candidates(first, p) {
		if (slices.Contains(p.Actions, a) || slices.Contains(free, a)) && !slices.Contains(root.order, a) {
			root.order = append(root.order, a)
		}
	}
	if len(root.order) == 0 {
		root.order = p.Actions
	}
	width := rootWidth(m.Work, len(root.order))
	for _, a := range root.order[:width] {
		root.children = append(root.children, &node{action: a, seat: p.Seat})
	}
	survivors := root.children
	worth := make([]float64, s.Players())
	done, work, j := 0, 0, 0
	shares := max(1, bits.Len(uint(width-1))) // halvings to one survivor
	for share := 0; share < shares && ctx.Err() == nil; share++ {
		budget, start := (m.Work-work)/(shares-share), work
		for k := 0; k == 0 || work-start < budget; k++ {
			for _, c := range survivors {
				d, g := guess(j)
				work += dealCost + m.iterate(root, d, p.Seat, worth, &g, c)
				done++
			}
			j++
			if ctx.Err() != nil {
				break
			}
		}
		slices.SortStableFunc(survivors, func(a, b *node) int { return cmp.Compare(b.mean(), a.mean()) })
		if len(survivors) > 1 {
			survivors = survivors[:(len(survivors)+1)/2]
		}
	}
	best := survivors[0]
	ch := Choice{Action: best.action, Worth: best.mean(), Runner: math.NaN(), Iterations: done}
	var second *node
	for _, c := range root.children {
		if c != best && c.visits > 0 && (second == nil || c.visits > second.visits || c.visits == second.visits && c.mean() > second.mean()) {
			second = c
		}
	}
	if second != nil {
		ch.Runner, ch.RunnerUp = second.mean(), second.action
	}
	return ch
}

// rootWidth is how many of n candidates, best first, a budget of work can
// compare by sequential halving: as many as leave each of them at least
// pullsPerShare iterations in the first share, and never fewer than three.
func rootWidth(work, n int) int {
	iterations := work / iterationCost
	w := 1
	for w < n && (w+1)*bits.Len(uint(w))*pullsPerShare <= iterations {
		w++
	}
	return min(max(w, 3), n) // three at least: the first alone is often a blunder
}

// iterationCost is the work of a typical iteration: a guess dealt and a
// rollout of a few dozen actions.
const iterationCost = 100

// pullsPerShare is the fewest iterations each candidate gets in the first
// share of sequential halving.
const pullsPerShare = 1

// iterate runs one iteration on the guess d: from the root by its child
// first, down the tree, a rollout, and the worths back up the path. It
// returns the number of actions applied.
func (m Search) iterate(root *node, d engine.State, me engine.Seat, worth []float64, rng *engine.RNG, first *node) int {
	k := m.Knowledge
	path := make([]*node, 1, 32)
	path[0] = root
	n := root
	horizon := -1 // the rollout's end, once it has begun
	steps := 0
	for ; !d.Over() && steps < maxRollout; steps++ {
		prompts := d.Prompts()
		p := prompts[0]
		if len(prompts) > 1 {
			// Others decide at once with me: their choices come from the
			// policy, before mine and blind to it.
			for _, q := range prompts {
				if q.Seat != me {
					p = q
					break
				}
			}
		}
		if n != nil && (len(prompts) == 1 || p.Seat == me) {
			child := first
			if n != root {
				child = n.descend(d, p, k)
			} else {
				first.available++
			}
			if child != nil {
				if _, err := d.Apply(p.Seat, child.action); err != nil {
					break
				}
				path = append(path, child)
				n = child
				if child.visits == 0 {
					n = nil // new: play on from here
				}
				continue
			}
			n = nil // this guess asks what the tree was not asked here
		}
		if n == nil {
			if horizon < 0 {
				horizon = k.Horizon(d)
			}
			if k.Progress(d) >= horizon {
				break
			}
		}
		action := k.Rollout(d, p, rng)
		if _, err := d.Apply(p.Seat, action); err != nil {
			// a policy's slip must not end the search: fall back to a legal answer
			if _, err := d.Apply(p.Seat, p.Actions[rng.Intn(len(p.Actions))]); err != nil {
				break
			}
		}
	}
	k.Evaluate(d, worth)
	root.visits++
	for _, c := range path[1:] {
		c.visits++
		if int(c.seat) >= 0 && int(c.seat) < len(worth) {
			c.reward += worth[c.seat]
		}
	}
	return steps
}

// descend picks the child of n to follow for prompt p of guess d, creating
// it when new, or nil when p is not the question n was first asked.
func (n *node) descend(d engine.State, p engine.Prompt, k Knowledge) *node {
	if n.order == nil {
		n.kind, n.asked, n.order = p.Kind, p.Seat, k.Candidates(d, p)
		if len(n.order) == 0 {
			n.order = p.Actions
		}
	} else if n.kind != p.Kind || n.asked != p.Seat {
		return nil
	}
	width := min(len(n.order), widenMin+int(math.Sqrt(float64(n.visits)/widenStep)))
	var free []string
	if len(n.order) > 0 {
		free = d.FreeActions(p.Seat)
	}
	var best *node
	bestScore := math.Inf(-1)
	for i := 0; i < width; i++ {
		a := n.order[i]
		if !slices.Contains(p.Actions, a) && !slices.Contains(free, a) {
			continue
		}
		var c *node
		if i < len(n.children) {
			c = n.children[i]
		} else {
			for len(n.children) <= i {
				n.children = append(n.children, nil)
			}
		}
		if c == nil {
			c = &node{action: a, seat: p.Seat}
			n.children[i] = c
		}
		c.available++
		if c.visits == 0 {
			if best == nil || best.visits > 0 {
				best, bestScore = c, math.Inf(1) // the first untried, in order
			}
			continue
		}
		score := c.reward/float64(c.visits) + exploration*math.Sqrt(math.Log(float64(max(c.available, 1)))/float64(c.visits))
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

func (n *node) mean() float64 { return n.reward / float64(max(n.visits, 1)) }
