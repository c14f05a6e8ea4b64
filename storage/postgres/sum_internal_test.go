package postgres

import "testing"

// The sums kept in databases stay what they were when written: a log
// row's and an empty row's, computed by the code that first wrote them.
func TestSumsAsStored(t *testing.T) {
	for _, c := range []struct {
		got, want int64
	}{
		{sum(ints(7, 3, 1, 1700000000), []byte("move 3")), 2018580242},
		{sum(nil, []byte("x")), 2290563023},
		{sum(), 0},
	} {
		if c.got != c.want {
			t.Errorf("sum %d, want %d", c.got, c.want)
		}
	}
}
