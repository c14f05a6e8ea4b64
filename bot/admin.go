package bot

import (
	"context"
	"github.com/meeplegames/meeple/bot/transport"
	"github.com/meeplegames/meeple/engine/ai"
	"slices"
	"strings"
	"time"

	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// adminHandler answers /meeple-admin: the server's defaults for new games.
type adminHandler struct {
	settings interface {
		GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error)
		PutGuildSettings(ctx context.Context, guild string, s storage.GuildSettings) error
	}
	cfg       *Config
	catalogue *locale.Catalogue
}

func (ah *adminHandler) register(rt *router) error {
	return rt.command(cmdAdmin, ah.adminCommand, nil)
}

// adminCommand shows or changes the server's defaults for new games. The
// command is hidden from members without Manage Channels by default, and
// checked again here, since server admins can change who sees it.
func (ah *adminHandler) adminCommand(ctx context.Context, r *transport.Reply, in *interaction) error {
	i, sub, opts, p := in.Interaction, in.sub, in.opts, in.tr
	if !isAdmin(i) {
		return refuseWith("admin.who")
	}
	s, err := guildSettings(ctx, ah.settings, ah.cfg, i.GuildID)
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
		if lang := opts.str(optLanguage); lang != "" {
			if !slices.Contains(ah.catalogue.Languages(), lang) {
				return refuseWith("admin.unknown_language", "Name", transport.Clip(lang, 20), "Names", strings.Join(ah.catalogue.Languages(), ", "))
			}
			s.Language = lang
		}
		if d, ok := opts.integer(optAwayMax); ok {
			s.AwayMaxDays = d
		}
		if n, ok := opts.integer(optMissed); ok {
			s.MissedInARow = n
		}
		if h, ok := opts.integer(optBankMax); ok {
			s.BankMax = time.Duration(h) * time.Hour
		}
		if level := opts.str(optServerLevel); level != "" {
			if !slices.Contains(ai.Levels, level) {
				return refuseWith("admin.unknown_level", "Name", transport.Clip(level, 20), "Names", strings.Join(ai.Levels, ", "))
			}
			s.StandIn = level
		}
		switch lets := opts.str(optAwayLets); lets {
		case "":
		case awayBoth:
			s.AwayChoices = nil
		default:
			s.AwayChoices = []string{lets}
		}
		s.LocaleOnly = false // saved by the admins now
		if err := ah.settings.PutGuildSettings(ctx, i.GuildID, s); err != nil {
			return err
		}
	}
	deadline, remind := p.T("admin.no_deadline"), p.T("admin.no_reminders")
	if s.TurnDeadline > 0 {
		deadline = p.T("admin.deadline", "Duration", humanDuration(p, s.TurnDeadline))
	}
	if s.ReminderEvery > 0 {
		remind = p.T("admin.reminders", "Duration", humanDuration(p, s.ReminderEvery))
	}
	where := p.T("admin.in_channel")
	if s.Threads {
		where = p.T("admin.in_threads")
	}
	onDeadline := p.T("deadline.computer")
	if ah.cfg.OnDeadline == onDeadlinePause {
		onDeadline = p.T("deadline.pause")
	}
	language := p.T("admin.language_server")
	if s.Language != "" {
		language = p.T("language." + s.Language)
	}
	var lets []string
	for _, c := range awayChoices(s) {
		lets = append(lets, p.T("away.choice_"+c))
	}
	away := p.T("admin.away", "Count", awayMaxDays(s), "Choices", joinNames(p, lets))
	missed := p.T("reliability.admin", "Count", missedInARow(s)) + "\n" + p.T("clock.admin", "Duration", humanDuration(p, bankMax(s)))
	if s.StandIn != "" {
		missed += "\n" + p.T("admin.stand_in", "Level", levelName(p, s.StandIn))
	}
	return r.Message(transport.Message{Private: true, Content: p.T("admin.settings", "Deadline", deadline, "Reminders", remind, "OnDeadline", onDeadline, "Where", where, "Language", language) + "\n" + away + "\n" + missed})
}
