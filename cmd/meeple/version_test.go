package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestDescribeBuild(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/meeplegames/meeple", Version: "v1.4.0"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "4331304c0ffee"},
			{Key: "vcs.time", Value: "2026-11-23T20:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	b := describeBuild(info, true)
	want := build{Version: "v1.4.0", Commit: "4331304c0ffee", CommitAt: "2026-11-23T20:00:00Z", Modified: true, GoVersion: "go1.26.8"}
	if b != want {
		t.Errorf("describeBuild = %+v, want %+v", b, want)
	}
	if got := b.commitText(); got != "4331304c0ffee (2026-11-23T20:00:00Z), modified" {
		t.Errorf("commitText = %q", got)
	}
	info.Settings[3].Value = "false"
	if describeBuild(info, true).commitText() != "4331304c0ffee (2026-11-23T20:00:00Z)" {
		t.Errorf("an unmodified tree is reported as modified")
	}
	unknown := build{Version: "unknown", Commit: "unknown", GoVersion: "unknown"}
	if b := describeBuild(nil, false); b != unknown {
		t.Errorf("without build info: %+v, want %+v", b, unknown)
	}
}

func TestVersionCommandPrintsGoVersion(t *testing.T) {
	var out, errw bytes.Buffer
	if code := run(t.Context(), []string{"version"}, os.Getenv, &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "meeple ") || !strings.HasPrefix(lines[1], "commit ") || lines[2] != runtime.Version() {
		t.Errorf("output %q: want meeple VERSION, commit …, %s", out.String(), runtime.Version())
	}
	if code := run(t.Context(), []string{"version", "extra"}, os.Getenv, &out, &errw); code != 2 {
		t.Errorf("a stray argument: exit %d, want 2", code)
	}
}

// TestVersionOfBuiltBinaryMatchesItsBuildInfo builds the command with
// version control stamping and checks that "meeple version" prints what
// "go version -m" reads from the same binary. In a git clone that is the
// checked-out commit; where the go command finds no repository (a git
// worktree, an unpacked archive) it is "unknown".
func TestVersionOfBuiltBinaryMatchesItsBuildInfo(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is needed to build the binary: %v", err)
	}
	bin := buildMeeple(t)
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("meeple version: %v", err)
	}
	meta, err := exec.Command(goTool, "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	want := build{Version: "unknown", Commit: "unknown", GoVersion: runtime.Version()}
	for _, line := range strings.Split(string(meta), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "mod":
			want.Version = f[2]
		case len(f) == 2 && f[0] == "build":
			key, value, _ := strings.Cut(f[1], "=")
			switch key {
			case "vcs.revision":
				want.Commit = value
			case "vcs.time":
				want.CommitAt = value
			case "vcs.modified":
				want.Modified = value == "true"
			}
		}
	}
	expect := "meeple " + want.Version + "\ncommit " + want.commitText() + "\n" + want.GoVersion + "\n"
	if string(out) != expect {
		t.Errorf("meeple version printed\n%s\nwant (from go version -m)\n%s", out, expect)
	}
}

func TestRunLogsItsBuildAtStart(t *testing.T) {
	t.Setenv(tokenEnv, "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB")
	dir := t.TempDir()
	config := filepath.Join(dir, "config.toml")
	// The database's folder does not exist, so the bot stops right after its
	// first log line, before any connection to Discord.
	if err := os.WriteFile(config, []byte(`database = "`+filepath.Join(dir, "missing", "meeple.db")+`"`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	if code := run(t.Context(), []string{"run", "-config", config}, os.Getenv, &out, &errw); code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errw.String())
	}
	first := firstLine(errw.String())
	for _, want := range []string{"meeple build", "version=", "commit=", "modified=", "go=" + runtime.Version()} {
		if !strings.Contains(first, want) {
			t.Errorf("first log line %q lacks %q", first, want)
		}
	}
	if strings.Contains(errw.String(), "abcdefghijklmnop") {
		t.Error("the token appears in the output")
	}
}
