package imaging

import (
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

// The board's important text shows whole: every card on display in the
// golden games (Patent Office, British Museum, Bank of England, Reform
// Club) within its lines, every Port and Waterloo possibility of the
// content, and every nation's line and role under a player's name, in
// every language.
func TestCrystalPalaceBoardTextFits(t *testing.T) {
	for _, lang := range catalogue(t).Languages() {
		t.Run(lang, func(t *testing.T) { testCrystalPalaceBoardTextFits(t, lang) })
	}
}

func testCrystalPalaceBoardTextFits(t *testing.T, lang string) {
	r := testRenderer(t)
	c := &canvas{r: r, fs: newFaceSet(r.fonts), w: wordsIn(t, lang, cpRules(t), nil)}
	content, err := cp.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	cards, possibilities := 0, 0
	for _, p := range positions(t) {
		if p.rules.Name() != "crystalpalace" {
			continue
		}
		v := p.play(t).View(engine.Spectator).(*cp.View)
		for _, loc := range v.Locations {
			for _, card := range c.cpListedCards(&loc) {
				if card.Kind == "" {
					continue
				}
				cards++
				l := c.layoutCard(&card, cpLocW-20, -1)
				if l.name != card.Name && card.Kind != "share" {
					t.Errorf("%s: name drawn as %q", card.Name, l.name)
				}
				if _, cut := c.wrapRich(l.effect, cpLocW-20-l.headW, cpLocW-20-14, cpCardLines, cardEffectStyle()); cut {
					t.Errorf("%s: %q does not fit %d lines", card.Name, l.effect, cpCardLines)
				}
			}
			for _, p := range loc.Possibilities {
				possibilities++
				if _, cut := c.wrapRich(p.Text, cpPossibilityW, cpPossibilityW, 2, style{size: sizeSmall}); cut {
					t.Errorf("%s: possibility %q does not fit two lines", loc.Name, p.Text)
				}
			}
		}
	}
	if cards == 0 || possibilities == 0 {
		t.Fatalf("saw %d cards and %d possibilities", cards, possibilities)
	}
	small := style{size: sizeSmall}
	for _, mat := range content.Mats {
		for _, role := range []bool{false, true} {
			v := &cp.View{First: 0, Over: false}
			pv := &cp.PlayerView{Nation: mat.Nation, NationKey: "nation:" + mat.Nation, Objective: 3, Passed: role}
			notes := c.cpSeatNotes(v, pv, 0, role)
			if _, cut := c.wrapRich(notes, cpSeatNameW, cpSeatNameW, 2, small); cut {
				t.Errorf("%q does not fit the player column's two lines of %d pixels", notes, cpSeatNameW)
			}
		}
	}
}

// A player's card lists show whole names and say how many more there are
// rather than cutting a name.
func TestCardGroupFits(t *testing.T) {
	r := testRenderer(t)
	c := &canvas{r: r, fs: newFaceSet(r.fonts), w: en(nil)}
	st := style{size: sizeSmall}
	cards := []cp.CardView{{Name: "Electric Telegraph"}, {Name: "Difference Engine"}, {Name: "Submarine Boat"}, {Name: "Velocipede"}}
	for _, tc := range []struct {
		w    int
		want string
	}{
		{2000, "Patents (4): Electric Telegraph, Difference Engine, Submarine Boat, Velocipede"},
		{c.fs.width("Patents (4): Electric Telegraph, Difference Engine +2 more", st), "Patents (4): Electric Telegraph, Difference Engine +2 more"},
		{c.fs.width("Patents (4): Electric Telegraph +3 more", st) + 5, "Patents (4): Electric Telegraph +3 more"},
		{60, "Patents (4)"},
	} {
		if got := c.cardGroup("Patents", cards, tc.w, st); got != tc.want {
			t.Errorf("width %d: %q, want %q", tc.w, got, tc.want)
		}
	}
	if got := c.cardGroup("Shares", nil, 100, st); got != "Shares: –" {
		t.Errorf("no cards: %q", got)
	}
}

// A location's header notes show whole: a note that does not fit is left
// out, never cut ("on V: +1…"), and RESOLVING always shows.
func TestCrystalPalaceHeaderNotesFit(t *testing.T) {
	for _, lang := range catalogue(t).Languages() {
		t.Run(lang, func(t *testing.T) { testCrystalPalaceHeaderNotesFit(t, lang) })
	}
}

func testCrystalPalaceHeaderNotesFit(t *testing.T, lang string) {
	r := testRenderer(t)
	c := &canvas{r: r, fs: newFaceSet(r.fonts), w: wordsIn(t, lang, cpRules(t), nil)}
	names := []string{"Ada Lovelace", "Isambard Brunel", "Cole ?", "P4", "P5"}
	v := &cp.View{Players: 5, Resolving: "westminster", Westminster: cp.WestminsterView{Choice: "+1 energy or +2 buzz"}}
	st := style{size: sizeSmall, bold: true}
	for _, key := range []string{"patent", "museum", "bank", "westminster", "club", "times", "port", "waterloo"} {
		loc := &cp.LocationView{Key: key, Number: 8, Name: "Waterloo Station", Resolving: true,
			NextDie:     &cp.DieView{Owner: 1, Value: 6},
			Compensated: []engine.Seat{0, 1, 2, 3, 4}}
		notes := c.cpLocNotes(v, names, loc)
		room := c.headRoom(cpLocW, cpLocTitle(c.w, loc))
		note := c.fitNotes(append(notes, c.cpDeckNote(v, key)), room, st)
		if w := c.fs.width(note, st); w > room {
			t.Errorf("%s: header note %q is %d pixels wide; the header has %d", key, note, w, room)
		}
		if resolving := c.say("cp.image.resolving"); !strings.HasPrefix(note, resolving) {
			t.Errorf("%s: header note %q leaves out %s", key, note, resolving)
		}
		for _, part := range strings.Split(note, " · ") {
			found := false
			for _, n := range append(notes, c.cpDeckNote(v, key)) {
				found = found || n == part
			}
			if !found {
				t.Errorf("%s: %q is not a whole note of %q", key, part, notes)
			}
		}
	}
}

// The face-up stack's top card is listed after the display, named as such.
func TestCrystalPalaceListsStackTop(t *testing.T) {
	loc := &cp.LocationView{Key: "patent", Display: []cp.CardView{{Kind: "patent", Name: "Audiobook"}},
		StackTop: &cp.CardView{Kind: "patent", Name: "Hydraulic Crane"}}
	r := testRenderer(t)
	c := &canvas{r: r, w: en(nil)}
	cards := c.cpListedCards(loc)
	if len(cards) != 2 || cards[1].Name != "Stack: Hydraulic Crane" || loc.StackTop.Name != "Hydraulic Crane" {
		t.Errorf("listed %+v", cards)
	}
}

// Placed dice are told apart from those still to place, on the mat too.
func TestCrystalPalaceMatDiceShowPlaced(t *testing.T) {
	v := &cp.View{Phase: 5}
	pv := &cp.PrivateView{Dice: []int{6, 6, 5, 1}, Unplaced: []int{5}, Placed: []int{6, 6, 1}}
	pub := &cp.PlayerView{DiceValues: []int{6, 6, 5, 1}, Unplaced: []int{5}, Placed: []int{6, 6, 1}}
	r := testRenderer(t)
	c := &canvas{r: r, w: en(nil)}
	dice, _, note := c.matDice(v, pv, pub)
	if len(dice) != 4 || dice[0] != 5 || note != "3 placed (white)" {
		t.Errorf("mat dice %v %q, want 5 first and 3 placed", dice, note)
	}
}

// A card laid out once is not taken for another that differs only in
// what it says: the kept layouts are keyed by all of a card's text.
func TestCardLayoutsKeptAreTheCardsOwn(t *testing.T) {
	r := testRenderer(t)
	c := &canvas{r: r, fs: newFaceSet(r.fonts), w: en(nil)}
	a := cp.CardView{Kind: "research", ID: "r1", Name: "Finance", Effect: "+6 £"}
	b := a
	b.Effect = "phase 6: +1 £ per character"
	if la, lb := c.layoutCard(&a, cpLocW-20, -1), c.layoutCard(&b, cpLocW-20, -1); la.effect == lb.effect {
		t.Errorf("two cards with one id and different effects both read %q", la.effect)
	}
	if again := c.layoutCard(&a, cpLocW-20, -1); again.effect != "+6 £" {
		t.Errorf("the first card reads %q when laid out again", again.effect)
	}
}
