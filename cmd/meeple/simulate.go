package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// simulateSummary is what "meeple simulate" prints; docs/commands.md documents it.
type simulateSummary struct {
	Game           string             `json:"game"`
	Players        int                `json:"players"`
	AI             []string           `json:"ai"`
	Games          int                `json:"games"`
	Finished       int                `json:"finished"`
	Stalled        int                `json:"stalled"`
	MaxSteps       int                `json:"max_steps"`           // actions after which a game counted as stalled
	MaxTurns       int                `json:"max_turns,omitempty"` // turns after which a game counted as stalled, when set
	Actions        int                `json:"actions"`
	MeanActions    float64            `json:"mean_actions"`
	MeanTurns      float64            `json:"mean_turns"`
	Seconds        float64            `json:"seconds"`
	GamesPerSecond float64            `json:"games_per_second"`
	Scores         scoreStats         `json:"scores"`
	Breakdown      map[string]float64 `json:"breakdown"`
	WinRate        map[string]float64 `json:"win_rate"`
	WinsBySeat     []int              `json:"wins_by_seat"`
	Counters       map[string]int     `json:"counters"`
}

type scoreStats struct {
	Mean float64 `json:"mean"`
	Min  int     `json:"min"`
	Max  int     `json:"max"`
}

// Bounds of simulate's flags: a million games is hours of work, and no
// game runs to ten million actions.
const (
	maxSimulated = 1_000_000
	maxActions   = 10_000_000
)

func runSimulate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("simulate", stderr)
	gf := addGameFlags(fs)
	games := fs.Int("games", 100, "number of games to play")
	aiNames := fs.String("ai", "random", "computer player for every seat, or a comma-separated list, one per seat")
	maxSteps := fs.Int("max-steps", 20000, "actions after which a game counts as stalled")
	maxTurns := fs.Int("max-turns", 0, "turns (the game's \"turns\" counter) after which a game counts as stalled; 0 for no limit")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := errors.Join(inRange("games", *games, 1, maxSimulated), inRange("max-steps", *maxSteps, 1, maxActions),
		inRange("max-turns", *maxTurns, 0, maxActions)); err != nil {
		return err
	}
	rules, setup, err := gf.setup()
	if err != nil {
		return err
	}
	names := strings.Split(*aiNames, ",")
	if len(names) == 1 {
		names = repeat(names[0], setup.Players)
	}
	if len(names) != setup.Players {
		return fmt.Errorf("-ai names %d players, the game has %d", len(names), setup.Players)
	}
	players := make([]engine.Player, len(names))
	for i, name := range names {
		if players[i], err = ai.Lookup(rules, strings.TrimSpace(name)); err != nil {
			return err
		}
	}
	sum, err := simulate(rules, setup, players, names, *games, limits{steps: *maxSteps, turns: *maxTurns})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(sum)
}

// simulate plays games with seeds setup.Seed, setup.Seed+1, … and sums them up.
func simulate(rules engine.Rules, setup engine.Setup, players []engine.Player, names []string, games int, limit limits) (simulateSummary, error) {
	sum := simulateSummary{
		Game: rules.Name(), Players: setup.Players, AI: names, Games: games, MaxSteps: limit.steps, MaxTurns: limit.turns,
		Breakdown: map[string]float64{}, WinRate: map[string]float64{},
		WinsBySeat: make([]int, setup.Players), Counters: map[string]int{},
		Scores: scoreStats{Min: math.MaxInt, Max: math.MinInt},
	}
	seatsByAI := map[string]int{}
	for _, n := range names {
		seatsByAI[n]++
	}
	var scoreTotal, scored int
	start := time.Now()
	for g := 0; g < games; g++ {
		s := setup
		s.Seed = setup.Seed + uint64(g)
		state, err := rules.New(s)
		if err != nil {
			return sum, worded(nil, rules, err)
		}
		out, err := playOut(state, players, s.Seed, limit)
		if err != nil {
			return sum, fmt.Errorf("game with seed %d: %w", s.Seed, err)
		}
		sum.Actions += len(out.Moves)
		if out.Stalled {
			sum.Stalled++
			continue
		}
		sum.Finished++
		res := state.Result()
		for seat, score := range res.Scores {
			scoreTotal += score
			scored++
			sum.Scores.Min = min(sum.Scores.Min, score)
			sum.Scores.Max = max(sum.Scores.Max, score)
			if seat < len(res.Breakdown) {
				for source, v := range res.Breakdown[seat] {
					sum.Breakdown[source] += float64(v)
				}
			}
		}
		for _, w := range res.Winners {
			sum.WinsBySeat[w]++
			sum.WinRate[names[w]]++
		}
		for k, v := range res.Counters {
			sum.Counters[k] += v
		}
	}
	sum.Seconds = time.Since(start).Seconds()
	if sum.Seconds > 0 {
		sum.GamesPerSecond = float64(games) / sum.Seconds
	}
	if games > 0 {
		sum.MeanActions = float64(sum.Actions) / float64(games)
	}
	if sum.Finished > 0 {
		sum.MeanTurns = float64(sum.Counters["turns"]) / float64(sum.Finished)
		for name := range sum.WinRate {
			// a win rate per seat that this player held, so mixed tables compare fairly
			sum.WinRate[name] /= float64(sum.Finished * seatsByAI[name])
		}
	}
	if scored > 0 {
		sum.Scores.Mean = float64(scoreTotal) / float64(scored)
		for source := range sum.Breakdown {
			sum.Breakdown[source] /= float64(scored)
		}
	} else {
		sum.Scores.Min, sum.Scores.Max = 0, 0
	}
	for name := range seatsByAI {
		if _, ok := sum.WinRate[name]; !ok {
			sum.WinRate[name] = 0
		}
	}
	return sum, nil
}

// limits bound a simulated game: steps counts actions, turns the game's
// own "turns" counter (0: no bound).
type limits struct{ steps, turns int }

// playOut is ai.PlayOutAt that also counts a game as stalled once its "turns"
// counter passes limit.turns. It plays in short stretches so that the
// counter is read now and then, not after every action.
func playOut(s engine.State, players []engine.Player, seed uint64, limit limits) (ai.Outcome, error) {
	if limit.turns <= 0 {
		return ai.PlayOutAt(s, players, seed, 0, limit.steps)
	}
	const stretch = 64
	var out ai.Outcome
	for {
		part, err := ai.PlayOutAt(s, players, seed, len(out.Moves), min(stretch, limit.steps-len(out.Moves)))
		out.Moves = append(out.Moves, part.Moves...)
		if err != nil {
			return out, err
		}
		turns := s.Result().Counters["turns"]
		switch {
		case turns > limit.turns || (turns == limit.turns && !s.Over()):
			out.Stalled = true
			return out, nil
		case s.Over():
			return out, nil
		case len(out.Moves) >= limit.steps:
			out.Stalled = true
			return out, nil
		}
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}
