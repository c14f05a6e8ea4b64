package crystalpalace

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/enginetest"
)

func TestActionNotationRoundTrips(t *testing.T) {
	for _, text := range []string{
		"dice 6 5 3 1", "place 5 westminster 2", "pass", "skip", "take 3", "advance", "publish",
		"use gears", "objective", "market place", "market move 4", "down 4", "replace 3",
		"green research 3", "green market 5", "green watch", "poster",
		"bonus energy", "build audiobook", "target 2", "watch vp", "loan", "loan 3", "repay 9",
		"exchange die", "exchange income", "exchange gear", "exchange pound", "buy energy", "buy gear",
		"sell gear", "sell energy", "pay", "accept",
	} {
		a, err := ParseAction(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := a.String(); got != text {
			t.Errorf("%q reads back as %q", text, got)
		}
	}
	a, err := ParseAction("  DICE 1 6 3 5 ")
	if err != nil || a.String() != "dice 6 5 3 1" {
		t.Errorf("dice in any order and case: %v %q", err, a.String())
	}
	for _, bad := range []string{"", "dance", "dice", "dice 7", "dice 0 1", "dice 1 2 3 4 5 6 1", "place 5 moon 2",
		"place 5 westminster", "take", "take x", "market", "market move", "green", "green research",
		"watch gold", "green character holmes", "exchange car", "buy", "pass now", "target -1"} {
		if _, err := ParseAction(bad); !errors.Is(err, engine.ErrUnknownAction) {
			t.Errorf("%q: %v, want ErrUnknownAction", bad, err)
		}
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"dice 6 5 3 1", "place 5 westminster 2", "green watch", "loan 3", "market move 2", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, err := ParseAction(text)
		if err != nil {
			if !errors.Is(err, engine.ErrUnknownAction) {
				t.Fatalf("%q: %v is not ErrUnknownAction", text, err)
			}
			return
		}
		b, err := ParseAction(a.String())
		if err != nil || b.String() != a.String() {
			t.Fatalf("%q → %q → %q (%v)", text, a.String(), b.String(), err)
		}
	})
}

func FuzzApply(f *testing.F) {
	r := testRules(f)
	f.Add(4, uint64(1), 10, 0, "place 5 westminster 2")
	f.Add(2, uint64(3), 40, 1, "take 1")
	f.Add(5, uint64(9), 120, 3, "loan 2")
	f.Add(3, uint64(4), 0, 2, "dice 6 6 6 6")
	f.Fuzz(func(t *testing.T, players int, seed uint64, steps, seat int, action string) {
		if steps < 0 || steps > 400 {
			return
		}
		enginetest.FuzzApply(t, r, players, seed, steps, seat, action)
	})
}

func TestLegalAndIllegalActions(t *testing.T) {
	s := scenario(t, 4)
	cases := []struct {
		seat   int
		action string
		kind   error
		reason string
	}{
		{blue, "dice 6 5 3", engine.ErrIllegalAction, "give exactly 4 values"},
		{blue, "place 5 westminster 2", engine.ErrIllegalAction, "choose your dice values first"},
		{blue, "take 1", engine.ErrIllegalAction, "choose your dice values first"},
		{blue, "repay 1", engine.ErrIllegalAction, "no open loan"},
		{blue, "exchange die", engine.ErrIllegalAction, "costs 4 newspapers"},
		{7, "pass", engine.ErrNotYourTurn, "only seated players"},
		{blue, "fly away", engine.ErrUnknownAction, "not a Crystal Palace action"},
	}
	for _, c := range cases {
		refused(t, s, c.seat, c.action, c.kind, c.reason)
	}
	mustApply(t, s, blue, "sell energy")
	for seat, d := range []string{"dice 6 6 6 6", "dice 1 1 1 1", "dice 2 1 1 1", "dice 1 1 1 1"} {
		mustApply(t, s, seat, d)
	}
	// Blue plays first: placement rules.
	table := []struct {
		action string
		kind   error
		reason string
	}{
		{"place 5 westminster 2", engine.ErrIllegalAction, "no unplaced die showing 5"},
		{"place 6 westminster 9", engine.ErrIllegalAction, "are 4 dice spaces"},
		{"take 1", engine.ErrIllegalAction, "place a die"},
		{"build audiobook", engine.ErrIllegalAction, "place a die"},
	}
	for _, c := range table {
		refused(t, s, blue, c.action, c.kind, c.reason)
	}
	refused(t, s, red, "place 1 westminster 4", engine.ErrNotYourTurn, "P1's turn")
	s.Seats[blue].Pounds = 1
	refused(t, s, blue, "place 6 westminster 4", engine.ErrIllegalAction, "fee of 2 £")
	mustApply(t, s, blue, "place 6 westminster 1")
	refused(t, s, red, "place 1 westminster 1", engine.ErrIllegalAction, "space 1 at Westminster is taken")
	// Prompt lists hold exactly the actions Apply accepts.
	for _, pr := range s.Prompts() {
		for _, a := range pr.Actions {
			c := s.clone()
			if _, err := c.Apply(pr.Seat, a); err != nil {
				t.Errorf("listed action %q refused: %v", a, err)
			}
		}
	}
}

func TestPromptsAreNeverEmptyAndDiceSecret(t *testing.T) {
	s := scenario(t, 3)
	pr := s.Prompts()
	if len(pr) != 3 {
		t.Fatalf("phase 1 asks every seat at once, got %d prompts", len(pr))
	}
	for _, p := range pr {
		if !p.Secret || p.Kind != "dice" || len(p.Actions) != 126 {
			t.Errorf("dice prompt %+v: want secret, 126 choices for 4 dice", p.Kind)
		}
	}
	ev := mustApply(t, s, red, "dice 6 5 4 3")
	for _, e := range ev {
		if strings.Contains(say(e.Text), "6 5 4 3") {
			t.Errorf("event %q leaks the secret dice", say(e.Text))
		}
	}
	for _, viewer := range []engine.Seat{engine.Spectator, blue, yellow} {
		data, _ := json.Marshal(s.View(viewer))
		if strings.Contains(string(data), "[6,5,4,3]") {
			t.Errorf("view of %d shows Red's dice before the reveal", viewer)
		}
	}
	own := s.View(red).(*View)
	if own.Private == nil || len(own.Private.Dice) != 4 || own.Private.Dice[0] != 6 || !own.Seats[red].Submitted {
		t.Error("Red sees its own dice and that it has submitted")
	}
	if len(s.Prompts()) != 2 {
		t.Error("a seat that submitted is no longer prompted")
	}
	mustApply(t, s, blue, "dice 1 1 1 1")
	mustApply(t, s, yellow, "dice 2 2 2 2")
	v := s.View(engine.Spectator).(*View)
	if v.Private != nil || len(v.Seats[red].DiceValues) != 4 {
		t.Error("after the reveal every seat's dice are public, and a spectator has no private part")
	}
	if v.Phase != 2 || v.Turn != red || len(v.Locations) != 8 || len(v.BlackMarket.Spaces) != 7 {
		t.Errorf("view: phase %d turn %d, %d locations, %d market spaces", v.Phase, v.Turn, len(v.Locations), len(v.BlackMarket.Spaces))
	}
}

func TestFreeActions(t *testing.T) {
	s := scenario(t, 2)
	s.Seats[blue].News = 4
	got := strings.Join(s.FreeActions(blue), ",")
	want := "loan,exchange die,exchange income,exchange gear,exchange pound,buy energy,sell energy,buy gear,sell gear"
	if got != want {
		t.Errorf("free actions %s\nwant %s", got, want)
	}
	mustApply(t, s, blue, "exchange die")
	if s.Seats[blue].Dice != 5 || s.Seats[blue].News != 0 {
		t.Error("before the reveal a die from newspapers is usable at once")
	}
	refused(t, s, blue, "dice 6 5 4 3", engine.ErrIllegalAction, "give exactly 5 values")
	mustApply(t, s, blue, "dice 6 5 4 3 1")
	s.Seats[red].News = 4
	mustApply(t, s, red, "dice 1 1 1 1")
	mustApply(t, s, red, "exchange die")
	if s.Seats[red].Dice != 4 || s.Seats[red].New != 1 {
		t.Error("after the reveal a die from newspapers arrives next round")
	}
}

func TestMalformedContentIsRefused(t *testing.T) {
	base := fstest.MapFS{}
	sub, _ := fs.Sub(embedded, "content")
	for _, name := range ContentFiles() {
		data, err := fs.ReadFile(sub, name)
		if err != nil {
			t.Fatal(err)
		}
		base[name] = &fstest.MapFile{Data: data}
	}
	if _, err := LoadContent(base); err != nil {
		t.Fatalf("the embedded files as a folder: %v", err)
	}
	cases := []struct {
		file, from, to, want string
	}{
		{"characters.toml", "salary = [4, 3, 2]\nsource = \"rulebook, phase 4", "source = \"rulebook, phase 4", `characters.toml: character "holmes" (line 28): salary: missing`},
		{"patents.toml", `gain = "pounds", n = 8`, `gain = "gold", n = 8`, `patents.toml: patent "audiobook" (line 10): effect[0].gain: unknown gain "gold"`},
		{"patents.toml", `link = "bronte"`, `link = "nobody"`, `patents.toml: patent "audiobook" (line 10): link: no character "nobody"`},
		{"research.toml", `back = "green"`, `back = "purple"`, `research.toml: tile "g01" (line 5): back:`},
		{"mats.toml", `metric = "westminster", min = 2`, `metric = "luck", min = 2`, `mats.toml: mat "1a" (line 6): objective[0].metric: unknown metric "luck"`},
		{"tracks.toml", "start_dice = 4", "start_dices = 4", "tracks.toml: economy.start_dices: unknown field"},
		{"locations.toml", `key = "museum"`, `key = "zoo"`, `locations.toml: location "zoo" (line 40): key: location 2 must be "museum"`},
		{"shares.toml", "vp = 1\nincome = 5", "vp = 0\nincome = 0", `shares.toml: share "r1a" (line 3): vp: a share needs vp or income`},
		{"flyers.toml", `color = "blue"`, `color = "red"`, `flyers.toml: flyer "b1" (line 3): color:`},
		{"patents.toml", `vp = [4, 3, 2]`, `vp = [4, 3]`, `patents.toml: patent "audiobook" (line 10): vp: want 3 values`},
		{"market.toml", "banner_tier = 3", "banner_tier = 30", `market.toml: market #1 (line 3): space:`},
		{"loans.toml", "vp = -8", "vp = 8", `loans.toml: loan "8" (line 2): vp:`},
		// names and texts in other languages are checked like the English ones
		{"patents.toml", `de = "Hörbuch"`, `de = ""`, `patents.toml: patent "audiobook" (line 10): names.de: empty name`},
		{"characters.toml", `fr = "Charlotte Brontë"`, `it = "Charlotte Brontë"`, `characters.toml: character "bronte" (line 16): names.it: unknown language`},
		{"mats.toml", `de = "Großbritannien"`, `de = "` + strings.Repeat("Königreich ", 7) + `"`, `mats.toml: mat "1a" (line 6): nation_names.de: 77 characters is too long (at most 60)`},
		{"locations.toml", `de = "2 Zahnräder"`, `de = ""`, `locations.toml: location "port" (line 181): side 1 possibility gears texts.de: empty name`},
		{"research.toml", `fr = "Presse & Publicité"`, `fr = ""`, `research.toml: tile "g01" (line 5): names.fr: empty name`},
	}
	for _, c := range cases {
		fsys := fstest.MapFS{}
		for k, v := range base {
			fsys[k] = v
		}
		text := string(base[c.file].Data)
		if !strings.Contains(text, c.from) {
			t.Fatalf("%s has no %q", c.file, c.from)
		}
		fsys[c.file] = &fstest.MapFile{Data: []byte(strings.Replace(text, c.from, c.to, 1))}
		_, err := LoadContent(fsys)
		if err == nil || !errors.Is(err, ErrContent) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q→%q: got %v, want %q", c.file, c.from, c.to, err, c.want)
		}
	}
	delete(base, "flyers.toml")
	if _, err := LoadContent(base); err == nil || !strings.HasPrefix(err.Error(), "flyers.toml: cannot read") {
		t.Errorf("missing file: %v", err)
	}
}

func TestRulesContract(t *testing.T) {
	r := testRules(t)
	if _, err := r.New(engine.Setup{Players: 6}); !errors.Is(err, engine.ErrBadSetup) {
		t.Errorf("6 players: %v", err)
	}
	if _, err := r.New(engine.Setup{Players: 3, Options: map[string]string{"x": "y"}}); !errors.Is(err, engine.ErrBadSetup) {
		t.Errorf("unknown option: %v", err)
	}
	if _, err := r.Decode([]byte("{}")); err == nil {
		t.Error("decoding an empty object must fail")
	}
	st, _ := r.New(engine.Setup{Players: 3, Seed: 2})
	data, _ := st.Encode()
	if _, err := r.Decode(data); err != nil {
		t.Fatalf("decoding a fresh state: %v", err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw["publisher"] = 99
	damaged, _ := json.Marshal(raw)
	if _, err := r.Decode(damaged); err == nil {
		t.Error("a state pointing at publisher 99 must be refused")
	}
	names := map[string]bool{}
	for _, tp := range r.Topics() {
		if tp.Text.IsZero() || tp.Title.IsZero() || names[tp.Name] {
			t.Errorf("topic %q empty or duplicate", tp.Name)
		}
		names[tp.Name] = true
	}
	for _, want := range []string{"overview", "phases", "loans", "newspapers", "black market", "buzz", "income", "end scoring", "westminster", "port of london"} {
		if !names[want] {
			t.Errorf("no topic %q", want)
		}
	}
	if p, ok := r.ComputerPlayer("heuristic"); !ok || p == nil {
		t.Error("no heuristic player")
	}
}

func TestHeuristicBeatsRandom(t *testing.T) {
	r := testRules(t)
	wins, games := 0, 40
	for g := 0; g < games; g++ {
		st, _ := r.New(engine.Setup{Players: 4, Seed: uint64(500 + g)})
		rng := engine.NewRNG(uint64(g))
		for !st.Over() {
			pr := st.Prompts()[0]
			var a string
			if pr.Seat == 0 {
				a = Heuristic{}.Choose(st, pr, &rng)
			} else {
				a = pr.Actions[rng.Intn(len(pr.Actions))]
			}
			if _, err := st.Apply(pr.Seat, a); err != nil {
				t.Fatalf("%q: %v", a, err)
			}
		}
		for _, w := range st.Result().Winners {
			if w == 0 {
				wins++
			}
		}
	}
	if wins < games*3/4 {
		t.Errorf("heuristic won %d of %d games against three random players", wins, games)
	}
}

func TestViewsThroughWholeGames(t *testing.T) {
	r := testRules(t)
	for n := 2; n <= 5; n++ {
		st, _ := r.New(engine.Setup{Players: n, Seed: uint64(77 + n)})
		rng := engine.NewRNG(uint64(n))
		for step := 0; !st.Over(); step++ {
			if step%5 == 0 {
				for seat := -1; seat < n; seat++ {
					v, ok := st.View(engine.Seat(seat)).(*View)
					if !ok || len(v.Seats) != n || len(v.Locations) != 8 || (seat >= 0) != (v.Private != nil) {
						t.Fatalf("view of %d at step %d is incomplete", seat, step)
					}
					if _, err := json.Marshal(v); err != nil {
						t.Fatal(err)
					}
				}
			}
			pr := st.Prompts()[0]
			if _, err := st.Apply(pr.Seat, Heuristic{}.Choose(st, pr, &rng)); err != nil {
				t.Fatal(err)
			}
		}
		v := st.View(engine.Spectator).(*View)
		if v.Result == nil || len(v.Result.Winners) == 0 || v.Label != "game over" {
			t.Errorf("%d players: the final view has no result", n)
		}
	}
}

func TestDiceChoiceIsRevisableUntilTheReveal(t *testing.T) {
	s := scenario(t, 3)
	var _ engine.Revisable = s
	if _, ok := s.Revisable(red); ok {
		t.Error("a seat that has not chosen has nothing to revise")
	}
	if !engine.IsSecret(s, red, "dice 6 5 4 3") || engine.IsSecret(s, red, "sell energy") {
		t.Error("a dice choice is secret, a free action is not")
	}
	mustApply(t, s, red, "dice 6 5 4 3")
	if !engine.IsSecret(s, red, "dice 1 1 1 1") {
		t.Error("a changed dice choice is secret too")
	}
	p, ok := s.Revisable(red)
	if !ok || p.Seat != red || !p.Secret || p.Kind != "dice" || len(p.Actions) != 126 {
		t.Fatalf("after choosing, Red may revise its 4 dice: %v %+v", ok, p.Kind)
	}
	for _, seat := range []engine.Seat{blue, yellow, engine.Spectator, 9} {
		if _, ok := s.Revisable(seat); ok {
			t.Errorf("seat %d has not chosen, nothing to revise", seat)
		}
	}
	// the listed actions are exactly what Apply accepts from Red now
	c := s.clone()
	if _, err := c.Apply(red, p.Actions[0]); err != nil {
		t.Errorf("listed revision %q refused: %v", p.Actions[0], err)
	}
	mustApply(t, s, red, "dice 1 1 1 1")
	if got := s.View(red).(*View).Private.Dice; len(got) != 4 || got[0] != 1 {
		t.Errorf("the revised choice replaces the first: %v", got)
	}
	mustApply(t, s, blue, "dice 2 2 2 2")
	mustApply(t, s, yellow, "dice 3 3 3 3")
	for _, seat := range []engine.Seat{red, blue, yellow} {
		if _, ok := s.Revisable(seat); ok {
			t.Errorf("after the reveal seat %d may revise nothing", seat)
		}
		if engine.IsSecret(s, seat, "dice 1 1 1 1") {
			t.Errorf("after the reveal nothing of seat %d is secret", seat)
		}
	}
	if v := s.View(engine.Spectator).(*View); v.Seats[red].DiceValues[0] != 1 {
		t.Errorf("the revealed dice are the revised ones: %v", v.Seats[red].DiceValues)
	}
}
