package shard

import (
	"slices"
	"strings"
	"testing"
)

func TestOfIsDiscordsFormula(t *testing.T) {
	// 81384788765712384 >> 22 = 19403633641: 2 mod 4, 1 mod 3
	for _, tc := range []struct {
		guild     string
		count, id int
		ok        bool
	}{
		{"81384788765712384", 4, 2, true},
		{"81384788765712384", 3, 1, true},
		{"81384788765712384", 1, 0, true},
		{"", 8, 0, true}, // DMs: shard 0
		{"41771983423143936", 0, 0, false},
		{"not a snowflake", 2, 0, false},
	} {
		id, ok := Of(tc.guild, tc.count)
		if id != tc.id || ok != tc.ok {
			t.Errorf("Of(%q, %d) = %d, %v; want %d, %v", tc.guild, tc.count, id, ok, tc.id, tc.ok)
		}
	}
}

func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		text  string
		count int
		want  []int
	}{
		{"0-3", 8, []int{0, 1, 2, 3}},
		{"5", 8, []int{5}},
		{" 6-7, 0 ", 8, []int{0, 6, 7}},
		{"0-0", 1, []int{0}},
	} {
		s, err := ParseRange(tc.text, tc.count)
		if err != nil || !slices.Equal(s.IDs, tc.want) || s.Count != tc.count {
			t.Errorf("ParseRange(%q, %d) = %+v, %v; want %v", tc.text, tc.count, s, err, tc.want)
		}
	}
	for _, tc := range []struct {
		text  string
		count int
		err   string
	}{
		{"0-4", 4, "shard 4 is outside 0-3"},
		{"3-1", 4, `"3-1" is not a shard`},
		{"a", 4, `"a" is not a shard`},
		{"", 4, `"" is not a shard`},
		{"-1", 4, `"-1" is not a shard`},
		{"0-1,1", 4, "named twice"},
		{"0", 0, "shard count 0"},
		{"0", MaxCount + 1, "shard count"},
	} {
		if _, err := ParseRange(tc.text, tc.count); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseRange(%q, %d): %v; want an error with %q", tc.text, tc.count, err, tc.err)
		}
	}
}

func TestSetHolds(t *testing.T) {
	var alone Set // the zero value runs everything
	if !alone.Holds("81384788765712384") || !alone.Holds("") || !alone.Whole() || alone.Check() != nil {
		t.Error("the zero value should hold every guild")
	}
	s, err := ParseRange("2-3", 4)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Holds("81384788765712384") || s.Holds("") || s.Whole() {
		t.Errorf("%v: holds shard 2's guild, not DMs, not everything", s)
	}
	if got := s.String(); got != "2-3 of 4" {
		t.Errorf("String() = %q", got)
	}
	if got := (Set{IDs: []int{0, 1, 2, 5}, Count: 6}).String(); got != "0-2,5 of 6" {
		t.Errorf("String() = %q", got)
	}
	if !All(3).Whole() || !slices.Equal(All(3).IDs, []int{0, 1, 2}) {
		t.Errorf("All(3) = %+v", All(3))
	}
	for _, bad := range []Set{{IDs: []int{4}, Count: 4}, {IDs: []int{1, 1}, Count: 4}, {Count: 4}, {IDs: []int{0}}} {
		if bad.Check() == nil {
			t.Errorf("%+v passed Check", bad)
		}
	}
}
