package bot

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
)

// validName is Discord's rule for command and option names (lower case).
var validName = regexp.MustCompile(`^[-_\p{Ll}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// TestCommandsFitDiscordLimits checks what Discord would refuse at
// registration: names, description lengths, option and choice counts.
func TestCommandsFitDiscordLimits(t *testing.T) {
	t.Parallel()
	// localized checks a name's and a description's German and French
	// (nil descriptions: a choice has none)
	localized := func(path string, names, descs map[discordgo.Locale]string) {
		for _, loc := range []discordgo.Locale{discordgo.German, discordgo.French} {
			if n := names[loc]; n == "" || (descs != nil && !validName.MatchString(n)) || utf8.RuneCountInString(n) > 100 {
				t.Errorf("%s: %s name %q", path, loc, n)
			}
			if descs != nil {
				if n := utf8.RuneCountInString(descs[loc]); n < 1 || n > 100 {
					t.Errorf("%s: %s description of %d characters", path, loc, n)
				}
			}
		}
	}
	var check func(path string, opts []*discordgo.ApplicationCommandOption)
	check = func(path string, opts []*discordgo.ApplicationCommandOption) {
		if len(opts) > 25 {
			t.Errorf("%s: %d options, Discord allows 25", path, len(opts))
		}
		required := true
		for _, o := range opts {
			p := path + " " + o.Name
			if !validName.MatchString(o.Name) {
				t.Errorf("%s: bad name", p)
			}
			if n := utf8.RuneCountInString(o.Description); n < 1 || n > 100 {
				t.Errorf("%s: description of %d characters", p, n)
			}
			localized(p, o.NameLocalizations, o.DescriptionLocalizations)
			for _, c := range o.Choices {
				localized(p+" choice "+c.Name, c.NameLocalizations, nil)
			}
			if len(o.Choices) > 25 || (o.Autocomplete && len(o.Choices) > 0) {
				t.Errorf("%s: %d choices, autocomplete %v", p, len(o.Choices), o.Autocomplete)
			}
			if o.Required && !required {
				t.Errorf("%s: a required option after an optional one", p)
			}
			required = required && o.Required
			check(p, o.Options)
		}
	}
	for _, c := range Commands(realRegistry(t), testWords(t)) {
		if !validName.MatchString(c.Name) || utf8.RuneCountInString(c.Description) > 100 {
			t.Errorf("/%s: bad name or description", c.Name)
		}
		localized("/"+c.Name, *c.NameLocalizations, *c.DescriptionLocalizations)
		check("/"+c.Name, c.Options)
	}
}

// TestLocalizedCommandsAreAccepted registers the commands of both games,
// in every language, with the strict fake, which checks names (the rule,
// and unique among siblings in each language) and lengths.
func TestLocalizedCommandsAreAccepted(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{DevGuild: "4242"}, nil, nil)
	if err := h.bot.RegisterCommands(); err != nil {
		t.Fatal(err)
	}
	var raw string
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.Commands {
			raw = string(q.Raw)
		}
	}
	for _, want := range []string{`"de":"spielen"`, `"fr":"jouer"`, `"fr":"salon"`, `"de":"In 80 Tagen um die Welt"`, `"fr":"Le Tour du monde en 80 jours"`, `"de":"computer-hinzufügen"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("registered commands lack %s", want)
		}
	}
}

func TestRegisterCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{DevGuild: "4242"}, nil, nil)
	if err := h.bot.RegisterCommands(); err != nil {
		t.Fatal(err)
	}
	var put *discordtest.Request
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.Commands {
			put = &q
		}
	}
	if put == nil || put.Method != "PUT" || !strings.HasSuffix(put.Path, "/applications/"+testApp+"/guilds/4242/commands") {
		t.Fatalf("registration request: %+v", put)
	}
	for _, want := range []string{`"name":"lobby"`, `"name":"play"`, `"name":"free"`, `"name":"game"`, `"name":"meeple-admin"`, `"default_member_permissions":"16"`, `"value":"tiny"`} {
		if !strings.Contains(string(put.Raw), want) {
			t.Errorf("registered commands lack %s", want)
		}
	}
}
