package eightydays

import (
	"strings"
	"testing"
	"testing/fstest"
)

// The cards' and cities' names in German and French are read from the
// content files, every one of them is given, and a bad one is refused
// with its file, line, entry and field.
func TestNamesAreReadInGermanAndFrench(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	r := NewRules(c)
	for key, names := range r.names {
		for _, lang := range []string{"de", "fr"} {
			if names[lang] == "" {
				t.Errorf("%s has no name in %s", key, lang)
			}
		}
	}
	if got := r.ItemName("card:whist", "de"); got != "Ein Gewinnblatt beim Whist" {
		t.Errorf("whist in German: %q", got)
	}
	if got := r.ItemName("city:38", "de"); got != "Kalkutta" {
		t.Errorf("Calcutta in German: %q", got)
	}
	files := fstest.MapFS{}
	for _, name := range []string{TrackFile, CardsFile} {
		data, err := embedded.ReadFile("content/" + name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = &fstest.MapFile{Data: data}
	}
	text := string(files[CardsFile].Data)
	for from, want := range map[string]string{
		`fr = "Une main gagnante au whist"`: `passepartout.toml:21: card whist: names.fr: missing`,
		`de = "Ein Gewinnblatt beim Whist"`: `passepartout.toml:21: card whist: names.it: unknown language`,
	} {
		to := `fr = ""`
		if strings.HasPrefix(from, "de") {
			to = `it = "Ein Gewinnblatt beim Whist"`
		}
		bad := fstest.MapFS{TrackFile: files[TrackFile], CardsFile: &fstest.MapFile{Data: []byte(strings.Replace(text, from, to, 1))}}
		if _, err := LoadContent(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s → %s: got %v, want %q", from, to, err, want)
		}
	}
}
