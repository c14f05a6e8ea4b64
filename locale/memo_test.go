package locale

import (
	"strings"
	"testing"
)

// A message written again with the same plain arguments reads the same as
// the first time, and other arguments or another language write anew.
func TestWrittenMessagesAreRemembered(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	en, de := c.For(English), c.For(German)
	first := en.T("list.and", "List", "Ada, Bob", "Last", "Cy")
	if again := en.T("list.and", "List", "Ada, Bob", "Last", "Cy"); again != first {
		t.Errorf("written again: %q, first %q", again, first)
	}
	if other := en.T("list.and", "List", "Ada", "Last", "Cy"); other == first || !strings.Contains(other, "Ada") || strings.Contains(other, "Bob") {
		t.Errorf("other arguments wrote %q (first %q)", other, first)
	}
	if german := de.T("list.and", "List", "Ada, Bob", "Last", "Cy"); german == first {
		t.Errorf("German wrote the English %q", german)
	}
	if _, plain := memoKeyOf(English, "x", []any{"N", struct{}{}}); plain {
		t.Error("an argument that is not a plain value is remembered")
	}
}
