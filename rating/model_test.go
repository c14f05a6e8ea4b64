package rating

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

const tolerance = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= tolerance*math.Max(1, math.Abs(b)) }

// TestRateMatchesOpenSkillPy replays games whose results openskill.py
// computed (testdata/openskill_py.gen.py made the file): 2 to 6 players,
// fresh and rated players, ties in any order.
func TestRateMatchesOpenSkillPy(t *testing.T) {
	raw, err := os.ReadFile("testdata/openskill_py.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		Cases []struct {
			Name          string
			Before, After []Rating
			Ranks         []int
		}
	}
	if err := json.Unmarshal(raw, &fixture); err != nil {
		t.Fatal(err)
	}
	if len(fixture.Cases) < 10 {
		t.Fatalf("only %d cases in the fixture", len(fixture.Cases))
	}
	m := DefaultModel()
	for _, c := range fixture.Cases {
		teams := make([][]Rating, len(c.Before))
		for i, r := range c.Before {
			teams[i] = []Rating{r}
		}
		got, err := m.Rate(teams, c.Ranks)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for i, want := range c.After {
			if g := got[i][0]; !near(g.Mu, want.Mu) || !near(g.Sigma, want.Sigma) {
				t.Errorf("%s: player %d got %+v, openskill.py %+v", c.Name, i, g, want)
			}
		}
	}
}

// TestRatePublishedTeams checks teams of several players against the values
// openskill.py publishes in tests/models/data/plackettluce.json (a model
// with mu 20.35125162611535 and sigma 8.33148112355601).
func TestRatePublishedTeams(t *testing.T) {
	m := DefaultModel()
	m.Mu, m.Sigma = 20.35125162611535, 8.33148112355601
	sizes := func(ns ...int) [][]Rating {
		teams := make([][]Rating, len(ns))
		for i, n := range ns {
			for range n {
				teams[i] = append(teams[i], m.New())
			}
		}
		return teams
	}
	cases := []struct {
		name  string
		teams [][]Rating
		ranks []int
		limit bool
		want  []Rating // one per team: every player of a team starts alike
	}{
		{"normal", sizes(1, 2), nil, false, []Rating{{23.855123082692877, 8.22447878583752}, {16.84738016953782, 8.179571171464575}}},
		{"ranks", sizes(1, 2, 1, 2), []int{2, 1, 4, 3}, false, []Rating{
			{22.35555943890167, 8.265434830225024}, {22.373451456616035, 8.258479912445537},
			{18.311159777900297, 8.219170401234347}, {18.364835831043397, 8.112716571808326}}},
		{"limit_sigma", sizes(1, 2, 3), []int{2, 1, 3}, true, []Rating{
			{22.81664991565251, 8.28331609373364}, {22.74645120129216, 8.268148437657915}, {15.49065376140138, 8.18959307104567}}},
		{"ties", sizes(1, 2, 3), []int{1, 2, 1}, true, []Rating{
			{21.63766806988004, 8.310709773172306}, {19.53956360838512, 8.268148437657915}, {19.87652320008089, 8.237522411103104}}},
	}
	for _, c := range cases {
		m.LimitSigma = c.limit
		got, err := m.Rate(c.teams, c.ranks)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i, want := range c.want {
			for j, g := range got[i] {
				if !near(g.Mu, want.Mu) || !near(g.Sigma, want.Sigma) {
					t.Errorf("%s: team %d player %d got %+v, published %+v", c.name, i, j, g, want)
				}
			}
		}
	}
}

func TestRateRefusesBadGames(t *testing.T) {
	m := DefaultModel()
	one := []Rating{m.New()}
	for name, c := range map[string]struct {
		teams [][]Rating
		ranks []int
		want  error
	}{
		"one team":    {[][]Rating{one}, nil, ErrTooFewTeams},
		"empty team":  {[][]Rating{one, {}}, nil, ErrEmptyTeam},
		"short ranks": {[][]Rating{one, one, one}, []int{1, 2}, ErrRanks},
	} {
		if _, err := m.Rate(c.teams, c.ranks); err != c.want {
			t.Errorf("%s: got %v, want %v", name, err, c.want)
		}
	}
}

func TestRateLeavesInputAlone(t *testing.T) {
	m := DefaultModel()
	teams := [][]Rating{{m.New()}, {{Mu: 30, Sigma: 2}}}
	if _, err := m.Rate(teams, []int{2, 1}); err != nil {
		t.Fatal(err)
	}
	if teams[0][0] != m.New() || teams[1][0] != (Rating{Mu: 30, Sigma: 2}) {
		t.Fatalf("input changed: %+v", teams)
	}
}
