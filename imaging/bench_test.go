package imaging

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time the process has used so far (user + system, all
// threads): a figure that, unlike wall time, does not grow when other jobs
// share the machine's cores.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchImage runs draw b.N times and reports allocations, the PNG's size
// and the CPU time per image besides the wall time.
func benchImage(b *testing.B, draw func() ([]byte, error)) {
	png, err := draw()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		if png, err = draw(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(len(png))/1024, "KB")
}

// benchBoard benchmarks the public board of view.
func benchBoard(b *testing.B, view any) {
	r := testRenderer(b)
	benchImage(b, func() ([]byte, error) { return r.Board(view, en(nil)) })
}

// benchLayered benchmarks the public board of view drawn over a cached
// static layer: a renderer with room for its layout.
func benchLayered(b *testing.B, view any) {
	r, err := NewWith(Options{LayerCache: 64 << 20})
	if err != nil {
		b.Fatal(err)
	}
	for range 2 { // the second draw caches the layout
		if _, err := r.Board(view, en(nil)); err != nil {
			b.Fatal(err)
		}
	}
	benchImage(b, func() ([]byte, error) { return r.Board(view, en(nil)) })
}
