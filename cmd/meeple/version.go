package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

// build is what the Go toolchain recorded in the binary about how it was
// built: the module's version, the commit and the Go version.
type build struct {
	Version   string // module version, e.g. "v1.2.0", or "(devel)"
	Commit    string // vcs.revision, or "unknown" without version control
	CommitAt  string // vcs.time, or ""
	Modified  bool   // vcs.modified: built with uncommitted changes
	GoVersion string // e.g. "go1.26.8"
}

// readBuild returns this binary's build information.
func readBuild() build {
	info, ok := debug.ReadBuildInfo()
	return describeBuild(info, ok)
}

// describeBuild turns the toolchain's record into a build; ok false (a
// binary built without module support) gives "unknown" everywhere.
func describeBuild(info *debug.BuildInfo, ok bool) build {
	b := build{Version: "unknown", Commit: "unknown", GoVersion: "unknown"}
	if !ok || info == nil {
		return b
	}
	if info.Main.Version != "" {
		b.Version = info.Main.Version
	}
	if info.GoVersion != "" {
		b.GoVersion = info.GoVersion
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.CommitAt = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// commitText is the commit as people read it: the revision, its time, and
// whether the working tree had changes.
func (b build) commitText() string {
	text := b.Commit
	if b.CommitAt != "" {
		text += " (" + b.CommitAt + ")"
	}
	if b.Modified {
		text += ", modified"
	}
	return text
}

// logAttrs are the build's fields as slog key-value pairs.
func (b build) logAttrs() []any {
	return []any{"version", b.Version, "commit", b.Commit, "modified", b.Modified, "go", b.GoVersion}
}

func runVersion(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("version", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	b := readBuild()
	fmt.Fprintf(stdout, "meeple %s\ncommit %s\n%s\n", b.Version, b.commitText(), b.GoVersion)
	return nil
}
