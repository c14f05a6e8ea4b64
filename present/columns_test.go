package present

import "testing"

// Columns are counted as a terminal shows them: wide characters take
// two, combining accents none, colour codes nothing.
func TestVisibleLen(t *testing.T) {
	for s, want := range map[string]int{
		"Ada":                3,
		"\x1b[31mAda\x1b[0m": 3,
		"李雷":                 4,
		"e\u0301lodie":       6,
		"Ada 🎲":              6,
		"👩‍👩‍👧":              2,
	} {
		if got := visibleLen(s); got != want {
			t.Errorf("visibleLen(%q) = %d, want %d", s, got, want)
		}
	}
}
