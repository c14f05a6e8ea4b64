package crystalpalace

// Helpers for the rulebook's worked examples (rulebook_examples_test.go) and the
// tables of legal and illegal actions (legal_test.go). Games start from the
// engine's own setup and move on with public actions; where an example needs
// a position no short game reaches (a later round, a card in a given display
// slot, a track position), one of the set* helpers below edits the state
// directly and says what it sets.

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/enginetest"
)

// exampleRules loads the embedded content once per test.
func exampleRules(t testing.TB) *Rules {
	t.Helper()
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return NewRules(c)
}

// newGame starts a game of players seats from the engine's setup.
func newGame(t testing.TB, players int, seed uint64) *State {
	t.Helper()
	s, err := exampleRules(t).newState(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play applies a script of "P<seat>: <action>" lines (seats from 1, #
// comments), failing the test at the first refusal.
func play(t testing.TB, s *State, script string) {
	t.Helper()
	moves, err := engine.ReadScript(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		if _, err := s.Apply(m.Seat, m.Action); err != nil {
			t.Fatalf("script line %d %q: refused: %v (prompts: %v)", m.Line, m.String(), err, promptSummary(s))
		}
	}
}

// promptSummary lists the open prompts as "P1 place" for failure messages.
func promptSummary(s *State) []string {
	var out []string
	for _, p := range s.Prompts() {
		out = append(out, seatName(int(p.Seat))+" "+p.Kind+" "+strings.Join(p.Actions[:min(len(p.Actions), 6)], "|"))
	}
	return out
}

// wantPrompt fails unless seat has an open prompt of kind.
func wantPrompt(t testing.TB, s *State, seat int, kind string) engine.Prompt {
	t.Helper()
	for _, p := range s.Prompts() {
		if int(p.Seat) == seat && p.Kind == kind {
			return p
		}
	}
	t.Fatalf("%s has no %q prompt; prompts: %v", seatName(seat), kind, promptSummary(s))
	return engine.Prompt{}
}

// wantRefusal applies action for seat, expects a refusal of kind and an
// unchanged state, and returns the refusal.
func wantRefusal(t *testing.T, s *State, seat int, action string, kind error) error {
	t.Helper()
	err := enginetest.Unchanged(t, s, engine.Seat(seat), action)
	if !errors.Is(err, kind) {
		t.Fatalf("%s %q: refused with %v, want %v", seatName(seat), action, err, kind)
	}
	return err
}

// eq fails when got differs from want, naming what was compared.
func eq(t testing.TB, what string, got, want int) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %d, want %d", what, got, want)
	}
}

// Content look-ups by id.

func patentIdx(t testing.TB, s *State, id string) int {
	t.Helper()
	i, ok := s.c.patentByID[id]
	if !ok {
		t.Fatalf("no patent %q", id)
	}
	return i
}

func charIdx(t testing.TB, s *State, id string) int {
	t.Helper()
	i, ok := s.c.charByID[id]
	if !ok {
		t.Fatalf("no character %q", id)
	}
	return i
}

func researchIdx(t testing.TB, s *State, id string) int {
	t.Helper()
	return indexByID(t, "research tile", s.c.Research, id, func(r Research) string { return r.ID })
}

func shareIdx(t testing.TB, s *State, id string) int {
	t.Helper()
	return indexByID(t, "share", s.c.Shares, id, func(sh Share) string { return sh.ID })
}

func flyerIdx(t testing.TB, s *State, id string) int {
	t.Helper()
	return indexByID(t, "flyer", s.c.Flyers, id, func(f Flyer) string { return f.ID })
}

// indexByID is the index of the entry of list whose id is id.
func indexByID[T any](t testing.TB, kind string, list []T, id string, idOf func(T) string) int {
	t.Helper()
	for i, x := range list {
		if idOf(x) == id {
			return i
		}
	}
	t.Fatalf("no %s %q", kind, id)
	return -1
}

// Direct state edits.

// setRound puts the round tracker on round (1-5) before its phase 1, with
// that round's shares at the Bank, as phase 7 would have laid them out.
func setRound(s *State, round int) {
	s.Round = round
	for i := range s.BankDisp {
		s.BankDisp[i] = -1
		if d := s.ShareDecks[round-1]; len(d) > 0 {
			s.BankDisp[i], s.ShareDecks[round-1] = d[0], d[1:]
		}
	}
	s.ShareDecks[round-1] = nil
}

// setDisplay lays card (an index into the location's content) in slot
// (from 1) of a display, as if the deck had dealt it there: a card already
// in the display swaps places; otherwise it leaves its deck and the card it
// displaces takes its place there.
func setDisplay(s *State, l locKind, slot, card int) {
	disp := s.display(l)
	old := disp[slot-1]
	for i, c := range disp {
		if c == card {
			disp[i], disp[slot-1] = old, card
			return
		}
	}
	var deck []int
	switch l {
	case locPatent:
		deck = s.PatentDeck
	case locMuseum:
		deck = s.GreenDeck
	case locBank:
		deck = s.ShareDecks[s.c.Shares[card].Round-1]
	case locClub:
		deck = s.CharDeck
	}
	for i, c := range deck {
		if c == card {
			deck[i] = old
		}
	}
	disp[slot-1] = card
}

// setFlyer lays flyer on Buzz track space sp instead of the one dealt there.
func setFlyer(t testing.TB, s *State, sp, flyer int) {
	t.Helper()
	for i := range s.FlyerAt {
		if s.FlyerAt[i].Space == sp {
			s.FlyerAt[i].Flyer = flyer
			return
		}
	}
	t.Fatalf("no flyer space %d", sp)
}

// setMarket puts the given seats on Black Market tiers (from 1), taking the
// assistants from their supplies; every other tier is free.
func setMarket(s *State, owners map[int]int) {
	for t := range s.Market {
		if o := s.Market[t]; o >= 0 {
			s.Seats[o].Asst++
		}
		s.Market[t] = -1
	}
	for tier, seat := range owners {
		s.Market[tier-1] = seat
		s.Seats[seat].Asst--
	}
}

// setPublisher puts the publisher tile id, side up on the London Times.
func setPublisher(t testing.TB, s *State, id, side string) {
	t.Helper()
	for i, p := range s.c.Publishers {
		if p.ID == id && p.Side == side {
			s.Publisher = i
			return
		}
	}
	t.Fatalf("no publisher %s%s", id, side)
}

// setLastRoundOrder makes the state look as if last round's first player
// had been first (round 1 has no last round).
func setLastRoundOrder(s *State, first int) {
	s.First = first
	for i := range s.Order {
		s.Order[i] = (first + i) % s.PlayerCount
	}
}

var errIllegal = engine.ErrIllegalAction

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }

// setPurse gives seat exactly these pounds and newspapers.
func setPurse(s *State, seat, pounds, news int) {
	s.Seats[seat].Pounds, s.Seats[seat].News = pounds, news
}

// setResearch lays research tiles on seat's research spaces from space 1;
// -1 leaves a space as it is.
func setResearch(s *State, seat int, tiles ...int) {
	for i, tile := range tiles {
		if tile >= 0 {
			s.Seats[seat].Slots[i] = Slot{Kind: slotResearch, ID: tile}
		}
	}
}

// playLastRound puts the game in Spring 1851 and plays it with every seat
// choosing dice (seat 1 highest) and passing at once, so the game ends after
// phase 6 with no other change than dice costs, income and expenses.
func playLastRound(t testing.TB, s *State) engine.Result {
	t.Helper()
	setRound(s, 5)
	for seat := range s.Seats {
		dice := "dice 1 1 1 1"
		if seat == 0 {
			dice = "dice 2 1 1 1"
		}
		play(t, s, seatName(seat)+": "+dice)
	}
	for seat := range s.Seats {
		play(t, s, seatName(s.Order[seat])+": pass")
	}
	if !s.Over() {
		t.Fatalf("not over after round 5; prompts %v", promptSummary(s))
	}
	return s.Result()
}
