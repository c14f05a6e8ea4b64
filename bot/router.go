package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// route dispatches an interaction on its type, then on its command or its
// decoded custom_id.
func (b *Bot) route(ctx context.Context, r *reply, i *discordgo.Interaction) error {
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		return b.command(ctx, r, i)
	case discordgo.InteractionApplicationCommandAutocomplete:
		return b.autocomplete(r, i)
	case discordgo.InteractionMessageComponent:
		id, err := parseCustomID(i.MessageComponentData().CustomID)
		if err != nil {
			return errUnknownComp
		}
		return b.component(ctx, r, i, id)
	case discordgo.InteractionModalSubmit:
		id, err := parseCustomID(i.ModalSubmitData().CustomID)
		if err != nil {
			return errUnknownComp
		}
		return b.component(ctx, r, i, id)
	}
	return refuse("Meeple does not handle that kind of interaction.")
}

func (b *Bot) command(ctx context.Context, r *reply, i *discordgo.Interaction) error {
	data := i.ApplicationCommandData()
	if i.GuildID == "" {
		return errGuildOnly
	}
	sub, opts := subcommand(data.Options)
	switch data.Name {
	case cmdLobby:
		return b.lobbyCommand(r, i, sub, opts)
	case cmdPlay, cmdFree:
		return b.playCommand(r, i, data.Name == cmdFree, opts.str(optAction))
	case cmdGame:
		return b.gameCommand(r, i, sub, opts)
	case cmdAdmin:
		return b.adminCommand(r, i, sub, opts)
	}
	return refuse("Unknown command `/%s`.", data.Name)
}

func (b *Bot) component(ctx context.Context, r *reply, i *discordgo.Interaction, id customID) error {
	switch id.Verb {
	case verbJoin, verbLeave, verbAddAI, verbDropAI, verbStart:
		return b.lobbyButton(r, i, id)
	case verbAbandon, verbConfirm:
		return b.abandonButton(r, i, id)
	case verbAct, verbPick, verbModal:
		return b.actComponent(r, i, id)
	case verbSecret:
		return b.secretButton(r, i, id)
	case verbWhich:
		return b.whichGame(r, i, id)
	case verbLogPage:
		return b.logPage(r, i, id)
	}
	return errUnknownComp
}

// options are a command's options by name.
type options map[string]*discordgo.ApplicationCommandInteractionDataOption

// subcommand returns the subcommand's name (or "") and its options.
func subcommand(opts []*discordgo.ApplicationCommandInteractionDataOption) (string, options) {
	if len(opts) == 1 && opts[0].Type == discordgo.ApplicationCommandOptionSubCommand {
		return opts[0].Name, byName(opts[0].Options)
	}
	return "", byName(opts)
}

func byName(opts []*discordgo.ApplicationCommandInteractionDataOption) options {
	m := options{}
	for _, o := range opts {
		m[o.Name] = o
	}
	return m
}

func (o options) str(name string) string {
	if v, ok := o[name]; ok {
		if s, ok := v.Value.(string); ok {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// integer returns the option's value and whether it was given.
func (o options) integer(name string) (int, bool) {
	if v, ok := o[name]; ok {
		if f, ok := v.Value.(float64); ok {
			return int(f), true
		}
	}
	return 0, false
}

func (o options) boolean(name string) (bool, bool) {
	if v, ok := o[name]; ok {
		if t, ok := v.Value.(bool); ok {
			return t, true
		}
	}
	return false, false
}

// focused returns the option being typed in an autocomplete request.
func focused(opts []*discordgo.ApplicationCommandInteractionDataOption) (*discordgo.ApplicationCommandInteractionDataOption, string) {
	for _, o := range opts {
		if o.Type == discordgo.ApplicationCommandOptionSubCommand {
			if f, _ := focused(o.Options); f != nil {
				return f, o.Name
			}
		}
		if o.Focused {
			return o, ""
		}
	}
	return nil, ""
}

// userOf returns who used the interaction, in a guild or a DM.
func userOf(i *discordgo.Interaction) *discordgo.User {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User
	}
	if i.User != nil {
		return i.User
	}
	return &discordgo.User{}
}

// displayName is the name to show for the interaction's user.
func displayName(i *discordgo.Interaction) string {
	if i.Member != nil && i.Member.Nick != "" {
		return i.Member.Nick
	}
	u := userOf(i)
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// isAdmin reports whether the member may manage games in this guild:
// Discord's Manage Channels (or Administrator) permission in the channel.
func isAdmin(i *discordgo.Interaction) bool {
	return i.Member != nil && i.Member.Permissions&(adminPermissions|discordgo.PermissionAdministrator) != 0
}
