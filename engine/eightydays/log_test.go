package eightydays

import (
	"strconv"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// TestEveryChangeIsTold plays random games and checks, after every action,
// that each change of a traveller's pounds, Rumors, characters or pawns
// is told by an event of that traveller giving the new amount or place.
func TestEveryChangeIsTold(t *testing.T) {
	setups := []engine.Setup{
		{Players: 3}, {Players: 5}, {Players: 2, Options: map[string]string{"variant": VariantTwoPawns}},
	}
	for _, setup := range setups {
		for seed := uint64(1); seed <= 8; seed++ {
			setup.Seed = seed
			s := newFixture(t, setup, nil)
			rng := engine.NewRNG(seed)
			for step := 0; step < 400 && !s.Over(); step++ {
				p := s.Prompts()[0]
				action := ai.Random{}.Choose(s, p, &rng)
				before := s.clone()
				ev, err := s.Apply(p.Seat, action)
				if err != nil {
					t.Fatal(err)
				}
				for seat := range s.Seats {
					var told []string
					for _, e := range ev {
						if e.Seat == engine.Seat(seat) {
							told = append(told, say(e.Text))
						}
					}
					all := strings.Join(told, "\n")
					was, now := &before.Seats[seat], &s.Seats[seat]
					fail := func(what, want string) {
						t.Fatalf("seed %d, %q by P%d: P%d's %s changed, but no event says %q:\n%s", seed, action, p.Seat+1, seat+1, what, want, all)
					}
					if was.Pounds != now.Pounds && !strings.Contains(all, pounds(now.Pounds)+" ") && !strings.HasSuffix(all, pounds(now.Pounds)) {
						fail("pounds", pounds(now.Pounds))
					}
					if was.Rumors != now.Rumors && !strings.Contains(all, say(engine.Say("ed.effects", engine.Part(rumorsArg("", now.Rumors))))) {
						fail("Rumors", say(engine.Say("ed.effects", engine.Part(rumorsArg("", now.Rumors)))))
					}
					if len(was.Characters) != len(now.Characters) && !strings.Contains(all, " keeps ") && !strings.Contains(all, " plays ") {
						fail("characters", "keeps or plays")
					}
					for i := range now.Pawns {
						if n := now.Pawns[i].Space; n != was.Pawns[i].Space && !strings.Contains(all, say(s.rules.events.places[n])) {
							fail("pawn", say(s.rules.events.places[n]))
						}
					}
				}
			}
		}
	}
}

func TestLogLinesSayWhatHappened(t *testing.T) {
	idx := func(id string) int { return cardIndex(t, id) }
	cases := []struct {
		name   string
		setup  func(s *State)
		action string
		want   []string
	}{
		{"a move", nil, "move 4", []string{"P1 moves from 0 to 4 (Bet 2) for 10 £: 70 £ left"}},
		{"a cheaper move", func(s *State) { s.Seats[0].Characters = []int{idx("kiouni")}; s.Discount = 15 }, "move 7",
			[]string{"P1 moves from 0 to 7 (Pound) for 13 £ (28 £ less 15 £ from characters): 67 £ left"}},
		{"a character played", func(s *State) { s.Seats[0].Characters = []int{idx("cromarty")} }, "play cromarty",
			[]string{"P1 plays Sir Francis Cromarty and takes 20 £: 100 £ now"}},
		{"a discount played", func(s *State) { s.Seats[0].Characters = []int{idx("kiouni")} }, "play kiouni",
			[]string{"P1 plays Kiouni the Elephant and saves 15 £ on this turn's move"}},
		{"a cost beyond the purse", func(s *State) { s.Seats[0].Characters = []int{idx("speedy")}; s.Seats[0].Pounds = 5 }, "play speedy",
			[]string{"P1 plays Captain Andrew Speedy and pays 5 £, all there was: 0 £ left"}},
		{"back", func(s *State) { at(s, 0, 14) }, "back",
			[]string{"P1 moves back from 14 to 11 (Turin, a Layover) and takes 30 £: 110 £ now"}},
		{"stay and give", func(s *State) { s.Seats[0].Pawns[0] = Pawn{Space: 7, Pending: PendingPound} }, "stay give",
			[]string{"P1 stays on the Pound space and gives the bank 10 £: 70 £ left"}},
		{"onto the Police", func(s *State) { at(s, 0, 12) }, "move 13",
			[]string{"P1 moves from 12 to 13 (Police) for 1 £: 79 £ left", "P1's hat is turned over at the Police: the next turn is spent discarding a Rumor"}},
		{"at the Police", func(s *State) { s.Seats[0].Pawns[0] = Pawn{Space: 13, Pending: PendingPolice} }, "discard",
			[]string{"P1 turns the hat back up and discards a Rumor at the Police (2 Rumors left); 3rd place brings 30 £: 110 £ now"}},
		{"restart", func(s *State) { at(s, 0, 4); s.Seats[0].Pounds = 0 }, "restart",
			[]string{"P1 cannot pay for a move before Paris and goes back from 4 to London: 80 £ now"}},
		{"pass", func(s *State) { at(s, 0, 14); at(s, 1, 11); s.Seats[0].Pounds = 0 }, "pass",
			[]string{"P1 can neither pay for a move nor move back, and passes"}},
		{"a card drawn", func(s *State) { at(s, 0, 70); s.Deck = append(s.Deck, idx("opium")) }, "move 72",
			[]string{"P1 draws Drugged in an Opium Den (event)", "Drugged in an Opium Den: P1 pays 10 £: 67 £ left and takes a Rumor: 4 Rumors now"}},
		{"the deck runs out", func(s *State) {
			at(s, 0, 70)
			s.Discard = append(s.Discard, s.Deck...)
			s.Deck = s.Deck[:0]
		}, "move 72", []string{"the Passepartout deck ran out: the discard pile is shuffled into a new deck"}},
		{"no card left at all", func(s *State) {
			at(s, 0, 70)
			s.Deck = s.Deck[:0]
		}, "move 72", []string{"the Passepartout deck and discard pile are both empty: no card to draw"}},
		{"a character drawn", func(s *State) { at(s, 0, 70); s.Deck = append(s.Deck, idx("speedy")) }, "move 72",
			[]string{"P1 draws Captain Andrew Speedy (character ↻)", "P1 keeps Captain Andrew Speedy to play on a later turn (pay 20 £)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := aheadFixture(t, tc.setup)
			ev := apply(t, s, 0, tc.action)
			for _, want := range tc.want {
				if !hasEvent(ev, want) {
					t.Errorf("no event %q in\n%v", want, ev)
				}
			}
		})
	}
}

// pounds is a sum as the log writes it: "25 £".
func pounds(n int) string { return strconv.Itoa(n) + " £" }
