// Package enginetest checks that a game honours the engine contract: random
// playouts that must end or keep prompting (and now and then change a
// revisable secret choice), determinism of seed + actions,
// all-or-nothing Apply, encode/decode round trips and independent clones.
// Game packages call it from their tests; it imports only the engine.
package enginetest

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// Check is called after every applied action of a playout, to check a game's
// own invariants (no negative money, …). It returns an error naming the
// broken invariant.
type Check func(s engine.State) error

// Playouts plays games random-legal games per player count from minPlayers to
// maxPlayers, checking after every action the contract and check (which may
// be nil), and that replaying the seed and actions gives the same bytes.
// maxSteps bounds a game; reaching it fails the test unless allowStall.
func Playouts(t *testing.T, rules engine.Rules, games, maxSteps int, allowStall bool, check Check) {
	t.Helper()
	var setups []engine.Setup
	for n := rules.MinPlayers(); n <= rules.MaxPlayers(); n++ {
		for g := 0; g < games; g++ {
			setups = append(setups, engine.Setup{Players: n, Seed: uint64(1000*n + g)})
		}
	}
	// the games are independent: play them on every core, and report the
	// first failure in the order above
	errs := make([]error, len(setups))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				errs[i] = playout(rules, setups[i], maxSteps, allowStall, check)
			}
		})
	}
	for i := range setups {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%d players, seed %d: %v", setups[i].Players, setups[i].Seed, err)
		}
	}
}

// roundTripEvery is how many actions apart a playout checks that its
// state survives Encode and Decode. Each game starts at another offset
// (its seed's), so over many games every point of a game is checked; the
// round trip is most of a playout's cost, so it is not done every action.
const roundTripEvery = 23

func playout(rules engine.Rules, setup engine.Setup, maxSteps int, allowStall bool, check Check) error {
	s, err := rules.New(setup)
	if err != nil {
		return err
	}
	rng := engine.NewRNG(setup.Seed)
	var moves []engine.Move
	for steps := 0; !s.Over(); steps++ {
		if steps >= maxSteps {
			if allowStall {
				break
			}
			return fmt.Errorf("no end after %d actions (phase %q)", steps, s.Phase().Key())
		}
		prompts := s.Prompts()
		if len(prompts) == 0 {
			return fmt.Errorf("after %d actions: not over but no prompt", steps)
		}
		for _, p := range prompts {
			if err := checkPrompt(p); err != nil {
				return fmt.Errorf("after %d actions: %v", steps, err)
			}
		}
		p := prompts[rng.Intn(len(prompts))]
		revisions, err := checkRevisions(s)
		if err != nil {
			return fmt.Errorf("after %d actions: %v", steps, err)
		}
		if len(revisions) > 0 && rng.Intn(4) == 0 {
			p = revisions[rng.Intn(len(revisions))] // now and then, a seat changes its secret choice
		}
		action := ai.Random{}.Choose(s, p, &rng)
		if _, err := s.Apply(p.Seat, action); err != nil {
			return fmt.Errorf("after %d actions: legal action %q of seat %d refused: %v", steps, action, p.Seat, err)
		}
		moves = append(moves, engine.Move{Seat: p.Seat, Action: action})
		if check != nil {
			if err := check(s); err != nil {
				return fmt.Errorf("after %q by seat %d (action %d): %v", action, p.Seat, steps+1, err)
			}
		}
		if steps%roundTripEvery == int(setup.Seed%roundTripEvery) {
			if err := RoundTrip(rules, s); err != nil {
				return fmt.Errorf("after %d actions: %v", steps+1, err)
			}
		}
	}
	// Replay must reproduce the same bytes.
	again, err := rules.New(setup)
	if err != nil {
		return err
	}
	for i, m := range moves {
		if _, err := again.Apply(m.Seat, m.Action); err != nil {
			return fmt.Errorf("replay of action %d %q refused: %v", i+1, m.Action, err)
		}
	}
	a, _ := s.Encode()
	b, _ := again.Encode()
	if !bytes.Equal(a, b) {
		return fmt.Errorf("replaying %d actions gave different state bytes", len(moves))
	}
	return nil
}

// checkPrompt checks what every prompt must have: a legal action, and a
// Text saying what it asks (readers write it in their language; there is
// no other label).
func checkPrompt(p engine.Prompt) error {
	if len(p.Actions) == 0 {
		return fmt.Errorf("prompt %q for seat %d has no legal action", p.Kind, p.Seat)
	}
	if p.Text == nil || p.Text.IsZero() {
		return fmt.Errorf("prompt %q for seat %d has no Text saying what it asks", p.Kind, p.Seat)
	}
	return nil
}

// checkRevisions returns the secret choices seats may still change in s
// (engine.Revisable), checking that each is secret, lists actions and that
// a clone accepts the first of them.
func checkRevisions(s engine.State) ([]engine.Prompt, error) {
	var out []engine.Prompt
	for seat := engine.Seat(0); int(seat) < s.Players(); seat++ {
		p, ok := engine.Revision(s, seat)
		if !ok {
			continue
		}
		if p.Seat != seat || !p.Secret {
			return nil, fmt.Errorf("revisable choice %q of seat %d: want its seat, secret", p.Kind, seat)
		}
		if err := checkPrompt(p); err != nil {
			return nil, fmt.Errorf("revisable choice: %v", err)
		}
		if _, err := s.Clone().Apply(seat, p.Actions[0]); err != nil {
			return nil, fmt.Errorf("revision %q of seat %d refused: %v", p.Actions[0], seat, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// RoundTrip checks that s encodes, decodes to an equal state, and that a
// clone is independent of the original.
func RoundTrip(rules engine.Rules, s engine.State) error {
	data, err := s.Encode()
	if err != nil {
		return fmt.Errorf("encode: %v", err)
	}
	back, err := rules.Decode(data)
	if err != nil {
		return fmt.Errorf("decode: %v", err)
	}
	again, err := back.Encode()
	if err != nil || !bytes.Equal(data, again) {
		return fmt.Errorf("decode(encode(s)) encodes differently")
	}
	clone := s.Clone()
	if prompts := clone.Prompts(); len(prompts) > 0 && len(prompts[0].Actions) > 0 {
		p := prompts[0]
		if _, err := clone.Apply(p.Seat, p.Actions[0]); err != nil {
			return fmt.Errorf("clone refused legal action %q: %v", p.Actions[0], err)
		}
		after, _ := s.Encode()
		if !bytes.Equal(data, after) {
			return fmt.Errorf("applying %q to a clone changed the original", p.Actions[0])
		}
	}
	return nil
}

// Unchanged applies action for seat to s, expects an error, and checks that
// s encodes to the same bytes as before. It returns the error.
func Unchanged(t *testing.T, s engine.State, seat engine.Seat, action string) error {
	t.Helper()
	before, _ := s.Encode()
	_, err := s.Apply(seat, action)
	if err == nil {
		t.Fatalf("seat %d %q: accepted, want an error", seat, action)
	}
	after, _ := s.Encode()
	if !bytes.Equal(before, after) {
		t.Fatalf("seat %d %q: refused (%v) but the state changed", seat, action, err)
	}
	return err
}

// FuzzApply applies the fuzzer's text to a state reached by a few random
// actions from seed; it must never panic and must leave the state unchanged
// when it refuses.
func FuzzApply(t *testing.T, rules engine.Rules, players int, seed uint64, steps int, seat int, action string) {
	s, err := rules.New(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		return
	}
	rng := engine.NewRNG(seed)
	for i := 0; i < steps && !s.Over(); i++ {
		p := s.Prompts()[0]
		if _, err := s.Apply(p.Seat, ai.Random{}.Choose(s, p, &rng)); err != nil {
			t.Fatalf("legal action refused: %v", err)
		}
	}
	before, _ := s.Encode()
	if _, err := s.Apply(engine.Seat(seat), action); err != nil {
		after, _ := s.Encode()
		if !bytes.Equal(before, after) {
			t.Fatalf("refused %q (%v) but changed the state", action, err)
		}
	}
}

// StrongDecisions benchmarks the rules' strong computer player at its
// default budget over positions, each answered at its first prompt, and
// reports the work it does a second (work/s): the rate its game's
// perSecond assumes.
func StrongDecisions(b *testing.B, rules engine.Rules, positions []engine.State) {
	strong := strongPlayer(b, rules)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := positions[i%len(positions)]
		ai.Decide(strong, s, s.Prompts()[0], 1, i)
	}
	b.ReportMetric(float64(strong.Work)*float64(b.N)/b.Elapsed().Seconds(), "work/s")
}

// strongPlayer is the rules' strong computer player at its default budget.
func strongPlayer(b *testing.B, rules engine.Rules) ai.Search {
	player, err := ai.Lookup(rules, "strong")
	if err != nil {
		b.Fatal(err)
	}
	strong, ok := player.(ai.Search)
	if !ok {
		b.Fatalf("%s's strong player does not search", rules.Name())
	}
	return strong
}

// ThinkingMemory measures the memory one thinking seat holds: the rules'
// strong player decides at its default budget over positions, and every
// few of its iterations (when it asks its context whether to stop) the
// benchmark collects garbage and reads the live heap. live-MB is the most
// the heap held above what it held before the decision (the search's tree,
// its guess and its candidate lists), over all decisions; -benchmem's B/op
// is what a decision allocated in all, nearly all of it garbage at once.
// The collections slow the search, so the time per decision means nothing.
func ThinkingMemory(b *testing.B, rules engine.Rules, positions []engine.State) {
	strong := strongPlayer(b, rules)
	var peak uint64
	live := func(base uint64) uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return max(m.HeapAlloc, base) - base
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := positions[i%len(positions)]
		base := live(0)
		asked := 0
		ctx := sampler{Context: context.Background(), look: func() {
			if asked++; asked%4 == 0 {
				peak = max(peak, live(base))
			}
		}}
		ai.DecideWithin(ctx, strong, s, s.Prompts()[0], 1, i)
	}
	b.ReportMetric(float64(peak)/(1<<20), "live-MB")
}

// sampler is a context that never ends and calls look each time a search
// asks whether it has (every few iterations).
type sampler struct {
	context.Context
	look func()
}

// Err implements context.Context.
func (c sampler) Err() error {
	c.look()
	return nil
}

// RolloutsAreLegal plays games whole with k's rollout policy in every
// seat, for each player count: every answer it gives must be legal. The
// search falls back to a random action after the policy slips, so a slip
// shows nowhere else but in weaker play.
func RolloutsAreLegal(t *testing.T, rules engine.Rules, k ai.Knowledge, players []int, games int) {
	t.Helper()
	for _, n := range players {
		for seed := uint64(1); seed <= uint64(games); seed++ {
			st, err := rules.New(engine.Setup{Players: n, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			rng := engine.NewRNG(seed)
			for steps := 0; !st.Over() && steps < 20000; steps++ {
				p := st.Prompts()[0]
				a := k.Rollout(st, p, &rng)
				if _, err := st.Apply(p.Seat, a); err != nil {
					t.Fatalf("%d players, seed %d: P%d answered %q to a %s prompt: %v", n, seed, p.Seat+1, a, p.Kind, err)
				}
			}
			if !st.Over() {
				t.Fatalf("%d players, seed %d: the rollout policy did not finish the game", n, seed)
			}
		}
	}
}
