package crystalpalace

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestDefaultContentLoads(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	green, blue, orange := 0, 0, 0
	for _, r := range c.Research {
		switch {
		case r.Back == "green":
			green++
		case r.Box == "blue":
			blue++
		default:
			orange++
		}
	}
	counts := map[string][2]int{
		"patents":    {len(c.Patents), 30},
		"characters": {len(c.Characters), 30},
		"research":   {len(c.Research), 45},
		"green":      {green, 32},
		"violet":     {blue + orange, 13},
		"shares":     {len(c.Shares), 15},
		"publishers": {len(c.Publishers), 8},
		"mats":       {len(c.Mats), 10},
		"flyers":     {len(c.Flyers), 11},
		"loans":      {len(c.loanVP), 30},
	}
	for name, n := range counts {
		if n[0] != n[1] {
			t.Errorf("%s: %d, want %d", name, n[0], n[1])
		}
	}
}

// contentWith is the embedded content with old replaced by new (once) in
// file; the test fails when old is not there.
func contentWith(t *testing.T, file, old, new string) fs.FS {
	t.Helper()
	sub, err := fs.Sub(embedded, "content")
	if err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{}
	for _, name := range ContentFiles() {
		data, err := fs.ReadFile(sub, name)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if name == file {
			if !strings.Contains(text, old) {
				t.Fatalf("%s has no %q", file, old)
			}
			text = strings.Replace(text, old, new, 1)
		}
		m[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return m
}

// Numbers the game cannot use are refused at load with the file, the entry
// and the field; each of these hung the game or took gigabytes before.
func TestContentNumbersAreBounded(t *testing.T) {
	for _, tc := range []struct {
		name, file, old, new, want string
	}{
		{"pounds gain of MaxInt64", "patents.toml", `effect = [{ gain = "pounds", n = 8 }]`,
			`effect = [{ gain = "pounds", n = 9223372036854775807 }]`, `patents.toml: patent "audiobook" (line 10): effect[0].n: 9223372036854775807 is out of range`},
		{"action space cost of -1e9", "locations.toml", "actions = [{}, { pounds = -2 }]",
			"actions = [{}, { pounds = -1000000000 }]", `location "museum" (line 40): side[0].actions.pounds: -1000000000 is out of range`},
		{"loan count of 1e9", "loans.toml", "count = 10", "count = 1000000000", `loans.toml: loan "-8" (line 2): count: 1000000000 is out of range`},
		{"display of MaxInt64", "locations.toml", "display = 4", "display = 9223372036854775807", `location "patent" (line 19): side[0].display: 9223372036854775807 is out of range`},
		{"a seventh die", "tracks.toml", "max_dice = 6", "max_dice = 7", "tracks.toml: economy: max_dice: 7 is out of range (want 1 to 6)"},
		{"black market cost", "market.toml", "cost = 1\n", "cost = -1000000000\n", "market.toml: market #1 (line 3): space[0].cost: -1000000000 is out of range"},
		{"income track value", "tracks.toml", "income = 12", "income = 1000000000", "tracks.toml: income: income.income: 1000000000 is out of range"},
	} {
		_, err := LoadContent(contentWith(t, tc.file, tc.old, tc.new))
		if !errors.Is(err, ErrContent) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// Texts shown to players are bounded too: a name of 200,000 characters
// would overflow every Discord message it appears in.
func TestContentTextsAreBounded(t *testing.T) {
	long := strings.Repeat("a", 200000)
	for _, tc := range []struct {
		name, file, old, new, want string
	}{
		{"character name", "characters.toml", `name = "Charlotte Bronte"`, `name = "` + long + `"`,
			`characters.toml: character "bronte" (line 16): name: 200000 characters is too long (at most 60)`},
		{"patent id", "patents.toml", `id = "audiobook"`, `id = "` + long + `"`, "patents.toml: patent #1 (line 10): id: 200000 characters"},
		{"prototype", "patents.toml", `prototype = "Audiobook"`, `prototype = "` + long + `"`, `patent "audiobook" (line 10): prototype: 200000 characters`},
		{"location name", "locations.toml", `name = "Patent Office"`, `name = "` + long + `"`, `location "patent" (line 19): name: 200000 characters`},
		{"round name", "tracks.toml", `"Spring 1849"`, `"` + long + `"`, "tracks.toml: rounds: years[0]: 200000 characters"},
		{"Westminster space", "tracks.toml", `{ name = "I",`, `{ name = "` + long + `",`, "westminster[1].name: 200000 characters"},
	} {
		_, err := LoadContent(contentWith(t, tc.file, tc.old, tc.new))
		if !errors.Is(err, ErrContent) || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 200 {
			msg := "<nil>"
			if err != nil {
				msg = err.Error()
				if len(msg) > 300 {
					msg = msg[:300] + "…"
				}
			}
			t.Errorf("%s: got %s, want a short error containing %q", tc.name, msg, tc.want)
		}
	}
}

// A value of the wrong type names its entry and its own line, not the last
// entry's.
func TestContentTypeErrorNamesLineAndEntry(t *testing.T) {
	_, err := LoadContent(contentWith(t, "patents.toml", "vp = [4, 3, 2]", `vp = [4, "three", 2]`))
	want := `patents.toml: patent "audiobook" (line 17): vp:`
	if !errors.Is(err, ErrContent) || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error beginning %q", err, want)
	}
	_, err = LoadContent(contentWith(t, "patents.toml", "cost = { gears = 1, energy = 1, pounds = 0 }", `cost = { gears = "one", energy = 1, pounds = 0 }`))
	want = `patents.toml: patent "audiobook" (line 16): cost.gears:`
	if !errors.Is(err, ErrContent) || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error beginning %q", err, want)
	}
}

// An effect counted per pounds cannot snowball: one effect gives at most
// maxEffect, so a state cannot overflow into a loan loop.
func TestEffectsPerMetricAreBounded(t *testing.T) {
	s := newGame(t, 2, 1)
	s.Seats[0].Pounds = 1 << 60
	if got := s.amount(0, Task{Kind: tEffect, Gain: gainPounds, Amount: 50, Per: metricPounds}); got != maxEffect {
		t.Errorf("50 pounds per pound with %d pounds: %d, want %d", s.Seats[0].Pounds, got, maxEffect)
	}
	if got := s.amount(0, Task{Kind: tEffect, Gain: gainPounds, Amount: -50, Per: metricPounds}); got != -maxEffect {
		t.Errorf("-50 pounds per pound: %d, want %d", got, -maxEffect)
	}
}

// lineOf is the line (from 1) where text first appears in the embedded file.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := fs.ReadFile(embedded, "content/"+file)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), text)
	if i < 0 {
		t.Fatalf("%s has no %q", file, text)
	}
	return strings.Count(string(data[:i]), "\n") + 1
}

// Type errors inside lists of tables, nested in an entry or in tracks.toml,
// name the line of the value at fault.
func TestContentTypeErrorsInNestedTablesNameTheirLine(t *testing.T) {
	for _, tc := range []struct{ file, old, new, want string }{
		{"tracks.toml", "space = 4\n", "space = \"four\"\n", "tracks.toml: line %d: buzz.poster.space:"},
		{"locations.toml", "display = 4", "display = \"x\"", "locations.toml: location \"patent\" (line %d): side.display:"},
		{"market.toml", "cost = 1\n", "cost = \"x\"\n", "market.toml: market #1 (line %d): space.cost:"},
	} {
		want := fmt.Sprintf(tc.want, lineOf(t, tc.file, tc.old))
		_, err := LoadContent(contentWith(t, tc.file, tc.old, tc.new))
		if !errors.Is(err, ErrContent) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("got %v, want an error beginning %q", err, want)
		}
	}
}
