package crystalpalace

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/enginetest"
)

// searchPositions are positions of heuristic games, every stride-th
// decision of games with players seats, each with its first prompt.
func searchPositions(tb testing.TB, players, games, stride int) []*State {
	r := testRules(tb)
	var out []*State
	for seed := uint64(1); seed <= uint64(games); seed++ {
		st, err := r.New(engine.Setup{Players: players, Seed: seed})
		if err != nil {
			tb.Fatal(err)
		}
		for n := 0; !st.Over(); n++ {
			p := st.Prompts()[0]
			if n%stride == 0 {
				out = append(out, st.(*State).clone())
			}
			if _, err := st.Apply(p.Seat, ai.Decide(Heuristic{}, st, p, seed, n)); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// disguised is s with everything seat cannot see changed: the piles in
// another order, a new generator, and in phase 1 the other seats' chosen
// dice changed to other values.
func disguised(s *State, seat engine.Seat, rng *engine.RNG) *State {
	t := s.clone()
	for _, d := range t.decks() {
		rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	}
	t.RNG = engine.NewRNG(rng.Uint64())
	if t.CurrentPhase == phaseDice {
		for i := range t.Seats {
			if p := &t.Seats[i]; i != int(seat) && p.Sub {
				for k := range p.Vals {
					p.Vals[k] = 1 + rng.Intn(6)
				}
				slices.Sort(p.Vals)
				slices.Reverse(p.Vals)
			}
		}
	}
	return t
}

// TestTheSearchNeverPeeks checks, over many positions, that what a seat
// cannot see changes neither its observation nor the decision of any
// computer player at any level: decks in another order, another random
// generator, and other seats' secret dice.
func TestTheSearchNeverPeeks(t *testing.T) {
	r := testRules(t)
	rng := engine.NewRNG(7)
	players := map[string]engine.Player{"easy": Heuristic{}, "normal": searchPlayer(2000)}
	positions := searchPositions(t, 4, 3, 9)
	changed, secretDice := 0, 0
	for i, s := range positions {
		for _, p := range s.Prompts() {
			other := disguised(s, p.Seat, &rng)
			full1, _ := s.Encode()
			full2, _ := other.Encode()
			if !bytes.Equal(full1, full2) {
				changed++
			}
			for o := range s.Seats {
				if o != int(p.Seat) && s.CurrentPhase == phaseDice && s.Seats[o].Sub && !slices.Equal(s.Seats[o].Vals, other.Seats[o].Vals) {
					secretDice++
				}
			}
			seen1, _ := s.Observe(p.Seat).Encode()
			seen2, _ := other.Observe(p.Seat).Encode()
			if !bytes.Equal(seen1, seen2) {
				t.Fatalf("position %d: P%d's observation depends on what it cannot see", i, p.Seat+1)
			}
			for name, pl := range players {
				a := ai.Decide(pl, s, p, 99, i)
				b := ai.Decide(pl, other, p, 99, i)
				if a != b {
					t.Errorf("position %d, %s P%d: %q, but %q when only hidden things differ", i, name, p.Seat+1, a, b)
				}
				if _, err := s.clone().Apply(p.Seat, a); err != nil {
					t.Errorf("position %d, %s P%d chose %q: %v", i, name, p.Seat+1, a, err)
				}
			}
		}
	}
	_ = r
	if changed < len(positions) || secretDice == 0 {
		t.Fatalf("the disguise changed %d of %d positions and %d secret dice: the test proves nothing", changed, len(positions), secretDice)
	}
}

// TestASearchDecisionIsRepeatable checks that the same position and seed
// bring the same choice: an undo cannot fish for a better computer move.
func TestASearchDecisionIsRepeatable(t *testing.T) {
	player := searchPlayer(3000)
	for i, s := range searchPositions(t, 3, 1, 13) {
		p := s.Prompts()[0]
		if a, b := ai.Decide(player, s, p, 5, i), ai.Decide(player, s.clone(), p, 5, i); a != b {
			t.Fatalf("position %d: %q then %q", i, a, b)
		}
	}
}

// TestAnEndedBudgetStillAnswers checks that a search whose context has
// ended answers at once with a legal action.
func TestAnEndedBudgetStillAnswers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	player := searchPlayer(1 << 40) // would never end by itself
	for i, s := range searchPositions(t, 2, 1, 17) {
		p := s.Prompts()[0]
		a := ai.DecideWithin(ctx, player, s, p, 1, i)
		if _, err := s.clone().Apply(p.Seat, a); err != nil {
			t.Fatalf("position %d: %q: %v", i, a, err)
		}
	}
}

// BenchmarkStrongDecision is the strong player's decision at its default
// budget over positions of 4-player games; work/s is the rate that
// perSecond assumes.
func BenchmarkStrongDecision(b *testing.B) {
	enginetest.StrongDecisions(b, testRules(b), benchPositions(b))
}

// benchPositions are the benchmarks' positions of 4-player games.
func benchPositions(b *testing.B) []engine.State {
	var positions []engine.State
	for _, s := range searchPositions(b, 4, 2, 11) {
		positions = append(positions, s)
	}
	return positions
}

// BenchmarkThinkingMemory is the memory a strong decision holds at its
// default budget, over positions of 4-player games (live-MB).
func BenchmarkThinkingMemory(b *testing.B) {
	enginetest.ThinkingMemory(b, testRules(b), benchPositions(b))
}

// TestDiceCandidatesKeepTheSalary checks that the search never considers
// dice that would leave a seat short of this round's salaries, which it
// would pay for with a loan (-9 points for 10 pounds), unless even all ones
// cost that much.
func TestDiceCandidatesKeepTheSalary(t *testing.T) {
	tight := 0
	for i, s := range searchPositions(t, 4, 4, 1) {
		for _, p := range s.Prompts() {
			if p.Kind != "dice" {
				continue
			}
			seat := int(p.Seat)
			n, spare := s.Seats[seat].Dice, s.Seats[seat].Pounds-s.salary(seat)
			if spare < 4*n {
				tight++
			}
			for _, a := range (knowledge{}).Candidates(s, p) {
				act, err := ParseAction(a)
				if err != nil || act.Verb != vDice {
					continue
				}
				total := 0
				for _, v := range act.Vals {
					total += v
				}
				if total > max(n, spare) {
					t.Fatalf("position %d: P%d with %d pounds to spare is offered %q", i, seat+1, spare, a)
				}
			}
		}
	}
	if tight == 0 {
		t.Fatal("no seat was short of money: the test proves nothing")
	}
}

// TestALoanLowersWorth checks, at the start of every round the evaluation
// judges, that taking a loan (10 pounds, a loan tile) lowers a seat's
// worth: a fit of final scores alone reads the pounds as worth the loan.
func TestALoanLowersWorth(t *testing.T) {
	checked := 0
	for i, s := range searchPositions(t, 4, 3, 1) {
		if s.CurrentPhase != phaseDice || s.Round < 2 || s.Seats[0].Sub {
			continue
		}
		for seat := range s.Seats {
			loaned := s.clone()
			loaned.Seats[seat].Pounds += 10
			loaned.Seats[seat].Extra = append(loaned.Seats[seat].Extra, Slot{Kind: slotLoan, ID: -9})
			if before, after := s.worth(seat), loaned.worth(seat); after >= before {
				t.Fatalf("position %d (round %d): P%d's worth %.1f with a loan, %.1f without", i, s.Round, seat+1, after, before)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no round start was checked")
	}
}

// TestPrototypesAimWhereTheirEffectSuits checks that the rollout policy and
// the first candidate of a build prompt play a prototype's effect on the
// builder when the effect is worth having (more pounds, goods, research)
// and on a rival when it hurts: a rollout that played every effect on the
// first seat misjudged every build but the first seat's.
func TestPrototypesAimWhereTheirEffectSuits(t *testing.T) {
	checked := map[bool]int{}
	for i, s := range searchPositions(t, 4, 8, 1) {
		p := s.Prompts()[0]
		if p.Kind != "build" || len(p.Actions) < 3 {
			continue
		}
		seat := int(p.Seat)
		rng := engine.NewRNG(1)
		for _, a := range []string{(knowledge{}).Rollout(s, p, &rng), (knowledge{}).Candidates(s, p)[0]} {
			act, err := ParseAction(a)
			if err != nil || act.Verb != vBuild || !act.Tail {
				continue
			}
			good := s.effectWorth(seat, s.c.Patents[s.c.patentByID[act.Key]].Effect) >= 0
			if target := act.Then[0].Vals[0] - 1; (target == seat) != good {
				t.Fatalf("position %d: P%d plays %q (an effect worth having: %v)", i, seat+1, a, good)
			}
			checked[seat == 0]++
		}
	}
	if checked[false] == 0 {
		t.Fatal("no seat but the first built: the test proves nothing")
	}
}

// TestRolloutsWeighThePortAndWaterloo checks that the rollout policy
// chooses among the Port's and Waterloo's possibilities by what they bring
// the seat (a new die, gears, a ticket, energy), never a die beyond
// the most a seat may hold: a rollout that always took the first one
// listed misjudged both locations.
func TestRolloutsWeighThePortAndWaterloo(t *testing.T) {
	chosen := map[string]int{}
	for i, s := range searchPositions(t, 4, 8, 1) {
		p := s.Prompts()[0]
		if p.Kind != "action" || !slices.ContainsFunc(p.Actions, func(a string) bool { return strings.HasPrefix(a, "use ") }) {
			continue
		}
		rng := engine.NewRNG(1)
		a := (knowledge{}).Rollout(s, p, &rng)
		chosen[a]++
		if q := &s.Seats[p.Seat]; a == "use die" && q.Dice+q.New+q.Tick >= s.c.Tracks.Economy.MaxDice {
			t.Fatalf("position %d: P%d takes a die with %d already", i, p.Seat+1, q.Dice+q.New+q.Tick)
		}
	}
	if chosen["use ticket"] == 0 || chosen["use die"] == 0 || chosen["use gears"] == 0 {
		t.Fatalf("the rollouts chose only %v at the Port and Waterloo", chosen)
	}
}

// TestResearchTilesAreWeighedByWhatTheyBring checks that the search ranks
// the British Museum's research tiles by their bonus and, for one with a
// phase 6 effect (one that does not count something the seat may
// have none of), by the rounds left to use it, not all alike.
func TestResearchTilesAreWeighedByWhatTheyBring(t *testing.T) {
	s := searchPositions(t, 4, 1, 1000)[0]
	worths := map[float64]bool{}
	for id, r := range s.c.Research {
		if r.Back != "green" {
			continue
		}
		s.Round = 1
		early, ok := s.itemWorth(0, locMuseum, id)
		s.Round = 5
		late, _ := s.itemWorth(0, locMuseum, id)
		if !ok {
			t.Fatal("the first seat cannot take a research tile at the start")
		}
		if len(r.Phase6) > 0 && r.Phase6[0].Per == "" && early <= late {
			t.Errorf("%s: %.1f in round 1, %.1f in round 5, though its effect comes back every round", r.ID, early, late)
		}
		worths[early] = true
	}
	if len(worths) < 4 {
		t.Fatalf("the research tiles are worth only %v", worths)
	}
}

// TestRolloutsAnswerEveryPromptLegally: the rollout policy once answered
// "skip" to a move down that the rules force.
func TestRolloutsAnswerEveryPromptLegally(t *testing.T) {
	enginetest.RolloutsAreLegal(t, testRules(t), knowledge{}, []int{2, 4, 5}, 60)
}
