package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportsPointOneWay checks the project's layering: cmd wires
// everything; bot reaches the engine, images and storage; images and
// storage reach only the engine (images also their text layer,
// imaging/typeset, which reaches nothing of ours, and the game words,
// wording, which reaches the engine and locale); rating and picker are
// libraries that reach nothing of ours but the engine, and report reaches the
// engine and the contract in storage; the engine reaches nothing but
// itself (engine's own purity test checks its other imports). Each
// package of the module is held to the rule of the longest path below
// that names it; a package no rule names fails, so a new one gets a rule.
// An allowed import names a package and those under it, or, written
// "=path", that package alone: the stores (storage/boltdb,
// storage/postgres) reach the contract in storage but not each other.
func TestImportsPointOneWay(t *testing.T) {
	const module = "github.com/meeplegames/meeple"
	allowed := map[string][]string{
		"cmd":               {"bot", "engine", "imaging", "locale", "metrics", "present", "storage", "terminal", "wording"},
		"bot":               {"bot/endpoint", "bot/shard", "bot/table", "bot/transport", "engine", "imaging", "locale", "picker", "rating", "report", "=storage", "wording"},
		"bot/table":         {"engine", "=storage"}, // the referee: games and the store, never Discord (see TestBotSeamsHold)
		"bot/interactions":  nil,
		"bot/transport":     nil, // Discord's side only: never the engine, the games or the store
		"metrics":           nil,
		"bot/discordtest":   {"bot/endpoint", "bot/shard"},
		"bot/endpoint":      nil,
		"bot/shard":         nil,
		"terminal":          {"engine", "locale", "present", "wording"},
		"locale":            nil,
		"present":           {"engine", "wording"},
		"wording":           {"engine", "locale"},
		"imaging":           {"engine", "imaging/typeset", "wording"},
		"imaging/typeset":   nil,
		"storage":           {"engine"},
		"storage/boltdb":    {"engine", "=storage"},
		"storage/postgres":  {"engine", "=storage"},
		"storage/storetest": {"engine", "=storage"},
		"rating":            {"engine"},
		"report":            {"engine", "=storage"},
		"picker":            {"engine"},
		"engine":            {"engine"},
		"internal/pgtest":   nil,
	}
	// Prometheus stays in the metrics package and in cmd, which makes its
	// registry: the bot reaches metrics through its Observer interface.
	prometheusAllowed := map[string]bool{"metrics": true, "cmd": true}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	under := func(pkg, root string) bool { return pkg == root || strings.HasPrefix(pkg, root+"/") }
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, imports, _ := strings.Cut(line, ": ")
		pkg := strings.TrimPrefix(path, module+"/")
		rule, found := "", false
		for root := range allowed {
			if under(pkg, root) && len(root) >= len(rule) {
				rule, found = root, true
			}
		}
		if !found {
			t.Errorf("%s: no layering rule names it; add one here", pkg)
			continue
		}
	imports:
		for _, imp := range strings.Fields(imports) {
			ours, isOurs := strings.CutPrefix(imp, module+"/")
			if strings.HasPrefix(imp, "github.com/prometheus/") && !prometheusAllowed[rule] {
				t.Errorf("%s imports %s; only metrics and cmd use Prometheus", pkg, imp)
			}
			if !isOurs {
				continue
			}
			for _, ok := range allowed[rule] {
				if exact, only := strings.CutPrefix(ok, "="); (only && ours == exact) || (!only && under(ours, ok)) {
					continue imports
				}
			}
			t.Errorf("%s imports %s; imports must point one way (rule %q allows %v)", pkg, ours, rule, allowed[rule])
		}
	}
}

// TestBotSeamsHold keeps the table (package bot/table: the referee, its
// locks and the thinker) off Discord: neither it nor anything it imports,
// directly or not, is discordgo or the transport that speaks it.
// (TestImportsPointOneWay holds the transport, bot/transport, off the
// engine.)
func TestBotSeamsHold(t *testing.T) {
	const module = "github.com/meeplegames/meeple"
	forbidden := []string{"github.com/bwmarrin/discordgo", module + "/bot/transport"}
	out, err := exec.Command("go", "list", "-deps", module+"/bot/table").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"/storage") {
		t.Fatalf("go list -deps bot/table lists %d packages, not storage: the check reads nothing", len(deps))
	}
	for _, dep := range deps {
		for _, bad := range forbidden {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("bot/table reaches %s, across the seam", dep)
			}
		}
	}
}
