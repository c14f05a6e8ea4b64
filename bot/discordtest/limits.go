package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Check names one kind of strictness of the fake. Options.Relax turns
// chosen checks off: a request that breaks a relaxed check is served as if
// it were valid, and the breach is kept in Request.Violations and
// Server.Violations, so a test can still list it.
type Check string

// The fake's checks. Every one is on unless relaxed.
const (
	// CheckContent: message content at most 2,000 characters (the bot limit;
	// Discord's description allows 4,000 to other accounts), and no new
	// message without content, embeds, components or files (code 50006).
	CheckContent Check = "content"
	// CheckEmbeds: at most 10 embeds; title 256, description 4,096, 25
	// fields, field name 256 and value 1,024, footer 2,048, author 256, and
	// 6,000 characters across a message's embeds.
	CheckEmbeds Check = "embeds"
	// CheckComponents: at most 5 action rows; a row holds 1-5 buttons or one
	// select menu alone; 1-25 select options with label, value and
	// description of at most 100; button label 80; placeholder 150;
	// custom_id 1-100 characters and unique in its message; modal title 45.
	CheckComponents Check = "components"
	// CheckChoices: at most 25 autocomplete choices, name 1-100, string value
	// at most 100.
	CheckChoices Check = "choices"
	// CheckAttachments: at most 10 files of at most 10 MiB each (413, code
	// 40005, as Discord answers).
	CheckAttachments Check = "attachments"
	// CheckCommands: command and option names, descriptions, option counts
	// and order, choices and the 4,000-character total of a command.
	CheckCommands Check = "commands"
	// CheckComponentsV2: a message flagged IS_COMPONENTS_V2 has no content
	// or embeds, at most 40 components (nested ones counted), 4,000
	// characters across its text displays, and galleries of 1-10 items;
	// V2 layout components only in such a message; an edit never removes
	// the flag, and never gives it to a message that has content or
	// embeds.
	CheckComponentsV2 Check = "components-v2"
	// CheckSchema: every request body satisfies Discord's OpenAPI
	// description of its API.
	CheckSchema Check = "schema"
	// CheckInteractions: an interaction's token is one Discord issued; one
	// initial response, within 3 seconds; UPDATE_MESSAGE only for a click on
	// a message's component; nothing through its webhook before that
	// response; the token expires after 15 minutes.
	CheckInteractions Check = "interactions"
	// CheckRateLimits: the global limit on bot-token calls and the per-route
	// buckets, announced in X-RateLimit-* headers and enforced with 429s.
	CheckRateLimits Check = "rate-limits"
)

// Violation is one way a request broke a check.
type Violation struct {
	Check Check
	// Path is the field in the payload, keys and indexes from its root, as
	// Discord reports it ("data.components.0.components.1.custom_id").
	Path    string
	Code    string // Discord's error code word, e.g. BASE_TYPE_MAX_LENGTH
	Message string
}

// String writes a violation as a test failure shows it: check, path,
// Discord's message and its code.
func (v Violation) String() string {
	return fmt.Sprintf("%s: %s: %s (%s)", v.Check, v.Path, v.Message, v.Code)
}

// violation is a Violation while it is built.
type violation struct {
	check   Check
	path    []string
	code    string
	message string
}

func (v violation) public() Violation {
	return Violation{Check: v.check, Path: strings.Join(v.path, "."), Code: v.code, Message: v.message}
}

// invalidFormBody is Discord's 400 answer to a payload that breaks a limit:
// code 50035 and, under "errors", the tree of the offending fields.
func invalidFormBody(vs []violation) map[string]any {
	tree := map[string]any{}
	for _, v := range vs {
		node := tree
		for _, k := range v.path {
			next, ok := node[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				node[k] = next
			}
			node = next
		}
		errs, _ := node["_errors"].([]any)
		node["_errors"] = append(errs, map[string]any{"code": v.code, "message": v.message})
	}
	return map[string]any{"code": 50035, "message": "Invalid Form Body", "errors": tree}
}

// Discord's documented limits, as the fake applies them.
const (
	maxContent        = 2000
	maxEmbeds         = 10
	maxEmbedTitle     = 256
	maxEmbedDesc      = 4096
	maxEmbedFields    = 25
	maxFieldName      = 256
	maxFieldValue     = 1024
	maxFooter         = 2048
	maxAuthor         = 256
	maxEmbedTotal     = 6000
	maxRows           = 5
	maxButtonsPerRow  = 5
	maxSelectOptions  = 25
	maxOptionText     = 100
	maxButtonLabel    = 80
	maxCustomID       = 100
	maxPlaceholder    = 150
	maxModalTitle     = 45
	maxModalRows      = 5
	maxInputLabel     = 45
	maxInputValue     = 4000
	maxChoices        = 25
	maxChoiceText     = 100
	maxFiles          = 10
	maxFileBytes      = 10 << 20
	maxCommandName    = 32
	maxCommandDesc    = 100
	maxCommandOptions = 25
	maxCommandTotal   = 4000
	maxCommands       = 100
)

// Component types.
const (
	typeActionRow    = 1
	typeButton       = 2
	typeStringSelect = 3
	typeTextInput    = 4
	typeSection      = 9
	typeTextDisplay  = 10
	typeMediaGallery = 12
	typeContainer    = 17
	buttonStyleLink  = 5
)

// Discord's limits on a Components V2 message.
const (
	flagComponentsV2 = 1 << 15
	maxV2Components  = 40
	maxV2Text        = 4000
	maxGalleryItems  = 10
)

// checker gathers violations of the hand-listed limits.
type checker struct {
	out []violation
}

func (c *checker) add(check Check, path []string, code, message string) {
	c.out = append(c.out, violation{check: check, path: slices.Clone(path), code: code, message: message})
}

func at(path []string, keys ...any) []string {
	out := slices.Clone(path)
	for _, k := range keys {
		out = append(out, fmt.Sprint(k))
	}
	return out
}

func length(v any) int {
	s, _ := v.(string)
	return utf8.RuneCountInString(s)
}

// tooLong records a string or list at path longer than Discord's limit n,
// in Discord's words.
func (c *checker) tooLong(check Check, path []string, n int) {
	c.add(check, path, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", n))
}

// badLength records a string or list at path whose length is outside lo
// to hi, in Discord's words.
func (c *checker) badLength(check Check, path []string, lo, hi int) {
	c.add(check, path, "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between %d and %d in length.", lo, hi))
}

// maxLen checks that the string at obj[key] has at most n characters.
func (c *checker) maxLen(check Check, obj map[string]any, path []string, key string, n int) {
	if l := length(obj[key]); l > n {
		c.tooLong(check, at(path, key), n)
	}
}

// between checks that the string at obj[key] has lo to hi characters.
func (c *checker) between(check Check, obj map[string]any, path []string, key string, lo, hi int) {
	if l := length(obj[key]); l < lo || l > hi {
		c.badLength(check, at(path, key), lo, hi)
	}
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func jsonInt(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		return int(n), n == float64(int(n))
	case json.Number:
		i, err := strconv.Atoi(string(n))
		return i, err == nil
	}
	return 0, false
}

// limitErrors checks a decoded request body against the hand-listed limits.
func limitErrors(kind Kind, body any, files []File) []violation {
	c := &checker{}
	switch kind {
	case ChannelSend, DirectMessage, Followup:
		c.message(object(body), nil)
		c.newCard(object(body), nil)
		c.notEmpty(object(body), files)
		c.attachments(object(body), nil, files, true)
	case MessageEdit, OriginalEdit, FollowupEdit:
		c.message(object(body), nil)
		c.attachments(object(body), nil, files, false)
	case Callback:
		obj := object(body)
		typ, _ := jsonInt(obj["type"])
		data := object(obj["data"])
		path := []string{"data"}
		switch typ {
		case 4:
			c.message(data, path)
			c.newCard(data, path)
			c.notEmpty(data, files)
			c.attachments(data, path, files, true)
		case 5, 7:
			c.message(data, path)
			c.attachments(data, path, files, typ == 5)
		case 8:
			c.choices(data, path)
		case 9:
			c.modal(data, path)
		}
	case Commands:
		c.commands(list(body))
	}
	c.files(files)
	return c.out
}

// notEmpty refuses a new message with nothing to show, as Discord does
// (code 50006).
func (c *checker) notEmpty(m map[string]any, files []File) {
	if len(files) > 0 || length(m["content"]) > 0 || len(list(m["embeds"])) > 0 || len(list(m["components"])) > 0 ||
		len(list(m["sticker_ids"])) > 0 || m["poll"] != nil {
		return
	}
	c.add(CheckContent, nil, codeEmptyMessage, "Cannot send an empty message")
}

// codeEmptyMessage marks the violation Discord answers with its own code
// (50006) instead of a form error.
const codeEmptyMessage = "EMPTY_MESSAGE"

func (c *checker) message(m map[string]any, path []string) {
	if m == nil {
		return
	}
	c.maxLen(CheckContent, m, path, "content", maxContent)
	c.embeds(list(m["embeds"]), at(path, "embeds"))
	if isV2(m) || hasLayout(m) { // an edit of a card need not repeat its flag
		c.card(m, path)
		return
	}
	c.components(list(m["components"]), at(path, "components"))
}

// isV2 reports whether a message payload is flagged IS_COMPONENTS_V2.
func isV2(m map[string]any) bool {
	f, _ := jsonInt(m["flags"])
	return f&flagComponentsV2 != 0
}

// hasLayout reports whether a payload's components hold anything but
// action rows: Components V2 layouts.
func hasLayout(m map[string]any) bool {
	for _, it := range list(m["components"]) {
		if typ, _ := jsonInt(object(it)["type"]); typ != typeActionRow {
			return true
		}
	}
	return false
}

// newCard checks that a new message with layout components is flagged
// IS_COMPONENTS_V2.
func (c *checker) newCard(m map[string]any, path []string) {
	if hasLayout(m) && !isV2(m) {
		c.add(CheckComponentsV2, at(path, "components"), "COMPONENT_TYPE_INVALID", "Layout components other than action rows need MessageFlags.IS_COMPONENTS_V2")
	}
}

// hasText reports whether a payload sets content or embeds that show.
func hasText(m map[string]any) bool {
	return length(m["content"]) > 0 || len(list(m["embeds"])) > 0
}

// card checks a Components V2 message: nothing beside its components, at
// most 40 of them counted at every depth, 4,000 characters of text,
// galleries of 1-10 items, and each action row as in any message.
func (c *checker) card(m map[string]any, path []string) {
	if hasText(m) {
		c.add(CheckComponentsV2, path, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2")
	}
	count, text := 0, 0
	seen := map[string]bool{}
	var walk func(items []any, p []string)
	walk = func(items []any, p []string) {
		for i, it := range items {
			it := object(it)
			ip := at(p, i)
			count++
			switch typ, _ := jsonInt(it["type"]); typ {
			case typeActionRow:
				c.row(it, ip, seen)
				count += len(list(it["components"]))
			case typeContainer:
				walk(list(it["components"]), at(ip, "components"))
			case typeSection:
				walk(list(it["components"]), at(ip, "components"))
				if acc := object(it["accessory"]); acc != nil {
					count++
				}
			case typeTextDisplay:
				text += length(it["content"])
			case typeMediaGallery:
				if n := len(list(it["items"])); n < 1 || n > maxGalleryItems {
					c.add(CheckComponentsV2, at(ip, "items"), "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between 1 and %d in length.", maxGalleryItems))
				}
			}
		}
	}
	walk(list(m["components"]), at(path, "components"))
	if count > maxV2Components {
		c.add(CheckComponentsV2, at(path, "components"), "COMPONENTS_TOO_MANY", fmt.Sprintf("A message holds at most %d components; this one holds %d.", maxV2Components, count))
	}
	if text > maxV2Text {
		c.add(CheckComponentsV2, at(path, "components"), "COMPONENTS_TEXT_TOO_LONG", fmt.Sprintf("The text of a message's components is at most %d characters; this one has %d.", maxV2Text, text))
	}
}

func (c *checker) embeds(es []any, path []string) {
	if len(es) > maxEmbeds {
		c.tooLong(CheckEmbeds, path, maxEmbeds)
	}
	total := 0
	for i, e := range es {
		e := object(e)
		p := at(path, i)
		c.maxLen(CheckEmbeds, e, p, "title", maxEmbedTitle)
		c.maxLen(CheckEmbeds, e, p, "description", maxEmbedDesc)
		total += length(e["title"]) + length(e["description"])
		fields := list(e["fields"])
		if len(fields) > maxEmbedFields {
			c.tooLong(CheckEmbeds, at(p, "fields"), maxEmbedFields)
		}
		for j, f := range fields {
			f := object(f)
			c.between(CheckEmbeds, f, at(p, "fields", j), "name", 1, maxFieldName)
			c.between(CheckEmbeds, f, at(p, "fields", j), "value", 1, maxFieldValue)
			total += length(f["name"]) + length(f["value"])
		}
		if footer := object(e["footer"]); footer != nil {
			c.maxLen(CheckEmbeds, footer, at(p, "footer"), "text", maxFooter)
			total += length(footer["text"])
		}
		if author := object(e["author"]); author != nil {
			c.maxLen(CheckEmbeds, author, at(p, "author"), "name", maxAuthor)
			total += length(author["name"])
		}
	}
	if total > maxEmbedTotal {
		c.add(CheckEmbeds, path, "MAX_EMBED_SIZE_EXCEEDED", fmt.Sprintf("Embed size exceeds maximum size of %d", maxEmbedTotal))
	}
}

func (c *checker) components(rows []any, path []string) {
	if len(rows) > maxRows {
		c.tooLong(CheckComponents, path, maxRows)
	}
	seen := map[string]bool{}
	for i, row := range rows {
		row := object(row)
		p := at(path, i)
		c.row(row, p, seen)
	}
}

// row checks an action row: 1-5 buttons or one select menu alone, each
// component within its limits, custom_ids unique in the message (seen).
func (c *checker) row(row map[string]any, p []string, seen map[string]bool) {
	{
		items := list(row["components"])
		selects := 0
		for _, it := range items {
			if typ, _ := jsonInt(object(it)["type"]); typ != typeButton {
				selects++
			}
		}
		switch {
		case selects > 0 && len(items) > 1:
			c.add(CheckComponents, at(p, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
		case len(items) < 1 || len(items) > maxButtonsPerRow:
			c.badLength(CheckComponents, at(p, "components"), 1, maxButtonsPerRow)
		}
		for j, it := range items {
			c.component(object(it), at(p, "components", j), seen)
		}
	}
}

func (c *checker) component(it map[string]any, p []string, seen map[string]bool) {
	typ, _ := jsonInt(it["type"])
	style, _ := jsonInt(it["style"])
	if typ != typeButton || style != buttonStyleLink {
		c.between(CheckComponents, it, p, "custom_id", 1, maxCustomID)
		if id, _ := it["custom_id"].(string); id != "" {
			if seen[id] {
				c.add(CheckComponents, at(p, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
			}
			seen[id] = true
		}
	}
	switch typ {
	case typeButton:
		c.maxLen(CheckComponents, it, p, "label", maxButtonLabel)
	case typeTextInput:
		c.maxLen(CheckComponents, it, p, "label", maxInputLabel)
		c.maxLen(CheckComponents, it, p, "placeholder", maxOptionText)
		c.maxLen(CheckComponents, it, p, "value", maxInputValue)
	default: // select menus
		c.maxLen(CheckComponents, it, p, "placeholder", maxPlaceholder)
		if typ != typeStringSelect {
			return
		}
		opts := list(it["options"])
		if len(opts) < 1 || len(opts) > maxSelectOptions {
			c.badLength(CheckComponents, at(p, "options"), 1, maxSelectOptions)
		}
		values := map[string]bool{}
		for k, o := range opts {
			o := object(o)
			op := at(p, "options", k)
			c.between(CheckComponents, o, op, "label", 1, maxOptionText)
			c.between(CheckComponents, o, op, "value", 1, maxOptionText)
			c.maxLen(CheckComponents, o, op, "description", maxOptionText)
			if v, _ := o["value"].(string); values[v] {
				c.add(CheckComponents, at(op, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Select component options cannot have duplicate values")
			} else {
				values[v] = true
			}
		}
	}
}

func (c *checker) choices(data map[string]any, path []string) {
	cs := list(data["choices"])
	if len(cs) > maxChoices {
		c.tooLong(CheckChoices, at(path, "choices"), maxChoices)
	}
	for i, ch := range cs {
		ch := object(ch)
		c.between(CheckChoices, ch, at(path, "choices", i), "name", 1, maxChoiceText)
		c.maxLen(CheckChoices, ch, at(path, "choices", i), "value", maxChoiceText)
	}
}

func (c *checker) modal(data map[string]any, path []string) {
	c.between(CheckComponents, data, path, "title", 1, maxModalTitle)
	c.between(CheckComponents, data, path, "custom_id", 1, maxCustomID)
	rows := list(data["components"])
	if len(rows) < 1 || len(rows) > maxModalRows {
		c.badLength(CheckComponents, at(path, "components"), 1, maxModalRows)
	}
	seen := map[string]bool{}
	for i, row := range rows {
		for j, it := range list(object(row)["components"]) {
			c.component(object(it), at(path, "components", i, "components", j), seen)
		}
	}
}

// attachments checks a message's attachments list, which describes its
// uploads (their alt text) and, in an edit, lists the attachments it
// keeps: as on Discord, an entry whose id is an upload's index (files[N])
// must name a file the request uploads, and a new message has no other.
func (c *checker) attachments(m map[string]any, path []string, files []File, create bool) {
	for i, a := range list(m["attachments"]) {
		id := fmt.Sprint(object(a)["id"])
		n, err := strconv.Atoi(id)
		if err != nil || n < 0 {
			continue // the schema refuses what is not a snowflake
		}
		uploaded := slices.ContainsFunc(files, func(f File) bool { return f.Index == n })
		if !uploaded && (create || n < maxFiles) {
			c.add(CheckAttachments, at(path, "attachments", i, "id"), "ATTACHMENT_NOT_FOUND", fmt.Sprintf("Attachment %s names no file of the request.", id))
		}
	}
}

func (c *checker) files(files []File) {
	if len(files) > maxFiles {
		c.tooLong(CheckAttachments, []string{"files"}, maxFiles)
	}
	for i, f := range files {
		if len(f.Data) > maxFileBytes {
			c.add(CheckAttachments, []string{fmt.Sprintf("files[%d]", i)}, "REQUEST_ENTITY_TOO_LARGE", fmt.Sprintf("File %q is %d bytes; the limit is %d.", f.Name, len(f.Data), maxFileBytes))
		}
	}
}

// Option types of application commands.
const (
	optSubCommand      = 1
	optSubCommandGroup = 2
	optString          = 3
)

// validName is Discord's rule for the names of slash commands and their
// options: 1-32 characters, each a letter without upper case (any script),
// a digit, '-' or '_'.
func validName(name string) bool {
	n := utf8.RuneCountInString(name)
	if n < 1 || n > maxCommandName {
		return false
	}
	for _, r := range name {
		switch {
		case r == '-' || r == '_', unicode.IsNumber(r), unicode.IsMark(r) && (unicode.Is(unicode.Devanagari, r) || unicode.Is(unicode.Thai, r)):
		case unicode.IsLetter(r) && !unicode.IsUpper(r) && !unicode.IsTitle(r):
		default:
			return false
		}
	}
	return true
}

func (c *checker) commands(cmds []any) {
	chat := 0
	names := map[string]bool{}
	for i, cmd := range cmds {
		cmd := object(cmd)
		p := at(nil, i)
		typ, ok := jsonInt(cmd["type"])
		if !ok {
			typ = 1
		}
		name, _ := cmd["name"].(string)
		if key := fmt.Sprint(typ, name); names[key] {
			c.add(CheckCommands, at(p, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", fmt.Sprintf("Application command names must be unique: %q", name))
		} else {
			names[key] = true
		}
		if typ != 1 {
			c.between(CheckCommands, cmd, p, "name", 1, maxCommandName)
			continue
		}
		chat++
		c.name(cmd, p)
		c.between(CheckCommands, cmd, p, "description", 1, maxCommandDesc)
		total := length(cmd["name"]) + length(cmd["description"]) + c.options(list(cmd["options"]), at(p, "options"), 0)
		if total > maxCommandTotal {
			c.add(CheckCommands, p, "APPLICATION_COMMAND_TOO_LARGE", fmt.Sprintf("Command exceeds maximum size (%d)", maxCommandTotal))
		}
	}
	if chat > maxCommands {
		c.tooLong(CheckCommands, nil, maxCommands)
	}
	c.localizedNamesUnique(cmds, nil, "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique: %q")
}

func (c *checker) name(obj map[string]any, p []string) {
	if name, _ := obj["name"].(string); !validName(name) {
		c.add(CheckCommands, at(p, "name"), "APPLICATION_COMMAND_INVALID_NAME", fmt.Sprintf("Command name is invalid: %q", name))
	}
	for locale, n := range object(obj["name_localizations"]) {
		if s, _ := n.(string); !validName(s) {
			c.add(CheckCommands, at(p, "name_localizations", locale), "APPLICATION_COMMAND_INVALID_NAME", fmt.Sprintf("Command name is invalid: %q", s))
		}
	}
	for locale, d := range object(obj["description_localizations"]) {
		if n := length(d); n < 1 || n > maxCommandDesc {
			c.add(CheckCommands, at(p, "description_localizations", locale), "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between 1 and %d in length.", maxCommandDesc))
		}
	}
}

// localizedNamesUnique checks that siblings (the commands of one type, or
// the options of one level) keep distinct names in every locale any of
// them is translated to, a sibling without a translation going by its
// own name, as Discord shows it.
func (c *checker) localizedNamesUnique(objs []any, path []string, code, text string) {
	locales := map[string]bool{}
	for _, o := range objs {
		for locale := range object(object(o)["name_localizations"]) {
			locales[locale] = true
		}
	}
	for locale := range locales {
		seen := map[string]bool{}
		for i, o := range objs {
			o := object(o)
			name, _ := o["name"].(string)
			if s, ok := object(o["name_localizations"])[locale].(string); ok {
				name = s
			}
			key := name // options share one namespace whatever their type
			if path == nil {
				typ, ok := jsonInt(o["type"])
				if !ok {
					typ = 1
				}
				key = fmt.Sprint(typ, name)
			}
			if seen[key] {
				c.add(CheckCommands, at(path, i, "name_localizations", locale), code, fmt.Sprintf(text, name))
			}
			seen[key] = true
		}
	}
}

// options checks one level of command options (depth 0 is the command's
// own) and returns the characters they count towards the command's total.
func (c *checker) options(opts []any, path []string, depth int) int {
	if len(opts) > maxCommandOptions {
		c.tooLong(CheckCommands, path, maxCommandOptions)
	}
	total := 0
	names := map[string]bool{}
	optional := false
	c.localizedNamesUnique(opts, path, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique: %q")
	for i, o := range opts {
		o := object(o)
		p := at(path, i)
		typ, _ := jsonInt(o["type"])
		c.name(o, p)
		c.between(CheckCommands, o, p, "description", 1, maxCommandDesc)
		name, _ := o["name"].(string)
		if names[name] {
			c.add(CheckCommands, at(p, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		names[name] = true
		total += length(o["name"]) + length(o["description"])
		switch typ {
		case optSubCommand, optSubCommandGroup:
			if depth >= 2 || (typ == optSubCommandGroup && depth >= 1) {
				c.add(CheckCommands, at(p, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Sub-commands cannot be nested this deep")
			}
			total += c.options(list(o["options"]), at(p, "options"), depth+1)
			continue
		}
		if req, _ := o["required"].(bool); req && optional {
			c.add(CheckCommands, at(p, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
		} else if !req {
			optional = true
		}
		choices := list(o["choices"])
		if auto, _ := o["autocomplete"].(bool); auto && len(choices) > 0 {
			c.add(CheckCommands, at(p, "autocomplete"), "AUTOCOMPLETE_AND_CHOICES", "Autocomplete cannot be set with choices")
		}
		if len(choices) > maxChoices {
			c.tooLong(CheckCommands, at(p, "choices"), maxChoices)
		}
		for k, ch := range choices {
			ch := object(ch)
			c.between(CheckCommands, ch, at(p, "choices", k), "name", 1, maxChoiceText)
			for locale, n := range object(ch["name_localizations"]) {
				if l := length(n); l < 1 || l > maxChoiceText {
					c.add(CheckCommands, at(p, "choices", k, "name_localizations", locale), "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between 1 and %d in length.", maxChoiceText))
				}
			}
			if typ == optString {
				c.between(CheckCommands, ch, at(p, "choices", k), "value", 1, maxChoiceText)
			}
			total += length(ch["name"])
			if s, ok := ch["value"].(string); ok {
				total += utf8.RuneCountInString(s)
			}
		}
	}
	return total
}

// statusFor is the HTTP status Discord answers for vs: 413 for a file too
// large, 400 otherwise.
func statusFor(vs []violation) int {
	for _, v := range vs {
		if v.code == "REQUEST_ENTITY_TOO_LARGE" {
			return http.StatusRequestEntityTooLarge
		}
	}
	return http.StatusBadRequest
}

// refusal is Discord's answer body for vs.
func refusal(vs []violation) map[string]any {
	if statusFor(vs) == http.StatusRequestEntityTooLarge {
		return map[string]any{"code": 40005, "message": "Request entity too large"}
	}
	if len(vs) == 1 && vs[0].code == codeEmptyMessage {
		return map[string]any{"code": discordgo.ErrCodeCannotSendEmptyMessage, "message": vs[0].message}
	}
	return invalidFormBody(vs)
}
