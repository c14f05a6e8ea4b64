package crystalpalace

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// A loan can be taken at any time, so no automatic answer may take away a
// choice that raising money would make affordable. Over random positions,
// each seat short of money is probed: a decision settled without asking, a
// phase 2 pass or a phase 3 action taken without asking must be settled the
// same way when the seat's pockets are full.
func TestRaisingMoneyKeepsChoices(t *testing.T) {
	r := testRules(t)
	rng := rand.New(rand.NewPCG(26, 1))
	probes, settled := 0, 0
	for game := range 6 {
		s, err := r.newState(engine.Setup{Players: 2 + game%4, Seed: uint64(game) + 900})
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; !s.Over() && n < 4000; n++ {
			for seat := range s.PlayerCount {
				short := s.clone()
				short.Seats[seat].Pounds = rng.IntN(4)
				rich := short.clone()
				rich.Seats[seat].Pounds += 1000
				probes++
				settled += checkRaising(t, short, rich, seat)
			}
			ps := s.Prompts()
			p := ps[rng.IntN(len(ps))]
			if _, err := s.Apply(p.Seat, p.Actions[rng.IntN(len(p.Actions))]); err != nil {
				t.Fatalf("game %d: %v", game, err)
			}
		}
	}
	if settled == 0 {
		t.Fatalf("%d probes, none settled automatically: the test proves nothing", probes)
	}
	t.Logf("%d probes, %d automatic answers checked", probes, settled)
}

// checkRaising compares what short and rich (short with full pockets)
// settle without asking seat; it returns how many automatic answers of
// short it checked.
func checkRaising(t *testing.T, short, rich *State, seat int) (settled int) {
	t.Helper()
	for k := dAssistant; k <= dInstant; k++ {
		for _, task := range []Task{{Kind: k}, {Kind: k, Free: true}, {Kind: k, Amount: 2}} {
			if k == dBonus && task.Free {
				task.Subject = -1 // Westminster's choice
			}
			if !short.clone().autoResolve(seat, task) {
				continue
			}
			settled++
			if !rich.clone().autoResolve(seat, task) {
				var buf [8]Action
				t.Fatalf("phase %d: P%d's %s decision (%+v) is settled without asking, but raising money opens %v",
					short.CurrentPhase, seat+1, decisionKind(k), task, rich.appendDecisionActions(buf[:0], seat, task))
			}
		}
	}
	switch {
	case short.CurrentPhase == phasePlace && len(short.Seats[seat].Vals) > 0 && !short.Seats[seat].Passed:
		if !short.canPlace(seat) && short.placesNowhere(seat) {
			settled++
			if rich.canPlace(seat) {
				t.Fatalf("P%d passes phase 2 without asking, but raising money opens %v", seat+1, rich.placeActions(seat))
			}
		}
	case short.CurrentPhase == phaseActions && short.Location < int(locCount) && len(short.Seats[seat].Queue) == 0:
		if i := short.nextDie(); i < 0 || short.Boards[short.Location].Dice[i].Owner != seat {
			return settled
		}
		for _, always := range []bool{false, true} {
			var at uint16
			if always {
				at = 1 << short.Location
			}
			short.Seats[seat].AutoAt, rich.Seats[seat].AutoAt = at, at
			if text, ok := short.unaskedAction(seat); ok {
				settled++
				if list := short.phaseActions(seat); text != "pass" && (len(list) != 3 || list[1] != text+" always") {
					t.Fatalf("P%d's die takes %q without asking from %v, which offers more than one action", seat+1, text, list)
				}
				if got, want := short.phaseActions(seat), rich.phaseActions(seat); !slices.Equal(got, want) {
					t.Fatalf("P%d's die acts without asking from %v, but raising money opens %v", seat+1, got, want)
				}
			}
		}
	}
	return settled
}
