package rating

import (
	"fmt"
	"testing"
)

// BenchmarkReplay rates 1,000 four-player games among 50 players on 5
// servers and 2 kinds: every game in its four scopes.
func BenchmarkReplay(b *testing.B) {
	results := make([]Result, 1000)
	for i := range results {
		r := Result{Kind: fmt.Sprint("kind", i%2), Guild: fmt.Sprint("guild", i%5)}
		for s := range 4 {
			r.Seats = append(r.Seats, Seat{Place: 1 + (i+s)%4, Holders: []Holder{{Player: fmt.Sprint("p", (i*7+s*13)%50)}}})
		}
		results[i] = r
	}
	m := DefaultModel()
	b.ReportAllocs()
	for b.Loop() {
		Replay(m, results)
	}
}
