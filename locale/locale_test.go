package locale_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/meeplegames/meeple/locale"
)

func catalogue(t *testing.T) *locale.Catalogue {
	t.Helper()
	c, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEveryMessageInEveryLanguage checks that each message of English
// exists in German and French with the same placeholders, and writes
// something other than its id with every placeholder given.
func TestEveryMessageInEveryLanguage(t *testing.T) {
	c := catalogue(t)
	if got := c.Languages(); strings.Join(got, " ") != "en de fr" {
		t.Fatalf("languages %v, want en de fr", got)
	}
	ids := c.IDs()
	if len(ids) < 200 {
		t.Fatalf("only %d messages", len(ids))
	}
	for _, lang := range c.Languages() {
		p := c.For(lang)
		for _, id := range ids {
			want, got := c.Placeholders(locale.English, id), c.Placeholders(lang, id)
			if strings.Join(want, ",") != strings.Join(got, ",") {
				t.Errorf("%s %s: placeholders %v, English has %v", lang, id, got, want)
			}
			var args []any
			for _, name := range want {
				args = append(args, name, 2)
			}
			if text := p.T(id, args...); text == id || text == "" || strings.Contains(text, "<no value>") {
				t.Errorf("%s %s: written as %q", lang, id, text)
			}
		}
	}
}

func TestCataloguesThatDisagreeAreRefused(t *testing.T) {
	en := "[a]\nhello = \"Hello {{.Name}}\"\nbye = \"Bye\"\n"
	for name, de := range map[string]string{
		"lost placeholder":  "[a]\nhello = \"Hallo\"\nbye = \"Tschüss\"\n",
		"extra placeholder": "[a]\nhello = \"Hallo {{.Name}}\"\nbye = \"Tschüss {{.Name}}\"\n",
		"missing message":   "[a]\nhello = \"Hallo {{.Name}}\"\n",
		"unknown message":   "[a]\nhello = \"Hallo {{.Name}}\"\nbye = \"Tschüss\"\nhi = \"Hi\"\n",
		"broken template":   "[a]\nhello = \"Hallo {{.Name}\"\nbye = \"Tschüss\"\n",
	} {
		fsys := fstest.MapFS{"m/en.toml": {Data: []byte(en)}, "m/de.toml": {Data: []byte(de)}}
		if _, err := locale.Load(fsys, "m"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	fsys := fstest.MapFS{"m/en.toml": {Data: []byte(en)}, "m/de.toml": {Data: []byte("[a]\nhello = \"Hallo {{.Name}}\"\nbye = \"Tschüss\"\n")}}
	c, err := locale.Load(fsys, "m")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.For("de").T("a.hello", "Name", "Ada"); got != "Hallo Ada" {
		t.Errorf("got %q", got)
	}
	if got := c.For("de").T("a.hello"); got != "a.hello" {
		t.Errorf("a missing argument wrote %q, want the id", got)
	}
	if _, err := locale.Load(fstest.MapFS{"m/de.toml": {Data: []byte(en)}}, "m"); err == nil {
		t.Error("a catalogue with no English accepted")
	}
}

func TestMatch(t *testing.T) {
	c := catalogue(t)
	for _, tc := range []struct{ in, want string }{
		{"de", "de"}, {"fr", "fr"}, {"en-US", "en"}, {"en-GB", "en"},
		{"de_DE.UTF-8", "de"}, {"de_AT.utf8", "de"}, {"fr_CA@euro", "fr"}, {"fr-CA", "fr"},
		{"es-ES", "en"}, {"pt-BR", "en"}, {"ja", "en"}, {"", "en"}, {"C", "en"}, {"POSIX", "en"}, {"C.UTF-8", "en"}, {"%%", "en"},
	} {
		if got := c.Match(tc.in); got != tc.want {
			t.Errorf("Match(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := c.Match("", "es", "fr"); got != "fr" {
		t.Errorf("the first served locale of several: %q", got)
	}
}

// TestPluralRules checks CLDR's rules through the catalogue: French
// counts 0 as singular, English and German do not.
func TestPluralRules(t *testing.T) {
	c := catalogue(t)
	for _, tc := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 0, "0 days"}, {"en", 1, "1 day"}, {"en", 2, "2 days"},
		{"de", 0, "0 Tage"}, {"de", 1, "1 Tag"}, {"de", 5, "5 Tage"},
		{"fr", 0, "0 jour"}, {"fr", 1, "1 jour"}, {"fr", 2, "2 jours"}, {"fr", 1000000, "1000000 jours"},
	} {
		if got := c.For(tc.lang).T("duration.days", "Count", tc.n); got != tc.want {
			t.Errorf("%s %d: %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

func TestEachGivesTheOtherLanguages(t *testing.T) {
	c := catalogue(t)
	got := c.Each("lobby.joined", "Name", "Ada")
	if len(got) != 2 || got["de"] != "Ada ist beigetreten." || got["fr"] != "Ada a rejoint la table." {
		t.Errorf("Each: %v", got)
	}
}

// TestConcurrentPrinters writes messages from many goroutines (run with
// -race).
func TestConcurrentPrinters(t *testing.T) {
	c := catalogue(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := c.For([]string{"en", "de", "fr"}[g%3])
			for n := range 200 {
				if p.T("lobby.table_full", "Count", n) == "" {
					t.Error("empty text")
				}
			}
		}()
	}
	wg.Wait()
}

func ExamplePrinter_T() {
	words, err := locale.New()
	if err != nil {
		panic(err)
	}
	for _, loc := range []string{"en-US", "de", "fr", "es-ES"} {
		fmt.Println(words.For(loc).T("lobby.table_full", "Count", 4))
	}
	// Output:
	// The table is full (4 seats).
	// Der Tisch ist voll (4 Plätze).
	// La table est complète (4 places).
	// The table is full (4 seats).
}

func TestALanguageMaySpreadOverFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"m/en.toml":      {Data: []byte("[a]\nhello = \"Hello\"\n")},
		"m/game.en.toml": {Data: []byte("[g]\nmove = \"moves to {{.To}}\"\n")},
		"m/de.toml":      {Data: []byte("[a]\nhello = \"Hallo\"\n")},
		"m/game.de.toml": {Data: []byte("[g]\nmove = \"zieht auf {{.To}}\"\n")},
	}
	c, err := locale.Load(fsys, "m")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.For("de").T("g.move", "To", 14); got != "zieht auf 14" {
		t.Errorf("got %q", got)
	}
	fsys["m/more.de.toml"] = &fstest.MapFile{Data: []byte("[g]\nmove = \"geht auf {{.To}}\"\n")}
	if _, err := locale.Load(fsys, "m"); err == nil {
		t.Error("a message given twice for one language accepted")
	}
}

func TestDecimalFollowsTheLanguage(t *testing.T) {
	c, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{locale.English: "-1234.5", locale.German: "-1234,5", locale.French: "-1234,5"} {
		if got := c.For(lang).Decimal(-1234.46, 1); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if got := c.For(locale.German).Decimal(3, 1); got != "3,0" {
		t.Errorf("German 3: %q", got)
	}
}

// TestCountsAreWrittenAsGiven: a message that takes a count never writes
// another number in its place: a plural form that does not write the count
// (English "only the latest kept") holds no number of its own, as French
// "one", which also covers 0, once wrote "(1 action)" for none.
func TestCountsAreWrittenAsGiven(t *testing.T) {
	c := catalogue(t)
	for _, lang := range c.Languages() {
		p := c.For(lang)
		for _, id := range c.IDs() {
			names := c.Placeholders(lang, id)
			if !slices.Contains(names, "Count") {
				continue
			}
			for _, n := range []int{0, 1, 7} {
				var args []any
				for _, name := range names {
					v := 3
					if name == "Count" {
						v = n
					}
					args = append(args, name, v)
				}
				text := p.T(id, args...)
				others := strings.ReplaceAll(text, "3", "") // the other placeholders' value
				if !strings.Contains(text, strconv.Itoa(n)) && strings.ContainsAny(others, "0123456789") {
					t.Errorf("%s %s with a count of %d: %q", lang, id, n, text)
				}
			}
		}
	}
}
