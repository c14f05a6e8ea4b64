package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

// MEEPLE_HEAP_PROFILE names the file the heap profile goes to; without it
// nothing is written.
func TestHeapProfileByEnvironment(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "heap.pprof")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	writeHeapProfile(func(string) string { return "" }, log)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("without the variable, files were written: %v", entries)
	}
	writeHeapProfile(func(k string) string {
		if k == heapProfileEnv {
			return path
		}
		return ""
	}, log)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// a pprof profile is a gzipped protocol buffer
	if _, err := gzip.NewReader(bytes.NewReader(data)); err != nil || len(data) < 100 {
		t.Errorf("the profile (%d bytes) is not a gzipped pprof file: %v", len(data), err)
	}
}
