package eightydays

import (
	"errors"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/enginetest"
)

// fixture returns a game of players travellers where P1 is on turn and
// every pawn is in London, then lets setup place pawns and money.
func fixture(t *testing.T, players int, setup func(s *State)) *State {
	t.Helper()
	return newFixture(t, engine.Setup{Players: players, Seed: 7}, setup)
}

// variantFixture is fixture for the two-pawns variant.
func variantFixture(t *testing.T, setup func(s *State)) *State {
	t.Helper()
	return newFixture(t, engine.Setup{Players: 2, Seed: 7, Options: map[string]string{"variant": VariantTwoPawns}}, setup)
}

func newFixture(t *testing.T, setup engine.Setup, place func(s *State)) *State {
	t.Helper()
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewRules(c).NewState(setup)
	if err != nil {
		t.Fatal(err)
	}
	s.First, s.Turn = 0, 0
	if place != nil {
		place(s)
	}
	return s
}

// aheadFixture is a 3-player fixture with P2 and P3 far ahead, on 60 and
// 61, then setup (which may be nil) applied.
func aheadFixture(t *testing.T, setup func(s *State)) *State {
	t.Helper()
	return fixture(t, 3, func(s *State) {
		at(s, 1, 60)
		at(s, 2, 61)
		if setup != nil {
			setup(s)
		}
	})
}

// at puts seat's pawns on the given spaces.
func at(s *State, seat int, spaces ...int) {
	for i, n := range spaces {
		s.Seats[seat].Pawns[i] = Pawn{Space: n}
	}
}

func apply(t *testing.T, s *State, seat int, action string) []engine.Event {
	t.Helper()
	ev, err := s.Apply(engine.Seat(seat), action)
	if err != nil {
		t.Fatalf("P%d %q refused: %v", seat+1, action, err)
	}
	if err := enginetest.RoundTrip(s.rules, s); err != nil {
		t.Fatalf("after %q: %v", action, err)
	}
	return ev
}

func TestVictoriaMovesThreeSpacesForSixPounds(t *testing.T) {
	s := fixture(t, 3, nil)
	apply(t, s, 0, "move 3")
	if got := s.Seats[0].Pounds; got != 80-6 {
		t.Fatalf("pounds after a 3-space move: %d, want 74", got)
	}
	if s.Seats[0].Pawns[0].Space != 3 || s.Turn != 1 {
		t.Fatalf("pawn on %d, turn %d", s.Seats[0].Pawns[0].Space, s.Turn)
	}
}

func TestVictoriaMovesFromFiveToTenForFifteenPounds(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 5) })
	apply(t, s, 0, "move 10")
	if got := s.Seats[0].Pounds; got != 65 {
		t.Fatalf("pounds after 5 to 10: %d, want 80-15=65", got)
	}
}

func TestJournalCosts(t *testing.T) {
	// the Travel Journal rows the rulebook prints
	for n, want := range map[int]int{1: 1, 2: 3, 3: 6, 16: 136, 17: 153, 18: 171} {
		if got := Cost(n); got != want {
			t.Errorf("Cost(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestOccupiedSpacesCountTowardTheCost(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 5); at(s, 1, 7); at(s, 2, 8) })
	apply(t, s, 0, "move 10")
	if got := s.Seats[0].Pounds; got != 65 {
		t.Fatalf("pounds: %d, want 65 (spaces 7 and 8 are counted though taken)", got)
	}
}

func TestVictoriaMovesBackFrom42ToCalcuttaFor40Pounds(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 42) })
	ev := apply(t, s, 0, "back")
	if p := s.Seats[0].Pawns[0]; p.Space != 38 || s.Seats[0].Pounds != 120 {
		t.Fatalf("pawn on %d with %d£, want Calcutta (38) with 120 £", p.Space, s.Seats[0].Pounds)
	}
	if say(ev[0].Text) != "P1 moves back from 42 to 38 (Calcutta, a Layover) and takes 40 £: 120 £ now" {
		t.Fatalf("first event %q", say(ev[0].Text))
	}
	// and from one Layover back to the next
	s.Turn = 0
	apply(t, s, 0, "back")
	if p := s.Seats[0].Pawns[0]; p.Space != 33 || s.Seats[0].Pounds != 170 {
		t.Fatalf("from Calcutta: on %d with %d£, want Allahabad (33) with 170 £", p.Space, s.Seats[0].Pounds)
	}
}

func TestBetExample(t *testing.T) {
	// Victoria lands on the "2" Bet space, gets nothing yet, and is paid
	// 20 £ at the start of her next turn, being second.
	s := fixture(t, 3, func(s *State) { at(s, 0, 2); at(s, 1, 9); at(s, 2, 1) })
	apply(t, s, 0, "move 4") // space 4 is the "2" Bet space
	if s.Seats[0].Pounds != 80-3 || s.Seats[0].Pawns[0].Pending != PendingBet {
		t.Fatalf("on arrival: %d£, pending %q", s.Seats[0].Pounds, s.Seats[0].Pawns[0].Pending)
	}
	apply(t, s, 1, "move 10")
	ev := apply(t, s, 2, "move 2")
	if s.Seats[0].Pounds != 77+20 {
		t.Fatalf("before her next move: %d£, want 97 (2nd place pays 20 £)", s.Seats[0].Pounds)
	}
	if !hasEvent(ev, "P1 is 2nd on Bet 2 and takes 20 £: 97 £ now") {
		t.Fatalf("no bet event in %v", ev)
	}
	if s.Seats[0].Pawns[0].Pending != "" {
		t.Fatal("the bet pays once")
	}
}

func TestBetPaysOnlyTheMatchingPosition(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 2); at(s, 1, 30); at(s, 2, 20) })
	apply(t, s, 0, "move 4") // "2" Bet space, but P1 will be third
	apply(t, s, 1, "move 31")
	ev := apply(t, s, 2, "move 21")
	if s.Seats[0].Pounds != 77 {
		t.Fatalf("third place on the 2 space: %d£, want 77", s.Seats[0].Pounds)
	}
	// the player is told why no money came
	if !hasEvent(ev, "P1 is 3rd on Bet 2: the Bet pays nothing") {
		t.Fatalf("no event for the bet that did not pay: %v", ev)
	}
}

func TestFourFiveSixBetPaysNothingWithThreePlayers(t *testing.T) {
	for _, tc := range []struct {
		players, want int
	}{{3, 0}, {4, 40}} {
		from := []int{0, 39, 47, 52}
		s := fixture(t, tc.players, func(s *State) {
			for i := 1; i < len(s.Seats); i++ {
				at(s, i, from[i])
			}
			at(s, 0, 2)
		})
		apply(t, s, 0, "move 3") // the 4/5/6 space
		for i := 1; i < tc.players; i++ {
			apply(t, s, i, "move "+itoa(from[i]+1))
		}
		got := s.Seats[0].Pounds - (80 - 1)
		// with 3 players P1 is 3rd (pays nothing on 4/5/6); with 4 she is 4th
		if got != tc.want {
			t.Errorf("%d players: the 4/5/6 space paid %d£, want %d", tc.players, got, tc.want)
		}
	}
}

func TestPoundSpaceStayTakeAndGive(t *testing.T) {
	s := fixture(t, 2, func(s *State) { at(s, 0, 5); at(s, 1, 50) })
	apply(t, s, 0, "move 7") // a Pound space
	if s.Seats[0].Pounds != 77 {
		t.Fatalf("nothing on arrival: %d£", s.Seats[0].Pounds)
	}
	apply(t, s, 1, "move 51")
	apply(t, s, 0, "stay take")
	apply(t, s, 1, "move 52")
	apply(t, s, 0, "stay give")
	apply(t, s, 1, "move 53")
	apply(t, s, 0, "stay give")
	if s.Seats[0].Pounds != 67 || s.Seats[0].Pawns[0].Space != 7 {
		t.Fatalf("after take, give, give: %d£ on %d", s.Seats[0].Pounds, s.Seats[0].Pawns[0].Space)
	}
	apply(t, s, 1, "move 56")
	apply(t, s, 0, "move 8")
	if s.Seats[0].Pawns[0].Pending == PendingPound {
		t.Fatal("leaving the Pound space ends its effect")
	}
}

func TestPoliceDiscardThenLeave(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 10); at(s, 1, 50); at(s, 2, 3) })
	apply(t, s, 0, "move 13")
	if s.Seats[0].Pawns[0].Pending != PendingPolice {
		t.Fatal("hat not turned over")
	}
	apply(t, s, 1, "move 51")
	apply(t, s, 2, "move 4")
	p := s.Prompts()[0]
	if p.Kind != PromptPolice || strings.Join(p.Actions, ",") != "discard" {
		t.Fatalf("prompt %+v, want only discard", p)
	}
	refused(t, s, 0, "move 14", engine.ErrIllegalAction, "this turn you discard a Rumor card")
	apply(t, s, 0, "discard")
	if s.Seats[0].Rumors != 2 || s.Seats[0].Pounds != 80-6+20 {
		t.Fatalf("after discarding in 2nd place: %d Rumors, %d£; want 2 and 94", s.Seats[0].Rumors, s.Seats[0].Pounds)
	}
	apply(t, s, 1, "move 52")
	apply(t, s, 2, "move 7")
	for _, a := range s.Prompts()[0].Actions {
		if a == "pass" || strings.HasPrefix(a, "stay") || a == "discard" {
			t.Fatalf("must leave the Police space, but %q is offered", a)
		}
	}
	apply(t, s, 0, "move 14")
}

func TestPoliceNeedsARumorCard(t *testing.T) {
	s := fixture(t, 2, func(s *State) { at(s, 0, 10); s.Seats[0].Rumors = 0 })
	refused(t, s, 0, "move 13", engine.ErrIllegalAction, "space 13 is a Police space: you can only stop there with a Rumor card in hand")
}

func TestPassepartoutFurthestAheadDrawsOne(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 3); at(s, 1, 2); at(s, 2, 1) })
	top := s.Deck[len(s.Deck)-1]
	ev := apply(t, s, 0, "move 5")
	if len(s.Deck) != DeckSize-1 || len(s.Drawn) != 0 {
		t.Fatalf("deck %d, drawn %v", len(s.Deck), s.Drawn)
	}
	if !revealed(ev) {
		t.Fatal("drawing a card must be marked as revealing")
	}
	card := s.rules.content.Cards[top]
	if card.Kind == CardCharacter && (len(s.Seats[0].Characters) != 1 || s.Seats[0].Characters[0] != top) {
		t.Fatalf("character %s not kept", card.ID)
	}
}

func TestPassepartoutBehindDrawsTwoAndKeepsOne(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 3); at(s, 1, 30); at(s, 2, 1) })
	s.Deck = append(s.Deck, cardIndex(t, "aouda"), cardIndex(t, "bribe"))
	first, second := s.Deck[len(s.Deck)-1], s.Deck[len(s.Deck)-2]
	apply(t, s, 0, "move 5")
	if len(s.Drawn) != 2 || s.Turn != 0 {
		t.Fatalf("drawn %v, turn %d", s.Drawn, s.Turn)
	}
	p := s.Prompts()[0]
	if p.Kind != PromptKeep || strings.Join(p.Actions, ",") != "keep 1,keep 2" {
		t.Fatalf("prompt %+v", p)
	}
	refused(t, s, 0, "move 6", engine.ErrIllegalAction, "first choose which Passepartout card")
	ev := apply(t, s, 0, "keep 2")
	// one line says what was kept, one what was discarded
	var texts []string
	for _, e := range ev {
		texts = append(texts, say(e.Text))
	}
	kept, other := s.rules.content.Cards[second], s.rules.content.Cards[first]
	want := []string{"P1 keeps " + kept.Name + " to play on a later turn (" + s.rules.effects[second] + ")", "P1 discards " + other.Name + ", the card not kept"}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Fatalf("events %q, want %q", texts, want)
	}
	if s.Turn != 1 || len(s.Drawn) != 0 {
		t.Fatal("keeping ends the turn")
	}
	if s.Discard[0] != first {
		t.Fatalf("discard %v, want the unkept card %d first", s.Discard, first)
	}
	if len(s.Seats[0].Characters) != 1 || s.Seats[0].Characters[0] != second {
		t.Fatal("kept character missing")
	}
}

func TestEventsApplyAndCharactersPlayLater(t *testing.T) {
	idx := func(id string) int { return cardIndex(t, id) }
	s := fixture(t, 2, func(s *State) { at(s, 0, 3); at(s, 1, 1) })
	s.Deck = append(s.Deck, idx("aouda"), idx("whist")) // whist on top
	apply(t, s, 0, "move 5")                            // furthest ahead: one card
	if s.Seats[0].Pounds != 80-3+20 {
		t.Fatalf("whist: %d£, want 97", s.Seats[0].Pounds)
	}
	apply(t, s, 1, "move 2")
	s.Deck = append(s.Deck, idx("aouda"))
	apply(t, s, 0, "move 9")
	if len(s.Seats[0].Characters) != 1 || s.Seats[0].Rumors != 3 {
		t.Fatalf("Aouda kept: %v, Rumors %d", s.Seats[0].Characters, s.Seats[0].Rumors)
	}
	apply(t, s, 1, "move 3")
	ev := apply(t, s, 0, "play aouda")
	if s.Seats[0].Rumors != 2 || len(s.Seats[0].Characters) != 0 || s.Turn != 0 {
		t.Fatalf("after play: %d Rumors, %v, turn %d", s.Seats[0].Rumors, s.Seats[0].Characters, s.Turn)
	}
	if !hasEvent(ev, "P1 plays Aouda and discards a Rumor: 2 Rumors left") {
		t.Fatalf("events %v", ev)
	}
	refused(t, s, 0, "play aouda", engine.ErrIllegalAction, "you hold no character “aouda”")
	// Kiouni makes this turn's move cheaper
	s.Seats[0].Characters = []int{idx("kiouni")}
	apply(t, s, 0, "play kiouni")
	before := s.Seats[0].Pounds
	apply(t, s, 0, "move 15") // 6 spaces: 21 £ less 15
	if got := before - s.Seats[0].Pounds; got != 6 {
		t.Fatalf("move with Kiouni cost %d£, want 6", got)
	}
}

func TestReshuffleSymbolShufflesAtTheEndOfTheTurn(t *testing.T) {
	wager := cardIndex(t, "wager")
	s := fixture(t, 2, func(s *State) { at(s, 0, 3); at(s, 1, 1) })
	for i, c := range s.Deck {
		if c == wager {
			s.Deck[i], s.Deck[len(s.Deck)-1] = s.Deck[len(s.Deck)-1], s.Deck[i]
		}
	}
	s.Discard = append(s.Discard, s.Deck[:5]...)
	s.Deck = s.Deck[5:]
	ev := apply(t, s, 0, "move 5")
	if len(s.Discard) != 0 || len(s.Deck) != DeckSize {
		t.Fatalf("after the reshuffle: deck %d, discard %d", len(s.Deck), len(s.Discard))
	}
	if !hasEvent(ev, "↻ the Passepartout deck and discard pile are shuffled together") {
		t.Fatalf("events %v", ev)
	}
}

func TestHomeToLondon(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 76); s.Seats[0].Rumors = 0; s.Seats[0].Pounds = 20 })
	ev := apply(t, s, 0, "move 80") // 4 spaces, 10 £, 10 £ left
	if !s.Over() || s.Winner != 0 || s.Prompts() != nil {
		t.Fatal("arriving home must end the game")
	}
	if ev[len(ev)-1].Kind != engine.EventEnd {
		t.Fatalf("last event %+v", ev[len(ev)-1])
	}
	r := s.Result()
	if !r.Over || len(r.Winners) != 1 || r.Winners[0] != 0 || r.Scores[0] != 80 || r.Counters["turns"] != 1 {
		t.Fatalf("result %+v", r)
	}
	refused(t, s, 1, "move 3", engine.ErrGameOver, "the game is over")
}

func TestRestartBeforeParisAndPassAfter(t *testing.T) {
	s := fixture(t, 2, func(s *State) { at(s, 0, 4); s.Seats[0].Pounds = 0; at(s, 1, 5) })
	if got := strings.Join(s.Prompts()[0].Actions, ","); got != "restart" {
		t.Fatalf("actions %q, want restart", got)
	}
	refused(t, s, 0, "pass", engine.ErrIllegalAction, "you have not passed Paris")
	apply(t, s, 0, "restart")
	if s.Seats[0].Pawns[0].Space != 0 || s.Seats[0].Pounds != 80 {
		t.Fatalf("restart: %+v", s.Seats[0])
	}
	// past Paris, with the Layover behind taken: pass
	s = fixture(t, 2, func(s *State) { at(s, 0, 14); s.Seats[0].Pounds = 0; at(s, 1, 11) })
	if got := strings.Join(s.Prompts()[0].Actions, ","); got != "pass" {
		t.Fatalf("actions %q, want pass", got)
	}
	refused(t, s, 0, "restart", engine.ErrIllegalAction, "has passed Paris")
	apply(t, s, 0, "pass")
}

func TestTwoPawnsVariant(t *testing.T) {
	s := variantFixture(t, nil)
	if s.Seats[0].Pounds != 110 || s.Seats[0].Rumors != 5 || len(s.Seats[0].Pawns) != 2 {
		t.Fatalf("variant setup %+v", s.Seats[0])
	}
	if label := say(*s.Prompts()[0].Text); label != "move one of your pawns (a or b)" {
		t.Fatalf("prompt %q", label)
	}
	refused(t, s, 0, "move 3", engine.ErrIllegalAction, "you have two pawns: say which one, e.g. move a 3")
	apply(t, s, 0, "move a 3")
	apply(t, s, 1, "move b 4")
	// the first pawn home may carry any amount once the Rumors are gone
	s = variantFixture(t, func(s *State) { at(s, 0, 76, 30); s.Seats[0].Pounds = 100 })
	refused(t, s, 0, "move a 80", engine.ErrIllegalAction, "Rumor cards in hand (you hold 5)")
	s.Seats[0].Rumors = 0
	apply(t, s, 0, "move a 80")
	if s.Over() {
		t.Fatal("one pawn home does not win")
	}
	apply(t, s, 1, "move a 2")
	refused(t, s, 0, "move a 79", engine.ErrIllegalAction, "pawn a is already home")
	at(s, 0, 80, 76)
	s.Seats[0].Pounds = 31 // 10 £ to pay, 21 £ left: one too many
	refused(t, s, 0, "move b 80", engine.ErrIllegalAction, "you would arrive in London with 21 £ in hand: you must have 20 £ or less")
	s.Seats[0].Pounds = 30
	apply(t, s, 0, "move b 80")
	if !s.Over() || s.Winner != 0 {
		t.Fatal("both pawns home must win")
	}
	if r := s.Result(); r.Scores[0] != 160 {
		t.Fatalf("variant score %d, want 160", r.Scores[0])
	}
}

func TestTwoPawnsPoliceTakesTheNextTurnThenThatPawnLeaves(t *testing.T) {
	s := variantFixture(t, func(s *State) { at(s, 0, 10, 2); at(s, 1, 1, 3) })
	apply(t, s, 0, "move a 13")
	apply(t, s, 1, "move a 4")
	if p := s.Prompts()[0]; strings.Join(p.Actions, ",") != "discard a" {
		t.Fatalf("actions %v, want discard a", p.Actions)
	}
	apply(t, s, 0, "discard a")
	apply(t, s, 1, "move a 7")
	refused(t, s, 0, "move b 7", engine.ErrIllegalAction, "pawn a must leave the Police space this turn")
	apply(t, s, 0, "move a 14")
}

func TestUsageHintsNamePawnsOnlyWithTwo(t *testing.T) {
	s := fixture(t, 3, nil)
	refused(t, s, 0, "move -1", engine.ErrUnknownAction, "write move and the space to move to, e.g. move 14")
	if _, err := s.Apply(0, "move -1"); strings.Contains(refusal(err), "pawn a") {
		t.Fatalf("one pawn, but the hint names pawns: %v", err)
	}
	refused(t, variantFixture(t, nil), 0, "move -1", engine.ErrUnknownAction, "e.g. move 14 (move a 14 for pawn a)")
}

func TestNotYourTurnAndUnknownActions(t *testing.T) {
	s := fixture(t, 3, nil)
	refused(t, s, 1, "move 3", engine.ErrNotYourTurn, "it is P1's turn")
	refused(t, s, 7, "move 3", engine.ErrNotYourTurn, "not at the table")
	refused(t, s, 0, "fly 3", engine.ErrUnknownAction, "“fly” is not an action")
	refused(t, s, 0, "move", engine.ErrUnknownAction, "move 14")
	refused(t, s, 0, "", engine.ErrUnknownAction, "no action")
}

// TestIllegalMoves is the table of refusals, each with the player's reason.
func TestIllegalMoves(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(s *State)
		action string
		reason string
	}{
		{"forward onto a Layover", func(s *State) { at(s, 0, 35) }, "move 38",
			"space 38 is a Layover (Calcutta): you can only reach it by moving back"},
		{"onto an occupied space", func(s *State) { at(s, 0, 2); at(s, 1, 5) }, "move 5",
			"space 5 is taken: move to an unoccupied space"},
		{"too dear", func(s *State) { at(s, 0, 0) }, "move 13",
			"moving 13 spaces costs 91 £ and you have 80 £"},
		{"Police without a Rumor", func(s *State) { at(s, 0, 10); s.Seats[0].Rumors = 0 }, "move 13",
			"you can only stop there with a Rumor card in hand"},
		{"London with 11 pounds", func(s *State) { at(s, 0, 76); s.Seats[0].Rumors = 0; s.Seats[0].Pounds = 21 }, "move 80",
			"you would arrive in London with 11 £ in hand: you must have 10 £ or less"},
		{"London with a Rumor left", func(s *State) { at(s, 0, 76); s.Seats[0].Rumors = 1; s.Seats[0].Pounds = 20 }, "move 80",
			"you cannot come home to London with Rumor cards in hand (you hold 1)"},
		{"backward past the nearest Layover", func(s *State) { at(s, 0, 42) }, "move 33",
			"is on space 42: move forward to a space after it, or use back to move back"},
		{"back onto an occupied Layover", func(s *State) { at(s, 0, 42); at(s, 1, 38) }, "back",
			"the nearest Layover behind you, Calcutta at 38, is taken"},
		{"back from before Paris", func(s *State) { at(s, 0, 3) }, "back",
			"there is no Layover behind space 3 to move back to (London is not a Layover)"},
		{"past London", func(s *State) { at(s, 0, 79) }, "move 81",
			"the track ends in London, space 80"},
		{"stay off a Pound space", func(s *State) { at(s, 0, 5) }, "stay take",
			"you can only stay and take or give 10 £ on a Pound space"},
		{"stay in London", nil, "stay take",
			"(your pawn is on 0, London)"},
		{"stay on a Pound space already left once", func(s *State) { at(s, 0, 7) }, "stay give",
			"(your pawn is on 7, a Pound space, but not since your last turn)"},
		{"one space too dear", func(s *State) { at(s, 0, 7); s.Seats[0].Pounds = 0 }, "move 8",
			"moving 1 space costs 1 £ and you have 0 £"},
		{"give with nothing", func(s *State) { s.Seats[0].Pawns[0] = Pawn{Space: 7, Pending: PendingPound}; s.Seats[0].Pounds = 5 }, "stay give",
			"you have 5 £: you cannot give 10 £ to the bank"},
		{"pass on a Pound space with nothing to pay", func(s *State) {
			s.Seats[0].Pawns[0] = Pawn{Space: 12, Pending: PendingPound}
			s.Seats[0].Pounds = 0
			at(s, 1, 11) // Turin, the Layover behind
		}, "pass", "your pawn is on a Pound space and stays there this turn: take or give 10 £ (stay take)"},
		{"restart on a Pound space with nothing to pay", func(s *State) {
			s.Seats[0].Pawns[0] = Pawn{Space: 12, Pending: PendingPound}
			s.Seats[0].Pounds = 0
			at(s, 1, 11) // Turin, the Layover behind
		}, "restart", "your pawn is on a Pound space and stays there this turn"},
		{"pass while able to move", nil, "pass",
			"you can still move: pass only when you can neither pay for a move nor move back"},
		{"restart while able to move", nil, "restart",
			"you can still move"},
		{"keep with nothing drawn", nil, "keep 1",
			"you have no Passepartout cards to choose between"},
		{"discard off the Police", nil, "discard",
			"your pawn is not waiting at the Police"},
		{"a pawn letter with one pawn", nil, "move a 3",
			"you have one pawn: leave out the letter, e.g. move 3"},
		{"a character not held", nil, "play fix",
			"you hold no character “fix” to play"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := aheadFixture(t, tc.setup)
			for _, a := range s.Prompts()[0].Actions {
				if a == tc.action {
					t.Fatalf("%q is listed as legal", tc.action)
				}
			}
			refused(t, s, 0, tc.action, engine.ErrIllegalAction, tc.reason)
		})
	}
}

// refused checks that the action is refused with the kind and a reason
// containing want, leaving the state unchanged.
func refused(t *testing.T, s *State, seat int, action string, kind error, want string) {
	t.Helper()
	err := enginetest.Unchanged(t, s, engine.Seat(seat), action)
	if !errors.Is(err, kind) {
		t.Fatalf("%q: error %v is not %v", action, err, kind)
	}
	var rule *engine.RuleError
	if !errors.As(err, &rule) {
		t.Fatalf("%q: %T is not a *engine.RuleError", action, err)
	}
	if !strings.Contains(refusal(err), want) {
		t.Fatalf("%q: reason %q, want it to contain %q", action, refusal(err), want)
	}
}

func cardIndex(t *testing.T, id string) int {
	t.Helper()
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	for i, card := range c.Cards {
		if card.ID == id {
			return i
		}
	}
	t.Fatalf("no card %s", id)
	return -1
}

func hasEvent(ev []engine.Event, text string) bool {
	for _, e := range ev {
		if say(e.Text) == text {
			return true
		}
	}
	return false
}

func revealed(ev []engine.Event) bool {
	for _, e := range ev {
		if e.Reveals {
			return true
		}
	}
	return false
}
