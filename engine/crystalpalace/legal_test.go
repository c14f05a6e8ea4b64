package crystalpalace

// Tables of legal and illegal actions from fixture states. A legal action
// must be accepted (on a clone); an illegal one must be refused with the
// right sentinel and a reason naming the rule, leaving the state's bytes
// unchanged.

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/enginetest"
)

// fixtureNames lists the fixture states of the tables.
func fixtureNames() []string {
	return []string{"phase1", "phase2", "phase2b", "phase2poor", "assistant", "westminster", "port", "club", "build", "built2", "salary", "loan", "over"}
}

// fixture builds one of the states the tables start from, by public actions
// from a new game plus, where marked, a direct edit.
func fixture(t *testing.T, name string) *State {
	var s *State
	switch name {
	case "phase1":
		// Phase 1 of a new 3-player game; P2 has already chosen.
		s = newGame(t, 3, 40)
		play(t, s, "P2: dice 4 4 2 2")
	case "phase2":
		// Phase 2, P1's turn: P1 holds 6 5 3 1 and 25 pounds.
		s = newGame(t, 3, 41)
		play(t, s, "P1: dice 6 5 3 1\nP2: dice 4 4 2 2\nP3: dice 2 2 1 1")
	case "phase2b":
		// Phase 2, P2's turn after P1 took the Patent Office's first space.
		s = fixture(t, "phase2")
		play(t, s, "P1: place 6 patent 1")
	case "phase2poor":
		// Phase 2, P1's turn with only 1 pound (direct edit).
		s = fixture(t, "phase2")
		s.Seats[0].Pounds = 1
	case "assistant":
		// Phase 2: P1 placed on an assistant space and must decide.
		s = fixture(t, "phase2")
		play(t, s, "P1: place 3 patent 2")
	case "westminster":
		// Phase 3 at Westminster: P1's 5 acts before P2's 5 (further left).
		s = newGame(t, 3, 42)
		play(t, s, `
			P1: dice 5 4 1 1
			P2: dice 5 3 1 1
			P3: dice 3 3 1 1
			P1: place 5 westminster 1
			P2: place 5 westminster 2
			P2: skip
			P3: place 3 westminster 3
			P1: place 4 port 2
			P1: skip
			P2: pass
			P3: pass
			P1: pass`)
	case "port":
		// Phase 3 at the Port of London (2 players), every ticket space taken
		// (direct edit), P1 to act.
		s = newGame(t, 2, 43)
		s.TicketDice = []Die{{Owner: 1, Value: 1}, {Owner: 1, Value: 2}, {Owner: 1, Value: 3}}
		s.Seats[1].Dice, s.Seats[1].Tick = 1, 3
		play(t, s, `
			P1: dice 6 1 1 1
			P2: dice 1
			P1: place 6 port 1
			P2: pass
			P1: pass`)
	case "club":
		// Phase 3 at the Reform Club, P1 with no gears, energy or pounds left
		// (direct edit).
		s = newGame(t, 2, 44)
		setDisplay(s, locClub, 1, charIdx(t, s, "bronte"))
		play(t, s, `
			P1: dice 6 1 1 1
			P2: dice 1 1 1 1
			P1: place 6 club 1
			P2: pass
			P1: pass`)
		s.Seats[0].Pounds, s.Seats[0].Gears, s.Seats[0].Energy = 0, 0, 0
	case "build":
		// Phase 5, P1 to build, holding the audiobook and crane patents (direct
		// edit) with 1 gear and 1 energy.
		s = newGame(t, 2, 45)
		s.Seats[0].Patents = []int{patentIdx(t, s, "audiobook"), patentIdx(t, s, "crane"), patentIdx(t, s, "telegraph")}
		s.Seats[1].Patents = []int{patentIdx(t, s, "steamhammer")}
		play(t, s, "P1: dice 2 1 1 1\nP2: dice 1 1 1 1\nP1: pass\nP2: pass")
	case "built2":
		// Phase 5 after P1 built two prototypes.
		s = fixture(t, "build")
		s.Seats[0].Gears, s.Seats[0].Energy, s.Seats[0].Pounds = 2, 2, 40
		play(t, s, "P1: build audiobook\nP1: target 1\nP1: build crane\nP1: target 2")
	case "salary":
		// Phase 4: P1 owes 6 pounds of salaries with 5 pounds and 5 newspapers
		// (direct edits: Holmes and Bronte at Westminster II, a patent to wait
		// on in phase 5).
		s = newGame(t, 2, 47)
		s.Seats[0].Chars = []int{charIdx(t, s, "holmes"), charIdx(t, s, "bronte")}
		s.Seats[0].West = 2
		s.Seats[0].Patents = []int{patentIdx(t, s, "telegraph")}
		play(t, s, "P1: dice 6 1 1 1\nP2: dice 1 1 1 1\nP1: place 6 waterloo 1\nP2: pass\nP1: pass")
		setPurse(s, 0, 5, 5)
		play(t, s, "P1: pass")
	case "loan":
		// P1 with an open loan on research space 1 during their phase 2 turn.
		s = fixture(t, "phase2")
		play(t, s, "P1: loan")
	case "over":
		// The game is over.
		s = newGame(t, 2, 46)
		playLastRound(t, s)
	default:
		t.Fatalf("no fixture %q", name)
	}
	return s
}

type actionCase struct {
	fixture string
	seat    int // from 1, as in scripts
	action  string
	err     error  // nil: legal
	reason  string // a word of the refusal's reason
}

var actionTable = []actionCase{
	// Phase 1: secret dice, one value 1-6 per die.
	{"phase1", 1, "dice 6 5 3 1", nil, ""},
	{"phase1", 1, "dice 1 1 1 1", nil, ""},
	{"phase1", 2, "dice 6 6 6 6", nil, "may change until the reveal"},
	{"phase1", 1, "dice 6 5 3", engine.ErrIllegalAction, "4 dice"},
	{"phase1", 1, "dice 6 5 3 1 1", engine.ErrIllegalAction, "4 dice"},
	{"phase1", 1, "dice 7 1 1 1", engine.ErrUnknownAction, "1-6"},
	{"phase1", 1, "dice 0 1 1 1", engine.ErrUnknownAction, "1-6"},
	{"phase1", 1, "dice", engine.ErrUnknownAction, "dice"},
	{"phase1", 1, "place 6 patent 1", engine.ErrIllegalAction, "phase 1"},
	{"phase1", 1, "pass", engine.ErrIllegalAction, "phase 1"},
	{"phase1", 4, "dice 1 1 1 1", engine.ErrNotYourTurn, "seated"},
	{"phase1", 0, "dice 1 1 1 1", engine.ErrNotYourTurn, "seated"},
	{"phase1", 1, "frobnicate", engine.ErrUnknownAction, "not a Crystal Palace action"},
	{"phase1", 1, "", engine.ErrUnknownAction, "not a Crystal Palace action"},
	// Free actions at any time.
	{"phase1", 1, "loan", nil, ""},
	{"phase1", 1, "buy energy", nil, ""},
	{"phase1", 1, "buy gear", nil, ""},
	{"phase1", 1, "sell gear", nil, ""},
	{"phase1", 1, "exchange pound", engine.ErrIllegalAction, "costs 1 newspaper; you have 0"},
	{"phase1", 1, "exchange die", engine.ErrIllegalAction, "costs 4 newspapers"},
	{"phase1", 1, "exchange diamonds", engine.ErrUnknownAction, "die, income, gear, pound"},
	{"phase1", 1, "buy diamonds", engine.ErrUnknownAction, "energy, gear"},
	{"phase1", 1, "repay 1", engine.ErrIllegalAction, "no open loan"},
	{"phase1", 1, "loan 3", engine.ErrIllegalAction, "free research space"},
	// Phase 2: placement by turn, minimum values, fees, free spaces.
	{"phase2", 1, "place 6 patent 1", nil, ""},
	{"phase2", 1, "place 5 patent 1", nil, ""},
	{"phase2", 1, "place 3 patent 2", nil, ""},
	{"phase2", 1, "place 1 patent 4", nil, ""},
	{"phase2", 1, "place 6 waterloo 1", nil, ""},
	{"phase2", 1, "pass", nil, ""},
	{"phase2", 1, "place 4 patent 1", engine.ErrIllegalAction, "no unplaced die showing 4"},
	{"phase2", 1, "place 3 patent 1", engine.ErrIllegalAction, "at least 5"},
	{"phase2", 1, "place 1 patent 3", engine.ErrIllegalAction, "at least 2"},
	{"phase2", 1, "place 6 patent 5", engine.ErrIllegalAction, "4 dice spaces"},
	{"phase2", 1, "place 6 patent 0", engine.ErrUnknownAction, "place <die value>"},
	{"phase2", 1, "place 6 louvre 1", engine.ErrUnknownAction, "locations"},
	{"phase2", 1, "place 7 patent 1", engine.ErrUnknownAction, "place <die value>"},
	{"phase2", 2, "place 4 patent 1", engine.ErrNotYourTurn, "P1's turn"},
	{"phase2", 3, "pass", engine.ErrNotYourTurn, "P1's turn"},
	{"phase2", 1, "advance", engine.ErrIllegalAction, "phase 2"},
	{"phase2", 1, "take 1", engine.ErrIllegalAction, "phase 2"},
	{"phase2", 1, "dice 6 5 3 1", engine.ErrIllegalAction, "phase 2"},
	{"phase2", 1, "skip", engine.ErrIllegalAction, "phase 2"},
	{"phase2", 2, "repay 1", engine.ErrNotYourTurn, "during your turn"},
	{"phase2", 2, "buy energy", engine.ErrNotYourTurn, "during your turn"},
	{"phase2", 2, "buy gear", engine.ErrNotYourTurn, "during your turn"},
	{"phase2", 2, "loan", nil, "a loan at any time"},
	{"phase2", 3, "exchange pound", nil, "newspapers at any time"},
	{"phase2", 2, "sell energy", nil, "the rulebook sets no time for selling"},
	{"phase2b", 2, "place 4 patent 1", engine.ErrIllegalAction, "taken"},
	{"phase2b", 2, "place 4 patent 3", nil, ""},
	{"phase2b", 1, "place 5 patent 2", engine.ErrNotYourTurn, "P2's turn"},
	{"phase2poor", 1, "place 1 patent 4", engine.ErrIllegalAction, "fee of 2 £; you have 1 £"},
	{"phase2poor", 1, "place 1 patent 3", engine.ErrIllegalAction, "at least 2"},
	{"phase2poor", 1, "buy energy", engine.ErrIllegalAction, "costs 4 £"},
	{"phase2poor", 1, "place 3 patent 3", nil, ""},
	// The assistant action after placing on an assistant space.
	{"assistant", 1, "market place", nil, ""},
	{"assistant", 1, "skip", nil, ""},
	{"assistant", 1, "market move 1", engine.ErrIllegalAction, "you have no assistant on Black Market tier 1"},
	{"assistant", 1, "down 1", engine.ErrIllegalAction, "assistant action"},
	{"assistant", 1, "place 5 patent 1", engine.ErrIllegalAction, "assistant action"},
	{"assistant", 1, "market jump", engine.ErrUnknownAction, "market place"},
	{"assistant", 2, "pass", engine.ErrNotYourTurn, "waiting for P1"},
	{"assistant", 1, "buy energy", nil, ""},
	// Phase 3: highest die first, leftmost on ties; each location's action.
	{"westminster", 1, "advance", nil, ""},
	{"westminster", 1, "pass", nil, ""},
	{"westminster", 2, "advance", engine.ErrNotYourTurn, "P1's turn"},
	{"westminster", 3, "pass", engine.ErrNotYourTurn, "P1's turn"},
	{"westminster", 1, "take 1", engine.ErrIllegalAction, "`advance`, or `pass`"},
	{"westminster", 1, "use gears", engine.ErrIllegalAction, "`advance`, or `pass`"},
	{"westminster", 1, "place 4 port 3", engine.ErrIllegalAction, "`advance`, or `pass`"},
	{"port", 1, "use gears", nil, ""},
	{"port", 1, "use assistant", nil, ""},
	{"port", 1, "use die", nil, ""},
	{"port", 1, "use buydie", engine.ErrIllegalAction, "4 or more players"},
	{"port", 1, "use ticket", engine.ErrIllegalAction, "every dice space below the ticket"},
	{"port", 1, "use energy", engine.ErrIllegalAction, "no possibility"},
	{"port", 1, "advance", engine.ErrIllegalAction, "use <possibility>"},
	{"club", 1, "take 1", engine.ErrIllegalAction, "costs"},
	{"club", 1, "take 9", engine.ErrIllegalAction, "nothing in slot 9"},
	{"club", 1, "take 0", engine.ErrIllegalAction, "nothing in slot 0"},
	{"club", 1, "take one", engine.ErrUnknownAction, "slot number"},
	{"club", 1, "pass", nil, ""},
	{"club", 1, "loan", nil, ""},
	// Phase 5: at most 2 prototypes a round, costs, only patents held.
	{"build", 1, "build audiobook", nil, ""},
	{"build", 1, "pass", nil, ""},
	{"build", 1, "build telegraph", nil, "1 gear 1 energy short: bought with pounds"},
	{"build", 1, "build steamhammer", engine.ErrIllegalAction, "no patent"},
	{"build", 1, "build nonsense", engine.ErrIllegalAction, "no patent"},
	{"build", 1, "build", engine.ErrUnknownAction, "build followed by"},
	{"build", 2, "build steamhammer", engine.ErrNotYourTurn, "P1's turn"},
	{"built2", 1, "build telegraph", engine.ErrIllegalAction, "2 prototypes"},
	{"built2", 2, "build steamhammer", nil, ""},
	// Phase 4: short of pounds, P1 may raise money before paying.
	{"salary", 1, "pay", nil, ""},
	{"salary", 1, "exchange pound", nil, ""},
	{"salary", 1, "buy energy", nil, "a decision is one's turn"},
	{"salary", 1, "pass", engine.ErrIllegalAction, "first pay 6 £"},
	{"salary", 1, "build telegraph", engine.ErrIllegalAction, "first pay"},
	{"salary", 2, "pass", engine.ErrNotYourTurn, "waiting for P1"},
	{"salary", 2, "pay", engine.ErrNotYourTurn, "waiting for P1"},
	// Loans are paid back with 10 pounds during one's turn.
	{"loan", 1, "repay 1", nil, ""},
	{"loan", 1, "repay 2", engine.ErrIllegalAction, "no open loan on space 2"},
	{"loan", 1, "repay 99", engine.ErrIllegalAction, "no open loan"},
	{"loan", 2, "repay 1", engine.ErrNotYourTurn, "during your turn"},
	// Nothing after the end.
	{"over", 1, "pass", engine.ErrGameOver, "over"},
	{"over", 2, "loan", engine.ErrGameOver, "over"},
	{"over", 1, "frobnicate", engine.ErrGameOver, "over"},
}

func TestLegalityTable(t *testing.T) {
	built := map[string]*State{}
	for _, c := range actionTable {
		name := c.fixture + "/P" + itoa(c.seat) + " " + c.action
		t.Run(name, func(t *testing.T) {
			base, ok := built[c.fixture]
			if !ok {
				base = fixture(t, c.fixture)
				built[c.fixture] = base
			}
			s := base.clone()
			seat := c.seat - 1
			if c.seat == 0 {
				seat = int(engine.Spectator)
			}
			if c.err == nil {
				if _, err := s.Apply(engine.Seat(seat), c.action); err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			err := wantRefusal(t, s, seat, c.action, c.err)
			if !strings.Contains(refusal(err), c.reason) {
				t.Errorf("reason %q does not say %q", refusal(err), c.reason)
			}
		})
	}
}

// Every action a prompt or FreeActions lists is accepted, and every listed
// placement respects the table's rules: the same predicate decides both.
func TestLegalListsAreAccepted(t *testing.T) {
	for _, name := range fixtureNames() {
		t.Run(name, func(t *testing.T) {
			s := fixture(t, name)
			for _, p := range s.Prompts() {
				for _, a := range p.Actions {
					if _, err := s.clone().Apply(p.Seat, a); err != nil {
						t.Errorf("%s: listed %q refused: %v", seatName(int(p.Seat)), a, err)
					}
				}
			}
			for seat := range s.Seats {
				for _, a := range s.FreeActions(engine.Seat(seat)) {
					if _, err := s.clone().Apply(engine.Seat(seat), a); err != nil {
						t.Errorf("%s: free action %q refused: %v", seatName(seat), a, err)
					}
				}
			}
		})
	}
}

// Every fixture state survives encode and decode (pending decisions such as
// the salary, phase 6's step counter after a round) and clones cleanly.
func TestLegalFixturesRoundTrip(t *testing.T) {
	rules := exampleRules(t)
	for _, name := range fixtureNames() {
		s := fixture(t, name)
		if err := enginetest.RoundTrip(rules, s); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
