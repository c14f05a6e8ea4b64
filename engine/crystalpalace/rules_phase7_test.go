package crystalpalace

// Phase 7: displays, dice and the round tracker for the next round.

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// Leftover patents and characters go under their decks and the displays
// are dealt from the top; leftover research tiles and shares leave the
// game; the Bank gets shares of the next round; the Black Market's gears
// are refilled; dice come back except those under Port tickets.
func TestRulePhase7Refills(t *testing.T) {
	s := newGame(t, 2, 70)
	s.MarketGears = 0
	oldPatents, oldChars := cloneInts(s.PatentDisp), cloneInts(s.CharDisp)
	wantPatents := cloneInts(s.PatentDeck[:len(oldPatents)])
	wantChars := cloneInts(s.CharDeck[:len(oldChars)])
	wantMuseum := cloneInts(s.GreenDeck[:len(s.MuseumDisp)])
	oldMuseum := cloneInts(s.MuseumDisp)
	round2 := cloneInts(s.ShareDecks[1])
	play(t, s, "P1: dice 2 1 1 1\nP2: dice 1 1 1 1\nP1: pass\nP2: pass")
	wantPrompt(t, s, 0, "dice")
	eq(t, "round", s.Round, 2)
	if !equalInts(s.PatentDisp, wantPatents) || !equalInts(s.PatentDeck[len(s.PatentDeck)-len(oldPatents):], oldPatents) {
		t.Errorf("patents: display %v (want %v), deck bottom %v (want %v)", s.PatentDisp, wantPatents, s.PatentDeck[len(s.PatentDeck)-len(oldPatents):], oldPatents)
	}
	if !equalInts(s.CharDisp, wantChars) || !equalInts(s.CharDeck[len(s.CharDeck)-len(oldChars):], oldChars) {
		t.Errorf("characters: display %v (want %v), deck bottom %v (want %v)", s.CharDisp, wantChars, s.CharDeck[len(s.CharDeck)-len(oldChars):], oldChars)
	}
	if !equalInts(s.MuseumDisp, wantMuseum) {
		t.Errorf("museum %v, want %v", s.MuseumDisp, wantMuseum)
	}
	for _, tile := range oldMuseum {
		if hasInt(s.GreenDeck, tile) {
			t.Errorf("leftover research tile %d went back to the deck", tile)
		}
	}
	for _, sh := range s.BankDisp {
		if !hasInt(round2, sh) {
			t.Errorf("bank share %d is not of round 2 (%v)", sh, round2)
		}
	}
	if s.ShareDecks[1] != nil {
		t.Errorf("spare round 2 shares %v stay out of the box", s.ShareDecks[1])
	}
	eq(t, "gears on the Black Market", s.MarketGears, s.market().Gears)
	eq(t, "P1 dice", s.Seats[0].Dice, 4)
}

// The step down of the Black Market in phase 7 reaches the log: each
// assistant's move, the one leaving the market and the refilled banner.
func TestRulePhase7MarketStepLogged(t *testing.T) {
	s := newGame(t, 2, 71)
	s.Market[0], s.Market[2] = 1, 0
	s.Seats[0].Asst--
	s.Seats[1].Asst--
	s.MarketGears = 0
	asst := s.Seats[1].Asst
	var all []string
	for _, line := range []string{"P1: dice 2 1 1 1", "P2: dice 1 1 1 1", "P1: pass", "P2: pass"} {
		ev, err := s.Apply(engine.Seat(line[1]-'1'), line[4:])
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ev {
			all = append(all, say(e.Text))
		}
	}
	joined := strings.Join(all, "\n")
	for _, want := range []string{
		"P2's assistant steps off the Black Market, back to P2 (phase 7)",
		"P1's assistant steps down the Black Market, tier 3 → 2 (phase 7)",
		"Black Market: the yellow banner is refilled to ",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("the log lacks %q:\n%s", want, joined)
		}
	}
	eq(t, "P2 assistants", s.Seats[1].Asst, asst+1)
	eq(t, "tier 2", s.Market[1], 0)
}
