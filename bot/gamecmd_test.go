package bot

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLogPagesFitOneMessage(t *testing.T) {
	t.Parallel()
	var lines []string
	for n := range 40 {
		lines = append(lines, strings.Repeat("x", 10+n*13%logEntryChars))
	}
	pages := logPages(lines)
	next := len(lines)
	for i, p := range pages {
		if p[1] != next || p[0] >= p[1] {
			t.Fatalf("page %d is %v after %d: pages must cover the log newest first without gaps", i+1, p, next)
		}
		size := 0
		for _, l := range lines[p[0]:p[1]] {
			size += utf8.RuneCountInString(l) + 1
		}
		if size > logPageChars || p[1]-p[0] > logPageSize {
			t.Errorf("page %d holds %d lines in %d characters", i+1, p[1]-p[0], size)
		}
		next = p[0]
	}
	if next != 0 {
		t.Errorf("the oldest %d lines are on no page", next)
	}
	if got := logPages(nil); len(got) != 0 {
		t.Errorf("an empty log has pages %v", got)
	}
}
