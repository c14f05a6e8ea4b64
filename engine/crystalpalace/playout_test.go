package crystalpalace

import (
	"fmt"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/enginetest"
)

func testRules(t testing.TB) *Rules {
	t.Helper()
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return NewRules(c)
}

// invariants checks what must hold after every action.
func invariants(st engine.State) error {
	s := st.(*State)
	e := s.c.Tracks.Economy
	if s.Round < 1 || s.Round > 5 {
		return fmt.Errorf("round %d", s.Round)
	}
	placed := make([]int, s.PlayerCount)
	for l := range s.Boards {
		for _, d := range s.Boards[l].Dice {
			if d.Owner >= 0 {
				placed[d.Owner]++
			}
		}
	}
	for seat := range s.Seats {
		p := &s.Seats[seat]
		if p.Pounds < 0 {
			return fmt.Errorf("P%d has %d pounds", seat+1, p.Pounds)
		}
		if p.News < 0 || p.News > e.MaxNewspapers {
			return fmt.Errorf("P%d has %d newspapers", seat+1, p.News)
		}
		if p.Gears < 0 || p.Energy < 0 {
			return fmt.Errorf("P%d has negative goods", seat+1)
		}
		if p.Dice+p.New+p.Tick > e.MaxDice || p.Dice < 1 {
			return fmt.Errorf("P%d has %d+%d+%d dice", seat+1, p.Dice, p.New, p.Tick)
		}
		if s.CurrentPhase == phasePlace || s.CurrentPhase == phaseActions {
			// a die placed at the Port that went under a ticket counts among Tick
			onTicket := 0
			for _, d := range s.TicketDice {
				if d.Owner == seat {
					onTicket++
				}
			}
			ticketThisRound := placed[seat] + len(p.Vals) - p.Dice
			if ticketThisRound < 0 || ticketThisRound > onTicket {
				return fmt.Errorf("P%d: %d placed + %d in hand for %d dice", seat+1, placed[seat], len(p.Vals), p.Dice)
			}
		}
		sum := 0
		for _, v := range p.VPBy {
			sum += v
		}
		if sum != p.VP {
			return fmt.Errorf("P%d: VP %d but breakdown sums to %d", seat+1, p.VP, sum)
		}
		if p.Income < 0 || p.Income >= len(s.c.Tracks.Income) || p.Buzz < 0 || p.Buzz > s.c.Tracks.Buzz.Length {
			return fmt.Errorf("P%d off a track", seat+1)
		}
		onMarket := s.count(seat, metricMarket)
		if p.Asst < 0 || p.Asst+onMarket != e.Assistants-1 {
			return fmt.Errorf("P%d: %d assistants home + %d on the market", seat+1, p.Asst, onMarket)
		}
	}
	if s.CurrentPhase == phaseDice {
		v := s.view(engine.Spectator)
		for seat := range v.Seats {
			if v.Seats[seat].DiceValues != nil || v.Private != nil {
				return fmt.Errorf("a spectator sees P%d's dice before the reveal", seat+1)
			}
		}
	}
	if s.Done && (s.Round != 5 || s.CurrentPhase != phaseIncome) {
		return fmt.Errorf("game ended in round %d phase %d", s.Round, s.CurrentPhase)
	}
	return nil
}

func TestRandomPlayouts(t *testing.T) {
	games := 250 // a thousand games in all, each checked after every action
	if testing.Short() {
		games = 30
	}
	enginetest.Playouts(t, testRules(t), games, 5000, false, invariants)
}
