package picker

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
)

// walk checks every menu of t and returns the actions its leaves hold, each
// with the number of taps it takes.
func walk(t *testing.T, tr Tree, where string) map[string]int {
	t.Helper()
	leaves := map[string]int{}
	var visit func(m *Menu, path []int)
	visit = func(m *Menu, path []int) {
		if len(m.Choices) == 0 || len(m.Choices) > MaxChoices {
			t.Fatalf("%s: menu %v has %d choices", where, path, len(m.Choices))
		}
		if got, err := tr.At(path); err != nil || got != m {
			t.Fatalf("%s: At(%v) does not find its menu: %v", where, path, err)
		}
		for i, c := range m.Choices {
			if c.Label == "" || utf8.RuneCountInString(c.Label) > MaxLabel {
				t.Fatalf("%s: menu %v choice %d has label %q", where, path, i, c.Label)
			}
			p := append(append([]int(nil), path...), i)
			if c.Action != "" {
				if _, dup := leaves[c.Action]; dup {
					t.Fatalf("%s: %q offered twice", where, c.Action)
				}
				leaves[c.Action] = len(p)
				continue
			}
			visit(c.next, p)
		}
	}
	visit(tr.Root(), nil)
	return leaves
}

// check builds the tree of actions and asserts every one of them, and
// nothing else, is within MaxTaps taps.
func check(t *testing.T, actions []string, where string) int {
	t.Helper()
	tr := New(actions)
	leaves := walk(t, tr, where)
	if len(leaves) != len(actions) {
		t.Fatalf("%s: %d actions but %d leaves", where, len(actions), len(leaves))
	}
	most := 0
	for n, a := range actions {
		taps, ok := leaves[a]
		if !ok {
			t.Fatalf("%s: %q unreachable", where, a)
		}
		if taps > MaxTaps {
			t.Fatalf("%s: %q takes %d taps", where, a, taps)
		}
		if n%97 == 0 { // Find searches the whole tree: a sample is enough
			path, ok := tr.Find(a)
			if !ok || len(path) != taps {
				t.Fatalf("%s: Find(%q) = %v %v", where, a, path, ok)
			}
			m, err := tr.At(path[:len(path)-1])
			if err != nil || m.Choices[path[len(path)-1]].Action != a {
				t.Fatalf("%s: the path Find gives for %q leads elsewhere", where, a)
			}
		}
		most = max(most, taps)
	}
	return most
}

func TestWordAtATime(t *testing.T) {
	var actions []string
	for loc := 1; loc <= 6; loc++ {
		for _, what := range []string{"patent", "worker", "tile"} {
			for n := 1; n <= 3; n++ {
				actions = append(actions, fmt.Sprintf("place %d %s %d", loc, what, n))
			}
		}
	}
	actions = append(actions, "pass")
	check(t, actions, "placements")
	tr := New(actions)
	top := tr.Root()
	if len(top.Choices) != 2 || top.Choices[0].Label != "place" || top.Choices[1].Action != "pass" {
		t.Fatalf("top menu %+v", top.Choices)
	}
	if n, first := top.Choices[0].Below(); n != 54 || first != "place 1 patent 1" {
		t.Fatalf("behind place: %d actions from %q, want 54 from place 1 patent 1", n, first)
	}
	if n, first := top.Choices[1].Below(); n != 1 || first != "pass" {
		t.Fatalf("behind pass: %d actions from %q", n, first)
	}
	six, _ := tr.At([]int{0})
	if six.Prefix != "place" || len(six.Choices) != 6 || six.Choices[5].Label != "6" {
		t.Fatalf("second menu %q %+v", six.Prefix, six.Choices)
	}
	// Nine actions start "place 6": one menu lists them whole.
	path, _ := tr.Find("place 6 patent 1")
	if len(path) != 3 {
		t.Fatalf("place 6 patent 1 in %d taps", len(path))
	}
	if m, _ := tr.At(path[:2]); m.Prefix != "place 6" || m.Choices[path[2]].Label != "patent 1" {
		t.Fatalf("last menu %q %+v", m.Prefix, m.Choices)
	}
	if _, err := tr.At([]int{0, 9}); err != ErrPath {
		t.Fatalf("a forged path gave %v", err)
	}
	if _, err := tr.At([]int{1}); err != ErrPath {
		t.Fatalf("a path through an action gave %v", err)
	}
}

func TestWordsThatNeverBranchGoTogether(t *testing.T) {
	var actions []string
	for n := range 30 {
		actions = append(actions, fmt.Sprintf("take card %d", n))
	}
	tr := New(actions)
	// 30 actions share "take card": the top menu splits the numbers into
	// ranges at once instead of asking for "take" and "card".
	if got := tr.Root().Choices[0].Label; !strings.Contains(got, "take card 0") {
		t.Fatalf("first range %q", got)
	}
	if most := check(t, actions, "cards"); most != 2 {
		t.Fatalf("30 actions take %d taps", most)
	}
}

func TestManyWordsAtOneLevel(t *testing.T) {
	var actions []string
	for a := range 40 {
		for b := range 20 {
			actions = append(actions, fmt.Sprintf("move %d %d", a, b))
		}
	}
	check(t, actions, "40 × 20")
	// A list only four taps can cover (more than 25^3 actions).
	actions = actions[:0]
	for i := range 100_000 {
		actions = append(actions, fmt.Sprintf("dice %d %d %d %d", i/15625, i/625%25, i/25%25, i%25))
	}
	if most := check(t, actions, "100000 dice"); most != MaxTaps {
		t.Fatalf("100000 actions in %d taps", most)
	}
}

func TestLongActionsAreClipped(t *testing.T) {
	long := strings.Repeat("x", 300)
	check(t, []string{long + " a", long + " b", "short"}, "long words")
}

// TestWholeGames walks every legal action of every prompt of whole games of
// both games, 2 to 5 and 2 to 6 players, through the picker.
func TestWholeGames(t *testing.T) {
	cpContent, err := crystalpalace.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	edContent, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range []engine.Rules{crystalpalace.NewRules(cpContent), eightydays.NewRules(edContent)} {
		for players := rules.MinPlayers(); players <= rules.MaxPlayers(); players++ {
			where := fmt.Sprintf("%s %dp", rules.Name(), players)
			menus, actions, most := playThrough(t, rules, players, where)
			t.Logf("%s: %d menus, %d actions, at most %d taps", where, menus, actions, most)
		}
	}
}

func playThrough(t *testing.T, rules engine.Rules, players int, where string) (menus, actions, most int) {
	s, err := rules.New(engine.Setup{Players: players, Seed: uint64(players) * 7})
	if err != nil {
		t.Fatal(err)
	}
	bot, err := ai.Lookup(rules, "heuristic")
	if err != nil {
		t.Fatal(err)
	}
	rng := engine.NewRNG(uint64(players))
	for step := 0; !s.Over(); step++ {
		if step > 5000 {
			t.Fatalf("%s: no end after %d steps", where, step)
		}
		prompts := s.Prompts()
		for _, p := range prompts {
			at := fmt.Sprintf("%s step %d seat %d %s", where, step, p.Seat, p.Kind)
			most = max(most, check(t, p.Actions, at))
			if free := s.FreeActions(p.Seat); len(free) > 0 {
				most = max(most, check(t, append(append([]string(nil), p.Actions...), free...), at+" with free actions"))
			}
			menus++
			actions += len(p.Actions)
		}
		p := prompts[0]
		if _, err := s.Apply(p.Seat, bot.Choose(s, p, &rng)); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
	}
	return menus, actions, most
}

// BenchmarkNew builds the tree of a Crystal Palace-sized placement prompt
// (about 90 actions of four words), as the bot does at every picker click.
func BenchmarkNew(b *testing.B) {
	var actions []string
	for loc := 1; loc <= 10; loc++ {
		for _, what := range []string{"patent", "worker", "tile"} {
			for n := 1; n <= 3; n++ {
				actions = append(actions, fmt.Sprintf("place %d %s %d", loc, what, n))
			}
		}
	}
	actions = append(actions, "pass")
	b.ReportAllocs()
	for b.Loop() {
		New(actions)
	}
}
