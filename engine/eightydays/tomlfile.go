package eightydays

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// maxContentBytes bounds a content file; the embedded ones are under 10 kB.
const maxContentBytes = 1 << 20

// contentFile is one content file read as entries of one array of tables
// ([[space]] or [[card]]), with where each entry and field stands, so that
// every mistake names its line.
type contentFile struct {
	name  string
	table string
	// entryLines[i] is the line of entry i's header; fieldLines[i] maps
	// its field names to their lines. Entries written in another TOML form
	// (an inline array) have no lines.
	entryLines []int
	fieldLines []map[string]int
}

// readEntries reads the entries of the array of tables named table from
// file name of fsys into out, a pointer to a slice of structs with toml
// tags. Each field's TOML type is checked against its struct field before
// anything is decoded, so a wrong type names the entry (by idField, e.g.
// "card whist", or by position) and the field on its own line.
func readEntries(fsys fs.FS, name, table, idField string, out any) (*contentFile, error) {
	f := &contentFile{name: name, table: table}
	data, err := readLimited(fsys, name)
	if err != nil {
		return f, &ContentError{File: name, Msg: err.Error()}
	}
	f.locate(string(data))
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return f, &ContentError{File: name, Line: pe.Position.Line, Msg: pe.Message}
		}
		return f, &ContentError{File: name, Msg: err.Error()}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != table {
			return f, &ContentError{File: name, Entry: k, Msg: fmt.Sprintf("unknown table: the file holds [[%s]] entries", table)}
		}
	}
	rows, ok := raw[table].([]map[string]any)
	if !ok {
		return f, &ContentError{File: name, Msg: fmt.Sprintf("no [[%s]] entries", table)}
	}
	slice := reflect.ValueOf(out).Elem()
	row := slice.Type().Elem()
	fields := map[string]int{} // toml name → struct field index
	for i := 0; i < row.NumField(); i++ {
		fields[row.Field(i).Tag.Get("toml")] = i
	}
	slice.Set(reflect.MakeSlice(slice.Type(), len(rows), len(rows)))
	for i, r := range rows {
		entry := f.entryName(i, r, idField)
		names := make([]string, 0, len(r))
		for k := range r {
			names = append(names, k)
		}
		sort.Slice(names, func(a, b int) bool {
			return f.line(i, names[a]) < f.line(i, names[b]) || f.line(i, names[a]) == f.line(i, names[b]) && names[a] < names[b]
		})
		for _, k := range names {
			fi, ok := fields[k]
			if !ok {
				return f, f.fail(i, entry, k, "unknown field")
			}
			if msg := setField(slice.Index(i).Field(fi), r[k]); msg != "" {
				return f, f.fail(i, entry, k, msg)
			}
		}
	}
	return f, nil
}

// readLimited reads a file of at most maxContentBytes.
func readLimited(fsys fs.FS, name string) ([]byte, error) {
	file, err := fsys.Open(name)
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		return nil, err
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxContentBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxContentBytes {
		return nil, fmt.Errorf("larger than %d kB: not a content file", maxContentBytes>>10)
	}
	return data, nil
}

// setField stores a decoded TOML value in a struct field of type int,
// string, bool, []int or map[string]string (names by language); it
// returns what is wrong when the types differ.
func setField(dst reflect.Value, v any) string {
	switch dst.Kind() {
	case reflect.Int:
		n, ok := v.(int64)
		if !ok {
			return "want a whole number, not " + tomlWords(v)
		}
		if n != int64(int(n)) {
			return fmt.Sprintf("%d is out of range", n)
		}
		dst.SetInt(n)
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return "want text in quotes, not " + tomlWords(v)
		}
		dst.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return "want true or false, not " + tomlWords(v)
		}
		dst.SetBool(b)
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return "want a list of whole numbers such as [4, 5, 6], not " + tomlWords(v)
		}
		ints := make([]int, len(list))
		for i, x := range list {
			n, ok := x.(int64)
			if !ok || n != int64(int(n)) {
				return fmt.Sprintf("want a list of whole numbers, but item %d is %s", i+1, tomlWords(x))
			}
			ints[i] = int(n)
		}
		dst.Set(reflect.ValueOf(ints))
	case reflect.Map:
		table, ok := v.(map[string]any)
		if !ok {
			return `want a table of texts such as { de = "…", fr = "…" }, not ` + tomlWords(v)
		}
		texts := make(map[string]string, len(table))
		for k, x := range table {
			s, ok := x.(string)
			if !ok {
				return fmt.Sprintf("want text in quotes for %s, not %s", clipWords(k), tomlWords(x))
			}
			texts[k] = s
		}
		dst.Set(reflect.ValueOf(texts))
	}
	return ""
}

// tomlWords names a decoded TOML value's type for a message.
func tomlWords(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 20 {
			x = x[:20] + "…"
		}
		return fmt.Sprintf("the text %q", x)
	case int64:
		return fmt.Sprintf("the number %d", x)
	case float64:
		return fmt.Sprintf("the number %g", x)
	case bool:
		return fmt.Sprintf("%t", x)
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// entryName is "space 13" or "card whist" when the entry's id field reads
// right, else "entry 4" (counted from 1).
func (f *contentFile) entryName(i int, r map[string]any, idField string) string {
	switch id := r[idField].(type) {
	case int64:
		return fmt.Sprintf("%s %d", f.table, id)
	case string:
		if id != "" && len(id) <= maxIDLen {
			return f.table + " " + id
		}
	}
	return fmt.Sprintf("entry %d", i+1)
}

// fail is the ContentError of entry i's field, with its line.
func (f *contentFile) fail(i int, entry, field, msg string) *ContentError {
	return &ContentError{File: f.name, Line: f.line(i, field), Entry: entry, Field: field, Msg: msg}
}

// line is the line of entry i's field, or of the entry when the field is
// not written (or ""), or 0 when unknown.
func (f *contentFile) line(i int, field string) int {
	if i < 0 || i >= len(f.entryLines) {
		return 0
	}
	if n, ok := f.fieldLines[i][field]; ok {
		return n
	}
	return f.entryLines[i]
}

// locate finds the lines of the entries' headers and of their fields. It
// reads the usual layout (one "key = value" a line under each [[table]]
// header); other layouts leave lines unknown.
func (f *contentFile) locate(text string) {
	in := false
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			name, _, _ := strings.Cut(strings.TrimLeft(line, "[ \t"), "]")
			in = strings.HasPrefix(line, "[[") && strings.Trim(strings.TrimSpace(name), `"`) == f.table
			if in {
				f.entryLines = append(f.entryLines, n+1)
				f.fieldLines = append(f.fieldLines, map[string]int{})
			}
			continue
		}
		key, _, ok := strings.Cut(line, "=")
		key = strings.Trim(strings.TrimSpace(key), `"`)
		if !in || !ok || key == "" || strings.HasPrefix(key, "#") {
			continue
		}
		if fields := f.fieldLines[len(f.fieldLines)-1]; fields[key] == 0 {
			fields[key] = n + 1
		}
	}
}
