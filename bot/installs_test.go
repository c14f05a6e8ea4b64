package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// installedUse sends /name as Discord delivers it from the app u installed
// to their account: in guild's channel (a server that did not install
// the app: the bot cannot see it) or, with guild "", in a DM between
// users. It fails t unless the commands the bot registered let Discord
// deliver it.
func (h *harness) installedUse(u tester, guild, channel, name string, opts map[string]any) result {
	h.t.Helper()
	context := discordgo.InteractionContextPrivateChannel
	if guild != "" {
		context = discordgo.InteractionContextGuild
	}
	if err := h.fake.Invocable("", name, context, discordgo.ApplicationIntegrationUserInstall); err != nil {
		h.t.Fatalf("Discord would not deliver /%s: %v", name, err)
	}
	h.fake.Outsider(channel)
	raw := map[string]any{
		"type": 2, "channel_id": channel, "context": int(context),
		"authorizing_integration_owners": map[string]any{"1": u.ID},
		"data":                           map[string]any{"id": "1", "name": name, "type": 1, "options": optionList(opts, false, "")},
	}
	if guild != "" {
		raw["guild_id"], raw["member"] = guild, u.member()
	} else {
		raw["user"] = map[string]any{"id": u.ID, "username": strings.ToLower(u.Name)}
	}
	return h.send(raw)
}

// /inbox, /stats and /rules work from the app a user installed to their
// account, in a server that never installed Meeple and in a DM between
// users: they answer privately through the interaction alone (the bot
// cannot see those channels, and the strict fake refuses any call on
// them). Game commands are not offered there at all.
func TestUserInstalledCommandsWorkWithoutTheBot(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	if err := h.bot.RegisterCommands(); err != nil {
		t.Fatal(err)
	}
	openTinyTable(t, h, chTiny, alice, bob)

	res := h.installedUse(alice, "7999", "3999", cmdInbox, nil)
	answered(t, "/inbox in a server without the bot", res)
	if _, text := inboxMessage(t, h, res); !res.private() || !strings.Contains(text, "Tiny Game #1") || !strings.Contains(text, "https://discord.com/channels/"+testGuild+"/"+chTiny) {
		t.Fatalf("/inbox in a server without the bot:\n%s", res.text())
	}

	res = h.installedUse(bob, "", "group1", cmdStats, nil)
	answered(t, "/stats in a DM between users", res)
	if !res.private() || !h.says(res.text(), "stats.everywhere") || h.says(res.text(), "stats.server") {
		t.Fatalf("/stats in a DM between users: %s", res.text())
	}

	res = h.installedUse(bob, "7999", "3999", cmdRules, map[string]any{optGame: "tiny"})
	answered(t, "/rules in a server without the bot", res)
	if !res.private() || !strings.Contains(res.text(), "Tiny Game") {
		t.Fatalf("/rules in a server without the bot: %s", res.text())
	}
	if got := h.installedAutocomplete(bob, cmdRules, map[string]any{optGame: "tiny", optTopic: ""}, optTopic); len(got) == 0 {
		t.Error("/rules offers no topics outside a server")
	}

	for _, name := range []string{cmdLobby, cmdPlay, cmdGame, cmdAdmin} {
		for _, c := range []struct {
			context discordgo.InteractionContextType
			install discordgo.ApplicationIntegrationType
		}{
			{discordgo.InteractionContextGuild, discordgo.ApplicationIntegrationUserInstall},
			{discordgo.InteractionContextBotDM, discordgo.ApplicationIntegrationGuildInstall},
			{discordgo.InteractionContextPrivateChannel, discordgo.ApplicationIntegrationUserInstall},
		} {
			if h.fake.Invocable("", name, c.context, c.install) == nil {
				t.Errorf("/%s is offered in context %d to installation %d: game commands stay in servers", name, c.context, c.install)
			}
		}
		if err := h.fake.Invocable("", name, discordgo.InteractionContextGuild, discordgo.ApplicationIntegrationGuildInstall); err != nil {
			t.Errorf("/%s in a server: %v", name, err)
		}
	}
}

// installedAutocomplete asks for suggestions as Discord asks them in a DM
// between users, from the app u installed.
func (h *harness) installedAutocomplete(u tester, name string, opts map[string]any, focus string) []string {
	h.t.Helper()
	res := h.send(map[string]any{
		"type": 4, "channel_id": "group1", "context": int(discordgo.InteractionContextPrivateChannel),
		"authorizing_integration_owners": map[string]any{"1": u.ID},
		"user":                           map[string]any{"id": u.ID, "username": strings.ToLower(u.Name)},
		"data":                           map[string]any{"id": "1", "name": name, "type": 1, "options": optionList(opts, true, focus)},
	})
	var out []string
	for _, q := range res.Requests {
		for _, c := range q.Choices {
			out = append(out, c.Name)
		}
	}
	return out
}
