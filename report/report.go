// Package report works out what a game's report shows from the game's
// stored record: every player's score at the start and at the end of
// each round, how long the table waited on each player, and the final
// position. It replays the record's log with the game's rules, so a game
// finished before reports existed has one as well.
//
// It imports the engine and storage only: the bot writes the report's
// words and package imaging draws its chart. Build is safe for concurrent
// use.
package report

import (
	"fmt"
	"slices"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// Report is what a game's report shows.
type Report struct {
	// Rounds are the scores (engine.Result.Scores: victory points in
	// Crystal Palace, spaces travelled in 80 Days) at the start, as round
	// 0, and at the end of each round; the last is where the game ended,
	// which may be part of the way through a round.
	Rounds []Standing
	// Turns are, by seat, how long the table waited on each player.
	Turns []Turns
	// Final is the position the log replays to.
	Final engine.State
}

// Standing is every seat's score at the end of a round.
type Standing struct {
	Round  int
	Scores []int // by seat
}

// Turns sums up how long one seat took over its turns. A turn is one
// unbroken stretch in which the game waited on the seat: from the action
// that gave the seat a decision to the seat's action that left it with
// none. The decisions open when the game began are not counted, as the
// record does not say when it began.
type Turns struct {
	Count   int           // turns measured
	Median  time.Duration // the middle turn's length (0 when none)
	Longest time.Duration // the longest wait for the seat
}

// rounded is a state that counts its rounds (both games do).
type rounded interface {
	CurrentRound() int
}

// Build replays g's log with rules and works out its report. g must have
// started: a lobby has no log to replay.
func Build(rules engine.Rules, g *storage.Game) (*Report, error) {
	if g.Status == storage.StatusLobby {
		return nil, fmt.Errorf("report: game %d has not started", g.ID)
	}
	st, err := rules.New(g.Setup)
	if err != nil {
		return nil, fmt.Errorf("report: game %d: %w", g.ID, err)
	}
	n := st.Players()
	rep := &Report{Rounds: []Standing{{Round: 0, Scores: scores(st)}}}
	round := roundOf(st)
	waiting := waitingOn(st, n)
	since := make([]time.Time, n) // when the seat's turn began; zero when unknown
	took := make([][]time.Duration, n)
	for i, e := range g.Log {
		if _, err := st.Apply(e.Seat, e.Action); err != nil {
			return nil, fmt.Errorf("report: game %d: action %d (%q by P%d): %w", g.ID, i+1, e.Action, int(e.Seat)+1, err)
		}
		now := waitingOn(st, n)
		for s := range n {
			switch {
			case waiting[s] && !now[s] && !since[s].IsZero():
				took[s] = append(took[s], max(0, e.At.Sub(since[s])))
			case !waiting[s] && now[s]:
				since[s] = e.At
			}
		}
		waiting = now
		if r := roundOf(st); r != round {
			rep.Rounds = append(rep.Rounds, Standing{Round: round, Scores: scores(st)})
			round = r
		}
	}
	if last := rep.Rounds[len(rep.Rounds)-1]; len(g.Log) > 0 && (last.Round != round || !slices.Equal(last.Scores, scores(st))) {
		rep.Rounds = append(rep.Rounds, Standing{Round: round, Scores: scores(st)})
	}
	rep.Turns = make([]Turns, n)
	for s, d := range took {
		rep.Turns[s] = summarize(d)
	}
	rep.Final = st
	return rep, nil
}

// scores copies st's scores so far.
func scores(st engine.State) []int { return slices.Clone(st.Result().Scores) }

// roundOf is st's round, or 1 for a game that does not count them (its
// chart then shows the start and the end).
func roundOf(st engine.State) int {
	if r, ok := st.(rounded); ok {
		return r.CurrentRound()
	}
	return 1
}

// waitingOn reports, by seat, whether st waits on the seat's decision.
func waitingOn(st engine.State, n int) []bool {
	out := make([]bool, n)
	for _, p := range st.Prompts() {
		if p.Seat >= 0 && int(p.Seat) < n {
			out[p.Seat] = true
		}
	}
	return out
}

// summarize sums up a seat's turn lengths.
func summarize(d []time.Duration) Turns {
	if len(d) == 0 {
		return Turns{}
	}
	sorted := slices.Clone(d)
	slices.Sort(sorted)
	mid := len(sorted) / 2
	median := sorted[mid]
	if len(sorted)%2 == 0 {
		median = (sorted[mid-1] + sorted[mid]) / 2
	}
	return Turns{Count: len(d), Median: median, Longest: sorted[len(sorted)-1]}
}
