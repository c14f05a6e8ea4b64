package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"
)

// heapProfileEnv names a file "meeple run" writes a heap profile to as it
// stops, and cpuProfileEnv one it writes a CPU profile of its whole run
// to, for `go tool pprof`. They are debugging aids: unset (the default),
// no profile is taken and nothing of the profiler is served.
const (
	heapProfileEnv = "MEEPLE_HEAP_PROFILE"
	cpuProfileEnv  = "MEEPLE_CPU_PROFILE"
)

// startCPUProfile starts the CPU profile MEEPLE_CPU_PROFILE asks for and
// returns the function that writes it; without one it does nothing.
func startCPUProfile(getenv func(string) string, log *slog.Logger) (stop func()) {
	path := getenv(cpuProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		log.Warn("starting the CPU profile failed", "path", path, "err", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Warn("writing the CPU profile failed", "path", path, "err", err)
		}
	}
}

// heapProfileOnSignal writes a heap profile whenever the process gets
// SIGUSR1, to the file MEEPLE_HEAP_PROFILE names with ".live" added (the
// file itself is written as the process stops), so that a profile can be
// taken under load; without the variable it does nothing.
func heapProfileOnSignal(getenv func(string) string, log *slog.Logger) (stop func()) {
	if getenv(heapProfileEnv) == "" {
		return func() {}
	}
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-usr1:
				writeHeapProfile(func(k string) string {
					if k == heapProfileEnv {
						return getenv(k) + ".live"
					}
					return getenv(k)
				}, log)
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(usr1)
		close(done)
	}
}

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
		"sys", mb(m.Sys), "goroutines", runtime.NumGoroutine(), "collections", m.NumGC, "gc_cpu", fmt.Sprintf("%.0f%%", 100*m.GCCPUFraction))
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
