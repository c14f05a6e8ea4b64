package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
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
	Rotate         bool               `json:"rotate,omitempty"`   // the -ai list moved one seat round the table each game
	ThinkMS        int                `json:"think_ms,omitempty"` // the searching players' budget per decision, when set
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
	// Entries are the -ai list's players, in its order, wherever rotation
	// seated them; Levels sums them up by name.
	Entries  []playerStats          `json:"entries"`
	Levels   map[string]playerStats `json:"levels"`
	Counters map[string]int         `json:"counters"`
}

type scoreStats struct {
	Mean float64 `json:"mean"`
	Min  int     `json:"min"`
	Max  int     `json:"max"`
}

// playerStats is how one computer player (or every player of one name)
// did over the finished games: wins per seat held (a shared win counts
// its share), mean score, and seconds per decision.
type playerStats struct {
	AI          string  `json:"ai"`
	Seats       int     `json:"seats"` // seats held over the finished games
	WinRate     float64 `json:"win_rate"`
	MeanScore   float64 `json:"mean_score"`
	Decisions   int     `json:"decisions"`
	DecisionP50 float64 `json:"decision_p50_seconds"`
	DecisionP99 float64 `json:"decision_p99_seconds"`

	wins, score float64
	times       []float64
}

// Bounds of simulate's flags: a million games is hours of work, and no
// game runs to ten million actions.
const (
	maxSimulated = 1_000_000
	maxActions   = 10_000_000
)

func runSimulate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("simulate", stderr)
	gf := addGameFlags(fs)
	games := fs.Int("games", 100, "number of games to play")
	aiNames := fs.String("ai", "random", "computer player for every seat, or a comma-separated list, one per seat: "+
		"easy (the heuristic), normal, strong, random; a searching player may carry its own budget: strong:200ms")
	rotate := fs.Bool("rotate", false, "move the -ai list one seat round the table each game, so that each player holds each seat in turn")
	think := fs.Duration("think", 0, "thinking budget per decision of the searching players (normal, strong), in time of one core of the reference machine; 0 for each level's own")
	parallel := fs.Int("parallel", runtime.NumCPU(), "games played at once")
	maxSteps := fs.Int("max-steps", 20000, "actions after which a game counts as stalled")
	maxTurns := fs.Int("max-turns", 0, "turns (the game's \"turns\" counter) after which a game counts as stalled; 0 for no limit")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := errors.Join(inRange("games", *games, 1, maxSimulated), inRange("max-steps", *maxSteps, 1, maxActions),
		inRange("max-turns", *maxTurns, 0, maxActions), inRange("parallel", *parallel, 1, 256), thinkInRange(*think)); err != nil {
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
		names[i] = strings.TrimSpace(name)
		if players[i], err = ai.LookupThinking(rules, names[i], int(think.Milliseconds())); err != nil {
			return err
		}
	}
	sim := simulation{rules: rules, setup: setup, players: players, names: names, games: *games, limit: limits{steps: *maxSteps, turns: *maxTurns},
		rotate: *rotate, parallel: *parallel}
	sum, err := sim.run()
	if err != nil {
		return err
	}
	sum.ThinkMS = int(think.Milliseconds())
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(sum)
}

// thinkInRange refuses a negative or absurd -think.
func thinkInRange(d time.Duration) error {
	if d < 0 || d > ai.MaxThinkMS*time.Millisecond {
		return fmt.Errorf("-think is %v; want from 0 to %v", d, ai.MaxThinkMS*time.Millisecond)
	}
	return nil
}

// simulation is one run of simulate: games with seeds setup.Seed,
// setup.Seed+1, … between players.
type simulation struct {
	rules    engine.Rules
	setup    engine.Setup
	players  []engine.Player
	names    []string
	games    int
	limit    limits
	rotate   bool
	parallel int
}

// played is one simulated game: its outcome, final state and which entry
// of the -ai list sat in each seat, with each entry's decision times.
type played struct {
	out   ai.Outcome
	state engine.State
	entry []int // by seat
	times [][]float64
	err   error
}

// seating is which -ai entry sits in each seat of game g.
func (sim *simulation) seating(g int) []int {
	n := len(sim.players)
	entry := make([]int, n)
	for seat := range entry {
		entry[seat] = seat
		if sim.rotate {
			entry[seat] = ((seat-g)%n + n) % n
		}
	}
	return entry
}

// play plays game g.
func (sim *simulation) play(g int) played {
	s := sim.setup
	s.Seed = sim.setup.Seed + uint64(g)
	state, err := sim.rules.New(s)
	if err != nil {
		return played{err: worded(nil, sim.rules, err)}
	}
	pg := played{state: state, entry: sim.seating(g), times: make([][]float64, len(sim.players))}
	seats := make([]engine.Player, len(sim.players))
	for seat, e := range pg.entry {
		seats[seat] = timed{sim.players[e], &pg.times[e]}
	}
	pg.out, pg.err = playOut(state, seats, s.Seed, sim.limit)
	if pg.err != nil {
		pg.err = fmt.Errorf("game with seed %d: %w", s.Seed, pg.err)
	}
	return pg
}

// timed is a player whose decisions are timed. It is handed the seat's
// observation, as every computer player is (see ai.Decide).
type timed struct {
	engine.Player
	times *[]float64
}

// Choose implements engine.Player.
func (t timed) Choose(s engine.State, p engine.Prompt, rng *engine.RNG) string {
	start := time.Now()
	a := t.Player.Choose(s, p, rng)
	*t.times = append(*t.times, time.Since(start).Seconds())
	return a
}

// run plays the games, sim.parallel at once, and sums them up in the
// order of their seeds.
func (sim *simulation) run() (simulateSummary, error) {
	sum := simulateSummary{
		Game: sim.rules.Name(), Players: sim.setup.Players, AI: sim.names, Rotate: sim.rotate, Games: sim.games, MaxSteps: sim.limit.steps, MaxTurns: sim.limit.turns,
		Breakdown: map[string]float64{}, WinRate: map[string]float64{},
		WinsBySeat: make([]int, sim.setup.Players), Counters: map[string]int{},
		Scores:  scoreStats{Min: math.MaxInt, Max: math.MinInt},
		Entries: make([]playerStats, len(sim.names)), Levels: map[string]playerStats{},
	}
	for i, n := range sim.names {
		sum.Entries[i].AI = n
	}
	results := make([]chan played, sim.games)
	for g := range results {
		results[g] = make(chan played, 1)
	}
	next := make(chan int)
	go func() {
		for g := 0; g < sim.games; g++ {
			next <- g
		}
		close(next)
	}()
	for w := 0; w < min(sim.parallel, sim.games); w++ {
		go func() {
			for g := range next {
				results[g] <- sim.play(g)
			}
		}()
	}
	var scoreTotal, scored int
	start := time.Now()
	for g := range results {
		pg := <-results[g]
		if pg.err != nil {
			return sum, pg.err
		}
		sum.add(pg, &scoreTotal, &scored)
	}
	sum.Seconds = time.Since(start).Seconds()
	sum.finish(scoreTotal, scored)
	return sum, nil
}

// add counts one played game into sum.
func (sum *simulateSummary) add(pg played, scoreTotal, scored *int) {
	sum.Actions += len(pg.out.Moves)
	for e, t := range pg.times {
		sum.Entries[e].times = append(sum.Entries[e].times, t...)
	}
	if pg.out.Stalled {
		sum.Stalled++
		return
	}
	sum.Finished++
	res := pg.state.Result()
	for seat, score := range res.Scores {
		*scoreTotal += score
		*scored++
		sum.Scores.Min = min(sum.Scores.Min, score)
		sum.Scores.Max = max(sum.Scores.Max, score)
		if seat < len(res.Breakdown) {
			for source, v := range res.Breakdown[seat] {
				sum.Breakdown[source] += float64(v)
			}
		}
		e := &sum.Entries[pg.entry[seat]]
		e.Seats++
		e.score += float64(score)
	}
	for _, w := range res.Winners {
		sum.WinsBySeat[w]++
		sum.Entries[pg.entry[w]].wins += 1 / float64(len(res.Winners))
		sum.WinRate[sum.AI[pg.entry[w]]]++
	}
	for k, v := range res.Counters {
		sum.Counters[k] += v
	}
}

// finish turns sums into means and rates.
func (sum *simulateSummary) finish(scoreTotal, scored int) {
	if sum.Seconds > 0 {
		sum.GamesPerSecond = float64(sum.Games) / sum.Seconds
	}
	sum.MeanActions = float64(sum.Actions) / float64(sum.Games)
	seatsByAI := map[string]int{}
	for _, n := range sum.AI {
		seatsByAI[n]++
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
	for i := range sum.Entries {
		e := &sum.Entries[i]
		level := sum.Levels[e.AI]
		level.AI = e.AI
		level.Seats += e.Seats
		level.wins += e.wins
		level.score += e.score
		level.times = append(level.times, e.times...)
		sum.Levels[e.AI] = level
		e.summarise()
	}
	for name, level := range sum.Levels {
		level.summarise()
		sum.Levels[name] = level
	}
}

// summarise turns a player's sums into its rates and quantiles.
func (ps *playerStats) summarise() {
	if ps.Seats > 0 {
		ps.WinRate = ps.wins / float64(ps.Seats)
		ps.MeanScore = ps.score / float64(ps.Seats)
	}
	ps.Decisions = len(ps.times)
	if len(ps.times) > 0 {
		slices.Sort(ps.times)
		ps.DecisionP50 = ps.times[len(ps.times)/2]
		ps.DecisionP99 = ps.times[min(len(ps.times)-1, len(ps.times)*99/100)]
	}
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
