package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/locale"
)

// handler is one part of the bot: it tells the router which slash commands
// and component verbs it answers. New features arrive as new handlers
// registered in New, each holding only the parts it uses.
type handler interface {
	register(rt *router) error
}

// interaction is an incoming interaction as the router read it. Handlers
// read these fields, never discordgo's typed data, whose accessors panic on
// an interaction of another type: the router has checked the type first.
type interaction struct {
	*discordgo.Interaction
	user *discordgo.User
	// a command's name, subcommand and options (and, for autocomplete, the
	// option being typed)
	name, sub string
	opts      options
	focused   *discordgo.ApplicationCommandInteractionDataOption
	// a component's or form's decoded custom_id, a select menu's values, a
	// form's text, and the message a component was on
	id      customID
	values  []string
	text    string
	message *discordgo.Message
	// tr writes private answers, in the language of the person asking
	tr *locale.Printer
	// langs picks the server's language for public messages (see public)
	langs  *languages
	public *locale.Printer
}

// publicTr is the printer of public messages: the server's language.
func (in *interaction) publicTr(ctx context.Context) *locale.Printer {
	if in.public == nil {
		guildLocale := ""
		if in.GuildLocale != nil {
			guildLocale = string(*in.GuildLocale)
		}
		in.public = in.langs.guild(ctx, in.GuildID, guildLocale)
	}
	return in.public
}

// inDM reports whether the interaction came from a DM with the bot.
func (in *interaction) inDM() bool { return in.GuildID == "" }

// inBotsServer reports whether the interaction came from a server the bot
// was installed to: not from a DM, nor from a server where only the user
// installed the app (Discord then names no guild install among the
// interaction's authorizing owners; an interaction that names none at
// all is from an older Discord, in a server with the bot).
func (in *interaction) inBotsServer() bool {
	if in.GuildID == "" {
		return false
	}
	if len(in.AuthorizingIntegrationOwners) == 0 {
		return true
	}
	_, ok := in.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	return ok
}

// ephemeral reports whether m is a private message (only its user sees it).
func ephemeral(m *discordgo.Message) bool {
	return m != nil && m.Flags&discordgo.MessageFlagsEphemeral != 0
}

// componentKind is what kind of component a verb lives on.
type componentKind int

const (
	onButton componentKind = iota + 1
	onSelect
	onForm // a modal submission
)

// place is where a verb's component may be used.
type place int

const (
	inGuild  place = 1 << iota // a server channel
	inDMs                      // a DM with the bot
	anywhere = inGuild | inDMs
)

// runFunc answers an interaction a handler registered for.
type runFunc func(ctx context.Context, r *transport.Reply, in *interaction) error

// suggestFunc lists what may be typed into an autocompleted option.
type suggestFunc func(ctx context.Context, in *interaction) []string

// choicesFunc is a suggestFunc whose choices send values of their own.
type choicesFunc func(ctx context.Context, in *interaction) choiceList

// choiceList is what an autocompleted option offers: the texts shown and,
// when value is set, the value each sends (its text otherwise).
type choiceList struct {
	texts []string
	value func(text string) string
}

type commandRoute struct {
	run     runFunc
	suggest choicesFunc
}

type verbRoute struct {
	kind  componentKind
	where place
	run   runFunc
	// opensForm: the handler may answer with a form, which must be the
	// first answer, so the router does not acknowledge it first
	opensForm bool
}

// router dispatches interactions to the handlers that registered for them,
// after checking that a component is of the kind its verb lives on and
// used where the verb may be. It acknowledges every component and form
// before its handler runs (see acknowledge).
type router struct {
	langs    *languages
	commands map[string]commandRoute
	anywhere map[string]bool    // commands that work outside a server too (a DM, an app installed to a user)
	subs     map[string]runFunc // by "command subcommand"
	verbs    map[verb]verbRoute
}

func newRouter(langs *languages) *router {
	return &router{langs: langs, commands: map[string]commandRoute{}, anywhere: map[string]bool{}, subs: map[string]runFunc{}, verbs: map[verb]verbRoute{}}
}

// subcommand registers the handler of one subcommand of a command whose
// other subcommands another handler answers.
func (rt *router) subcommand(name, sub string, run runFunc) error {
	key := name + " " + sub
	if _, dup := rt.subs[key]; dup {
		return fmt.Errorf("command /%s registered twice", key)
	}
	rt.subs[key] = run
	return nil
}

// command registers the handler of a slash command and of its
// autocompletion (suggest may be nil).
func (rt *router) command(name string, run runFunc, suggest suggestFunc) error {
	var choices choicesFunc
	if suggest != nil {
		choices = func(ctx context.Context, in *interaction) choiceList { return choiceList{texts: suggest(ctx, in)} }
	}
	return rt.commandWithChoices(name, run, choices)
}

// commandAnywhere registers the handler of a slash command that works
// outside a server too: in a DM with the bot, or from an app a user
// installed to their account. Its handler reads the user from
// interaction.user, which is set with or without a member.
func (rt *router) commandAnywhere(name string, run runFunc, suggest suggestFunc) error {
	if err := rt.command(name, run, suggest); err != nil {
		return err
	}
	rt.anywhere[name] = true
	return nil
}

// commandWithChoices is command for an autocompletion whose choices send
// values of their own.
func (rt *router) commandWithChoices(name string, run runFunc, suggest choicesFunc) error {
	if _, dup := rt.commands[name]; dup {
		return fmt.Errorf("command /%s registered twice", name)
	}
	rt.commands[name] = commandRoute{run: run, suggest: suggest}
	return nil
}

// component registers the handler of a verb's components.
func (rt *router) component(v verb, kind componentKind, where place, run runFunc) error {
	return rt.addVerb(v, verbRoute{kind: kind, where: where, run: run})
}

// formOpener registers the handler of a verb's buttons that answers by
// opening a form (a modal), which Discord takes only as the first answer:
// such a click is not acknowledged before its handler runs.
func (rt *router) formOpener(v verb, where place, run runFunc) error {
	return rt.addVerb(v, verbRoute{kind: onButton, where: where, run: run, opensForm: true})
}

func (rt *router) addVerb(v verb, route verbRoute) error {
	if _, dup := rt.verbs[v]; dup {
		return fmt.Errorf("verb %q registered twice", v)
	}
	if !knownVerbs[v] {
		return fmt.Errorf("verb %q is not in knownVerbs", v)
	}
	rt.verbs[v] = route
	return nil
}

// route reads an interaction and runs the handler registered for it.
func (rt *router) route(ctx context.Context, r *transport.Reply, i *discordgo.Interaction) error {
	in := &interaction{Interaction: i, user: userOf(i), message: i.Message, tr: rt.langs.person(string(i.Locale)), langs: rt.langs}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		data := i.ApplicationCommandData()
		in.name = data.Name
		in.sub, in.opts = subcommand(data.Options)
		c, ok := rt.commands[data.Name]
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			in.focused = focused(data.Options)
			var list choiceList
			if ok && c.suggest != nil && in.focused != nil && (i.GuildID != "" || rt.anywhere[data.Name]) {
				list = c.suggest(ctx, in)
			}
			typed := ""
			if in.focused != nil {
				typed, _ = in.focused.Value.(string)
			}
			choices := matchChoices(list.texts, typed)
			if list.value != nil {
				for _, c := range choices {
					if v, ok := c.Value.(string); ok { // the action, when the name also says what it does
						c.Value = list.value(v)
					}
				}
			}
			return r.Choices(choices)
		}
		if i.GuildID == "" && !rt.anywhere[data.Name] {
			return errGuildOnly
		}
		if run, ok := rt.subs[data.Name+" "+in.sub]; ok && in.sub != "" {
			return run(ctx, r, in)
		}
		if !ok {
			return refuseWith("refuse.unknown_command", "Name", transport.Clip(data.Name, 40))
		}
		return c.run(ctx, r, in)
	case discordgo.InteractionMessageComponent:
		data := i.MessageComponentData()
		kind := onButton
		switch data.ComponentType {
		case discordgo.ButtonComponent:
		case discordgo.SelectMenuComponent:
			kind = onSelect
		default:
			return errUnknownComp
		}
		in.values = data.Values
		return rt.componentRoute(ctx, r, in, data.CustomID, kind)
	case discordgo.InteractionModalSubmit:
		data := i.ModalSubmitData()
		in.text = modalValue(data.Components)
		return rt.componentRoute(ctx, r, in, data.CustomID, onForm)
	}
	return refuseWith("refuse.unknown_interaction")
}

func (rt *router) componentRoute(ctx context.Context, r *transport.Reply, in *interaction, customID string, kind componentKind) error {
	id, err := parseCustomID(customID)
	if errors.Is(err, errOldCustomID) {
		return table.ErrStaleClick // a message an older Meeple drew: its board is out of date
	}
	if err != nil {
		return errUnknownComp
	}
	v, ok := rt.verbs[id.Verb]
	if !ok || v.kind != kind {
		return errUnknownComp
	}
	where := inGuild
	if in.inDM() {
		where = inDMs
	}
	if v.where&where == 0 {
		return errUnknownComp
	}
	in.id = id
	if !v.opensForm {
		acknowledge(r, in)
	}
	return v.run(ctx, r, in)
}

// acknowledge answers a component or form as soon as it is routed, before
// its handler touches the store, so a click is answered at once however
// busy the machine: a deferred update of its message, or a private
// "thinking…" for a form with no message. The handler's answer follows
// through the interaction's webhook (see transport.Reply.Message).
func acknowledge(r *transport.Reply, in *interaction) {
	if in.message == nil {
		r.DeferMessage(true)
		return
	}
	r.DeferUpdate()
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

// focused returns the option being typed in an autocomplete request, or
// nil.
func focused(opts []*discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	for _, o := range opts {
		if o.Type == discordgo.ApplicationCommandOptionSubCommand {
			if f := focused(o.Options); f != nil {
				return f
			}
		}
		if o.Focused {
			return o
		}
	}
	return nil
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
