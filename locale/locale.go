// Package locale holds the words Meeple shows people, in English, German
// and French, and picks the language a reader gets.
//
// The words live in message catalogues, one TOML file per language under
// messages/ (embedded), in go-i18n's format: a message is a key and its
// text, or a table of CLDR plural forms ("one", "other", and "many" in
// French) for a text that counts something. Placeholders are
// text/template fields, {{.Name}}; a counted message gets its number as
// {{.Count}}. English is complete and is the fallback: any other locale,
// and any message a catalogue lacks, reads in English.
//
// New checks the catalogues before anyone reads them: every language has
// the messages of English, with the same placeholders, and every template
// parses. A community correcting a translation therefore cannot ship a
// file that loses a placeholder.
//
// The package knows no Discord, no game and no storage; it imports nothing
// of Meeple's. A Catalogue and its Printers are safe for concurrent use:
// they are not changed after New, but for the memo of written messages,
// which is behind a lock.
package locale

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/template"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	gotemplate "github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Languages Meeple speaks, as two-letter codes: Discord's locales for
// them ("de", "fr"; English is "en-US" or "en-GB") and POSIX LANG values
// ("de_DE.UTF-8") reduce to these.
const (
	English = "en"
	German  = "de"
	French  = "fr"
)

//go:embed messages/*.toml
var files embed.FS

// Catalogue is every message in every language. Build it with New.
type Catalogue struct {
	bundle  *i18n.Bundle
	langs   []language.Tag // English first
	matcher language.Matcher
	// messages[lang][id] are the plural forms of one message
	messages map[string]map[string]map[string]string
	// parser executes templates; a missing placeholder is an error
	parser gotemplate.Parser
	said   memo // messages written with plain arguments
}

// New returns the embedded catalogues, read and checked at the first
// call and shared by every caller after it.
func New() (*Catalogue, error) { return embedded() }

var embedded = sync.OnceValues(func() (*Catalogue, error) { return Load(files, "messages") })

// Load reads the catalogues dir/<lang>.toml and dir/<part>.<lang>.toml
// of fsys (a language's files together make its catalogue; en.toml is
// required) and checks them like New. It lets a test or a community try a
// corrected file.
func Load(fsys fs.FS, dir string) (*Catalogue, error) {
	c := &Catalogue{
		bundle:   i18n.NewBundle(language.English),
		messages: map[string]map[string]map[string]string{},
		parser:   &gotemplate.TextParser{Option: "missingkey=error"},
	}
	c.bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, err := fs.Glob(fsys, path.Join(dir, "*.toml"))
	if err != nil {
		return nil, fmt.Errorf("locale: %w", err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("locale: %w", err)
		}
		f, err := c.bundle.ParseMessageFileBytes(data, path.Base(name))
		if err != nil {
			return nil, fmt.Errorf("locale: %s: %w", path.Base(name), err)
		}
		lang := f.Tag.String()
		forms, seen := c.messages[lang]
		if !seen {
			forms = map[string]map[string]string{}
			c.messages[lang] = forms
			if lang == English {
				c.langs = append([]language.Tag{f.Tag}, c.langs...)
			} else {
				c.langs = append(c.langs, f.Tag)
			}
		}
		for _, m := range f.Messages {
			if _, dup := forms[m.ID]; dup {
				return nil, fmt.Errorf("locale: %s: message %q is also in another %s file", path.Base(name), m.ID, lang)
			}
			forms[m.ID] = pluralForms(m)
		}
	}
	if _, ok := c.messages[English]; !ok {
		return nil, errors.New("locale: no English catalogue (en.toml)")
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	c.matcher = language.NewMatcher(c.langs)
	return c, nil
}

func pluralForms(m *i18n.Message) map[string]string {
	out := map[string]string{}
	for form, text := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if text != "" {
			out[form] = text
		}
	}
	return out
}

// placeholder finds the fields a template reads: {{.Name}}.
var placeholder = regexp.MustCompile(`\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)`)

// Placeholders returns the fields message id reads in lang, over all its
// plural forms, sorted; nil when lang lacks the message.
func (c *Catalogue) Placeholders(lang, id string) []string {
	set := map[string]bool{}
	for _, text := range c.messages[lang][id] {
		for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
			set[m[1]] = true
		}
	}
	if len(set) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(set))
}

// Forms returns the templates of message id in lang, one per plural
// form, sorted; nil when lang lacks the message. Tests read them to
// recognise a written message whatever its arguments.
func (c *Catalogue) Forms(lang, id string) []string {
	forms := c.messages[lang][id]
	if len(forms) == 0 {
		return nil
	}
	return slices.Sorted(maps.Values(forms))
}

// check finds messages missing from a language, placeholders that differ
// from English, a counted message with no "other" form, and templates that
// do not parse.
func (c *Catalogue) check() error {
	var errs []error
	english := c.messages[English]
	for _, lang := range c.Languages() {
		for _, id := range slices.Sorted(maps.Keys(c.messages[lang])) {
			forms := c.messages[lang][id]
			if _, ok := english[id]; !ok {
				errs = append(errs, fmt.Errorf("%s: %s is not an English message (a typo in its key?)", lang, id))
				continue
			}
			if _, ok := forms["other"]; !ok {
				errs = append(errs, fmt.Errorf("%s: %s has no \"other\" form", lang, id))
			}
			if want, got := c.Placeholders(English, id), c.Placeholders(lang, id); !slices.Equal(want, got) {
				errs = append(errs, fmt.Errorf("%s: %s reads %v; English reads %v", lang, id, got, want))
			}
			for form, text := range forms {
				if _, err := template.New("").Option("missingkey=error").Parse(text); err != nil {
					errs = append(errs, fmt.Errorf("%s: %s (%s): %w", lang, id, form, err))
				}
			}
		}
		if lang == English {
			continue
		}
		for id := range english {
			if _, ok := c.messages[lang][id]; !ok {
				errs = append(errs, fmt.Errorf("%s: %s is missing", lang, id))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("locale: the catalogues disagree: %w", errors.Join(errs...))
	}
	return nil
}

// Languages returns the codes of the catalogues' languages, English first.
func (c *Catalogue) Languages() []string {
	out := make([]string, len(c.langs))
	for i, t := range c.langs {
		out[i] = t.String()
	}
	return out
}

// Texts returns every text of lang's catalogue (each plural form), as
// written, placeholders included; nil for a language it lacks.
func (c *Catalogue) Texts(lang string) []string {
	var out []string
	for _, forms := range c.messages[lang] {
		for _, text := range forms {
			out = append(out, text)
		}
	}
	return out
}

// IDs returns the ids of every message, sorted.
func (c *Catalogue) IDs() []string { return slices.Sorted(maps.Keys(c.messages[English])) }

// Has reports whether id is a message.
func (c *Catalogue) Has(id string) bool {
	_, ok := c.messages[English][id]
	return ok
}

// Match returns the catalogue language that best serves the locales named
// (in order of preference), or English when none is served. It reads
// Discord's locales ("de", "fr", "en-US") and POSIX ones
// ("de_DE.UTF-8", "fr_CA@euro"); empty and malformed names are skipped.
func (c *Catalogue) Match(locales ...string) string {
	var tags []language.Tag
	for _, l := range locales {
		if t, ok := parse(l); ok {
			tags = append(tags, t)
		}
	}
	if len(tags) == 0 {
		return English
	}
	_, i, conf := c.matcher.Match(tags...)
	if conf == language.No {
		return English
	}
	return c.langs[i].String()
}

// parse reads a Discord or POSIX locale name as a language tag.
func parse(name string) (language.Tag, bool) {
	name, _, _ = strings.Cut(name, ".") // de_DE.UTF-8
	name, _, _ = strings.Cut(name, "@") // fr_FR@euro
	name = strings.ReplaceAll(strings.TrimSpace(name), "_", "-")
	if name == "" || name == "C" || name == "POSIX" {
		return language.Und, false
	}
	t, err := language.Parse(name)
	return t, err == nil
}

// Printer writes messages in one language.
type Printer struct {
	c    *Catalogue
	lang string
	loc  *i18n.Localizer
}

// For returns a Printer in the language that best serves the locales
// named (see Match).
func (c *Catalogue) For(locales ...string) *Printer {
	lang := c.Match(locales...)
	return &Printer{c: c, lang: lang, loc: i18n.NewLocalizer(c.bundle, lang)}
}

// Lang is the printer's language code.
func (p *Printer) Lang() string { return p.lang }

// T writes message id with its placeholders filled from args, given as
// name, value pairs: T("lobby.joined", "Name", "Ada"). A "Count" argument
// chooses the plural form. A message the catalogue lacks is written as its
// id, so that the mistake shows (the package's tests catch it first).
func (p *Printer) T(id string, args ...any) string {
	k, plain := memoKeyOf(p.lang, id, args)
	if plain {
		if s, ok := p.c.said.get(k); ok {
			return s
		}
	}
	s := p.write(id, args)
	if plain {
		p.c.said.put(k, s)
	}
	return s
}

// write executes message id's template with args.
func (p *Printer) write(id string, args []any) string {
	data := make(map[string]any, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		if k, ok := args[i].(string); ok {
			data[k] = args[i+1]
		}
	}
	lc := &i18n.LocalizeConfig{MessageID: id, TemplateData: data, TemplateParser: p.c.parser}
	if n, ok := data["Count"]; ok {
		lc.PluralCount = n
	}
	text, err := p.loc.Localize(lc)
	if text == "" && err != nil {
		return id
	}
	return text
}

// Has reports whether id is a message.
func (p *Printer) Has(id string) bool { return p.c.Has(id) }

// Each returns message id written in every language but English, by
// language code: the translations Discord takes beside an English name or
// description.
func (c *Catalogue) Each(id string, args ...any) map[string]string {
	out := map[string]string{}
	for _, t := range c.langs[1:] {
		p := &Printer{c: c, lang: t.String(), loc: i18n.NewLocalizer(c.bundle, t.String())}
		out[t.String()] = p.T(id, args...)
	}
	return out
}

// Decimal writes x with digits digits after the decimal separator, as
// the printer's language writes numbers: "12.5" in English, "12,5" in
// German and French (CLDR's symbols, through golang.org/x/text/number).
func (p *Printer) Decimal(x float64, digits int) string {
	return message.NewPrinter(language.Make(p.lang)).Sprint(number.Decimal(x, number.MinFractionDigits(digits), number.MaxFractionDigits(digits), number.NoSeparator()))
}
