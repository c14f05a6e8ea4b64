package crystalpalace

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// Logs stored before answers were carried with the actions that lead to
// them (testdata/legacy: whole games written by that engine, with the
// SHA-256 of its final state) replay action by action to the very same
// state bytes.
func TestLegacyLogsReplayExactly(t *testing.T) {
	r := testRules(t)
	files, _ := filepath.Glob("testdata/legacy/*.txt")
	if len(files) == 0 {
		t.Fatal("no legacy logs")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var players int
		var seed uint64
		var want string
		for _, line := range strings.Split(string(data), "\n") {
			fmt.Sscanf(line, "# players %d seed %d", &players, &seed)
			fmt.Sscanf(line, "# state sha256 %s", &want)
		}
		moves, err := engine.ReadScript(strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		st, err := r.New(engine.Setup{Players: players, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range moves {
			if _, err := st.Apply(m.Seat, m.Action); err != nil {
				t.Fatalf("%s line %d %q: %v", f, m.Line, m.Action, err)
			}
		}
		enc, _ := st.Encode()
		if got := fmt.Sprintf("%x", sha256.Sum256(enc)); got != want || !st.Over() {
			t.Errorf("%s: state %s (over %v), want %s", f, got, st.Over(), want)
		}
	}
}
