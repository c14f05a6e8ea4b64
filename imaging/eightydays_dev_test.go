package imaging

import (
	"os"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/eightydays"
)

func TestEightyDaysDev(t *testing.T) {
	content, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	v := &eightydays.View{Seat: engine.Spectator, Variant: "standard", Round: 7, Turn: 2, DeckSize: 17}
	for _, sp := range content.Track {
		v.Track = append(v.Track, eightydays.SpaceView{Number: sp.Number, Kind: sp.Kind, City: sp.City, Bets: sp.Bets, Red: sp.Red})
	}
	spaces := []int{12, 38, 0, 41, 3, 80}
	for i := 0; i < 6; i++ {
		p := eightydays.PlayerView{Seat: engine.Seat(i), Pounds: 10 + 7*i, Rumors: i % 4,
			Pawns: []eightydays.PawnView{{Space: spaces[i], Rank: i + 1, Home: spaces[i] == 80}}}
		if i == 1 {
			p.Pawns[0].Pending = "police"
			p.Characters = []eightydays.CardView{{Name: "Detective Fix"}, {Name: "Aouda"}}
		}
		if i == 3 {
			p.Pawns[0].Pending = "bet"
		}
		v.Players = append(v.Players, p)
	}
	v.Discard = []eightydays.CardView{{Name: "Typhoon in the China Sea"}}
	v.Drawn = []eightydays.CardView{{Name: "A Winning Hand at Whist", Effect: "take 20£"}, {Name: "Bribing the Engine Driver", Effect: "pay 10£"}}
	r := testRenderer(t)
	b, err := r.Board(v, []string{"Alice", "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/ed.png", b, 0o644)
	t.Log(len(b))
}

func BenchmarkEightyDaysDev(b *testing.B) {
	content, _ := eightydays.DefaultContent()
	v := &eightydays.View{Seat: engine.Spectator, Variant: "standard", Round: 7, Turn: 2, DeckSize: 17}
	for _, sp := range content.Track {
		v.Track = append(v.Track, eightydays.SpaceView{Number: sp.Number, Kind: sp.Kind, City: sp.City, Bets: sp.Bets, Red: sp.Red})
	}
	for i := 0; i < 6; i++ {
		v.Players = append(v.Players, eightydays.PlayerView{Seat: engine.Seat(i), Pounds: 10 + 7*i, Rumors: i % 4,
			Pawns: []eightydays.PawnView{{Space: 5 + 7*i, Rank: i + 1}}})
	}
	benchBoard(b, v)
}
