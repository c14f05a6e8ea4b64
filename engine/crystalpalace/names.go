package crystalpalace

import (
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Item keys name content in engine.Text arguments, for the wording layer
// to write in the reader's language: "patent:crane", "proto:crane",
// "char:bronte", "research:<id>", "loc:westminster", "at:westminster"
// ("at Westminster"), "west:3" (a Westminster track space, from 0),
// "nation:1a" (a mat's nation), "poss:port:0:gears" (the text of an action
// possibility of the Port or Waterloo Station, on a location's side 0).
const (
	keyPatent   = "patent:"
	keyProto    = "proto:"
	keyChar     = "char:"
	keyResearch = "research:"
	keyLoc      = "loc:"
	keyAt       = "at:"
	keyWest     = "west:"
	keyYear     = "year:"
	keyNation   = "nation:"
	keyPoss     = "poss:"
)

// itemKeys are the item keys of the content's entries, by index, made
// once so that the log names items without allocating.
type itemKeys struct {
	patent, proto, char, research, at, west, year, loc, nation []string
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

// ItemKeys lists the keys ItemName names, sorted. It implements
// engine.ItemLister.
func (c *Content) ItemKeys() []string { return slices.Sorted(maps.Keys(c.names)) }

// ItemKeys lists the keys the content names (see Content.ItemKeys).
func (r *Rules) ItemKeys() []string { return r.c.ItemKeys() }

// ItemName names content items for the wording layer (see Content.ItemName).
func (r *Rules) ItemName(key, lang string) string { return r.c.ItemName(key, lang) }

// nameItems fills c.names from the content, checking the names in other
// languages: a known language, not empty, not too long. An action
// possibility's texts are checked the same way, as its item key's names.
func (c *Content) nameItems(v *validator) {
	c.names = map[string]map[string]string{}
	c.keys = itemKeys{}
	k := &c.keys
	add := func(list *[]string, file, entry, id string, i int, key, field, english string, other map[string]string) {
		if list != nil {
			*list = append(*list, key)
		}
		c.addNames(v, file, entry, id, i, key, field, english, other, maxName)
	}
	for i, p := range c.Patents {
		add(&k.patent, "patents.toml", "patent", p.ID, i, keyPatent+p.ID, "names", p.Name, p.Names)
		add(&k.proto, "patents.toml", "patent", p.ID, i, keyProto+p.ID, "prototype_names", p.Prototype, p.PrototypeNames)
	}
	for i, ch := range c.Characters {
		add(&k.char, "characters.toml", "character", ch.ID, i, keyChar+ch.ID, "names", ch.Name, ch.Names)
	}
	for i, r := range c.Research {
		add(&k.research, "research.toml", "tile", r.ID, i, keyResearch+r.ID, "names", r.Name, r.Names)
	}
	for i, m := range c.Mats {
		add(&k.nation, "mats.toml", "mat", m.ID+m.Side, i, keyNation+m.ID+m.Side, "nation_names", m.Nation, m.NationNames)
	}
	for i := range c.Locations {
		l := &c.Locations[i]
		add(&k.loc, "locations.toml", "location", l.Key, i, keyLoc+l.Key, "names", l.Name, l.Names)
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
		add(&k.at, "locations.toml", "location", l.Key, i, keyAt+l.Key, "at", english, at)
		for side := range l.Sides {
			for j := range l.Sides[side].Possibilities {
				po := &l.Sides[side].Possibilities[j]
				po.item = keyPoss + l.Key + ":" + strconv.Itoa(side) + ":" + po.Key
				field := "side " + strconv.Itoa(side+1) + " possibility " + po.Key + " texts"
				c.addNames(v, "locations.toml", "location", l.Key, i, po.item, field, po.Text, po.Texts, maxText)
			}
		}
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
		add(&k.year, "tracks.toml", "year", y, i, keyYear+strconv.Itoa(i), "year_names", y, other)
	}
	for i, w := range c.Tracks.Westminster {
		add(&k.west, "tracks.toml", "westminster", strconv.Itoa(i+1), i, keyWest+strconv.Itoa(i), "names", w.Name, w.Names)
	}
}

// addNames records item key's English name and its names in other
// languages, failing at file's entry i on a name given for a language
// Meeple does not speak, an empty one, or one longer than most
// characters. The languages are checked in order, so the first mistake
// named is always the same.
func (c *Content) addNames(v *validator, file, entry, id string, i int, key, field, english string, other map[string]string, most int) {
	names := map[string]string{"en": english}
	for _, lang := range slices.Sorted(maps.Keys(other)) {
		name := other[lang]
		known := slices.Contains(otherLanguages[:], lang)
		if !known || name == "" || utf8.RuneCountInString(name) > most {
			v.atEntry(file, entry, id, i)
			switch {
			case !known:
				v.fail(field+"."+lang, "unknown language (want de or fr)")
			case name == "":
				v.fail(field+"."+lang, "empty name")
			default:
				v.text(field+"."+lang, name, most)
			}
			continue
		}
		names[lang] = name
	}
	c.names[key] = names
}
