package present_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/present"
	"github.com/meeplegames/meeple/wording"
)

// english writes in English, naming seats as names (nil: "P1", "P2", …)
// and content items from rules (nil: by their keys).
func english(t testing.TB, rules engine.Rules, names []string) *wording.Words {
	t.Helper()
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	if rules == nil {
		return wording.New(cat.For(locale.English), nil, names)
	}
	return wording.ForRules(cat.For(locale.English), rules, names)
}

// eightyDaysGame is a new 3-player game and its content.
func eightyDaysGame(t *testing.T) (*eightydays.State, *eightydays.Content) {
	t.Helper()
	c, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	s, err := eightydays.NewRules(c).NewState(engine.Setup{Players: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

func eightyDaysView(t *testing.T, seat engine.Seat) *eightydays.View {
	t.Helper()
	s, _ := eightyDaysGame(t)
	for i := 0; i < 6; i++ {
		p := s.Prompts()[0]
		if _, err := s.Apply(p.Seat, p.Actions[len(p.Actions)/2]); err != nil {
			t.Fatal(err)
		}
	}
	return s.View(seat).(*eightydays.View)
}

func TestEightyDaysTextShowsTheTableAndTrack(t *testing.T) {
	v := eightyDaysView(t, 1)
	names := []string{"Ann", "Bob", "Cy"}
	_, c := eightyDaysGame(t)
	words := english(t, eightydays.NewRules(c), names)
	plain, err := present.View(v, words, present.Style{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Around the World in 80 Days", "Bob (you)", "Ann", "Cy", "Passepartout:", "H London  L Layover"} {
		if !strings.Contains(plain, want) {
			t.Errorf("text lacks %q:\n%s", want, plain)
		}
	}
	for _, p := range v.Players {
		row := ""
		for _, line := range strings.Split(plain, "\n") {
			if strings.Contains(line, names[p.Seat]) {
				row = line
			}
		}
		sp := present.SpaceName(words, v.Track[p.Pawns[0].Space])
		if !strings.Contains(row, sp) || !strings.Contains(row, " "+strconv.Itoa(p.Pounds)+" ") {
			t.Errorf("row of %s %q lacks %q or %d £", names[p.Seat], row, sp, p.Pounds)
		}
	}
	if strings.Contains(plain, "\x1b") {
		t.Error("plain text has escape codes")
	}
	colored, _ := present.View(*v, words, present.Style{Color: true})
	if !strings.Contains(colored, "\x1b[") || present.StripANSI(colored) != plain {
		t.Error("coloured text must be the plain text plus colour codes")
	}
	// columns are aligned: the "space" column starts at the same place in every row
	var cols []int
	for _, line := range strings.Split(plain, "\n") {
		for _, n := range names {
			if strings.HasPrefix(strings.TrimLeft(line, " ▶★"), n) {
				at := strings.Index(line, present.SpaceName(words, v.Track[spaceOf(v, n, names)]))
				cols = append(cols, utf8.RuneCountInString(line[:at]))
			}
		}
	}
	for _, c := range cols[1:] {
		if c != cols[0] {
			t.Fatalf("misaligned columns %v:\n%s", cols, plain)
		}
	}
}

func spaceOf(v *eightydays.View, name string, names []string) int {
	for i, n := range names {
		if n == name {
			return v.Players[i].Pawns[0].Space
		}
	}
	return 0
}

func TestCrystalPalaceTextShowsThePrivatePartOnlyToItsSeat(t *testing.T) {
	public := &cp.View{
		Game: "crystalpalace", Viewer: engine.Spectator, Players: 2, Round: 1, Label: "Spring 1849 · phase 1 (choose dice)",
		First: engine.Spectator, Turn: engine.Spectator,
		Waiting: []cp.WaitingView{{Seat: 0, Kind: "dice", Text: engine.Say("cp.label.dice", engine.Num("Count", 4))}},
		Seats: []cp.PlayerView{
			{Seat: 0, Nation: "United Kingdom", Pounds: 40, Dice: 4, DiceLeft: 4, Submitted: true},
			{Seat: 1, Nation: "Japan", Pounds: 40, Dice: 4, DiceLeft: 4},
		},
		Locations:   []cp.LocationView{{Key: "westminster", Number: 5, Name: "Westminster", Dice: []cp.DiceSpaceView{{Min: 1, Owner: engine.Spectator}}}},
		PocketWatch: cp.WatchView{Holder: engine.Spectator},
		BlackMarket: cp.MarketView{BannerTier: 3, Gears: 1},
	}
	text, err := present.View(public, english(t, nil, nil), present.Style{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Crystal Palace", "Spring 1849", "United Kingdom", "Westminster", "waiting for: P1 (choose the values of 4 dice, each costing",
		"1 gear on the banner; moving an assistant down from tier 3 or higher takes one"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Your mat") {
		t.Fatal("a spectator sees a private mat")
	}
	own := *public
	own.Viewer = 0
	own.Private = &cp.PrivateView{Seat: 0, Dice: []int{6, 5, 3, 1}, Submitted: true, SalaryDue: 3}
	text, _ = present.View(&own, english(t, nil, nil), present.Style{})
	if !strings.Contains(text, "Your mat") || !strings.Contains(text, "dice: 6 5 3 1 (submitted)") || !strings.Contains(text, "P1 (you)") {
		t.Fatalf("own view:\n%s", text)
	}
}

// Placed dice show as placed, and the face-up stack's top card shows
// beside the display.
func TestCrystalPalaceTextShowsPlacedDiceAndStackTop(t *testing.T) {
	v := &cp.View{
		Game: "crystalpalace", Viewer: 0, Players: 2, Phase: 2, First: 0, Turn: 0,
		Seats: []cp.PlayerView{{Seat: 0, Dice: 4, DiceLeft: 2, DiceValues: []int{6, 6, 5, 1}, Unplaced: []int{5, 1}, Placed: []int{6, 6}}, {Seat: 1, Dice: 4}},
		Locations: []cp.LocationView{{Key: "patent", Number: 1, Name: "Patent Office",
			Display:  []cp.CardView{{Kind: "patent", Name: "Audiobook"}},
			StackTop: &cp.CardView{Kind: "patent", Name: "Hydraulic Crane"}}},
		PocketWatch: cp.WatchView{Holder: engine.Spectator},
		BlackMarket: cp.MarketView{BannerTier: 3, Gears: 2, Spaces: []cp.MarketSpaceView{{Tier: 1, Owner: 1, Effect: "+1 £"}, {Tier: 2, Owner: engine.Spectator}}},
		Private:     &cp.PrivateView{Seat: 0, Dice: []int{6, 6, 5, 1}, Unplaced: []int{5, 1}},
	}
	text, err := present.View(v, english(t, nil, nil), present.Style{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"to place 5 1 · placed 6 6", "stack top (not on offer): Hydraulic Crane", "dice: 6 6 5 1 · to place 5 1", "tier 1 P2 (phase 6: +1 £)"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// The Port's and Waterloo's possibilities say what they give, not only
// the word a player types, and so do shares and research tiles on offer.
func TestCrystalPalaceTextSaysWhatAPossibilityGives(t *testing.T) {
	v := &cp.View{
		Game: "crystalpalace", Viewer: engine.Spectator, Players: 3, Phase: 3, First: 0, Turn: 0,
		Seats: []cp.PlayerView{{Seat: 0}, {Seat: 1}, {Seat: 2}},
		Locations: []cp.LocationView{{Key: "bank", Number: 3, Name: "Bank of England", Display: []cp.CardView{
			{Kind: "share", ID: "r1a", Name: "Share r1a", Effect: "+1 VP, +5 income"}}}, {Key: "waterloo", Number: 8, Name: "Waterloo Station", Possibilities: []cp.PossibilityView{
			{Key: "energygreen", Text: "1 energy and one green bonus", Available: true, By: engine.Spectator},
			{Key: "buzz", Text: "2 Buzz", By: engine.Spectator},
		}}},
		PocketWatch: cp.WatchView{Holder: engine.Spectator},
		BlackMarket: cp.MarketView{BannerTier: 3},
	}
	text, err := present.View(v, english(t, nil, nil), present.Style{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "energygreen: 1 energy and one green bonus") || strings.Contains(text, "2 Buzz") || !strings.Contains(text, "Share (+1 VP, +5 income)") {
		t.Errorf("text:\n%s", text)
	}
}

func TestUnknownViewAndNames(t *testing.T) {
	if _, err := present.View(42, english(t, nil, nil), present.Style{}); !errors.Is(err, present.ErrUnknownView) {
		t.Fatalf("err %v", err)
	}
}

func TestShortNamesInTightSpaces(t *testing.T) {
	names := []string{"P1", "P2 heuristic", "Ada Lovelace", "Ada Byron"}
	for seat, want := range []string{"P1", "P2", "Ada Lovelace", "Ada Byron"} {
		if got := present.ShortName(english(t, nil, names), len(names), engine.Seat(seat)); got != want {
			t.Errorf("seat %d: %q, want %q", seat, got, want)
		}
	}
	// a placed die names its owner briefly, so the columns stay narrow
	v := &cp.View{
		Game: "crystalpalace", Viewer: engine.Spectator, Players: 2, First: engine.Spectator, Turn: 1,
		Seats: []cp.PlayerView{{Seat: 0, Dice: 4}, {Seat: 1, Dice: 4}},
		Locations: []cp.LocationView{{Key: "bank", Number: 3, Name: "Bank of England",
			Dice: []cp.DiceSpaceView{{Min: 5, Owner: engine.Spectator}, {Min: 3, Owner: 1, Value: 6},
				{Min: 2, Owner: engine.Spectator, Assistant: true}, {Min: 1, Owner: engine.Spectator, Fee: 2}}}},
		PocketWatch: cp.WatchView{Holder: engine.Spectator},
	}
	text, err := present.View(v, english(t, nil, names[:2]), present.Style{})
	if err != nil {
		t.Fatal(err)
	}
	// free spaces show their minimum, assistant and fee, as the board does
	if !strings.Contains(text, "·5 P2:6 ·2a ·1£2") || strings.Contains(text, "heuristic:6") || !strings.Contains(text, "·N free for a die of N+") {
		t.Fatalf("placed die:\n%s", text)
	}
}

// TestEightyDaysTextSaysWhatIsPending builds a position with a Police
// visit on turn, a Bet that cannot pay, one that does and a character, and
// reads the table's words for them.
func TestEightyDaysTextSaysWhatIsPending(t *testing.T) {
	state, c := eightyDaysGame(t)
	kiouni := -1
	for i, card := range c.Cards {
		if card.ID == "kiouni" {
			kiouni = i
		}
	}
	state.Turn = 0
	state.Seats[0].Pawns[0] = eightydays.Pawn{Space: 13, Pending: eightydays.PendingPolice}
	state.Seats[0].Characters = []int{kiouni}
	state.Seats[1].Pawns[0] = eightydays.Pawn{Space: 3, Pending: eightydays.PendingBet}  // Bet 4/5/6, 3 players
	state.Seats[2].Pawns[0] = eightydays.Pawn{Space: 20, Pending: eightydays.PendingBet} // Bet 3, and 1st
	if c.Track[20].Bets[0] != 3 {
		state.Seats[2].Pawns[0].Space = 8
	}
	words := english(t, eightydays.NewRules(c), nil)
	plain, err := present.View(state.ViewFor(0), words, present.Style{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Kiouni the Elephant", "hat over: discards a Rumor this turn",
		"Bet 4/5/6: pays nothing with 3 players", "Bet 3: now 1st, no pay",
		"¹", "¹ ² ³ x Bet (x: 4/5/6)",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("text lacks %q:\n%s", want, plain)
		}
	}
	for _, line := range strings.Split(plain, "\n") {
		if strings.Contains(line, "P1 (you)") && strings.Contains(line, "kiouni") {
			t.Errorf("a card id instead of its name: %q", line)
		}
	}
	state.Turn = 1
	if plain, _ = present.View(state.ViewFor(0), words, present.Style{}); !strings.Contains(plain, "hat over: discards a Rumor next turn") {
		t.Errorf("not on turn, the Police visit is next turn:\n%s", plain)
	}
}
