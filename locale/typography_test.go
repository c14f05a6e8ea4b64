package locale

import (
	"regexp"
	"strings"
	"testing"
)

// French is set as a French editor sets it: a narrow no-break space
// (U+202F) before : ; ! and ?, the typographic apostrophe ’, and « »
// quotes with narrow no-break spaces inside, never “ ”.
func TestFrenchTypography(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	spaceBefore := regexp.MustCompile(`[ \x{00a0}][:;!?]`)
	texts := c.Texts("fr")
	if len(texts) == 0 {
		t.Fatal("no French texts")
	}
	for _, text := range texts {
		switch {
		case strings.ContainsRune(text, '\''):
			t.Errorf("straight apostrophe, want ’: %q", text)
		case spaceBefore.MatchString(text):
			t.Errorf("a plain space before : ; ! or ?, want U+202F: %q", text)
		case strings.ContainsAny(text, "“”"):
			t.Errorf("“ ” quotes, want « »: %q", text)
		case strings.Count(text, "«") != strings.Count(text, "«\u202f") || strings.Count(text, "»") != strings.Count(text, "\u202f»"):
			t.Errorf("« » without a narrow no-break space inside: %q", text)
		}
	}
}
