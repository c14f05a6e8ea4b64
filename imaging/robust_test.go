package imaging

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/wording"
)

// Views with seats, positions and values out of range draw something or
// return an error; they never panic.
func TestOutOfRangeViewsDoNotPanic(t *testing.T) {
	r := testRenderer(t)
	odd := []engine.Seat{-7, 9, 5}
	cpCases := []func(v *cp.View){
		func(v *cp.View) { v.Turn, v.First = 12, -3 },
		func(v *cp.View) { v.Locations[0].Dice[0].Owner, v.Locations[0].Dice[0].Value = 8, 17 },
		func(v *cp.View) { v.Locations[1].Actions[0].Owner = -9 },
		func(v *cp.View) { v.Westminster.Positions[0] = 40 },
		func(v *cp.View) { v.Buzz.Positions[1], v.Income.Positions[1] = -5, 99 },
		func(v *cp.View) { v.Buzz.Tickets = odd; v.Buzz.Posters[0].Tokens = odd },
		func(v *cp.View) { v.Waiting = []cp.WaitingView{{Seat: 11, Kind: "x"}, {Seat: -2}} },
		func(v *cp.View) { v.Order = odd; v.PocketWatch.Holder = 30 },
		func(v *cp.View) { v.Seats[0].DiceValues = []int{-1, 0, 9, 6, 6, 6, 6, 6} },
		func(v *cp.View) { v.Locations[6].NextDie = &cp.DieView{Owner: 14, Value: 3} },
		func(v *cp.View) { v.Locations = v.Locations[:3] },
		func(v *cp.View) { v.Private.Seat = 9 },
		func(v *cp.View) { v.Result = &cp.ResultView{Scores: []int{1}} },
	}
	for i, mutate := range cpCases {
		v := fakeCPView(t, 3, 3)
		mutate(v)
		for _, draw := range []func(any, *wording.Words) ([]byte, error){r.Board, r.Mat, r.Scores} {
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("Crystal Palace case %d: panic %v", i, p)
					}
				}()
				_, _ = draw(v, en(nil))
			}()
		}
	}
	edCases := []func(v *eightydays.View){
		func(v *eightydays.View) { v.Turn, v.First = 40, -8 },
		func(v *eightydays.View) { v.Players[0].Pawns[0].Space = -12 },
		func(v *eightydays.View) { v.Players[1].Pawns[0].Space = 300 },
		func(v *eightydays.View) { v.Players[2].Pawns[0].Pending = "bet"; v.Players[2].Pawns[0].Space = 81 },
		func(v *eightydays.View) { v.Players[0].Rumors = 1 << 20 },
		func(v *eightydays.View) { v.Winners = odd },
	}
	for i, mutate := range edCases {
		v := fakeEightyDays(4)
		mutate(v)
		for _, draw := range []func(any, *wording.Words) ([]byte, error){r.Board, r.Scores} {
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("80 Days case %d: panic %v", i, p)
					}
				}()
				_, _ = draw(v, en(nil))
			}()
		}
	}
}

func FuzzSeatNames(f *testing.F) {
	f.Add("Ada Lovelace")
	f.Add("\x00\x1b[31mred\u202e")
	f.Add("🎲🎲🎲 dice fan 🎲")
	f.Add("محمد\u2069 (3)")
	r := testRenderer(f)
	f.Fuzz(func(t *testing.T, name string) {
		got := r.seatNames(en([]string{name}), 1)[0]
		if got == "" || !utf8.ValidString(got) {
			t.Fatalf("seatNames(%q) = %q", name, got)
		}
		inner := strings.TrimSuffix(strings.TrimPrefix(got, "\u2068"), "\u2069")
		if inner != got && (!strings.HasPrefix(got, "\u2068") || !strings.HasSuffix(got, "\u2069")) {
			t.Fatalf("seatNames(%q) = %q: an isolate not closed", name, got)
		}
		if n := len(graphemes(inner)); n > maxNameClusters+1 {
			t.Fatalf("seatNames(%q) = %q: %d characters", name, got, n)
		}
		for _, c := range inner {
			if c < ' ' || (c >= 0x7F && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) {
				t.Fatalf("seatNames(%q) = %q holds the control character %U", name, got, c)
			}
		}
	})
}

// graphemes splits s into grapheme clusters.
func graphemes(s string) []string {
	var out []string
	for g := uniseg.NewGraphemes(s); g.Next(); {
		out = append(out, g.Str())
	}
	return out
}
