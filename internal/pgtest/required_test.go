package pgtest

import "testing"

// Where RequireEnv asks for the PostgreSQL tests to run (as .ci/run
// does), a test that needs a missing server fails instead of skipping.
func TestAMissingServerFailsWhenRequired(t *testing.T) {
	t.Setenv(RequireEnv, "1")
	var s Server
	s.once.Do(func() { s.skip = "no initdb on this machine" })
	rec := &outcome{TB: t}
	s.Database(rec)
	if rec.first != "failed" {
		t.Errorf("the test was %q, want failed", rec.first)
	}
}

// outcome records whether a test was first skipped or failed, and lets it
// go on.
type outcome struct {
	testing.TB
	first string
}

func (o *outcome) note(what string) {
	if o.first == "" {
		o.first = what
	}
}

func (o *outcome) Skip(...any)           { o.note("skipped") }
func (o *outcome) Fatal(...any)          { o.note("failed") }
func (o *outcome) Fatalf(string, ...any) { o.note("failed") }
