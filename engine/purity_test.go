package engine_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestEngineIsPure checks that nothing under engine/ imports I/O, clocks,
// global randomness or the project's outer layers.
func TestEngineIsPure(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	forbidden := []string{
		"os", "os/exec", "net", "net/http", "time", "math/rand", "math/rand/v2", "syscall", "log", "log/slog",
		"github.com/bwmarrin/discordgo", "go.etcd.io/bbolt", "github.com/fogleman/gg",
		"github.com/meeplegames/meeple/bot", "github.com/meeplegames/meeple/storage", "github.com/meeplegames/meeple/imaging",
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		for _, imp := range strings.Fields(imports) {
			for _, bad := range forbidden {
				if imp == bad {
					t.Errorf("%s imports %s; the engine must stay a pure library", pkg, imp)
				}
			}
		}
	}
}
