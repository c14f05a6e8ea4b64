package locale

import (
	"os"
	"strings"
	"testing"
)

// Each language's catalogues use the terms docs/languages.md requires of
// it and none it forbids (its table "Checked terms").
func TestGlossary(t *testing.T) {
	doc, err := os.ReadFile("../docs/languages.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "### Checked terms")
	if !ok {
		t.Fatal(`docs/languages.md has no "### Checked terms" table`)
	}
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || strings.TrimSpace(cells[1]) == "language" || strings.HasPrefix(strings.TrimSpace(cells[1]), "-") {
			continue
		}
		lang := strings.TrimSpace(cells[1])
		all := strings.Join(c.Texts(lang), "\n")
		if all == "" {
			t.Fatalf("no catalogue for %q", lang)
		}
		rows++
		for _, term := range terms(cells[2]) {
			if !strings.Contains(all, term) {
				t.Errorf("%s: the required term %q is never used", lang, term)
			}
		}
		for _, term := range terms(cells[3]) {
			for _, text := range c.Texts(lang) {
				if strings.Contains(text, term) {
					t.Errorf("%s: the forbidden term %q is used: %q", lang, term, text)
				}
			}
		}
	}
	if rows == 0 {
		t.Fatal("the Checked terms table has no rows")
	}
}

// terms splits a table cell of terms separated by ";", each in backticks.
func terms(cell string) []string {
	var out []string
	for _, t := range strings.Split(cell, ";") {
		if t = strings.Trim(strings.TrimSpace(t), "`"); t != "" {
			out = append(out, t)
		}
	}
	return out
}
