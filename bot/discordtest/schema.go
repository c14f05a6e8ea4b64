package discordtest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// openAPI is Discord's own description of its HTTP API (OpenAPI 3.1, MIT
// licence in testdata/LICENSE). Its request-body schemas are JSON Schema
// 2020-12, compiled with their $refs by santhosh-tekuri/jsonschema.
//
//go:embed testdata/openapi.json
var openAPI []byte

const openAPIURL = "discord-openapi.json"

// bodySchema names the schema a request's body must satisfy: a component
// schema of the description ("" when the fake checks none). A list of
// commands is checked item by item.
func bodySchema(k Kind) string {
	switch k {
	case ChannelSend, DirectMessage:
		return "MessageCreateRequest"
	case MessageEdit:
		return "MessageEditRequestPartial"
	case Followup:
		return "IncomingWebhookRequestPartial"
	case OriginalEdit, FollowupEdit:
		return "IncomingWebhookUpdateRequestPartial"
	case DMOpen:
		return "CreatePrivateChannelRequest"
	case Commands:
		return "ApplicationCommandUpdateRequest"
	}
	return ""
}

// callbackSchema names the schema of an interaction response by its type.
func callbackSchema(typ int) string {
	switch typ {
	case 1:
		return "PongInteractionCallbackRequest"
	case 4, 5:
		return "CreateMessageInteractionCallbackRequest"
	case 6, 7:
		return "UpdateMessageInteractionCallbackRequest"
	case 8:
		return "ApplicationCommandAutocompleteCallbackRequest"
	case 9:
		return "ModalInteractionCallbackRequest"
	}
	return ""
}

// schemaSet is the compiled request-body schemas, by component name.
type schemaSet struct {
	byName map[string]*jsonschema.Schema
}

// compiledSchemas compiles the schemas once per process: compiling takes a
// noticeable fraction of a second and every test builds its own Server, so
// this package-level cache (test support code only; it holds immutable
// compiled schemas and is filled on first use) keeps bot tests quick.
var compiledSchemas = sync.OnceValues(compileSchemas)

func compileSchemas() (*schemaSet, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(openAPI))
	if err != nil {
		return nil, fmt.Errorf("discordtest: reading Discord's OpenAPI description: %w", err)
	}
	discriminate(doc, doc)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(openAPIURL, doc); err != nil {
		return nil, err
	}
	set := &schemaSet{byName: map[string]*jsonschema.Schema{}}
	var names []string
	for _, k := range []Kind{ChannelSend, DirectMessage, MessageEdit, Followup, OriginalEdit, FollowupEdit, DMOpen, Commands} {
		names = append(names, bodySchema(k))
	}
	for _, t := range []int{1, 4, 5, 6, 7, 8, 9} {
		names = append(names, callbackSchema(t))
	}
	for _, n := range names {
		if set.byName[n] != nil {
			continue
		}
		sch, err := c.Compile(openAPIURL + "#/components/schemas/" + n)
		if err != nil {
			return nil, fmt.Errorf("discordtest: compiling %s: %w", n, err)
		}
		set.byName[n] = sch
	}
	return set, nil
}

// discriminate rewrites, throughout the description, each oneOf of
// documented constants into an enum, and each union of
// object schemas told apart by their "type" value (components, embeds'
// parts, callbacks) from oneOf/anyOf into if/then on that value. The two
// accept the same documents; trying every alternative of a oneOf for each
// of a message's components cost milliseconds per message, and its errors
// named every alternative rather than the one the payload's type chose,
// which is how Discord reads it.
func discriminate(node, doc any) {
	switch n := node.(type) {
	case map[string]any:
		for _, key := range []string{"oneOf", "anyOf"} {
			if alts, ok := n[key].([]any); ok {
				if values, ok := constants(alts); ok {
					delete(n, key)
					n["enum"] = values
					continue
				}
				if branches, values, ok := discriminated(alts, doc); ok {
					delete(n, key)
					n["type"] = "object"
					n["required"] = []any{"type"}
					n["properties"] = map[string]any{"type": map[string]any{"enum": values}}
					n["allOf"] = branches
				}
			}
		}
		redundantEnums(n, doc)
		for _, v := range n {
			discriminate(v, doc)
		}
	case []any:
		for _, v := range n {
			discriminate(v, doc)
		}
	}
}

// redundantEnums drops from n's allOf the $refs to enumerations that
// already allow every value of n's own, narrower enum (a component's
// "type": [2] also refers to the list of every component type).
func redundantEnums(n map[string]any, doc any) {
	own := list(n["enum"])
	all := list(n["allOf"])
	if len(own) == 0 || len(all) == 0 {
		return
	}
	var keep []any
	for _, a := range all {
		ref, _ := object(a)["$ref"].(string)
		name, found := strings.CutPrefix(ref, "#/components/schemas/")
		target := object(object(object(object(doc)["components"])["schemas"])[name])
		if !found || !coversAll(target, own) {
			keep = append(keep, a)
		}
	}
	if len(keep) == 0 {
		delete(n, "allOf")
	} else {
		n["allOf"] = keep
	}
}

// coversAll reports whether schema is only a type and a list of constants
// (as an enum or a oneOf of documented constants) that includes values.
func coversAll(schema map[string]any, values []any) bool {
	allowed := list(schema["enum"])
	if alts, ok := schema["oneOf"].([]any); ok {
		allowed, _ = constants(alts)
	}
	for k := range schema {
		if k != "type" && k != "enum" && k != "oneOf" && k != "format" && k != "title" && k != "description" {
			return false
		}
	}
	in := map[string]bool{}
	for _, a := range allowed {
		in[fmt.Sprint(a)] = true
	}
	for _, v := range values {
		if !in[fmt.Sprint(v)] {
			return false
		}
	}
	return len(allowed) > 0
}

// constants returns the values of alts when each is a documented constant
// ({"const": v} with a title or description): a oneOf of distinct
// constants is an enum, checked without building an error per alternative.
func constants(alts []any) ([]any, bool) {
	var values []any
	seen := map[string]bool{}
	for _, a := range alts {
		alt := object(a)
		v, ok := alt["const"]
		if !ok || seen[fmt.Sprint(v)] {
			return nil, false
		}
		for k := range alt {
			if k != "const" && k != "title" && k != "description" {
				return nil, false
			}
		}
		seen[fmt.Sprint(v)] = true
		values = append(values, v)
	}
	return values, len(values) > 0
}

// discriminated returns if/then branches for alts when each is a $ref to an
// object schema whose "type" property allows exactly one value, distinct
// from the others'.
func discriminated(alts []any, doc any) (branches, values []any, ok bool) {
	seen := map[string]bool{}
	for _, a := range alts {
		ref, _ := object(a)["$ref"].(string)
		name, found := strings.CutPrefix(ref, "#/components/schemas/")
		if !found || len(object(a)) != 1 {
			return nil, nil, false
		}
		target := object(object(object(object(doc)["components"])["schemas"])[name])
		typ := object(object(target["properties"])["type"])
		enum := list(typ["enum"])
		if len(enum) != 1 || seen[fmt.Sprint(enum[0])] {
			return nil, nil, false
		}
		seen[fmt.Sprint(enum[0])] = true
		values = append(values, enum[0])
		branches = append(branches, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"type": map[string]any{"const": enum[0]}}},
			"then": map[string]any{"$ref": ref},
		})
	}
	return branches, values, len(alts) > 1
}

// schemaErrors checks a request body against Discord's description and
// returns where it breaks it.
func schemaErrors(kind Kind, raw []byte) []violation {
	if len(raw) == 0 {
		return nil
	}
	set, err := compiledSchemas()
	if err != nil {
		return []violation{{check: CheckSchema, code: "SCHEMA_UNAVAILABLE", message: err.Error()}}
	}
	body, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []violation{{check: CheckSchema, code: "JSON_DECODE", message: "The request body contains invalid JSON."}}
	}
	permissionsAsNumbers(body)
	switch kind {
	case Callback:
		obj, _ := body.(map[string]any)
		typ, _ := jsonInt(obj["type"])
		name := callbackSchema(typ)
		if name == "" {
			return []violation{{check: CheckSchema, path: []string{"type"}, code: "BASE_TYPE_CHOICES", message: "Value must be one of (1, 4, 5, 6, 7, 8, 9)."}}
		}
		return validate(set.byName[name], body, nil)
	case Commands:
		list, ok := body.([]any)
		if !ok {
			return []violation{{check: CheckSchema, code: "BASE_TYPE_ARRAY", message: "Must be an array."}}
		}
		var out []violation
		for i, item := range list {
			out = append(out, validate(set.byName[bodySchema(kind)], item, []string{fmt.Sprint(i)})...)
		}
		return out
	}
	if name := bodySchema(kind); name != "" {
		return validate(set.byName[name], body, nil)
	}
	return nil
}

// permissionsAsNumbers reads permission bit sets written as strings of
// digits as the numbers they spell. Discord documents these fields as
// strings and accepts them so (discordgo sends strings), while its OpenAPI
// description types them as integers.
func permissionsAsNumbers(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "default_member_permissions" || k == "permissions") && s != "" && strings.Trim(s, "0123456789") == "" {
				v[k] = json.Number(s)
				continue
			}
			permissionsAsNumbers(x)
		}
	case []any:
		for _, x := range v {
			permissionsAsNumbers(x)
		}
	}
}

// validate reports the innermost causes of sch refusing v, under prefix.
func validate(sch *jsonschema.Schema, v any, prefix []string) []violation {
	err := sch.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []violation{{check: CheckSchema, path: prefix, code: "SCHEMA", message: err.Error()}}
	}
	english := message.NewPrinter(language.English) // a Printer is not safe for concurrent use
	var out []violation
	for _, leaf := range deepestCauses(ve) {
		path := append(append([]string(nil), prefix...), leaf.InstanceLocation...)
		out = append(out, violation{check: CheckSchema, path: path, code: schemaCode(leaf), message: leaf.ErrorKind.LocalizedString(english) + " (schema " + schemaName(leaf.SchemaURL) + ")"})
	}
	return out
}

// deepestCauses keeps the leaf errors found deepest in the instance: of a
// oneOf between null and an object, the object's complaint, not "want null".
func deepestCauses(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	var leaves []*jsonschema.ValidationError
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	depth := 0
	for _, l := range leaves {
		depth = max(depth, len(l.InstanceLocation))
	}
	var out []*jsonschema.ValidationError
	for _, l := range leaves {
		if len(l.InstanceLocation) == depth {
			out = append(out, l)
		}
	}
	return out
}

func schemaName(url string) string {
	_, frag, _ := strings.Cut(url, "#")
	return strings.TrimPrefix(frag, "/components/schemas/")
}

// schemaCode names a schema failure the way Discord's error codes do.
func schemaCode(e *jsonschema.ValidationError) string {
	kw := e.ErrorKind.KeywordPath()
	if len(kw) == 0 {
		return "SCHEMA"
	}
	switch kw[len(kw)-1] {
	case "maxLength", "minLength", "maxItems", "minItems":
		return "BASE_TYPE_BAD_LENGTH"
	case "type":
		return "BASE_TYPE_INVALID"
	case "enum", "const":
		return "BASE_TYPE_CHOICES"
	case "required":
		return "BASE_TYPE_REQUIRED"
	case "pattern":
		return "STRING_TYPE_REGEX"
	case "maximum", "minimum":
		return "NUMBER_TYPE_MAX_MIN"
	}
	return "SCHEMA_" + strings.ToUpper(kw[len(kw)-1])
}
