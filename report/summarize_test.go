package report

import (
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	m := time.Minute
	for _, c := range []struct {
		in   []time.Duration
		want Turns
	}{
		{nil, Turns{}},
		{[]time.Duration{3 * m}, Turns{1, 3 * m, 3 * m}},
		{[]time.Duration{9 * m, 1 * m, 4 * m}, Turns{3, 4 * m, 9 * m}},
		{[]time.Duration{8 * m, 2 * m, 4 * m, 1 * m}, Turns{4, 3 * m, 8 * m}}, // even: the mean of the middle two
	} {
		if got := summarize(c.in); got != c.want {
			t.Errorf("summarize(%v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}
