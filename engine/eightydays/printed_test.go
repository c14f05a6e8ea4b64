package eightydays

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// Rules as printed: the readings an audit against the rulebook corrected.

func TestVariantBetFourFiveSixPaysAsInAFourPlayerGame(t *testing.T) {
	// pawn a steps onto the 4/5/6 space behind its own pawn b and both of
	// P2's pawns: 4th of four pawns, and the variant plays as 4 players
	s := variantFixture(t, func(s *State) { at(s, 0, 2, 5); at(s, 1, 10, 20) })
	apply(t, s, 0, "move a 3")
	before := s.Seats[0].Pounds
	ev := apply(t, s, 1, "move a 12")
	if got := s.Seats[0].Pounds - before; got != 40 {
		t.Fatalf("4th place on the 4/5/6 space paid %d£, want 40", got)
	}
	if !hasEvent(ev, "P1 is 4th on Bet 4/5/6 and takes 40 £: 149 £ now") {
		t.Fatalf("events %v", ev)
	}
}

func TestVariantRestartDrawsUpTo80(t *testing.T) {
	s := variantFixture(t, func(s *State) { at(s, 0, 4, 5); s.Seats[0].Pounds = 0; at(s, 1, 10, 20) })
	apply(t, s, 0, "restart a")
	if got := s.Seats[0].Pounds; got != RestartPounds || RestartPounds != 80 {
		t.Fatalf("after restart %d£, want 80 (the rulebook's 'draw back up to 80 £')", got)
	}
}

func TestACharacterThatPaysForAMoveCountsAsMoney(t *testing.T) {
	idx := func(id string) int { return cardIndex(t, id) }
	cases := []struct {
		name    string
		setup   func(s *State)
		actions string // the prompt's actions
		refuse  string // pass or restart
		reason  string
	}{
		{"pounds before Paris", func(s *State) { at(s, 0, 4); s.Seats[0].Pounds = 0; s.Seats[0].Characters = []int{idx("cromarty")} },
			"play cromarty", "restart", "your characters can pay for a move: play cromarty, then move"},
		{"a discount past Paris", func(s *State) {
			at(s, 0, 14)
			at(s, 1, 11) // Turin, the Layover behind, is taken
			s.Seats[0].Pounds = 0
			s.Seats[0].Characters = []int{idx("kiouni")}
		}, "play kiouni", "pass", "play kiouni, then move"},
		{"only the smaller sum lets it into London", func(s *State) {
			at(s, 0, 79)
			at(s, 1, 76) // Liverpool is taken
			s.Seats[0].Pounds, s.Seats[0].Rumors = 0, 0
			s.Seats[0].Characters = []int{idx("cromarty"), idx("parsee")}
		}, "play cromarty,play parsee", "pass", "play parsee, then move"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := fixture(t, 3, func(s *State) { at(s, 2, 60); tc.setup(s) })
			if got := strings.Join(s.Prompts()[0].Actions, ","); got != tc.actions {
				t.Fatalf("actions %q, want %q", got, tc.actions)
			}
			refused(t, s, 0, tc.refuse, engine.ErrIllegalAction, tc.reason)
		})
	}
	// characters that cost money, or bring too much, do not count
	for name, hand := range map[string][]string{"speedy costs": {"speedy"}, "cromarty brings too much": {"cromarty"}} {
		s := fixture(t, 3, func(s *State) {
			at(s, 0, 79)
			at(s, 1, 76)
			at(s, 2, 60)
			s.Seats[0].Pounds, s.Seats[0].Rumors = 0, 0
			for _, id := range hand {
				s.Seats[0].Characters = append(s.Seats[0].Characters, idx(id))
			}
		})
		if got := s.Prompts()[0].Actions; got[0] != "pass" {
			t.Errorf("%s: actions %q, want pass first", name, got)
		}
	}
}

func TestVariantPawnThatCannotLeaveThePoliceDoesNotHoldTheOther(t *testing.T) {
	stuck := func(s *State) {
		// pawn a must leave the Police at 13: 14 and 15 are taken, 16 costs
		// 6 £ of its 3 £, and Turin (11) behind it is taken; pawn b at 15 can
		// step to 16
		at(s, 0, 13, 15)
		s.Seats[0].Pawns[0].Pending = PendingLeave
		s.Seats[0].Pounds = 3
		at(s, 1, 11, 14)
	}
	s := variantFixture(t, stuck)
	if got := strings.Join(s.Prompts()[0].Actions, ","); got != "move b 16" {
		t.Fatalf("actions %q, want move b 16", got)
	}
	apply(t, s, 0, "move b 16")
	if p := s.Seats[0].Pawns[0]; p.Space != 13 || p.Pending != PendingLeave {
		t.Fatalf("pawn a %+v: it stays, still bound to leave", p)
	}
	// once pawn a can leave, it must
	apply(t, s, 1, "move b 15")
	s.Seats[0].Pounds = 10
	refused(t, s, 0, "move b 17", engine.ErrIllegalAction, "pawn a must leave the Police space this turn")

	s = variantFixture(t, func(s *State) { at(s, 0, 12, 2); at(s, 1, 30, 31) })
	if ev := apply(t, s, 0, "move a 13"); !hasEvent(ev, "P1's hat (pawn a) is turned over at the Police: the next turn is spent discarding a Rumor") {
		t.Fatalf("events %v", ev)
	}

	// a character that would pay for pawn a's move binds the player to it
	s = variantFixture(t, func(s *State) { stuck(s); s.Seats[0].Characters = []int{cardIndex(t, "kiouni")} })
	if got := strings.Join(s.Prompts()[0].Actions, ","); got != "play kiouni" {
		t.Fatalf("with Kiouni: actions %q, want play kiouni", got)
	}
}

func TestVariantBothPawnsLeavingThePoliceMayEachMove(t *testing.T) {
	s := variantFixture(t, func(s *State) {
		at(s, 0, 13, 24) // both on Police spaces, both bound to leave
		s.Seats[0].Pawns[0].Pending = PendingLeave
		s.Seats[0].Pawns[1].Pending = PendingLeave
		at(s, 1, 40, 41)
	})
	actions := strings.Join(s.Prompts()[0].Actions, ",")
	if !strings.Contains(actions, "move a 14") || !strings.Contains(actions, "move b 25") || strings.Contains(actions, "pass") {
		t.Fatalf("actions %q: either pawn may leave, and passing is not allowed", actions)
	}
	apply(t, s, 0, "move b 25")
	apply(t, s, 1, "move a 42")
	// pawn a is still bound to leave, and now it is the one that must
	refused(t, s, 0, "move b 26", engine.ErrIllegalAction, "pawn a must leave the Police space this turn")
}

// TestPassOnlyWhenNoPawnCanMove plays random games of both kinds and
// checks at every offered pass that no pawn of the player could move, with
// or without characters: no rule keeps a player passing while a pawn could go.
func TestPassOnlyWhenNoPawnCanMove(t *testing.T) {
	offered := 0
	for _, setup := range []engine.Setup{{Players: 2, Options: map[string]string{"variant": VariantTwoPawns}}, {Players: 4}} {
		for seed := uint64(1); seed <= 40; seed++ {
			setup.Seed = seed
			s := newFixture(t, setup, nil)
			rng := engine.NewRNG(seed)
			for step := 0; step < 600 && !s.Over(); step++ {
				p := s.Prompts()[0]
				for _, a := range p.Actions {
					if a != "pass" {
						continue
					}
					offered++
					for pw, last := s.pawnIDs(); pw <= last; pw++ {
						if s.pawn(s.Turn, pw).Space != LondonEnd && s.pawnCanMove(s.Turn, pw) {
							t.Fatalf("seed %d: pass offered while pawn %d of P%d can move: %+v", seed, pw, s.Turn+1, s.Seats[s.Turn])
						}
					}
				}
				if _, err := s.Apply(p.Seat, ai.Random{}.Choose(s, p, &rng)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if offered == 0 {
		t.Fatal("no pass was ever offered: nothing was checked")
	}
	t.Logf("%d passes offered", offered)
}
