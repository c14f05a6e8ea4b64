package discordtest

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/bwmarrin/discordgo"
)

// Where an app's commands reach people: Discord delivers a command only
// where its definition allows, and an app a user installed to their
// account has no access to the channels it is used in. The fake models
// both, so that a test sends only the interactions Discord would deliver,
// and a bot that answers them by any other way than the interaction
// fails.

// MissingAccess is Discord's answer to a call on a channel the bot cannot
// see: a server that did not install the app (only a user did), or a DM
// between users.
var MissingAccess = Failure{Status: http.StatusForbidden, Code: discordgo.ErrCodeMissingAccess, Message: "Missing Access"}

// Outsider marks channel as one the bot cannot see: every REST call on it
// (a post, an edit, a thread) fails with MissingAccess. Interaction
// answers, which go through the interaction's token, still work.
func (s *Server) Outsider(channel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outsiders[channel] = true
}

// outsiderCall reports whether req is a REST call on a channel marked
// with Outsider; s.mu is held.
func (s *Server) outsiderCall(req Request) bool {
	switch req.Kind {
	case ChannelSend, MessageEdit, MessageDelete, ThreadStart, ChannelEdit:
		return s.outsiders[req.Channel]
	}
	return false
}

// keepCommands records the commands a bulk overwrite registered, globally
// (guild "") or in one guild; s.mu is held.
func (s *Server) keepCommands(guild string, cmds []*discordgo.ApplicationCommand) {
	s.commands[guild] = cmds
}

// Invocable reports, as an error, why Discord would not deliver an
// invocation of command name in context by an installation of install:
// no such command is registered (in guild, or globally), or its
// definition does not allow that context or installation. Discord's
// defaults apply to a definition that names none: installed to servers
// only (integration_types [0]), usable in every context. A command
// registered in one guild is a guild-installed command of that guild.
func (s *Server) Invocable(guild, name string, context discordgo.InteractionContextType, install discordgo.ApplicationIntegrationType) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	find := func(cmds []*discordgo.ApplicationCommand) *discordgo.ApplicationCommand {
		for _, c := range cmds {
			if c.Name == name {
				return c
			}
		}
		return nil
	}
	if c := find(s.commands[guild]); guild != "" && c != nil {
		if context != discordgo.InteractionContextGuild || install != discordgo.ApplicationIntegrationGuildInstall {
			return fmt.Errorf("/%s is registered in guild %s only: Discord offers it nowhere else, and to no user install", name, guild)
		}
		return nil
	}
	c := find(s.commands[""])
	if c == nil {
		return fmt.Errorf("no command /%s is registered", name)
	}
	installs := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	if c.IntegrationTypes != nil {
		installs = *c.IntegrationTypes
	}
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	if c.Contexts != nil {
		contexts = *c.Contexts
	}
	if !slices.Contains(installs, install) {
		return fmt.Errorf("/%s is not offered to installations of type %d (its integration_types are %v)", name, install, installs)
	}
	if !slices.Contains(contexts, context) {
		return fmt.Errorf("/%s cannot be used in context %d (its contexts are %v)", name, context, contexts)
	}
	return nil
}
