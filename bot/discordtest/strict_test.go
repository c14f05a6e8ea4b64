package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// refusal decodes a Discord error from err.
func restError(t *testing.T, err error) (int, map[string]any) {
	t.Helper()
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) {
		t.Fatalf("want a REST error, got %v", err)
	}
	var body map[string]any
	if e := json.Unmarshal(rest.ResponseBody, &body); e != nil {
		t.Fatalf("error body %q: %v", rest.ResponseBody, e)
	}
	return rest.Response.StatusCode, body
}

// errorAt returns the first error code Discord's body gives at path.
func errorAt(body map[string]any, path ...string) string {
	node, _ := body["errors"].(map[string]any)
	for _, k := range path {
		node, _ = node[k].(map[string]any)
	}
	errs, _ := node["_errors"].([]any)
	if len(errs) == 0 {
		return ""
	}
	code, _ := errs[0].(map[string]any)["code"].(string)
	return code
}

func button(id, label string) discordgo.Button {
	return discordgo.Button{CustomID: id, Label: label, Style: discordgo.PrimaryButton}
}

func TestMessagesOverDiscordLimitsAreRefused(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{Relax: []Check{CheckRateLimits}})
	defer srv.Close()
	s := srv.NewSession()
	many := func(n int, f func(i int) discordgo.MessageComponent) []discordgo.MessageComponent {
		out := make([]discordgo.MessageComponent, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	row := func(cs ...discordgo.MessageComponent) discordgo.ActionsRow {
		return discordgo.ActionsRow{Components: cs}
	}
	options := func(n, size int) []discordgo.SelectMenuOption {
		out := make([]discordgo.SelectMenuOption, n)
		for i := range out {
			out[i] = discordgo.SelectMenuOption{Label: strings.Repeat("o", size), Value: strings.Repeat("v", size-1) + string(rune('a'+i%26)) + strings.Repeat("x", i/26)}
		}
		return out
	}
	fields := func(n int) []*discordgo.MessageEmbedField {
		out := make([]*discordgo.MessageEmbedField, n)
		for i := range out {
			out[i] = &discordgo.MessageEmbedField{Name: "n", Value: "v"}
		}
		return out
	}
	for _, c := range []struct {
		name string
		msg  discordgo.MessageSend
		path []string
		code string
	}{
		{"content 2001", discordgo.MessageSend{Content: strings.Repeat("é", 2001)}, []string{"content"}, "BASE_TYPE_MAX_LENGTH"},
		{"11 embeds", discordgo.MessageSend{Embeds: make11Embeds()}, []string{"embeds"}, "BASE_TYPE_MAX_LENGTH"},
		{"title 257", discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: strings.Repeat("t", 257)}}}, []string{"embeds", "0", "title"}, "BASE_TYPE_MAX_LENGTH"},
		{"description 4097", discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Description: strings.Repeat("d", 4097)}}}, []string{"embeds", "0", "description"}, "BASE_TYPE_MAX_LENGTH"},
		{"26 fields", discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Fields: fields(26)}}}, []string{"embeds", "0", "fields"}, "BASE_TYPE_MAX_LENGTH"},
		{"field name 257", discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Fields: []*discordgo.MessageEmbedField{{Name: strings.Repeat("n", 257), Value: "v"}}}}}, []string{"embeds", "0", "fields", "0", "name"}, "BASE_TYPE_BAD_LENGTH"},
		{"field value 1025", discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Fields: []*discordgo.MessageEmbedField{{Name: "n", Value: strings.Repeat("v", 1025)}}}}}, []string{"embeds", "0", "fields", "0", "value"}, "BASE_TYPE_BAD_LENGTH"},
		{"6001 across embeds", discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Description: strings.Repeat("d", 4000)}, {Description: strings.Repeat("d", 2001)}}}, []string{"embeds"}, "MAX_EMBED_SIZE_EXCEEDED"},
		{"6 rows", discordgo.MessageSend{Components: many(6, func(i int) discordgo.MessageComponent { return row(button(string(rune('a'+i)), "x")) })}, []string{"components"}, "BASE_TYPE_MAX_LENGTH"},
		{"6 buttons", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(many(6, func(i int) discordgo.MessageComponent { return button(string(rune('a'+i)), "x") })...)}}, []string{"components", "0", "components"}, "BASE_TYPE_BAD_LENGTH"},
		{"select beside a button", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(button("a", "x"), discordgo.SelectMenu{CustomID: "s", Options: options(1, 5)})}}, []string{"components", "0", "components"}, "COMPONENT_LAYOUT_WIDTH_EXCEEDED"},
		{"26 options", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", Options: options(26, 5)})}}, []string{"components", "0", "components", "0", "options"}, "BASE_TYPE_BAD_LENGTH"},
		{"option label 101", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", Options: options(1, 101)})}}, []string{"components", "0", "components", "0", "options", "0", "label"}, "BASE_TYPE_BAD_LENGTH"},
		{"placeholder 151", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "s", Placeholder: strings.Repeat("p", 151), Options: options(1, 5)})}}, []string{"components", "0", "components", "0", "placeholder"}, "BASE_TYPE_MAX_LENGTH"},
		{"button label 81", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(button("a", strings.Repeat("l", 81)))}}, []string{"components", "0", "components", "0", "label"}, "BASE_TYPE_MAX_LENGTH"},
		{"custom_id 101", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(button(strings.Repeat("c", 101), "x"))}}, []string{"components", "0", "components", "0", "custom_id"}, "BASE_TYPE_BAD_LENGTH"},
		{"custom_id twice", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(button("a", "x")), row(button("a", "y"))}}, []string{"components", "1", "components", "0", "custom_id"}, "COMPONENT_CUSTOM_ID_DUPLICATED"},
		{"schema: unknown button style", discordgo.MessageSend{Components: []discordgo.MessageComponent{row(discordgo.Button{CustomID: "a", Label: "x", Style: 9})}}, []string{"components", "0", "components", "0", "style"}, "BASE_TYPE_CHOICES"},
	} {
		_, err := s.ChannelMessageSendComplex("42", &c.msg)
		status, body := restError(t, err)
		if status != http.StatusBadRequest || body["code"] != float64(50035) {
			t.Errorf("%s: status %d, body %v; want 400 and code 50035", c.name, status, body)
			continue
		}
		if got := errorAt(body, c.path...); got != c.code {
			t.Errorf("%s: error at %v is %q, want %q; body %v", c.name, c.path, got, c.code, body)
		}
	}
	if n := len(srv.ChannelMessages("42")); n != 0 {
		t.Errorf("%d refused messages were kept", n)
	}
	// at the limits, everything goes through
	ok := discordgo.MessageSend{Content: strings.Repeat("é", 2000),
		Embeds:     []*discordgo.MessageEmbed{{Title: strings.Repeat("t", 256), Description: strings.Repeat("d", 4096), Fields: fields(25)}},
		Components: []discordgo.MessageComponent{row(many(5, func(i int) discordgo.MessageComponent { return button(string(rune('a'+i)), strings.Repeat("l", 80)) })...), row(discordgo.SelectMenu{CustomID: strings.Repeat("s", 100), Placeholder: strings.Repeat("p", 150), Options: options(25, 100)})}}
	if _, err := s.ChannelMessageSendComplex("42", &ok); err != nil {
		t.Errorf("a message at every limit: %v", err)
	}
	// a file over 10 MiB: 413, as Discord answers (sending 10 MiB takes
	// longer than the session's 10 s on a loaded machine)
	s.Client.Timeout = time.Minute
	_, err := s.ChannelMessageSendComplex("42", &discordgo.MessageSend{Files: []*discordgo.File{{Name: "big.png", ContentType: "image/png", Reader: bytes.NewReader(make([]byte, 10<<20+1))}}})
	if status, body := restError(t, err); status != http.StatusRequestEntityTooLarge || body["code"] != float64(40005) {
		t.Errorf("an 11 MiB file: %d %v", status, body)
	}
}

func make11Embeds() []*discordgo.MessageEmbed {
	out := make([]*discordgo.MessageEmbed, 11)
	for i := range out {
		out[i] = &discordgo.MessageEmbed{Title: "t"}
	}
	return out
}

func TestRelaxedChecksAreOnlyNoted(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{Relax: []Check{CheckContent}})
	defer srv.Close()
	s := srv.NewSession()
	if _, err := s.ChannelMessageSend("42", strings.Repeat("x", 2001)); err != nil {
		t.Fatalf("relaxed content limit: %v", err)
	}
	v := srv.Violations()
	if len(v) != 1 || v[0].Check != CheckContent || v[0].Path != "content" {
		t.Errorf("violations: %v", v)
	}
	// other checks still hold
	_, err := s.ChannelMessageSendComplex("42", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: strings.Repeat("t", 257)}}})
	if status, _ := restError(t, err); status != http.StatusBadRequest {
		t.Errorf("embed title with only content relaxed: %d", status)
	}
}

func TestInteractionsAreAnsweredOnceInTime(t *testing.T) {
	t.Parallel()
	clock := NewClock(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
	srv := NewServer(Options{Now: clock.Now})
	defer srv.Close()
	s := srv.NewSession()
	in := func(token string) *discordgo.Interaction {
		return &discordgo.Interaction{ID: "1", AppID: BotID, Token: token, Type: discordgo.InteractionApplicationCommand}
	}
	say := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "hi"}}
	code := func(err error) float64 {
		_, body := restError(t, err)
		return body["code"].(float64)
	}

	// a token Discord never issued
	if c := code(s.InteractionRespond(in("nope"), say)); c != discordgo.ErrCodeUnknownInteraction {
		t.Errorf("unknown token: code %v", c)
	}
	// nothing through the webhook before the initial response
	srv.StartInteraction("a", "")
	if _, err := s.FollowupMessageCreate(in("a"), true, &discordgo.WebhookParams{Content: "early"}); code(err) != discordgo.ErrCodeUnknownWebhook {
		t.Errorf("follow-up before the response: %v", err)
	}
	text := "edit"
	if _, err := s.InteractionResponseEdit(in("a"), &discordgo.WebhookEdit{Content: &text}); code(err) != discordgo.ErrCodeUnknownMessage {
		t.Errorf("edit of @original before the response: %v", err)
	}
	// one initial response, then follow-ups
	if err := s.InteractionRespond(in("a"), say); err != nil {
		t.Fatal(err)
	}
	if c := code(s.InteractionRespond(in("a"), say)); c != discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
		t.Errorf("second response: code %v", c)
	}
	if _, err := s.FollowupMessageCreate(in("a"), true, &discordgo.WebhookParams{Content: "more"}); err != nil {
		t.Errorf("follow-up: %v", err)
	}
	// an empty message is refused (50006) and is not the response
	srv.StartInteraction("empty", "")
	if c := code(s.InteractionRespond(in("empty"), &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{}})); c != discordgo.ErrCodeCannotSendEmptyMessage {
		t.Errorf("empty response: code %v", c)
	}
	// UPDATE_MESSAGE needs a message whose component was used
	if c := code(s.InteractionRespond(in("empty"), &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Content: "x"}})); c != discordgo.ErrCodeUnknownMessage {
		t.Errorf("update of no message: code %v", c)
	}
	srv.StartInteraction("click", "77")
	if err := s.InteractionRespond(in("click"), &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
		t.Errorf("deferred update of a clicked message: %v", err)
	}
	// an UPDATE_MESSAGE of an ephemeral message keeps it ephemeral, whatever
	// flags it carries; one of a public message keeps it public
	private := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "secret", Flags: discordgo.MessageFlagsEphemeral}}
	srv.StartInteraction("ask", "")
	if err := s.InteractionRespond(in("ask"), private); err != nil {
		t.Fatal(err)
	}
	for _, start := range []string{"ask", "a"} {
		id, _ := srv.Original(start)
		m, _ := srv.Message(id)
		wasPrivate := m.Flags&discordgo.MessageFlagsEphemeral != 0
		for i, flags := range []discordgo.MessageFlags{0, discordgo.MessageFlagsEphemeral} {
			tok := fmt.Sprintf("update-%s-%d", start, i)
			srv.StartInteraction(tok, id)
			if err := s.InteractionRespond(in(tok), &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Content: "updated", Flags: flags}}); err != nil {
				t.Fatal(err)
			}
			if m, _ := srv.Message(id); m.Content != "updated" || (m.Flags&discordgo.MessageFlagsEphemeral != 0) != wasPrivate {
				t.Errorf("message %s (ephemeral %v) after an update with flags %d: %q, flags %d", id, wasPrivate, flags, m.Content, m.Flags)
			}
		}
	}
	// the 3-second window
	srv.StartInteraction("late", "")
	clock.Advance(ResponseWindow + time.Millisecond)
	if c := code(s.InteractionRespond(in("late"), say)); c != discordgo.ErrCodeUnknownInteraction {
		t.Errorf("response after 3 s: code %v", c)
	}
	// the 15-minute token
	clock.Advance(TokenLife)
	if _, err := s.FollowupMessageCreate(in("a"), true, &discordgo.WebhookParams{Content: "too late"}); code(err) != discordgo.ErrCodeInvalidWebhookTokenProvided {
		t.Errorf("follow-up after 15 minutes: %v", err)
	}
	// autocomplete: 25 choices of 100 characters
	srv.StartInteraction("ac", "")
	choices := make([]*discordgo.ApplicationCommandOptionChoice, 26)
	for i := range choices {
		choices[i] = &discordgo.ApplicationCommandOptionChoice{Name: "c", Value: "v"}
	}
	err := s.InteractionRespond(in("ac"), &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: &discordgo.InteractionResponseData{Choices: choices}})
	if _, body := restError(t, err); errorAt(body, "data", "choices") != "BASE_TYPE_MAX_LENGTH" {
		t.Errorf("26 choices: %v", body)
	}
	// a refused response does not count as the response
	err = s.InteractionRespond(in("ac"), &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: &discordgo.InteractionResponseData{Choices: choices[:25]}})
	if err != nil {
		t.Errorf("25 choices after a refusal: %v", err)
	}
}

func TestCommandRulesAreChecked(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	s := srv.NewSession()
	opt := func(name string, required bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Description: "d", Required: required}
	}
	good := &discordgo.ApplicationCommand{Name: "play", Description: "Play a move", Options: []*discordgo.ApplicationCommandOption{opt("move", true), opt("note", false)}}
	french := &discordgo.ApplicationCommand{Name: "partie_à-deux", Description: "d", NameLocalizations: &map[discordgo.Locale]string{discordgo.German: "zwei-spielende"},
		DescriptionLocalizations: &map[discordgo.Locale]string{discordgo.German: "Für zwei"}}
	good.Options[0].NameLocalizations = map[discordgo.Locale]string{discordgo.French: "coup"} // "note" keeps its name in French
	if _, err := s.ApplicationCommandBulkOverwrite(BotID, "", []*discordgo.ApplicationCommand{good, french}); err != nil {
		t.Fatalf("a good command: %v", err)
	}
	for _, c := range []struct {
		name string
		cmd  discordgo.ApplicationCommand
		path []string
		code string
	}{
		{"upper-case name", discordgo.ApplicationCommand{Name: "Play", Description: "d"}, []string{"0", "name"}, "APPLICATION_COMMAND_INVALID_NAME"},
		{"name with a space", discordgo.ApplicationCommand{Name: "play now", Description: "d"}, []string{"0", "name"}, "APPLICATION_COMMAND_INVALID_NAME"},
		{"name of 33", discordgo.ApplicationCommand{Name: strings.Repeat("p", 33), Description: "d"}, []string{"0", "name"}, "APPLICATION_COMMAND_INVALID_NAME"},
		{"description 101", discordgo.ApplicationCommand{Name: "play", Description: strings.Repeat("d", 101)}, []string{"0", "description"}, "BASE_TYPE_BAD_LENGTH"},
		{"required after optional", discordgo.ApplicationCommand{Name: "play", Description: "d", Options: []*discordgo.ApplicationCommandOption{opt("a", false), opt("b", true)}}, []string{"0", "options", "1", "required"}, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"},
		{"same option twice", discordgo.ApplicationCommand{Name: "play", Description: "d", Options: []*discordgo.ApplicationCommandOption{opt("a", false), opt("a", false)}}, []string{"0", "options", "1", "name"}, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"},
		{"localized name with a capital", discordgo.ApplicationCommand{Name: "play", Description: "d", NameLocalizations: &map[discordgo.Locale]string{discordgo.German: "Spielen"}}, []string{"0", "name_localizations", "de"}, "APPLICATION_COMMAND_INVALID_NAME"},
		{"localized description 101", discordgo.ApplicationCommand{Name: "play", Description: "d", DescriptionLocalizations: &map[discordgo.Locale]string{discordgo.French: strings.Repeat("é", 101)}}, []string{"0", "description_localizations", "fr"}, "BASE_TYPE_BAD_LENGTH"},
		{"options alike in German", discordgo.ApplicationCommand{Name: "play", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "a", Description: "d", NameLocalizations: map[discordgo.Locale]string{discordgo.German: "zug"}},
			{Type: discordgo.ApplicationCommandOptionString, Name: "b", Description: "d", NameLocalizations: map[discordgo.Locale]string{discordgo.German: "zug"}},
		}}, []string{"0", "options", "1", "name_localizations", "de"}, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"},
		{"a French name another option has", discordgo.ApplicationCommand{Name: "play", Description: "d", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "jeu", Description: "d"},
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "d", NameLocalizations: map[discordgo.Locale]string{discordgo.French: "jeu"}},
		}}, []string{"0", "options", "1", "name_localizations", "fr"}, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"},
		{"localized choice 101", discordgo.ApplicationCommand{Name: "play", Description: "d", Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "a", Description: "d",
			Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "x", Value: "x", NameLocalizations: map[discordgo.Locale]string{discordgo.German: strings.Repeat("x", 101)}}}}}}, []string{"0", "options", "0", "choices", "0", "name_localizations", "de"}, "BASE_TYPE_BAD_LENGTH"},
		{"autocomplete with choices", discordgo.ApplicationCommand{Name: "play", Description: "d", Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "a", Description: "d", Autocomplete: true, Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "x", Value: "x"}}}}}, []string{"0", "options", "0", "autocomplete"}, "AUTOCOMPLETE_AND_CHOICES"},
	} {
		_, err := s.ApplicationCommandBulkOverwrite(BotID, "", []*discordgo.ApplicationCommand{&c.cmd})
		status, body := restError(t, err)
		if status != http.StatusBadRequest || errorAt(body, c.path...) != c.code {
			t.Errorf("%s: %d %v; want %s at %v", c.name, status, body, c.code, c.path)
		}
	}
}

// post sends a bot-token POST straight to the fake, without discordgo's
// own rate limiter.
func post(t *testing.T, srv *Server, path, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL()+"/api/v9"+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bot "+Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestRateLimitsAsDiscord(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	// a channel's message bucket: 5, then 429 with retry_after
	for n := 1; n <= 5; n++ {
		resp := post(t, srv, "/channels/42/messages", `{"content":"x"}`)
		h := resp.Header
		if resp.StatusCode != http.StatusOK || h.Get("X-RateLimit-Limit") != "5" || h.Get("X-RateLimit-Remaining") != string(rune('0'+5-n)) ||
			h.Get("X-RateLimit-Bucket") == "" || h.Get("X-RateLimit-Reset") == "" || h.Get("X-RateLimit-Reset-After") == "" {
			t.Fatalf("post %d: %d %v", n, resp.StatusCode, h)
		}
	}
	resp := post(t, srv, "/channels/42/messages", `{"content":"x"}`)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || resp.Header.Get("X-RateLimit-Scope") != "user" {
		t.Errorf("sixth post: %d %v", resp.StatusCode, resp.Header)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if last.Status != http.StatusTooManyRequests {
		t.Errorf("429 not recorded: %+v", last)
	}
	// another channel has its own bucket; 50 bot calls a second in all
	for n := 0; n < GlobalLimit-6; n++ {
		if resp := post(t, srv, "/channels/"+string(rune('1'+n%9))+"00/messages", `{"content":"x"}`); resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("X-RateLimit-Global") != "" {
			t.Fatalf("global limit after %d calls", n+6)
		}
	}
	resp = post(t, srv, "/users/@me/channels", `{"recipient_id":"7"}`)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("X-RateLimit-Global") != "true" || resp.Header.Get("X-RateLimit-Scope") != "global" {
		t.Errorf("call 51 in a second: %d %v", resp.StatusCode, resp.Header)
	}
	// interaction responses are exempt
	srv.StartInteraction("tok", "")
	if resp := post(t, srv, "/interactions/1/tok/callback", `{"type":4,"data":{"content":"ok"}}`); resp.StatusCode != http.StatusNoContent {
		t.Errorf("interaction response under the global limit: %d", resp.StatusCode)
	}
}

func TestDiscordgoWaitsForTheBuckets(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	s := srv.NewSession()
	began := time.Now()
	for n := 0; n < 6; n++ {
		if err := s.ChannelMessageDelete("42", "1"); err == nil {
			t.Fatal("deleted a message that does not exist")
		}
	}
	// five deletes a second: the sixth waited for the bucket, without a 429
	if d := time.Since(began); d < 500*time.Millisecond {
		t.Errorf("six deletes in %v: discordgo did not see the bucket", d)
	}
	for _, q := range srv.Requests() {
		if q.Status == http.StatusTooManyRequests {
			t.Errorf("429 although discordgo read the headers: %+v", q)
		}
	}
}

func TestSchemaRefusesWhatDiscordDoesNotDescribe(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	for _, c := range []struct {
		body string
		path []string
		code string
	}{
		{`{"components":[{"type":1,"components":[{"type":99,"custom_id":"a"}]}]}`, []string{"components", "0", "components", "0", "type"}, "BASE_TYPE_CHOICES"},
		{`{"content":5}`, []string{"content"}, "BASE_TYPE_INVALID"},
		{`{"embeds":[{"title":"t","color":"red"}]}`, []string{"embeds", "0", "color"}, "BASE_TYPE_INVALID"},
		{`{"components":[{"type":1,"components":[{"type":2,"custom_id":"a","label":"x"}]}]}`, []string{"components", "0", "components", "0"}, "BASE_TYPE_REQUIRED"}, // a button needs a style
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL()+"/api/v9/channels/"+fmt.Sprint(len(c.body))+"/messages", strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bot "+Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || errorAt(body, c.path...) != c.code {
			t.Errorf("%s: %d %v; want %s at %v", c.body, resp.StatusCode, body, c.code, c.path)
		}
	}
}

// A storm answers every bot-token call with the global 429 of Discord's
// documentation, X-RateLimit-Reset-After on every other answer when asked;
// interaction answers pass; a request inside an announced window is listed
// as a breach, unless the client says it was already on its way.
func TestAGlobalStormAsDocumented(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	srv.GlobalStorm(Storm{For: time.Hour, RetryAfter: 1500 * time.Millisecond, ResetAfter: ResetAfterAlternate})
	var resetAfter []string
	for n := range 4 {
		resp := post(t, srv, fmt.Sprintf("/channels/%d/messages", 42+n), `{"content":"x"}`)
		h := resp.Header
		if resp.StatusCode != http.StatusTooManyRequests || h.Get("Retry-After") != "2" || h.Get("X-RateLimit-Global") != "true" ||
			h.Get("X-RateLimit-Scope") != "global" || h.Get("X-RateLimit-Bucket") != "" {
			t.Fatalf("a call in the storm: %d %v", resp.StatusCode, h)
		}
		resetAfter = append(resetAfter, h.Get("X-RateLimit-Reset-After"))
	}
	if want := []string{"", "1.500", "", "1.500"}; !slices.Equal(resetAfter, want) {
		t.Errorf("X-RateLimit-Reset-After on the storm's answers: %q, want %q", resetAfter, want)
	}
	srv.StartInteraction("tok", "")
	if resp := post(t, srv, "/interactions/1/tok/callback", `{"type":4,"data":{"content":"ok"}}`); resp.StatusCode != http.StatusNoContent {
		t.Errorf("an interaction response in the storm: %d", resp.StatusCode)
	}
	reqs := srv.Requests()
	first := reqs[0]
	if got := first.Until.Sub(first.Answered); got != 1500*time.Millisecond {
		t.Errorf("the window the first 429 announced: %v", got)
	}
	// the three later calls came inside the first one's window (and each
	// inside the windows before it): 3 + 2 + 1 breaches
	if breaches, excused := srv.GlobalBreaches(nil); len(breaches) != 6 || excused != 0 {
		t.Errorf("%d breaches, %d excused; want 6 and 0", len(breaches), excused)
	}
	if breaches, excused := srv.GlobalBreaches(func(r, w Request) bool { return w.Channel == "42" }); len(breaches) != 3 || excused != 3 {
		t.Errorf("with the first window's excused: %d breaches, %d excused; want 3 and 3", len(breaches), excused)
	}
	srv.GlobalStorm(Storm{}) // over at once
	if resp := post(t, srv, "/channels/50/messages", `{"content":"x"}`); resp.StatusCode != http.StatusOK {
		t.Errorf("after the storm: %d", resp.StatusCode)
	}
}
