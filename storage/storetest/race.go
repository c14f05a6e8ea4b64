package storetest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// Race is a tiny dice game for the stores' tests: seats take turns to
// "roll" (a die drawn from the state's RNG is added to their score) or
// "step N" (add N, 1-3); the first to reach the goal wins. The random draw
// makes replay matter: a snapshot is only right if the log is replayed
// from the same seed.
type Race struct{}

// Name is "race". Race's methods are engine.Rules'.
func (Race) Name() string { return "race" }

// Title is "Race".
func (Race) Title() string { return "Race" }

// MinPlayers is 1: a race may be run alone.
func (Race) MinPlayers() int { return 1 }

// MaxPlayers is 6.
func (Race) MaxPlayers() int { return 6 }

// Options has one option, the goal: 50, or 1000000 for a race that never
// ends within a test.
func (Race) Options() []engine.Option {
	return []engine.Option{{Name: "goal", Values: []string{"50", "1000000"}, Default: "50"}}
}

// Decode reads a state Encode wrote, refusing one with no seat or a turn
// outside the seats.
func (Race) Decode(b []byte) (engine.State, error) {
	var s raceState
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if len(s.Scores) < 1 || s.Turn < 0 || s.Turn >= len(s.Scores) {
		return nil, fmt.Errorf("race: bad state")
	}
	return &s, nil
}

// New starts a race of 1 to 6 players with the goal of the setup's options.
func (Race) New(setup engine.Setup) (engine.State, error) {
	if setup.Players < 1 || setup.Players > 6 {
		return nil, engine.Refusef(engine.ErrBadSetup, "race takes 1-6 players, not %d", setup.Players)
	}
	goal := 50
	if v, ok := setup.Options["goal"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, engine.Refusef(engine.ErrBadSetup, "bad goal %q", v)
		}
		goal = n
	}
	return &raceState{Scores: make([]int, setup.Players), Goal: goal, RNG: engine.NewRNG(setup.Seed)}, nil
}

type raceState struct {
	Scores []int      `json:"scores"`
	Turn   int        `json:"turn"`
	Goal   int        `json:"goal"`
	Moves  int        `json:"moves"`
	RNG    engine.RNG `json:"rng"`
}

func (s *raceState) Players() int { return len(s.Scores) }
func (s *raceState) Over() bool {
	for _, v := range s.Scores {
		if v >= s.Goal {
			return true
		}
	}
	return false
}

// raceText is the race's one prompt text, plain words.
var raceText = engine.Plain("roll or step")

func (s *raceState) Prompts() []engine.Prompt {
	if s.Over() {
		return nil
	}
	return []engine.Prompt{{Seat: engine.Seat(s.Turn), Kind: "move", Text: &raceText, Actions: []string{"roll", "step 1", "step 2", "step 3"}}}
}

func (s *raceState) FreeActions(engine.Seat) []string { return nil }

func (s *raceState) Apply(seat engine.Seat, action string) ([]engine.Event, error) {
	if s.Over() {
		return nil, engine.Refuse(engine.ErrGameOver, "the race is over")
	}
	if int(seat) != s.Turn {
		return nil, engine.Refuse(engine.ErrNotYourTurn, "not your turn")
	}
	var add int
	switch f := strings.Fields(action); {
	case len(f) == 1 && f[0] == "roll":
		add = 1 + s.RNG.Intn(6)
	case len(f) == 2 && f[0] == "step":
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 || n > 3 {
			return nil, engine.Refusef(engine.ErrIllegalAction, "step 1 to 3, not %q", f[1])
		}
		add = n
	default:
		return nil, engine.Refusef(engine.ErrUnknownAction, "unknown action %q", action)
	}
	s.Scores[s.Turn] += add
	s.Moves++
	s.Turn = (s.Turn + 1) % len(s.Scores)
	return []engine.Event{{Kind: engine.EventAction, Seat: seat, Text: engine.Plain(fmt.Sprintf("P%d %s (+%d)", seat+1, action, add))}}, nil
}

func (s *raceState) View(engine.Seat) any { return s }
func (s *raceState) Phase() engine.Text   { return engine.Plain(fmt.Sprintf("move %d", s.Moves)) }
func (s *raceState) Result() engine.Result {
	r := engine.Result{Over: s.Over(), Scores: append([]int(nil), s.Scores...)}
	best := 0
	for _, v := range s.Scores {
		best = max(best, v)
	}
	for i, v := range s.Scores {
		if v == best {
			r.Winners = append(r.Winners, engine.Seat(i))
		}
	}
	return r
}
func (s *raceState) Encode() ([]byte, error) { return json.Marshal(s) }
func (s *raceState) Clone() engine.State {
	c := *s
	c.Scores = append([]int(nil), s.Scores...)
	return &c
}
