// Package rating computes multiplayer skill ratings: the Weng-Lin Bayesian
// approximation with the Plackett-Luce model (the model OpenSkill calls
// "PlackettLuce"), which rates games of any number of players or teams and
// handles ties, and a ladder that replays an ordered list of finished games
// into ratings per game kind, per server and overall.
//
// Its numbers match openskill.py's PlackettLuce with the default parameters
// (see testdata/openskill_py.json). It is a pure library: no I/O, no clock,
// nothing of Discord or storage. Its values are safe for concurrent use once
// built; a Ladder is not safe for concurrent writes.
package rating

import (
	"errors"
	"math"
)

// Rating is a belief about a player's skill: a normal distribution with
// mean Mu and standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal is the conservative skill shown on leaderboards: Mu less three
// Sigma, so that a player needs both skill and a record to rank high.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Model holds the Plackett-Luce parameters. DefaultModel gives OpenSkill's.
type Model struct {
	Mu    float64 // a new player's mean
	Sigma float64 // a new player's standard deviation
	Beta  float64 // the spread of one game's performance around skill
	Kappa float64 // the least fraction of variance a game may leave
	Tau   float64 // added to every Sigma before a game, so ratings keep moving
	// LimitSigma stops a game from raising anyone's Sigma (Tau can).
	LimitSigma bool
}

// DefaultModel is OpenSkill's default: mu 25, sigma 25/3, beta 25/6,
// kappa 0.0001, tau 25/300.
func DefaultModel() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
}

// New is the rating of a player who has played no game.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Errors of Rate.
var (
	ErrTooFewTeams = errors.New("rating: a game needs at least two teams")
	ErrEmptyTeam   = errors.New("rating: a team has no players")
	ErrRanks       = errors.New("rating: one rank per team is needed")
)

// Rate returns the ratings of the players of teams after one game in which
// team i finished at ranks[i] (lower is better; equal ranks are ties). A nil
// ranks means the teams finished in the order given. The input is not
// changed.
func (m Model) Rate(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if len(teams) < 2 {
		return nil, ErrTooFewTeams
	}
	if ranks == nil {
		ranks = make([]int, len(teams))
		for i := range ranks {
			ranks[i] = i + 1
		}
	}
	if len(ranks) != len(teams) {
		return nil, ErrRanks
	}
	tau2 := m.Tau * m.Tau
	widened := make([][]Rating, len(teams))
	mu := make([]float64, len(teams))   // team means
	var2 := make([]float64, len(teams)) // team variances
	total := 0.0
	for i, team := range teams {
		if len(team) == 0 {
			return nil, ErrEmptyTeam
		}
		widened[i] = make([]Rating, len(team))
		for j, p := range team {
			w := Rating{Mu: p.Mu, Sigma: math.Sqrt(p.Sigma*p.Sigma + tau2)}
			widened[i][j] = w
			mu[i] += w.Mu
			var2[i] += w.Sigma * w.Sigma
		}
		total += var2[i] + m.Beta*m.Beta
	}
	c := math.Sqrt(total)

	// strength[i] is e^(mu_i/c); below[q] sums it over the teams that did
	// not finish ahead of q; tied[q] counts the teams sharing q's rank.
	strength := make([]float64, len(teams))
	for i := range teams {
		strength[i] = math.Exp(mu[i] / c)
	}
	below := make([]float64, len(teams))
	tied := make([]float64, len(teams))
	for q := range teams {
		for s := range teams {
			if ranks[s] >= ranks[q] {
				below[q] += strength[s]
			}
			if ranks[s] == ranks[q] {
				tied[q]++
			}
		}
	}

	out := make([][]Rating, len(teams))
	for i := range teams {
		var omega, delta float64
		for q := range teams {
			if ranks[q] > ranks[i] {
				continue
			}
			p := strength[i] / below[q]
			delta += p * (1 - p) / tied[q]
			if q == i {
				omega += (1 - p) / tied[q]
			} else {
				omega -= p / tied[q]
			}
		}
		omega *= var2[i] / c
		gamma := math.Sqrt(var2[i]) / c
		delta *= var2[i] / (c * c) * gamma

		out[i] = make([]Rating, len(teams[i]))
		for j, p := range widened[i] {
			share := p.Sigma * p.Sigma / var2[i]
			r := Rating{
				Mu:    p.Mu + share*omega,
				Sigma: p.Sigma * math.Sqrt(math.Max(1-share*delta, m.Kappa)),
			}
			if m.LimitSigma {
				r.Sigma = math.Min(r.Sigma, teams[i][j].Sigma)
			}
			out[i][j] = r
		}
	}
	return out, nil
}
