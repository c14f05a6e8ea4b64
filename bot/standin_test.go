package bot

import (
	"context"
	"testing"
)

// A server's admins choose the level of the computer that stands in for
// its players (at a deadline, while away): it overrides the host's, in
// that server only, and /meeple-admin shows it.
func TestAServerChoosesItsStandInLevel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{Computer: "normal"}, nil, nil)
	rules, err := h.reg.Lookup("crystalpalace")
	if err != nil {
		t.Fatal(err)
	}
	ref := h.bot.timers.ref
	if got := ref.StandInName(context.Background(), rules, testGuild); got != "normal" {
		t.Fatalf("before the server chose: %q, want the host's normal", got)
	}
	res := h.command(admin, chTiny, cmdAdmin, subSettings, map[string]any{optServerLevel: "easy"})
	if !res.privatelySays(h, "admin.stand_in", "Level", h.say("computer.level.easy")) {
		t.Fatalf("admin settings: %s", res.text())
	}
	if got := ref.StandInName(context.Background(), rules, testGuild); got != "easy" {
		t.Errorf("after the server chose easy: %q", got)
	}
	if got := ref.StandInName(context.Background(), rules, "7001"); got != "normal" {
		t.Errorf("another server: %q, want the host's normal", got)
	}
	s, err := h.store.GuildSettings(context.Background(), testGuild)
	if err != nil || s.StandIn != "easy" {
		t.Errorf("stored settings %+v (%v)", s, err)
	}
}
