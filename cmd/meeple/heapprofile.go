package main

import (
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
)

// heapProfileEnv names a file "meeple run" writes a heap profile to as it
// stops, for `go tool pprof`. It is a debugging aid: unset (the default),
// no profile is taken and nothing of the profiler is served.
const heapProfileEnv = "MEEPLE_HEAP_PROFILE"

// writeHeapProfile writes the live heap to the file named by
// MEEPLE_HEAP_PROFILE, when it is set, after a collection so that the
// profile shows what is in use now.
func writeHeapProfile(getenv func(string) string, log *slog.Logger) {
	path := getenv(heapProfileEnv)
	if path == "" {
		return
	}
	if err := heapProfile(path); err != nil {
		log.Warn("writing the heap profile failed", "path", path, "err", err)
		return
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	mb := func(n uint64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }
	log.Info("heap profile written", "path", path, "heap_inuse", mb(m.HeapInuse), "heap_idle", mb(m.HeapIdle),
		"heap_released", mb(m.HeapReleased), "stacks", mb(m.StackInuse), "runtime_other", mb(m.Sys-m.HeapSys-m.StackSys),
		"sys", mb(m.Sys), "goroutines", runtime.NumGoroutine())
}

func heapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return fmt.Errorf("heap profile: %w", err)
	}
	return f.Close()
}
