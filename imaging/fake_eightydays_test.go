package imaging

import (
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/eightydays"
)

func fakeEightyDays(players int) *eightydays.View {
	v := &eightydays.View{Seat: engine.Spectator, Variant: "standard", Round: 7, Turn: 2, DeckSize: 17, Track: fakeTrack()}
	spaces := []int{12, 38, 0, 41, 3, 80}
	for i := 0; i < players; i++ {
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
	v.Drawn = []eightydays.CardView{{Name: "A Winning Hand at Whist", Effect: "take 20 £"}, {Name: "Bribing the Engine Driver", Effect: "pay 10 £"}}
	return v
}

func fakeTrack() []eightydays.SpaceView {
	cities := map[int]string{6: "Paris", 11: "Turin", 17: "Suez", 22: "Aden", 27: "Bombay", 33: "Allahabad", 38: "Calcutta",
		43: "Singapore", 49: "Hong Kong", 54: "Yokohama", 60: "San Francisco", 65: "Omaha", 71: "New York", 76: "Liverpool"}
	kinds := []string{"passepartout", "pound", "bet", "passepartout", "pound", "police", "bet"}
	var track []eightydays.SpaceView
	for n := 0; n <= 80; n++ {
		sp := eightydays.SpaceView{Number: n, Kind: kinds[n%len(kinds)]}
		switch {
		case n == 0 || n == 80:
			sp.Kind, sp.City = "london", "London"
		case cities[n] != "":
			sp.Kind, sp.City, sp.Red = "layover", cities[n], n == 76
		case sp.Kind == "bet":
			sp.Bets = []int{1 + n%4}
			if n%4 == 3 {
				sp.Bets = []int{4, 5, 6}
			}
		}
		track = append(track, sp)
	}
	return track
}
