package imaging

import (
	"testing"
)

// benchBoard renders and encodes a board b.N times and reports its size.
func benchBoard(b *testing.B, view any) {
	r := testRenderer(b)
	png, err := r.Board(view, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if png, err = r.Board(view, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(png))/1024, "KB")
}
