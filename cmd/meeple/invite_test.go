package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/bot"
)

// TestTheGuidesInviteLinkIsTheBots: the link in the self-hosting guide is
// the one bot.Permissions makes, and the guide names each permission.
func TestTheGuidesInviteLinkIsTheBots(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "self-hosting.md"))
	if err != nil {
		t.Fatal(err)
	}
	guide := string(data)
	if link := bot.InviteURL("<APPLICATION_ID>"); !strings.Contains(guide, "`"+link+"`") {
		t.Errorf("docs/self-hosting.md lacks the invite link %s", link)
	}
	for _, p := range bot.Permissions() {
		if !strings.Contains(guide, "| "+p.Name+" |") {
			t.Errorf("docs/self-hosting.md does not say why the bot needs %s", p.Name)
		}
	}
}
