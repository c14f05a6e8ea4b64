package bot

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// says reports whether text holds message id as the harness's language
// writes it. The args given, name and value pairs as for Printer.T, fill
// their placeholders; a placeholder left out, and a conditional part of
// the message, match any text, and so does the number of a counted
// message: any of its plural forms may match. So a test names the message
// it expects, not its English words, and a copy edit of the catalogue
// breaks no test.
func (h *harness) says(text, id string, args ...any) bool {
	return h.pattern(id, args...).MatchString(text)
}

// hole stands for a placeholder left out while the printer writes a
// counted message.
const hole = "\x00"

// action is one {{…}} of a message template.
var action = regexp.MustCompile(`\{\{-?\s*(.*?)\s*-?\}\}`)

// pattern matches message id in the harness's language written with
// args (see says).
func (h *harness) pattern(id string, args ...any) *regexp.Regexp {
	h.catalogueOnce.Do(func() { h.catalogue = testWords(h.t) })
	lang := h.catalogue.For(h.locale).Lang()
	given := map[string]string{}
	for i := 0; i+1 < len(args); i += 2 {
		given[fmt.Sprint(args[i])] = fmt.Sprint(args[i+1])
	}
	forms := h.catalogue.Forms(lang, id)
	if len(forms) == 0 {
		h.t.Fatalf("says: no message %q in %s", id, lang)
	}
	const wild = `(?s:.*?)`
	if _, counted := given["Count"]; counted && len(forms) > 1 {
		// the number chooses the form: the printer writes it, with holes
		// for the placeholders left out
		filled := append([]any{}, args...)
		for _, name := range h.catalogue.Placeholders(lang, id) {
			if _, ok := given[name]; !ok {
				filled = append(filled, name, hole)
			}
		}
		parts := strings.Split(h.catalogue.For(h.locale).T(id, filled...), hole)
		for i, part := range parts {
			parts[i] = regexp.QuoteMeta(part)
		}
		return regexp.MustCompile(strings.Join(parts, wild))
	}
	var alternatives []string
	for _, form := range forms {
		var b strings.Builder
		depth, at := 0, 0
		for _, m := range action.FindAllStringSubmatchIndex(form, -1) {
			if depth == 0 {
				b.WriteString(regexp.QuoteMeta(form[at:m[0]]))
			}
			at = m[1]
			inside := form[m[2]:m[3]]
			switch {
			case strings.HasPrefix(inside, "if "):
				if depth == 0 {
					b.WriteString(wild)
				}
				depth++
			case inside == "end":
				depth--
			case depth > 0:
			case strings.HasPrefix(inside, "."):
				if v, ok := given[inside[1:]]; ok {
					b.WriteString(regexp.QuoteMeta(v))
				} else {
					b.WriteString(wild)
				}
			default:
				h.t.Fatalf("says: message %q has a template action {{%s}} it cannot read", id, inside)
			}
		}
		b.WriteString(regexp.QuoteMeta(form[at:]))
		alternatives = append(alternatives, b.String())
	}
	return regexp.MustCompile(strings.Join(alternatives, "|"))
}

func TestSaysMatchesAMessageWhateverItsWords(t *testing.T) {
	h := &harness{t: t}
	played := h.say("play.played", "ID", 7, "Action", "pick 1")
	for _, c := range []struct {
		args []any
		want bool
	}{
		{nil, true},
		{[]any{"Action", "pick 1"}, true},
		{[]any{"Action", "pick 2"}, false},
		{[]any{"ID", 7, "Action", "pick 1"}, true},
		{[]any{"ID", 8}, false},
	} {
		if got := h.says("before. "+played+" after", "play.played", c.args...); got != c.want {
			t.Errorf("says(%q, play.played, %v) = %v, want %v", played, c.args, got, c.want)
		}
	}
	if h.says(h.say("undo.done", "Action", "pick 1"), "play.played") {
		t.Error("another message's text reads as play.played")
	}
	// a counted message in any of its forms, or with its number given
	for _, n := range []int{1, 3} {
		full := h.say("lobby.table_full", "Count", n)
		if !h.says(full, "lobby.table_full") || !h.says(full, "lobby.table_full", "Count", n) || h.says(full, "lobby.table_full", "Count", n+1) {
			t.Errorf("the counted message %q is not recognised by its number", full)
		}
	}
	h.locale = "de"
	if h.says(played, "play.played") || !h.says(h.say("play.played", "ID", 7, "Action", "x"), "play.played", "Action", "x") {
		t.Error("says does not read the harness's language")
	}
}
