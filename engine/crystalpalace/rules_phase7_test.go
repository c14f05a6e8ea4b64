package crystalpalace

// Phase 7: displays, dice and the round tracker for the next round.

import "testing"

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
	eq(t, "P1 dice", s.P[0].Dice, 4)
}
