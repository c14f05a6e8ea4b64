package rating

import (
	"reflect"
	"testing"
)

func stay(player string, place int) Seat {
	return Seat{Place: place, Holders: []Holder{{Player: player}}}
}

func computer(place int) Seat { return Seat{Place: place, Holders: []Holder{{}}} }

// rate2 is a two-person game rated directly by the model.
func rate2(t *testing.T, m Model, a, b Rating, ranks []int) (Rating, Rating) {
	t.Helper()
	out, err := m.Rate([][]Rating{{a}, {b}}, ranks)
	if err != nil {
		t.Fatal(err)
	}
	return out[0][0], out[1][0]
}

func TestLadderRatesPeopleAmongThemselves(t *testing.T) {
	m := DefaultModel()
	l := Replay(m, []Result{{Kind: "cp", Guild: "g", Seats: []Seat{computer(1), stay("bob", 3), stay("alice", 2)}}})
	wantAlice, wantBob := rate2(t, m, m.New(), m.New(), []int{1, 2})
	alice, _ := l.Record(Scope{"g", "cp"}, "alice")
	bob, _ := l.Record(Scope{"g", "cp"}, "bob")
	if alice.Rating != wantAlice || bob.Rating != wantBob {
		t.Fatalf("alice %+v bob %+v, want %+v %+v (the computer left out)", alice.Rating, bob.Rating, wantAlice, wantBob)
	}
	if alice.Games != 1 || alice.Wins != 0 || alice.Rated != 1 {
		t.Fatalf("alice's record %+v", alice)
	}
}

func TestLadderLeaversRankLast(t *testing.T) {
	m := DefaultModel()
	resigned := Seat{Place: 1, Holders: []Holder{{Player: "alice", Left: true}, {}}}
	handed := Seat{Place: 2, Holders: []Holder{{Player: "carol", Left: true}, {Player: "dave"}}}
	l := Replay(m, []Result{{Kind: "cp", Guild: "g", Seats: []Seat{resigned, stay("bob", 3), handed}}})
	// bob stayed; alice and carol left and tie below him; dave came in late.
	out, err := m.Rate([][]Rating{{m.New()}, {m.New()}, {m.New()}}, []int{1, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{"bob", "alice", "carol"} {
		rec, ok := l.Record(Scope{"g", "cp"}, p)
		if !ok || rec.Rating != out[i][0] || rec.Rated != 1 {
			t.Errorf("%s: %+v, want rating %+v", p, rec, out[i][0])
		}
	}
	dave, ok := l.Record(Scope{"g", "cp"}, "dave")
	if !ok || dave.Rated != 0 || dave.Games != 1 || dave.Rating != m.New() {
		t.Errorf("dave, who took a seat over, %+v: want one unrated game", dave)
	}
	if alice, _ := l.Record(Scope{"g", "cp"}, "alice"); alice.Wins != 0 {
		t.Errorf("alice resigned a seat that won, yet has %d wins", alice.Wins)
	}
}

func TestLadderSubstituteWinCounts(t *testing.T) {
	m := DefaultModel()
	seat := Seat{Place: 1, Holders: []Holder{{}, {Player: "erin"}}}
	l := Replay(m, []Result{{Kind: "cp", Guild: "g", Seats: []Seat{seat, stay("bob", 2)}}})
	erin, _ := l.Record(Scope{"", ""}, "erin")
	if erin.Wins != 1 || erin.Games != 1 || erin.Rated != 0 {
		t.Fatalf("erin %+v: want a win and an unrated game", erin)
	}
	if bob, _ := l.Record(Scope{"", ""}, "bob"); bob.Rated != 0 {
		t.Fatalf("bob was rated alone: %+v", bob)
	}
}

func TestLadderScopes(t *testing.T) {
	m := DefaultModel()
	results := []Result{
		{Kind: "cp", Guild: "g1", Seats: []Seat{stay("alice", 1), stay("bob", 2)}},
		{Kind: "ed", Guild: "g2", Seats: []Seat{stay("bob", 1), stay("alice", 2)}},
		{Kind: "cp", Guild: "g2", Seats: []Seat{stay("alice", 1), stay("bob", 1)}},
	}
	l := Replay(m, results)
	// cp everywhere: games 1 and 3 in order.
	a1, b1 := rate2(t, m, m.New(), m.New(), []int{1, 2})
	a3, b3 := rate2(t, m, a1, b1, []int{1, 1})
	if got, _ := l.Record(Scope{"", "cp"}, "alice"); got.Rating != a3 || got.Games != 2 || got.Wins != 2 {
		t.Errorf("alice in cp everywhere: %+v, want %+v after two games, two wins (one tied)", got, a3)
	}
	if got, _ := l.Record(Scope{"", "cp"}, "bob"); got.Rating != b3 || got.Wins != 1 {
		t.Errorf("bob in cp everywhere: %+v, want %+v, one win", got, b3)
	}
	// every kind on g2: games 2 and 3.
	b2, a2 := rate2(t, m, m.New(), m.New(), []int{1, 2})
	a23, _ := rate2(t, m, a2, b2, []int{1, 1})
	if got, _ := l.Record(Scope{"g2", ""}, "alice"); got.Rating != a23 {
		t.Errorf("alice on g2: %+v, want %+v", got.Rating, a23)
	}
	if _, ok := l.Record(Scope{"g1", "ed"}, "alice"); ok {
		t.Error("alice has a record for a kind she never played on g1")
	}
	if fav, ok := l.Favourite("", "alice"); !ok || fav != "cp" {
		t.Errorf("favourite %q %v, want cp", fav, ok)
	}
	if fav, ok := l.Favourite("g2", "alice"); !ok || fav != "cp" {
		t.Errorf("favourite on g2 %q %v, want cp (tie goes to the first name)", fav, ok)
	}
	// Replaying the same results again gives the same ladder; another
	// order gives other ratings.
	if again := Replay(m, results); !reflect.DeepEqual(again, l) {
		t.Error("replaying the same results gave another ladder")
	}
	swapped := Replay(m, []Result{results[2], results[1], results[0]})
	if x, _ := swapped.Record(Scope{"", ""}, "alice"); x.Rating == a3 {
		t.Error("order of results made no difference")
	}
}

func TestLadderTop(t *testing.T) {
	m := DefaultModel()
	l := Replay(m, []Result{
		{Kind: "cp", Guild: "g", Seats: []Seat{stay("alice", 1), stay("bob", 2), stay("carol", 3)}},
		{Kind: "cp", Guild: "g", Seats: []Seat{stay("alice", 1), computer(2)}},
	})
	top := l.Top(Scope{"g", "cp"}, 10)
	var names []string
	for _, s := range top {
		names = append(names, s.Player)
	}
	if !reflect.DeepEqual(names, []string{"alice", "bob", "carol"}) {
		t.Fatalf("top %v", names)
	}
	if top[0].Games != 2 || top[0].Rated != 1 || top[0].Wins != 2 {
		t.Fatalf("alice %+v", top[0])
	}
	if len(l.Top(Scope{"g", "cp"}, 2)) != 2 {
		t.Fatal("Top ignores its limit")
	}
	if len(l.Top(Scope{"other", "cp"}, 5)) != 0 {
		t.Fatal("an unknown server has a leaderboard")
	}
}

func TestLadderGameEndedByVote(t *testing.T) {
	m := DefaultModel()
	resigned := Seat{Place: 1, Holders: []Holder{{Player: "alice", Left: true}, {}}}
	// bob and carol stayed to the vote: their places are not read, they tie
	// above alice, who resigned; the winning places win nothing
	l := Replay(m, []Result{{Kind: "cp", Guild: "g", ByVote: true, Seats: []Seat{resigned, stay("bob", 1), stay("carol", 3)}}})
	out, err := m.Rate([][]Rating{{m.New()}, {m.New()}, {m.New()}}, []int{1, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{"bob", "carol", "alice"} {
		rec, ok := l.Record(Scope{"g", "cp"}, p)
		if !ok || rec.Rating != out[i][0] || rec.Rated != 1 || rec.Games != 1 || rec.Wins != 0 {
			t.Errorf("%s: %+v, want rating %+v and no win", p, rec, out[i][0])
		}
	}
}
