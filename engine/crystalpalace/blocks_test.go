package crystalpalace

import (
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// TestEventsStayPut plays games keeping every event slice Apply returned
// and writes each event again at the end: the texts and events cut from a
// state's shared blocks must not be written over by later actions, what a
// caller appends to them must stay the caller's, and a clone playing the
// same game must tell it the same way (it cuts its own blocks).
func TestEventsStayPut(t *testing.T) {
	r := testRules(t)
	for seed := uint64(1); seed <= 6; seed++ {
		st, err := r.New(engine.Setup{Players: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		twin := st.Clone()
		rng := engine.NewRNG(seed)
		var kept, junked [][]engine.Event // as Apply returned them; with junk after
		var words []string
		for !st.Over() {
			p := st.Prompts()[0]
			action := ai.Random{}.Choose(st, p, &rng)
			ev, err := st.Apply(p.Seat, action)
			if err != nil {
				t.Fatal(err)
			}
			same, err := twin.Apply(p.Seat, action)
			if err != nil {
				t.Fatal(err)
			}
			if len(same) != len(ev) {
				t.Fatalf("seed %d: %q: %d events, the clone %d", seed, action, len(ev), len(same))
			}
			for i, e := range ev {
				if w := say(e.Text); w != say(same[i].Text) {
					t.Fatalf("seed %d: %q: %q, the clone %q", seed, action, w, say(same[i].Text))
				}
				words = append(words, say(e.Text))
			}
			kept = append(kept, ev)
			// a careless caller appends to what it got
			junked = append(junked, append(ev, engine.Event{Kind: "junk", Text: engine.Plain("junk")}))
			for _, e := range ev {
				if junk := append(e.Text.Args, engine.Code("Junk", "junk")); len(junk) != len(e.Text.Args)+1 {
					t.Fatal("append lost an argument")
				}
			}
		}
		for _, ev := range junked {
			if e := ev[len(ev)-1]; e.Kind != "junk" {
				t.Fatalf("seed %d: what a caller appended to an action's events became %q", seed, say(e.Text))
			}
		}
		i := 0
		for _, ev := range kept {
			for _, e := range ev {
				if w := say(e.Text); w != words[i] {
					t.Fatalf("seed %d: event %d read %q when it was returned, %q at the end", seed, i, words[i], w)
				}
				i++
			}
		}
	}
}
