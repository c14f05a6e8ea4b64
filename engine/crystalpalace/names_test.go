package crystalpalace

import (
	"strings"
	"testing"
)

// Every named item of the embedded content (patents, prototypes,
// characters, research tiles, nations, locations, years, Westminster
// spaces but the numerals, the Port's and Waterloo's possibilities) has a German and a
// French name.
func TestEveryItemIsNamedInGermanAndFrench(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.names) < 150 {
		t.Fatalf("only %d items named", len(c.names))
	}
	for key, names := range c.names {
		if strings.HasPrefix(key, keyWest) && names["en"] != "star" {
			continue // Westminster's spaces I to V: the numerals read the same
		}
		for _, lang := range otherLanguages {
			if names[lang] == "" {
				t.Errorf("%s has no name in %s (English %q)", key, lang, names["en"])
			}
		}
	}
	if got := c.ItemName("patent:"+c.Patents[0].ID, "de"); got != "Hörbuch" {
		t.Errorf("the Audiobook in German is %q", got)
	}
	if got := c.ItemName(c.Locations[locPort].Sides[0].Possibilities[1].item, "fr"); got != "2 engrenages" {
		t.Errorf("the Port's gears in French read %q", got)
	}
}
