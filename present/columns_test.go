package present

import (
	"testing"

	"github.com/meeplegames/meeple/locale"
	"github.com/rivo/uniseg"
)

func TestVisibleLenCountsColumns(t *testing.T) {
	for s, want := range map[string]int{
		"":                              0,
		"Ada 12 £":                      8,
		"\x1b[1;31mAda\x1b[0m 12":       6,
		"日本 go":                         7,
		"e\u0301t\u00e9":                3,
		"👍 ok":                          5,
		"cut \x1b[31":                   4,
		"\x1b[2mdim\x1b[0m\x1b[0m!":     4,
		"« Publicité »\u202f: 3 £ → 12": 24,
		"a\u200bb":                      2,
	} {
		if got := visibleLen(s); got != want {
			t.Errorf("visibleLen(%q) = %d, want %d", s, got, want)
		}
	}
	if got := StripANSI("a\x1b[31mb\x1b[0mc\x1b[3"); got != "abc" {
		t.Errorf("StripANSI = %q, want abc", got)
	}
	// the quick count agrees with the grapheme clusters' on every text of
	// every catalogue
	cat, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range cat.Languages() {
		for _, text := range cat.Texts(lang) {
			if got, want := visibleLen(text), uniseg.StringWidth(text); got != want {
				t.Errorf("visibleLen(%q) = %d, grapheme clusters say %d", text, got, want)
			}
		}
	}
}
