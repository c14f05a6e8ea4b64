// Package ai holds the game-agnostic computer players and the loop that lets
// computer players finish a game. Game-specific players live with their game
// and are found through engine.ComputerPlayers. It does no I/O.
package ai

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// Random picks uniformly among a prompt's legal actions.
type Random struct{}

// Choose implements engine.Player.
func (Random) Choose(_ engine.State, p engine.Prompt, rng *engine.RNG) string {
	return p.Actions[rng.Intn(len(p.Actions))]
}

// RNGAt returns the random generator for a computer player's decision in
// the game started with seed after applied actions. The numbers depend only
// on the game and the position in it, never on what was drawn before: after
// an undo, the same move brings the same computer choices, so taking moves
// back cannot fish for better ones. The stream differs from the game's own
// (engine.NewRNG(seed)).
func RNGAt(seed uint64, applied int) engine.RNG {
	// splitmix64's finaliser over the seed and the position
	z := seed ^ 0x6a09e667f3bcc909 + uint64(applied+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return engine.NewRNG(z ^ z>>31)
}

// Decide asks player to answer prompt p of state s, the game started with
// seed after applied actions, with randomness from RNGAt. The player sees
// only p's seat's observation of s (engine.Observe), never s itself. Every
// caller that lets a computer act on a game people play (the bot, the
// terminal) goes through it or through DecideWithin.
func Decide(player engine.Player, s engine.State, p engine.Prompt, seed uint64, applied int) string {
	return DecideWithin(context.Background(), player, s, p, seed, applied)
}

// DecideWithin is Decide for a caller with a deadline: when ctx ends, a
// searching player answers from what it has searched so far.
func DecideWithin(ctx context.Context, player engine.Player, s engine.State, p engine.Prompt, seed uint64, applied int) string {
	rng := RNGAt(seed, applied)
	return choose(ctx, player, s, p, &rng)
}

// Suggest is what player m would answer to prompt p of s in the game
// started with seed after applied actions, with what its search learnt
// of it: the hint a learner asks for. Like Decide, it searches only p's
// seat's observation.
func Suggest(ctx context.Context, m Search, s engine.State, p engine.Prompt, seed uint64, applied int) Choice {
	rng := RNGAt(seed, applied)
	return m.Best(ctx, engine.Observe(s, p.Seat), p, &rng)
}

// choose hands player p's seat's observation of s.
func choose(ctx context.Context, player engine.Player, s engine.State, p engine.Prompt, rng *engine.RNG) string {
	switch pl := player.(type) {
	case Random:
		return pl.Choose(s, p, rng) // it reads nothing but the prompt
	case Search:
		return pl.Best(ctx, engine.Observe(s, p.Seat), p, rng).Action
	}
	return player.Choose(engine.Observe(s, p.Seat), p, rng)
}

// Lookup returns the computer player called name for the game: "random" for
// every game, and whatever the game itself offers.
func Lookup(rules engine.Rules, name string) (engine.Player, error) {
	if name == "random" {
		return Random{}, nil
	}
	if cp, ok := rules.(engine.ComputerPlayers); ok {
		if p, ok := cp.ComputerPlayer(name); ok {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%s has no computer player %q (known: %s)", rules.Name(), name, strings.Join(Names(rules), ", "))
}

// LookupThinking is Lookup with a searching player's budget set to thinkMS
// milliseconds of one core of the reference machine (Search.Think); 0
// keeps the level's own. A name may carry its own budget after a colon,
// in milliseconds: "strong:200".
func LookupThinking(rules engine.Rules, name string, thinkMS int) (engine.Player, error) {
	name, own, ok := strings.Cut(name, ":")
	if ok {
		ms, err := strconv.Atoi(strings.TrimSuffix(own, "ms"))
		if err != nil || ms < 1 || ms > MaxThinkMS {
			return nil, fmt.Errorf("%s: the budget after the colon is %q; want milliseconds from 1 to %d, such as 200ms", name, own, MaxThinkMS)
		}
		thinkMS = ms
	}
	p, err := Lookup(rules, name)
	if err != nil {
		return nil, err
	}
	if s, ok := p.(Search); ok && thinkMS > 0 {
		return s.Think(thinkMS), nil
	}
	return p, nil
}

// Searching reports whether p is a searching player, whose decisions take
// their budget's time (normal, strong) rather than an instant.
func Searching(p engine.Player) bool {
	_, ok := p.(Search)
	return ok
}

// MaxThinkMS bounds a thinking budget: a minute a decision is already days
// a game.
const MaxThinkMS = 60_000

// Levels are the names of the computer players a game offers by strength,
// weakest first: the ones a lobby offers.
var Levels = []string{"easy", "normal", "strong"}

// Names lists the computer players available for the game.
func Names(rules engine.Rules) []string {
	names := []string{"random"}
	if cp, ok := rules.(engine.ComputerPlayers); ok {
		names = append(names, cp.ComputerPlayerNames()...)
	}
	sort.Strings(names)
	return names
}

// Outcome is how a played-out game ended.
type Outcome struct {
	Moves   []engine.Move // every action applied, in order
	Stalled bool          // the step limit was reached before the game ended
}

// PlayOut lets players (one per seat) answer prompts until the game is over or
// maxSteps actions have been applied. When several prompts are open at once
// it answers the first. The players draw from rng in turn, so the same rng
// and state give the same game. An error means a player chose an action
// the game refused, which is a bug in that player.
func PlayOut(s engine.State, players []engine.Player, rng *engine.RNG, maxSteps int) (Outcome, error) {
	return playOut(s, players, maxSteps, func(player engine.Player, p engine.Prompt, _ int) string {
		return choose(context.Background(), player, s, p, rng)
	})
}

// PlayOutAt is PlayOut whose decisions take their randomness from Decide:
// the game's seed and the number of actions applied before each one,
// counting the applied actions already in the game. It plays the game the
// terminal and the bot would play with the same computer players, so a
// simulated game can be watched again there.
func PlayOutAt(s engine.State, players []engine.Player, seed uint64, applied, maxSteps int) (Outcome, error) {
	return playOut(s, players, maxSteps, func(player engine.Player, p engine.Prompt, n int) string {
		return Decide(player, s, p, seed, applied+n)
	})
}

// playOut is the loop of PlayOut and PlayOutAt: an answer that needs no
// asking first, as the tables give it, else choose answers the first
// prompt after n actions of the play-out.
func playOut(s engine.State, players []engine.Player, maxSteps int, choose func(player engine.Player, p engine.Prompt, n int) string) (Outcome, error) {
	out := Outcome{Moves: make([]engine.Move, 0, min(maxSteps, 256))}
	for !s.Over() {
		if len(out.Moves) >= maxSteps {
			out.Stalled = true
			return out, nil
		}
		p, action, _, ok := engine.FirstUnasked(s)
		if !ok {
			prompts := s.Prompts()
			if len(prompts) == 0 {
				return out, fmt.Errorf("game not over but no prompt is open")
			}
			p = prompts[0]
			action = choose(players[p.Seat], p, len(out.Moves))
		}
		if _, err := s.Apply(p.Seat, action); err != nil {
			return out, fmt.Errorf("seat %d chose %q: %w", p.Seat, action, err)
		}
		out.Moves = append(out.Moves, engine.Move{Seat: p.Seat, Action: action})
	}
	return out, nil
}
