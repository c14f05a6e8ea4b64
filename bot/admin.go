package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/meeplegames/meeple/storage"
)

// adminHandler answers /meeple-admin: the server's defaults for new games.
type adminHandler struct {
	settings interface {
		GuildSettings(guild string) (storage.GuildSettings, error)
		PutGuildSettings(guild string, s storage.GuildSettings) error
	}
	cfg *Config
}

func (b *adminHandler) register(rt *router) error {
	return rt.command(cmdAdmin, b.adminCommand, nil)
}

// adminCommand shows or changes the server's defaults for new games. The
// command is hidden from members without Manage Channels by default, and
// checked again here, since server admins can change who sees it.
func (b *adminHandler) adminCommand(_ context.Context, r *reply, in *interaction) error {
	i, sub, opts := in.Interaction, in.sub, in.opts
	if !isAdmin(i) {
		return refuse("Only members with the Manage Channels permission can change Meeple's settings.")
	}
	s, err := guildSettings(b.settings, b.cfg, i.GuildID)
	if err != nil {
		return err
	}
	if sub == subSettings {
		if h, ok := opts.integer(optDeadline); ok {
			s.TurnDeadline = time.Duration(h) * time.Hour
		}
		if h, ok := opts.integer(optReminder); ok {
			s.ReminderEvery = time.Duration(h) * time.Hour
		}
		if on, ok := opts.boolean(optThread); ok {
			s.Threads = on
		}
		if err := b.settings.PutGuildSettings(i.GuildID, s); err != nil {
			return err
		}
	}
	deadline, remind := "none", "never"
	if s.TurnDeadline > 0 {
		deadline = humanDuration(s.TurnDeadline)
	}
	if s.ReminderEvery > 0 {
		remind = "every " + humanDuration(s.ReminderEvery)
	}
	where := "in the channel itself"
	if s.Threads {
		where = "each in a thread of its channel"
	}
	return r.message(msg{Private: true, Content: fmt.Sprintf("New games on this server: %s per decision; reminders %s; when a deadline passes: %s; played %s (per game: `/lobby new` options).",
		deadline, remind, b.cfg.OnDeadline, where)})
}
