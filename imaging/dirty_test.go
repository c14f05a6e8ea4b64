package imaging

import (
	"image"
	"testing"
)

func TestDirtyMapRuns(t *testing.T) {
	var d dirtyMap
	d.reset(100, 40)                    // 7 x 3 tiles
	d.mark(image.Rect(5, 5, 20, 10))    // tiles (0,0) and (1,0)
	d.mark(image.Rect(18, 2, 30, 3))    // tile (1,0) again
	d.mark(image.Rect(90, 35, 200, 90)) // clipped: tile (5,2) and (6,2)
	d.mark(image.Rect(-10, -10, -1, -1))
	var got []image.Rectangle
	d.runs(func(r image.Rectangle) { got = append(got, r) })
	want := []image.Rectangle{image.Rect(0, 0, 32, 16), image.Rect(80, 32, 112, 48)}
	if len(got) != len(want) {
		t.Fatalf("runs = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("runs = %v, want %v", got, want)
		}
	}
}
