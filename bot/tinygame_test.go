package bot

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/enginetest"
)

// tinyRules is a small game that exercises every part of the engine
// contract the bot relies on, for tests of the bot itself: each round every
// player secretly picks 1-3 (a simultaneous secret prompt, revealed when all
// have picked; a pick may be changed until then), then in turn order each player moves 1 or 2 (public
// prompts); "cheer" is a free action open at any time. Two rounds.
type tinyRules struct {
	// refuse is an action these rules no longer accept, as after a rules
	// change: a stored log that holds it fails to replay.
	refuse string
	// clumsy offers the computer player "clumsy".
	clumsy bool
}

func (tinyRules) Name() string    { return "tiny" }
func (tinyRules) Title() string   { return "Tiny Game" }
func (tinyRules) MinPlayers() int { return 2 }
func (tinyRules) MaxPlayers() int { return 4 }
func (tinyRules) Options() []engine.Option {
	return []engine.Option{{Name: "rounds", Values: []string{"2", "1"}, Default: "2"},
		{Name: "second", Values: []string{"free", "one"}, Default: "free"}}
}
func (r tinyRules) Decode(b []byte) (engine.State, error) {
	var s tinyState
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	s.refuse = r.refuse
	return &s, nil
}

// ComputerPlayer implements engine.ComputerPlayers: "clumsy", when
// offered, answers with an action the game does not have, as a buggy
// player would.
func (r tinyRules) ComputerPlayer(name string) (engine.Player, bool) {
	if r.clumsy && name == "panicky" {
		return panicky{}, true
	}
	return clumsy{}, r.clumsy && name == "clumsy"
}

func (r tinyRules) ComputerPlayerNames() []string {
	if r.clumsy {
		return []string{"clumsy"}
	}
	return nil
}

type clumsy struct{}

func (clumsy) Choose(engine.State, engine.Prompt, *engine.RNG) string { return "pluck 2" }

// panicky is a computer player with a bug that panics (offered with clumsy,
// not listed).
type panicky struct{}

func (panicky) Choose(_ engine.State, p engine.Prompt, _ *engine.RNG) string {
	return p.Actions[len(p.Actions)+1] // index out of range
}

func (r tinyRules) New(setup engine.Setup) (engine.State, error) {
	if setup.Players < 2 || setup.Players > 4 {
		return nil, engine.Refusef(engine.ErrBadSetup, "2 to 4 players")
	}
	rounds, secondOne := 2, false
	for k, v := range setup.Options {
		switch {
		case k == "rounds" && (v == "1" || v == "2"):
			rounds, _ = strconv.Atoi(v)
		case k == "second" && (v == "free" || v == "one"):
			secondOne = v == "one"
		default:
			return nil, engine.Refusef(engine.ErrBadSetup, "unknown option %s=%s", k, v)
		}
	}
	return &tinyState{N: setup.Players, Rounds: rounds, Round: 1, Picks: make([]int, setup.Players), Score: make([]int, setup.Players), Turn: -1, SecondOne: secondOne, refuse: r.refuse}, nil
}

func (tinyRules) Topics() []engine.Topic {
	return []engine.Topic{{Name: "picks", Title: engine.Plain("Picks"), Text: engine.Plain("Everyone picks 1 to 3 in secret.")}}
}

type tinyState struct {
	N, Rounds, Round int
	Picks            []int // 0 = not yet picked this round
	Score            []int
	Turn             int // seat to move, -1 during the picks
	Cheers           int
	SecondOne        bool `json:",omitempty"` // the second seat may only move 1 (option second=one)
	refuse           string
}

func (s *tinyState) Players() int { return s.N }
func (s *tinyState) Over() bool   { return s.Round > s.Rounds }
func (s *tinyState) Phase() engine.Text {
	if s.Over() {
		return engine.Plain("game over")
	}
	if s.Turn < 0 {
		return engine.Plain(fmt.Sprintf("round %d · picks", s.Round))
	}
	return engine.Plain(fmt.Sprintf("round %d · moves", s.Round))
}

// The tiny game's prompt texts: plain words, the same in every language.
var (
	tinyMoveText   = engine.Plain("move 1 or 2")
	tinyPickText   = engine.Plain("pick a number in secret")
	tinyRepickText = engine.Plain("change your secret pick")
)

func (s *tinyState) Prompts() []engine.Prompt {
	if s.Over() {
		return nil
	}
	if s.Turn >= 0 {
		return []engine.Prompt{{Seat: engine.Seat(s.Turn), Kind: "move", Text: &tinyMoveText, Actions: s.moves()}}
	}
	var out []engine.Prompt
	for seat, p := range s.Picks {
		if p == 0 {
			out = append(out, engine.Prompt{Seat: engine.Seat(seat), Kind: "pick", Text: &tinyPickText,
				Actions: []string{"pick 1", "pick 2", "pick 3"}, Secret: true})
		}
	}
	return out
}

// Revisable implements engine.Revisable: a pick may change until the reveal.
func (s *tinyState) Revisable(seat engine.Seat) (engine.Prompt, bool) {
	if s.Over() || s.Turn >= 0 || seat < 0 || int(seat) >= s.N || s.Picks[seat] == 0 {
		return engine.Prompt{}, false
	}
	return engine.Prompt{Seat: seat, Kind: "pick", Text: &tinyRepickText,
		Actions: []string{"pick 1", "pick 2", "pick 3"}, Secret: true}, true
}

func (s *tinyState) FreeActions(engine.Seat) []string {
	if s.Over() {
		return nil
	}
	return []string{"cheer"}
}

func (s *tinyState) Apply(seat engine.Seat, action string) ([]engine.Event, error) {
	if s.Over() {
		return nil, engine.Refuse(engine.ErrGameOver, "the game is over")
	}
	verb, arg, _ := strings.Cut(action, " ")
	n, _ := strconv.Atoi(arg)
	who := fmt.Sprintf("P%d", seat+1)
	switch {
	case action == s.refuse:
		return nil, engine.Refusef(engine.ErrIllegalAction, "%q is no longer allowed", action)
	case action == "cheer":
		s.Cheers++
		return []engine.Event{{Kind: engine.EventAction, Seat: seat, Text: engine.Plain(who + " cheers")}}, nil
	case verb == "pick" && (n < 1 || n > 3):
		return nil, engine.Refuse(engine.ErrIllegalAction, "pick a number from 1 to 3")
	case verb == "pick":
		if s.Turn >= 0 {
			return nil, engine.Refuse(engine.ErrNotYourTurn, "you have no pick to make now")
		}
		s.Picks[seat] = n
		ev := []engine.Event{
			{Kind: engine.EventAction, Seat: seat, Text: engine.Plain(who + " has picked")},
			{Kind: engine.EventAction, Seat: seat, Text: engine.Plain("you picked " + arg), Private: true},
		}
		for _, p := range s.Picks {
			if p == 0 {
				return ev, nil
			}
		}
		var shown []string
		for i, p := range s.Picks {
			s.Score[i] += p
			shown = append(shown, fmt.Sprintf("P%d %d", i+1, p))
		}
		s.Turn = 0
		return append(ev, engine.Event{Kind: engine.EventReveal, Seat: engine.Spectator, Text: engine.Plain("picks: " + strings.Join(shown, ", ")), Reveals: true},
			engine.Event{Kind: engine.EventPhase, Seat: engine.Spectator, Text: engine.Plain("moves begin")}), nil
	case verb == "move" && (action == "move 1" || action == "move 2"):
		if int(seat) != s.Turn {
			return nil, engine.Refuse(engine.ErrNotYourTurn, "it is not your turn to move")
		}
		if len(s.moves()) == 1 && action == "move 2" {
			return nil, engine.Refuse(engine.ErrIllegalAction, "the second player moves 1")
		}
		s.Score[seat] += n
		ev := []engine.Event{{Kind: engine.EventAction, Seat: seat, Text: engine.Plain(who + " moves " + arg)}}
		s.Turn++
		if s.Turn == s.N {
			s.Turn, s.Round = -1, s.Round+1
			s.Picks = make([]int, s.N)
			if s.Over() {
				return append(ev, engine.Event{Kind: engine.EventEnd, Seat: engine.Spectator, Text: engine.Plain("the game ends")}), nil
			}
			ev = append(ev, engine.Event{Kind: engine.EventPhase, Seat: engine.Spectator, Text: engine.Plain("picks begin")})
		}
		return ev, nil
	}
	return nil, engine.Refusef(engine.ErrUnknownAction, "%q is not an action of this game", action)
}

// moves are the moves open to the seat on turn.
func (s *tinyState) moves() []string {
	if s.SecondOne && s.Turn == 1 {
		return []string{"move 1"}
	}
	return []string{"move 1", "move 2"}
}

func (s *tinyState) View(seat engine.Seat) any {
	v := map[string]any{"round": s.Round, "score": s.Score, "turn": s.Turn}
	if seat >= 0 && int(seat) < s.N && s.Picks[seat] != 0 {
		v["my_pick"] = s.Picks[seat]
	}
	return v
}

func (s *tinyState) Result() engine.Result {
	r := engine.Result{Over: s.Over(), Scores: append([]int(nil), s.Score...)}
	if s.Over() {
		best := -1
		for _, v := range s.Score {
			best = max(best, v)
		}
		for i, v := range s.Score {
			if v == best {
				r.Winners = append(r.Winners, engine.Seat(i))
			}
		}
	}
	return r
}

func (s *tinyState) Encode() ([]byte, error) { return json.Marshal(s) }
func (s *tinyState) Clone() engine.State {
	c := *s
	c.Picks = append([]int(nil), s.Picks...)
	c.Score = append([]int(nil), s.Score...)
	return &c
}

// TestTinyGameHonoursTheContract checks the bot's test game against the
// engine contract, revisions of secret picks included.
func TestTinyGameHonoursTheContract(t *testing.T) {
	t.Parallel()
	enginetest.Playouts(t, tinyRules{}, 20, 200, false, nil)
}
