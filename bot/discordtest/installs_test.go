package discordtest

import (
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// Commands reach only the contexts and installations their definitions
// allow (Discord's defaults when they name none), and a channel the bot
// cannot see refuses every call on it.
func TestInstallsAndContexts(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	s := srv.NewSession()
	guildOnly := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	both := &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	_, err := s.ApplicationCommandBulkOverwrite("9", "", []*discordgo.ApplicationCommand{
		{Name: "play", Description: "play", Contexts: guildOnly},
		{Name: "inbox", Description: "inbox", IntegrationTypes: both},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ApplicationCommandBulkOverwrite("9", "77", []*discordgo.ApplicationCommand{{Name: "dev", Description: "dev"}}); err != nil {
		t.Fatal(err)
	}
	const (
		guild, dm, private = discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel
		server, user       = discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall
	)
	for _, c := range []struct {
		guild, name string
		context     discordgo.InteractionContextType
		install     discordgo.ApplicationIntegrationType
		ok          bool
	}{
		{"", "play", guild, server, true},
		{"", "play", dm, server, false},
		{"", "play", guild, user, false}, // installed to servers only, by default
		{"", "inbox", private, user, true},
		{"", "inbox", dm, server, true}, // every context, by default
		{"", "nothing", guild, server, false},
		{"77", "dev", guild, server, true},
		{"77", "dev", guild, user, false},
	} {
		if err := srv.Invocable(c.guild, c.name, c.context, c.install); (err == nil) != c.ok {
			t.Errorf("/%s (guild %q) in context %d by install %d: %v, want delivered %v", c.name, c.guild, c.context, c.install, err, c.ok)
		}
	}

	srv.Outsider("55")
	_, err = s.ChannelMessageSend("55", "hello")
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != discordgo.ErrCodeMissingAccess {
		t.Errorf("a post in a channel the bot cannot see: %v, want Missing Access", err)
	}
	if _, err := s.ChannelMessageSend("56", "hello"); err != nil {
		t.Errorf("a post in another channel: %v", err)
	}
}
