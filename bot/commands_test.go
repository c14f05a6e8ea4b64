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
var validName = regexp.MustCompile(`^[-_\p{Ll}\p{N}]{1,32}$`)

// TestCommandsFitDiscordLimits checks what Discord would refuse at
// registration: names, description lengths, option and choice counts.
func TestCommandsFitDiscordLimits(t *testing.T) {
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
		check("/"+c.Name, c.Options)
	}
}

func TestRegisterCommands(t *testing.T) {
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
