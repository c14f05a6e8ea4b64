package typeset

import (
	"bufio"
	"flag"
	"os"
	"strings"
	"sync"
	"testing"
)

var sample = flag.String("sample", "", "write a picture of every test name to this PNG file")

var (
	libOnce sync.Once
	libErr  error
	lib     *Library
)

func testLibrary(t testing.TB) *Library {
	t.Helper()
	libOnce.Do(func() { lib, libErr = New() })
	if libErr != nil {
		t.Fatal(libErr)
	}
	return lib
}

// names reads testdata/names.txt.
func names(t testing.TB) []string {
	t.Helper()
	f, err := os.Open("testdata/names.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
