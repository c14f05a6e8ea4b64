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

// bodySchemas names, for each kind of request, the schema its body must
// satisfy: a component schema of the description.
var bodySchemas = map[Kind]string{
	ChannelSend:   "MessageCreateRequest",
	DirectMessage: "MessageCreateRequest",
	MessageEdit:   "MessageEditRequestPartial",
	Followup:      "IncomingWebhookRequestPartial",
	OriginalEdit:  "IncomingWebhookUpdateRequestPartial",
	FollowupEdit:  "IncomingWebhookUpdateRequestPartial",
	DMOpen:        "CreatePrivateChannelRequest",
	Commands:      "ApplicationCommandUpdateRequest", // each item of the list
}

// callbackSchemas names the schema of an interaction response by its type.
var callbackSchemas = map[int]string{
	1: "PongInteractionCallbackRequest",
	4: "CreateMessageInteractionCallbackRequest",
	5: "CreateMessageInteractionCallbackRequest",
	6: "UpdateMessageInteractionCallbackRequest",
	7: "UpdateMessageInteractionCallbackRequest",
	8: "ApplicationCommandAutocompleteCallbackRequest",
	9: "ModalInteractionCallbackRequest",
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
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(openAPIURL, doc); err != nil {
		return nil, err
	}
	set := &schemaSet{byName: map[string]*jsonschema.Schema{}}
	names := make([]string, 0, len(bodySchemas)+len(callbackSchemas))
	for _, n := range bodySchemas {
		names = append(names, n)
	}
	for _, n := range callbackSchemas {
		names = append(names, n)
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
		name, ok := callbackSchemas[typ]
		if !ok {
			return []violation{{check: CheckSchema, path: []string{"type"}, code: "BASE_TYPE_CHOICES", message: fmt.Sprintf("Value must be one of %v.", callbackTypes())}}
		}
		return validate(set.byName[name], body, nil)
	case Commands:
		list, ok := body.([]any)
		if !ok {
			return []violation{{check: CheckSchema, code: "BASE_TYPE_ARRAY", message: "Must be an array."}}
		}
		var out []violation
		for i, item := range list {
			out = append(out, validate(set.byName[bodySchemas[kind]], item, []string{fmt.Sprint(i)})...)
		}
		return out
	}
	if name, ok := bodySchemas[kind]; ok {
		return validate(set.byName[name], body, nil)
	}
	return nil
}

// permissionKeys are the fields that hold a permission bit set.
var permissionKeys = map[string]bool{"default_member_permissions": true, "permissions": true}

// permissionsAsNumbers reads permission bit sets written as strings of
// digits as the numbers they spell. Discord documents these fields as
// strings and accepts them so (discordgo sends strings), while its OpenAPI
// description types them as integers.
func permissionsAsNumbers(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && permissionKeys[k] && s != "" && strings.Trim(s, "0123456789") == "" {
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

func callbackTypes() []int { return []int{1, 4, 5, 6, 7, 8, 9} }

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
