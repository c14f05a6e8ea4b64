package bot

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Permission is a Discord permission the bot needs in the channels where
// games are played, with the name Discord shows for it and the feature
// that needs it.
type Permission struct {
	Bit  int64
	Name string
	Why  string
}

// Permissions lists every permission the bot's REST calls need in a
// server's channels and threads, from Discord's documentation of each
// call (permissions_test.go checks them against the calls the bot makes):
// the invite link (InviteURL), "meeple check" and the thread lobby's own
// check all read this one list. Interaction answers, follow-ups and DMs
// need none; the bot never reads or replies to channel messages, so it
// needs no Read Message History, and it renames and reopens only threads
// it created, so it needs no Manage Threads.
func Permissions() []Permission {
	return []Permission{
		{discordgo.PermissionViewChannel, "View Channels", "post and edit the lobby and board messages in a game's channel (every channel call)"},
		{discordgo.PermissionSendMessages, "Send Messages", "post the lobby, board and notices in a channel (POST /channels/{id}/messages), and reopen a game's archived thread"},
		{discordgo.PermissionCreatePublicThreads, "Create Public Threads", "open a game's thread (/lobby new thread:true, or the server's default; POST /channels/{id}/threads)"},
		{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads", "post the lobby, board and notices in a game's thread"},
		{discordgo.PermissionEmbedLinks, "Embed Links", "show the board as an embed (Discord drops a bot's embeds without it)"},
		{discordgo.PermissionAttachFiles, "Attach Files", "upload the board, mat and scores pictures"},
	}
}

// permissionNames names the permissions whose bits are in bits,
// in the order of Permissions.
func permissionNames(bits int64) []string {
	var out []string
	for _, p := range Permissions() {
		if bits&p.Bit != 0 {
			out = append(out, p.Name)
		}
	}
	return out
}

// InvitePermissions is every bit of Permissions together: the
// permissions integer of the invite link.
func InvitePermissions() int64 {
	var bits int64
	for _, p := range Permissions() {
		bits |= p.Bit
	}
	return bits
}

// InviteURL is the link that adds the bot with application id appID to a
// server with the scopes and permissions it needs.
func InviteURL(appID string) string {
	return fmt.Sprintf("https://discord.com/oauth2/authorize?client_id=%s&scope=bot+applications.commands&permissions=%d", appID, InvitePermissions())
}

// PermissionList names every permission of Permissions, for people.
func PermissionList() string {
	return strings.Join(permissionNames(InvitePermissions()), ", ")
}
