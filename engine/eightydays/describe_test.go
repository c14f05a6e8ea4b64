package eightydays

import "testing"

func TestDescribeSaysWhatEachLegalActionCostsAndWhereItLeads(t *testing.T) {
	s := fixture(t, 3, func(s *State) { at(s, 0, 42); at(s, 1, 30); at(s, 2, 1) })
	s.Seats[0].Characters = []int{cardIndex(t, "kiouni")}
	for action, want := range map[string]string{
		"move 44":     "pay 3£ · Pound",
		"move 45":     "pay 6£ · Passepartout",
		"back":        "take 40£ · Calcutta (Layover)",
		"play kiouni": "Kiouni the Elephant: " + say(s.rules.events.effects[cardIndex(t, "kiouni")]),
		"move 43":     "", // a Layover: illegal forward
		"fly 3":       "", // not an action
	} {
		if got := say(s.Describe(0, action)); got != want {
			t.Errorf("Describe(%q) = %q, want %q", action, got, want)
		}
	}
	if got := say(s.Describe(1, "move 31")); got != "" {
		t.Errorf("another seat's action described: %q", got)
	}
	// a drawn character is kept for later, an event applies now
	s.Drawn = []int{cardIndex(t, "aouda"), cardIndex(t, "whist")}
	aouda, whist := say(s.Describe(0, "keep 1")), say(s.Describe(0, "keep 2"))
	s.Drawn = nil
	if aouda != "Aouda (character, played later): discard 1 Rumor" || whist != "A Winning Hand at Whist: take 20£" {
		t.Errorf("keep: %q and %q", aouda, whist)
	}
	// a character played takes its discount off the price shown
	apply(t, s, 0, "play kiouni")
	if got := say(s.Describe(0, "move 47")); got != "pay 0£ · Bet 2" {
		t.Errorf("after Kiouni, move 47 = %q, want the 15£ move for 0£", got)
	}
	// every legal action of every prompt in a game is described
	g := fixture(t, 4, nil)
	for steps := 0; !g.Over() && steps < 400; steps++ {
		p := g.Prompts()[0]
		for _, a := range p.Actions {
			if g.Describe(p.Seat, a).IsZero() {
				t.Fatalf("legal %q has no description", a)
			}
		}
		if _, err := g.Apply(p.Seat, Heuristic{}.Choose(g, p, &g.RNG)); err != nil {
			t.Fatal(err)
		}
	}
}
