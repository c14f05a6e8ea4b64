package report_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/report"
	"github.com/meeplegames/meeple/storage"
)

var start = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// played plays a whole game between easy computer players and stores it as a
// finished game whose seat 0 takes ten minutes an action and the others
// one.
func played(t *testing.T, rules engine.Rules, setup engine.Setup) *storage.Game {
	t.Helper()
	st, err := rules.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	easy, err := ai.Lookup(rules, "easy")
	if err != nil {
		t.Fatal(err)
	}
	players := make([]engine.Player, setup.Players)
	for i := range players {
		players[i] = easy
	}
	rng := engine.NewRNG(setup.Seed + 1)
	out, err := ai.PlayOut(st, players, &rng, 100000)
	if err != nil || out.Stalled {
		t.Fatalf("playing out: %v (stalled %v)", err, out.Stalled)
	}
	g := &storage.Game{ID: 7, Kind: rules.Name(), Status: storage.StatusFinished, Setup: setup}
	at := start
	for _, m := range out.Moves {
		step := time.Minute
		if m.Seat == 0 {
			step = 10 * time.Minute
		}
		at = at.Add(step)
		g.Log = append(g.Log, storage.Entry{Seat: m.Seat, Action: m.Action, At: at})
	}
	return g
}

func cpRules(t *testing.T) engine.Rules {
	c, err := crystalpalace.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return crystalpalace.NewRules(c)
}

func edRules(t *testing.T) engine.Rules {
	c, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return eightydays.NewRules(c)
}

// A Crystal Palace game's chart has a point at the start and one at the
// end of each of its five rounds, the last the final scores.
func TestCrystalPalaceRounds(t *testing.T) {
	g := played(t, cpRules(t), engine.Setup{Players: 3, Seed: 11})
	rep, err := report.Build(cpRules(t), g)
	if err != nil {
		t.Fatal(err)
	}
	var rounds []int
	for _, s := range rep.Rounds {
		rounds = append(rounds, s.Round)
		if len(s.Scores) != 3 {
			t.Fatalf("round %d has %d scores", s.Round, len(s.Scores))
		}
	}
	if !slices.Equal(rounds, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("rounds %v, want 0 to 5", rounds)
	}
	final := rep.Final.Result()
	if !final.Over || !slices.Equal(rep.Rounds[len(rep.Rounds)-1].Scores, final.Scores) {
		t.Errorf("the last point %v is not the final score %v", rep.Rounds[len(rep.Rounds)-1].Scores, final.Scores)
	}
	if slices.Equal(rep.Rounds[1].Scores, final.Scores) {
		t.Errorf("the first round's scores equal the final ones: %v", final.Scores)
	}
}

// In 80 Days one traveller decides at a time, so a turn is a run of one
// seat's actions: it lasts from the action before the run to the run's
// last action. The report's medians and longest waits are those of these
// runs, the first run left out (the game's start is not recorded).
func TestEightyDaysTurnTimes(t *testing.T) {
	rules := edRules(t)
	g := played(t, rules, engine.Setup{Players: 3, Seed: 5})
	rep, err := report.Build(rules, g)
	if err != nil {
		t.Fatal(err)
	}
	want := make([][]time.Duration, 3)
	for i := 1; i < len(g.Log); i++ {
		seat := g.Log[i].Seat
		if seat == g.Log[i-1].Seat {
			continue // not a run's first action
		}
		j := i
		for j+1 < len(g.Log) && g.Log[j+1].Seat == seat {
			j++
		}
		want[seat] = append(want[seat], g.Log[j].At.Sub(g.Log[i-1].At))
	}
	for seat, d := range want {
		got := rep.Turns[seat]
		slices.Sort(d)
		if got.Count != len(d) || got.Longest != d[len(d)-1] {
			t.Errorf("P%d: %d turns, longest %v; want %d, %v", seat+1, got.Count, got.Longest, len(d), d[len(d)-1])
		}
		if got.Median < d[0] || got.Median > d[len(d)-1] {
			t.Errorf("P%d: median %v outside %v to %v", seat+1, got.Median, d[0], d[len(d)-1])
		}
	}
	if rep.Turns[0].Median < 10*time.Minute || rep.Turns[1].Median >= 10*time.Minute {
		t.Errorf("medians %v and %v: P1 takes ten minutes an action, P2 one", rep.Turns[0].Median, rep.Turns[1].Median)
	}
	// the race: the last point is where each traveller got to
	last := rep.Rounds[len(rep.Rounds)-1]
	if last.Round != rep.Final.(interface{ CurrentRound() int }).CurrentRound() || !slices.Equal(last.Scores, rep.Final.Result().Scores) {
		t.Errorf("last point %+v, final round %d scores %v", last, rep.Final.(interface{ CurrentRound() int }).CurrentRound(), rep.Final.Result().Scores)
	}
	for i := 1; i < len(rep.Rounds); i++ {
		if rep.Rounds[i].Round <= rep.Rounds[i-1].Round {
			t.Fatalf("rounds out of order: %+v then %+v", rep.Rounds[i-1], rep.Rounds[i])
		}
	}
}

// A log that does not replay, and a lobby, have no report.
func TestBuildRefuses(t *testing.T) {
	rules := edRules(t)
	g := played(t, rules, engine.Setup{Players: 2, Seed: 3})
	g.Log[4].Action = "fly to the moon"
	if _, err := report.Build(rules, g); !errors.Is(err, engine.ErrIllegalAction) && err == nil {
		t.Errorf("a broken log gave %v", err)
	}
	if _, err := report.Build(rules, &storage.Game{Kind: rules.Name(), Status: storage.StatusLobby}); err == nil {
		t.Error("a lobby has a report")
	}
}
