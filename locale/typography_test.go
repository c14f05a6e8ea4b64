package locale

import "testing"

// French is set as a French editor sets it (see FrenchTypography).
func TestFrenchTypography(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	texts := c.Texts("fr")
	if len(texts) == 0 {
		t.Fatal("no French texts")
	}
	for _, text := range texts {
		if mistake := FrenchTypography(text); mistake != "" {
			t.Errorf("%s: %q", mistake, text)
		}
	}
	for _, bad := range []string{"Banque d'Angleterre", "lieu : x", "« x»", "“x”"} {
		if FrenchTypography(bad) == "" {
			t.Errorf("%q passes", bad)
		}
	}
}
