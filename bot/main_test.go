package bot

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// TestMain runs more of the package's parallel tests at once than go
// test's default (one per core): a bot test spends most of its time
// waiting, for the fake Discord over loopback, for fsync, and for the
// rate-limit windows that Discord keeps in real time and so the fake
// too, rather than computing. An explicit -parallel wins.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		if err := flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0))); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
