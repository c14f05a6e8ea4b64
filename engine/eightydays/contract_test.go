package eightydays_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/engine/enginetest"
)

// invariants are the rules no sequence of legal actions may break.
func invariants(rules *eightydays.Rules) enginetest.Check {
	return func(st engine.State) error {
		s := st.(*eightydays.State)
		v := s.ViewFor(engine.Spectator)
		cards := len(v.Discard) + v.DeckSize + len(v.Drawn)
		rumors := 0
		taken := map[int]bool{}
		for _, p := range v.Players {
			if p.Pounds < 0 || p.Rumors < 0 {
				return fmt.Errorf("P%d has %d£ and %d Rumors", p.Seat+1, p.Pounds, p.Rumors)
			}
			rumors += p.Rumors
			cards += len(p.Characters)
			for _, pw := range p.Pawns {
				if pw.Space > 0 && pw.Space < eightydays.LondonEnd {
					if taken[pw.Space] {
						return fmt.Errorf("two pawns on space %d", pw.Space)
					}
					taken[pw.Space] = true
				}
				if kind := v.Track[pw.Space].Kind; pw.Pending == eightydays.PendingPolice && kind != eightydays.KindPolice {
					return fmt.Errorf("hat turned over on a %s space", kind)
				}
			}
		}
		if cards != eightydays.DeckSize {
			return fmt.Errorf("%d Passepartout cards in play, want %d", cards, eightydays.DeckSize)
		}
		if rumors > eightydays.RumorCards {
			return fmt.Errorf("%d Rumor cards held, the box has %d", rumors, eightydays.RumorCards)
		}
		if s.Over() {
			w := v.Players[v.Winners[0]]
			if w.Rumors != 0 || !w.Pawns[len(w.Pawns)-1].Home && !w.Pawns[0].Home {
				return fmt.Errorf("winner P%d not home free of Rumors: %+v", w.Seat+1, w)
			}
			if len(w.Pawns) == 1 && w.Pounds > eightydays.LondonMaxPounds {
				return fmt.Errorf("winner home with %d£", w.Pounds)
			}
		}
		return nil
	}
}

func TestRandomPlayouts(t *testing.T) {
	rules := newRules(t)
	// random travellers may pile up money and never be allowed home: stalls are allowed
	enginetest.Playouts(t, rules, 12, 1500, true, invariants(rules))
}

func TestTwoPawnsPlayouts(t *testing.T) {
	rules := newRules(t)
	check := invariants(rules)
	for seed := uint64(1); seed <= 20; seed++ {
		setup := engine.Setup{Players: 2, Seed: seed, Options: map[string]string{"variant": eightydays.VariantTwoPawns}}
		s, err := rules.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRNG(seed)
		var moves []engine.Move
		for step := 0; step < 1500 && !s.Over(); step++ {
			p := s.Prompts()[0]
			if len(p.Actions) == 0 {
				t.Fatalf("seed %d: empty prompt", seed)
			}
			a := ai.Random{}.Choose(s, p, &rng)
			if _, err := s.Apply(p.Seat, a); err != nil {
				t.Fatalf("seed %d: legal %q refused: %v", seed, a, err)
			}
			moves = append(moves, engine.Move{Seat: p.Seat, Action: a})
			if err := check(s); err != nil {
				t.Fatalf("seed %d after %q: %v", seed, a, err)
			}
			if step%7 == 0 {
				if err := enginetest.RoundTrip(rules, s); err != nil {
					t.Fatal(err)
				}
			}
		}
		again, _ := rules.New(setup)
		for _, m := range moves {
			if _, err := again.Apply(m.Seat, m.Action); err != nil {
				t.Fatalf("replay: %v", err)
			}
		}
		a, _ := s.Encode()
		b, _ := again.Encode()
		if string(a) != string(b) {
			t.Fatalf("seed %d: replay differs", seed)
		}
	}
}

func TestHeuristicFinishesEveryGameAndBeatsRandom(t *testing.T) {
	rules := newRules(t)
	heuristic, err := ai.Lookup(rules, "heuristic")
	if err != nil {
		t.Fatal(err)
	}
	for n := 2; n <= 6; n++ {
		wins := 0
		const games = 40
		for g := 0; g < games; g++ {
			setup := engine.Setup{Players: n, Seed: uint64(100*n + g)}
			for _, mixed := range []bool{false, true} {
				players := make([]engine.Player, n)
				for i := range players {
					players[i] = heuristic
					if mixed && i > 0 {
						players[i] = ai.Random{}
					}
				}
				s, _ := rules.New(setup)
				rng := engine.NewRNG(setup.Seed)
				out, err := ai.PlayOut(s, players, &rng, 20000)
				if err != nil || out.Stalled {
					t.Fatalf("%d players, seed %d, mixed %v: %v, stalled %v", n, setup.Seed, mixed, err, out.Stalled)
				}
				if mixed && s.Result().Winners[0] == 0 {
					wins++
				}
			}
		}
		if wins < games*3/4 {
			t.Errorf("%d players: the heuristic beat %d random players in %d of %d games", n, n-1, wins, games)
		}
	}
	// and the two-pawns variant
	for g := 0; g < 20; g++ {
		setup := engine.Setup{Players: 2, Seed: uint64(g), Options: map[string]string{"variant": eightydays.VariantTwoPawns}}
		s, _ := rules.New(setup)
		rng := engine.NewRNG(setup.Seed)
		if out, err := ai.PlayOut(s, []engine.Player{heuristic, heuristic}, &rng, 20000); err != nil || out.Stalled {
			t.Fatalf("variant seed %d: %v, stalled %v", g, err, out.Stalled)
		}
	}
}

func TestViewHidesTheDeckOrder(t *testing.T) {
	rules := newRules(t)
	s, _ := rules.New(engine.Setup{Players: 3, Seed: 5})
	data, err := json.Marshal(s.View(engine.Spectator))
	if err != nil {
		t.Fatal(err)
	}
	var view map[string]any
	if err := json.Unmarshal(data, &view); err != nil {
		t.Fatal(err)
	}
	if _, ok := view["deck"]; ok {
		t.Fatal("the view shows the deck")
	}
	if view["deck_size"].(float64) != eightydays.DeckSize {
		t.Fatalf("deck_size %v", view["deck_size"])
	}
	v := s.View(0).(*eightydays.View)
	if len(v.Track) != 81 || v.Track[38].City != "Calcutta" || v.Players[0].Pounds != 80 || v.Players[0].Rumors != 3 {
		t.Fatalf("view %+v", v)
	}
}

func TestSetupIsValidated(t *testing.T) {
	rules := newRules(t)
	for _, setup := range []engine.Setup{
		{Players: 1}, {Players: 7},
		{Players: 3, Options: map[string]string{"variant": eightydays.VariantTwoPawns}},
		{Players: 2, Options: map[string]string{"variant": "three-pawns"}},
		{Players: 2, Options: map[string]string{"speed": "fast"}},
	} {
		if _, err := rules.New(setup); !errors.Is(err, engine.ErrBadSetup) {
			t.Errorf("%+v: err %v, want ErrBadSetup", setup, err)
		}
	}
	s, _ := rules.New(engine.Setup{Players: 6, Seed: 3})
	a, _ := s.Encode()
	again, _ := rules.New(engine.Setup{Players: 6, Seed: 3})
	b, _ := again.Encode()
	if string(a) != string(b) {
		t.Fatal("the same setup gave different states")
	}
	if _, err := rules.Decode([]byte(`{"variant":"standard","seats":[]}`)); err == nil {
		t.Fatal("decoded a state with no seats")
	}
}

func TestActionTextRoundTrips(t *testing.T) {
	for _, text := range []string{"move 14", "move a 80", "back", "back b", "pass", "restart", "stay take", "stay b give", "discard", "discard a", "keep 2", "play aouda"} {
		a, err := eightydays.ParseAction(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if a.String() != text {
			t.Errorf("%q reads back as %q", text, a.String())
		}
	}
	a, err := eightydays.ParseAction("  MOVE   14 ")
	if err != nil || a.String() != "move 14" {
		t.Errorf("loose text: %v %q", err, a)
	}
	for _, bad := range []string{"move", "move x", "move 014", "move -1", "stay", "stay keep", "keep", "play", "back 3", "pass now", "jump 3", "move c 3"} {
		if _, err := eightydays.ParseAction(bad); !errors.Is(err, engine.ErrUnknownAction) {
			t.Errorf("%q: err %v, want ErrUnknownAction", bad, err)
		}
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"move 14", "move a 14", "stay b take", "keep 1", "play fix", "back", "", "move 99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, err := eightydays.ParseAction(text)
		if err != nil {
			return
		}
		again, err := eightydays.ParseAction(a.String())
		if err != nil || again != a {
			t.Fatalf("%q -> %q -> %+v, %v", text, a.String(), again, err)
		}
	})
}

func FuzzApply(f *testing.F) {
	rules := newRules(f)
	f.Add(3, uint64(1), 10, 0, "move 5")
	f.Add(2, uint64(2), 40, 1, "back")
	f.Add(6, uint64(3), 0, 0, "keep 2")
	f.Add(4, uint64(4), 25, 2, "stay a give")
	f.Fuzz(func(t *testing.T, players int, seed uint64, steps, seat int, action string) {
		enginetest.FuzzApply(t, rules, players, seed, steps%300, seat, action)
	})
}

func TestDefaultContentKeepsTheKnownFacts(t *testing.T) {
	c, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	track := c.Track
	if len(track) != 81 || track[0].Kind != eightydays.KindLondon || track[80].Kind != eightydays.KindLondon {
		t.Fatal("London must be spaces 0 and 80")
	}
	firstLayover, firstPolice := -1, -1
	bets := map[string]bool{}
	for n, sp := range track {
		if sp.Kind == eightydays.KindLayover && firstLayover < 0 {
			firstLayover = n
		}
		if sp.Kind == eightydays.KindPolice && firstPolice < 0 {
			firstPolice = n
		}
		if sp.Kind == eightydays.KindBet {
			bets[fmt.Sprint(sp.Bets)] = true
		}
		if sp.Source == "" && !sp.Reconstructed {
			t.Errorf("space %d neither cites the rulebook nor says it is reconstructed", n)
		}
	}
	if track[firstLayover].City != "Paris" || track[38].City != "Calcutta" || firstPolice != 13 {
		t.Fatalf("first Layover %d (%s), 38 is %q, first Police %d", firstLayover, track[firstLayover].City, track[38].City, firstPolice)
	}
	for _, want := range []string{"[1]", "[2]", "[3]", "[4 5 6]"} {
		if !bets[want] {
			t.Errorf("no Bet space %s", want)
		}
	}
	if len(c.Deck) != 25 {
		t.Fatalf("%d Passepartout cards", len(c.Deck))
	}
	kinds := map[string]int{}
	reshuffle := 0
	for _, i := range c.Deck {
		kinds[c.Cards[i].Kind]++
		if c.Cards[i].Reshuffle {
			reshuffle++
		}
	}
	if kinds["event"] == 0 || kinds["character"] == 0 || reshuffle == 0 {
		t.Fatalf("kinds %v, reshuffle symbols %d", kinds, reshuffle)
	}
}

func TestLoadContentNamesFileEntryAndField(t *testing.T) {
	base, err := fs.Sub(eightydays.EmbeddedContent(), "content")
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		data, err := fs.ReadFile(base, name)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	track, cards := read(eightydays.TrackFile), read(eightydays.CardsFile)
	// want holds %d for the line of mark in the changed file
	cases := []struct {
		name         string
		track, cards string
		mark, want   string
	}{
		{"a Layover forward-only city missing", strings.Replace(track, `city = "Calcutta"`, ``, 1), cards,
			"[[space]]\nnumber = 38", "track.toml:%d: space 38: city: a Layover needs its city"},
		{"unknown kind", strings.Replace(track, "number = 13\nkind = \"police\"", "number = 13\nkind = \"casino\"", 1), cards,
			`"casino"`, `track.toml:%d: space 13: kind: "casino" is not a space kind`},
		{"a space twice", strings.Replace(track, "number = 14\n", "number = 13\n", 1), cards,
			"number = 13\nkind = \"passepartout", "track.toml:%d: space 13: number: listed twice"},
		{"bad bet", strings.Replace(track, "bets = [4, 5, 6]", "bets = [7]", 1), cards,
			"bets = [7]", "track.toml:%d: space 3: bets: 7 is not a race position"},
		{"a bet twice", strings.Replace(track, "bets = [4, 5, 6]", "bets = [4, 4]", 1), cards,
			"bets = [4, 4]", "track.toml:%d: space 3: bets: 4 is listed twice"},
		{"no provenance", strings.Replace(track, "number = 1\nkind = \"passepartout\"\nreconstructed = true", "number = 1\nkind = \"passepartout\"", 1), cards,
			"[[space]]\nnumber = 1\n", "track.toml:%d: space 1: source: cite the rulebook"},
		{"unknown field", strings.Replace(track, "number = 2\n", "number = 2\ncolour = \"red\"\n", 1), cards,
			"colour", "track.toml:%d: space 2: colour: unknown field"},
		{"a number as text", strings.Replace(track, "number = 13\n", "number = \"13\"\n", 1), cards,
			`number = "13"`, `track.toml:%d: space 13: number: want a whole number, not the text "13"`},
		{"a city as a number", strings.Replace(track, `city = "Paris"`, `city = 6`, 1), cards,
			"city = 6", "track.toml:%d: space 6: city: want text in quotes, not the number 6"},
		{"bets as a number", strings.Replace(track, "bets = [4, 5, 6]", "bets = 4", 1), cards,
			"bets = 4", "track.toml:%d: space 3: bets: want a list of whole numbers"},
		{"a long city", strings.Replace(track, `city = "Paris"`, `city = "`+strings.Repeat("Paris", 10)+`"`, 1), cards,
			"ParisParis", "track.toml:%d: space 6: city: 50 characters: at most 24"},
		{"a table the game does not know", "[board]\nsize = 3\n" + track, cards,
			"", "track.toml: board: unknown table: the file holds [[space]] entries"},
		{"too many cards", track, strings.Replace(cards, "copies = 2", "copies = 3", 1),
			"copies = 1\npounds = 30\nreconstructed", "passepartout.toml:%d: card passepartout: copies: the cards up to this one add up to 26; the game has 25"},
		{"too few cards", track, strings.Replace(cards, "copies = 2", "copies = 1", 1),
			"", "passepartout.toml: copies: the cards add up to 24; the game has 25"},
		{"a billion copies", track, strings.Replace(cards, "copies = 2", "copies = 1000000000", 1),
			"copies = 1000000000", "passepartout.toml:%d: card whist: copies: 1000000000: want 1 to 25"},
		{"copies as text", track, strings.Replace(cards, "copies = 2", `copies = "two"`, 1),
			`copies = "two"`, `passepartout.toml:%d: card whist: copies: want a whole number, not the text "two"`},
		{"pounds as a fraction", track, strings.Replace(cards, "pounds = 20\n", "pounds = 2.5\n", 1),
			"pounds = 2.5", "passepartout.toml:%d: card whist: pounds: want a whole number, not the number 2.5"},
		{"the largest pounds", track, strings.Replace(cards, "pounds = 20\n", "pounds = 9223372036854775807\n", 1),
			"pounds = 9223372036854775807", "passepartout.toml:%d: card whist: pounds: 9223372036854775807: want -100 to 100"},
		{"pounds past int64", track, strings.Replace(cards, "pounds = 20\n", "pounds = 9223372036854775808\n", 1),
			"pounds = 9223372036854775808", "passepartout.toml:%d: "},
		{"a huge cost", track, strings.Replace(cards, "pounds = -10\n", "pounds = -1000000000\n", 1),
			"pounds = -1000000000", "passepartout.toml:%d: card bribe: pounds: -1000000000: want -100 to 100"},
		{"a negative discount", track, strings.Replace(cards, "discount = 15", "discount = -5", 1),
			"discount = -5", "passepartout.toml:%d: card kiouni: discount: -5: want 0 to 100"},
		{"two Rumors", track, strings.Replace(cards, "rumors = 1\n", "rumors = 2\n", 1),
			"rumors = 2", "passepartout.toml:%d: card opium: rumors: 2: a card takes or discards at most one Rumor"},
		{"a long name", track, strings.Replace(cards, `name = "Aouda"`, `name = "`+strings.Repeat("Aouda ", 11)+`"`, 1),
			"Aouda Aouda", "passepartout.toml:%d: card aouda: name: 66 characters: at most 60"},
		{"bad card kind", track, strings.Replace(cards, `kind = "event"`, `kind = "treasure"`, 1),
			"treasure", `passepartout.toml:%d: card whist: kind: "treasure": want event or character`},
		{"discount on an event", track, strings.Replace(cards, "pounds = 20\n", "discount = 5\n", 1),
			"discount = 5", "passepartout.toml:%d: card whist: discount: only a character"},
		{"broken TOML", track + "\n[[space x]]\n", cards, "[[space x", "track.toml:%d: "},
		{"a file too large", track + strings.Repeat("# padding\n", 120000), cards,
			"", "track.toml: larger than 1024 kB: not a content file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				eightydays.TrackFile: {Data: []byte(tc.track)},
				eightydays.CardsFile: {Data: []byte(tc.cards)},
			}
			want := tc.want
			if tc.mark != "" {
				changed := tc.cards
				if strings.HasPrefix(want, eightydays.TrackFile) {
					changed = tc.track
				}
				i := strings.Index(changed, tc.mark)
				if i < 0 {
					t.Fatalf("%q is not in the changed file", tc.mark)
				}
				want = fmt.Sprintf(want, 1+strings.Count(changed[:i], "\n"))
			}
			_, err := eightydays.LoadContent(fsys)
			var ce *eightydays.ContentError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
				t.Fatalf("err %v, want a ContentError containing %q", err, want)
			}
		})
	}
	if _, err := eightydays.LoadContent(fstest.MapFS{}); err == nil || !strings.Contains(err.Error(), "track.toml") {
		t.Fatalf("missing files: %v", err)
	}
	if _, err := eightydays.LoadContent(fstest.MapFS{
		eightydays.TrackFile: {Data: []byte(track)}, eightydays.CardsFile: {Data: []byte(cards)},
	}); err != nil {
		t.Fatalf("the embedded files themselves: %v", err)
	}
}

func TestRulebookTopics(t *testing.T) {
	var rules engine.Rules = newRules(t)
	book, ok := rules.(engine.Rulebook)
	if !ok {
		t.Fatal("no rulebook")
	}
	names := map[string]bool{}
	for _, topic := range book.Topics() {
		names[topic.Name] = true
		if topic.Title.IsZero() || topic.Text.IsZero() {
			t.Errorf("topic %q has no words", topic.Name) // their languages: wording's TestTopicsReadInEveryLanguage
		}
	}
	for _, want := range []string{"overview", "moving", "backwards", "layover", "bet", "pound", "police", "passepartout", "london", "variant"} {
		if !names[want] {
			t.Errorf("no topic %q", want)
		}
	}
}

// FuzzDecode feeds damaged records to Decode: it must refuse them or give
// a state that prompts, shows and applies without panicking.
func FuzzDecode(f *testing.F) {
	rules := newRules(f)
	for _, setup := range []engine.Setup{{Players: 3, Seed: 1}, {Players: 2, Seed: 2, Options: map[string]string{"variant": eightydays.VariantTwoPawns}}} {
		s, _ := rules.New(setup)
		data, _ := s.Encode()
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := rules.Decode(data)
		if err != nil {
			return
		}
		s.View(engine.Spectator)
		s.Result()
		for _, p := range s.Prompts() {
			for _, a := range p.Actions {
				s.Clone().Apply(p.Seat, a)
			}
		}
	})
}

// TestRulesAreSafeForConcurrentGames plays heuristic games on one Rules
// value at once, as the bot does in several channels (run with -race).
func TestRulesAreSafeForConcurrentGames(t *testing.T) {
	rules := newRules(t)
	heuristic, _ := rules.ComputerPlayer("heuristic")
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func(seed uint64) {
			s, err := rules.New(engine.Setup{Players: 3, Seed: seed})
			if err != nil {
				errs <- err
				return
			}
			rng := engine.NewRNG(seed)
			out, err := ai.PlayOut(s, []engine.Player{heuristic, heuristic, heuristic}, &rng, 5000)
			if err == nil && out.Stalled {
				err = fmt.Errorf("seed %d stalled", seed)
			}
			errs <- err
		}(uint64(g))
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzLoadContent feeds arbitrary card files (the track is the embedded
// one): a load either fails with a ContentError or gives cards within the
// bounds the game can use; it never panics or runs away.
func FuzzLoadContent(f *testing.F) {
	base, err := fs.Sub(eightydays.EmbeddedContent(), "content")
	if err != nil {
		f.Fatal(err)
	}
	track, _ := fs.ReadFile(base, eightydays.TrackFile)
	cards, _ := fs.ReadFile(base, eightydays.CardsFile)
	f.Add(cards)
	f.Add([]byte("[[card]]\nid = \"x\"\ncopies = 9223372036854775807\n"))
	f.Add([]byte("[[card]]\nid = 3\nname = [1, 2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := eightydays.LoadContent(fstest.MapFS{
			eightydays.TrackFile: {Data: track},
			eightydays.CardsFile: {Data: data},
		})
		if err != nil {
			var ce *eightydays.ContentError
			if !errors.As(err, &ce) {
				t.Fatalf("%T is not a ContentError: %v", err, err)
			}
			return
		}
		if len(c.Deck) != eightydays.DeckSize {
			t.Fatalf("a deck of %d", len(c.Deck))
		}
		for _, card := range c.Cards {
			if card.Copies < 1 || card.Copies > eightydays.DeckSize || card.Pounds < -100 || card.Pounds > 100 || card.Discount < 0 || card.Discount > 100 {
				t.Fatalf("card out of bounds: %+v", card)
			}
		}
	})
}
