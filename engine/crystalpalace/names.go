package crystalpalace

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Item keys name content in engine.Text arguments, for the wording layer
// to write in the reader's language: "patent:crane", "proto:crane",
// "char:bronte", "research:<id>", "loc:westminster", "at:westminster"
// ("at Westminster"), "west:3" (a Westminster track space, from 0).
const (
	keyPatent   = "patent:"
	keyProto    = "proto:"
	keyChar     = "char:"
	keyResearch = "research:"
	keyLoc      = "loc:"
	keyAt       = "at:"
	keyWest     = "west:"
	keyYear     = "year:"
)

// itemKeys are the item keys of the content's entries, by index, made
// once so that the log names items without allocating.
type itemKeys struct {
	patent, proto, char, research, at, west, year []string
}

// otherLanguages are the languages content names may be given in besides
// English, the content's own.
var otherLanguages = [...]string{"de", "fr"}

// ItemName names the content item key in lang ("en", "de", "fr"): the
// name the content gives for lang, else its English name; "" for a key
// that names nothing. It implements engine.Namer.
func (c *Content) ItemName(key, lang string) string {
	names := c.names[key]
	if n := names[lang]; n != "" {
		return n
	}
	return names["en"]
}

// ItemName names content items for the wording layer (see Content.ItemName).
func (r *Rules) ItemName(key, lang string) string { return r.c.ItemName(key, lang) }

// nameItems fills c.names from the content, checking the names in other
// languages: a known language, not empty, not too long.
func (c *Content) nameItems(v *validator) {
	c.names = map[string]map[string]string{}
	k := &c.keys
	*k = itemKeys{}
	add := func(file, entry, id string, i int, key, field, english string, other map[string]string) {
		switch {
		case strings.HasPrefix(key, keyPatent):
			k.patent = append(k.patent, key)
		case strings.HasPrefix(key, keyProto):
			k.proto = append(k.proto, key)
		case strings.HasPrefix(key, keyChar):
			k.char = append(k.char, key)
		case strings.HasPrefix(key, keyResearch):
			k.research = append(k.research, key)
		case strings.HasPrefix(key, keyAt):
			k.at = append(k.at, key)
		case strings.HasPrefix(key, keyWest):
			k.west = append(k.west, key)
		case strings.HasPrefix(key, keyYear):
			k.year = append(k.year, key)
		}
		names := map[string]string{"en": english}
		for lang, name := range other {
			known := false
			for _, l := range otherLanguages {
				known = known || l == lang
			}
			if !known || name == "" || utf8.RuneCountInString(name) > maxName {
				v.atEntry(file, entry, id, i)
				switch {
				case !known:
					v.fail(field+"."+lang, "unknown language (want de or fr)")
				case name == "":
					v.fail(field+"."+lang, "empty name")
				default:
					v.text(field+"."+lang, name, maxName)
				}
				continue
			}
			names[lang] = name
		}
		c.names[key] = names
	}
	for i, p := range c.Patents {
		add("patents.toml", "patent", p.ID, i, keyPatent+p.ID, "names", p.Name, p.Names)
		add("patents.toml", "patent", p.ID, i, keyProto+p.ID, "prototype_names", p.Prototype, p.PrototypeNames)
	}
	for i, ch := range c.Characters {
		add("characters.toml", "character", ch.ID, i, keyChar+ch.ID, "names", ch.Name, ch.Names)
	}
	for i, r := range c.Research {
		add("research.toml", "tile", r.ID, i, keyResearch+r.ID, "names", r.Name, r.Names)
	}
	for i, l := range c.Locations {
		add("locations.toml", "location", l.Key, i, keyLoc+l.Key, "names", l.Name, l.Names)
		at := map[string]string{}
		english := "at the " + l.Name
		if locKind(i) == locWestminster || locKind(i) == locWaterloo {
			english = "at " + l.Name
		}
		for lang, phrase := range l.At {
			if lang == "en" {
				english = phrase
				continue
			}
			at[lang] = phrase
		}
		add("locations.toml", "location", l.Key, i, keyAt+l.Key, "at", english, at)
	}
	for i, y := range c.Tracks.Years {
		other := map[string]string{}
		for lang, names := range c.Tracks.YearNames {
			if len(names) != len(c.Tracks.Years) {
				v.at("tracks.toml", "")
				v.fail("year_names."+lang, "want %d names (one per year), got %d", len(c.Tracks.Years), len(names))
				continue
			}
			other[lang] = names[i]
		}
		add("tracks.toml", "year", y, i, keyYear+strconv.Itoa(i), "year_names", y, other)
	}
	for i, w := range c.Tracks.Westminster {
		add("tracks.toml", "westminster", strconv.Itoa(i+1), i, keyWest+strconv.Itoa(i), "names", w.Name, w.Names)
	}
}
