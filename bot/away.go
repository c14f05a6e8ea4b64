package bot

import (
	"context"
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"log/slog"
	"slices"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// Time away: a player announces with /away until when they are gone, and
// what stands in for them meanwhile in every game they sit in: their
// deadlines wait (a deadline that passes while they are away moves to
// their return, plus the game's time for a decision), or a computer
// decides in their place at once. The absence is kept in their
// preferences (storage.UserPrefs.Away), so it survives restarts; it ends
// when its day comes, or the moment they act in any game. The server's
// admins set the longest absence and the stand-ins allowed
// (storage.GuildSettings.AwayMaxDays, AwayChoices): a game of a server
// that does not allow the player's choice uses the one it allows.

// awayStore is what time away reads and writes.
type awayStore interface {
	UserPrefs(ctx context.Context, user string) (storage.UserPrefs, error)
	UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error)
	GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error)
	Seatings(ctx context.Context, user string) ([]storage.Seating, error)
}

// endAbsence ends user's absence, in one transaction with whatever else
// changes their preferences meanwhile.
func endAbsence(ctx context.Context, store interface {
	UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error)
}, user string) error {
	_, err := store.UpdateUserPrefs(ctx, user, func(prefs *storage.UserPrefs) error {
		prefs.Away, prefs.AwayStandIn = time.Time{}, ""
		return nil
	})
	return err
}

// awayHandler answers /away.
type awayHandler struct {
	store awayStore
	games gameStore
	pub   *publisher // redraws the boards, which show the absence
	cfg   *Config
	log   *slog.Logger
	now   func() time.Time
}

func (aw *awayHandler) register(rt *router) error {
	return rt.command(cmdAway, aw.away, nil)
}

// awayBoth is the admins' choice that allows either stand-in.
const awayBoth = "both"

// awayDateLayout is how /away's until is typed: a calendar day.
const awayDateLayout = "2006-01-02"

// away sets or ends the caller's absence.
func (aw *awayHandler) away(ctx context.Context, r *transport.Reply, in *interaction) error {
	p, user := in.tr, in.user.ID
	typed := in.opts.str(optUntil)
	if typed == "" { // back now
		if err := endAbsence(ctx, aw.store, user); err != nil {
			return err
		}
		aw.redrawBoards(ctx, user)
		return r.Message(transport.Message{Private: true, Content: p.T("away.back")})
	}
	day, err := time.Parse(awayDateLayout, typed)
	now := aw.now()
	// away until the end of that day, wherever the player lives: Discord
	// tells no time zone, so the day ends last on Earth (UTC-12)
	until := day.Add(24*time.Hour + 12*time.Hour)
	if err != nil || !until.After(now) {
		return refuseWith("away.bad_date", "Typed", transport.Clip(typed, 20))
	}
	s, err := guildSettings(ctx, aw.store, aw.cfg, in.GuildID)
	if err != nil {
		return err
	}
	if most := awayMaxDays(s); until.Sub(now) > time.Duration(most)*24*time.Hour+36*time.Hour {
		return refuseWith("away.too_long", "Count", most)
	}
	standIn := in.opts.str(optStandIn)
	if standIn == "" {
		standIn = awayChoices(s)[0]
	}
	if !slices.Contains(awayChoices(s), standIn) {
		return refuseWith("away.not_allowed", "Choice", p.T("away.choice_"+standIn))
	}
	if _, err := aw.store.UpdateUserPrefs(ctx, user, func(prefs *storage.UserPrefs) error {
		prefs.Away, prefs.AwayStandIn = until.UTC(), standIn
		return nil
	}); err != nil {
		return err
	}
	if standIn == storage.AwayComputer {
		aw.standInSoon(ctx, user)
	}
	aw.redrawBoards(ctx, user)
	return r.Message(transport.Message{Private: true, Content: p.T("away.set_"+standIn, "When", fmt.Sprintf("<t:%d:F>", until.Unix()))})
}

// standInSoon brings the deadlines of the games that wait on user now, to
// now: the next tick lets a computer decide for them (see expire).
func (aw *awayHandler) standInSoon(ctx context.Context, user string) {
	seats, err := aw.store.Seatings(ctx, user)
	if err != nil {
		aw.log.Warn("reading the games of an absent player failed", "err", err)
		return
	}
	now := aw.now()
	for _, s := range seats {
		if !s.Waits() {
			continue
		}
		if _, err := aw.games.Update(ctx, s.Channel, s.Game, func(g *storage.Game) error {
			if g.Deadline.IsZero() || g.Deadline.After(now) {
				g.Deadline = now
			}
			return nil
		}); err != nil {
			aw.log.Warn("bringing an absent player's deadline forward failed", "game", s.Game, "err", err)
		}
	}
}

// redrawBoards draws afresh the boards of user's running games, which
// show whether they are away.
func (aw *awayHandler) redrawBoards(ctx context.Context, user string) {
	if aw.pub == nil {
		return
	}
	seats, err := aw.store.Seatings(ctx, user)
	if err != nil {
		aw.log.Warn("reading the games of an absent player failed", "err", err)
		return
	}
	for _, s := range seats {
		if s.Status == storage.StatusRunning {
			aw.pub.redraw(s.Channel)
		}
	}
}

// awayMaxDays is the longest absence s allows, in days.
func awayMaxDays(s storage.GuildSettings) int {
	if s.AwayMaxDays > 0 {
		return s.AwayMaxDays
	}
	return storage.DefaultAwayMaxDays
}

// awayChoices are the stand-ins s allows, the default first.
func awayChoices(s storage.GuildSettings) []string {
	if len(s.AwayChoices) > 0 {
		return s.AwayChoices
	}
	return []string{storage.AwayWait, storage.AwayComputer}
}

// absence is what stands in for a seat's player while they are away in a
// game of a server with settings s: "" when they are not away at now.
func absence(prefs storage.UserPrefs, s storage.GuildSettings, now time.Time) string {
	if !prefs.AwayAt(now) {
		return ""
	}
	if choices := awayChoices(s); !slices.Contains(choices, prefs.AwayStandIn) {
		return choices[0]
	}
	return prefs.AwayStandIn
}

// absences tells who is away in a game and what stands in for them, and
// ends an absence when its player acts. Its lookups read the store: the
// preferences of the players concerned and the game's server settings.
type absences struct {
	store interface {
		UserPrefs(ctx context.Context, user string) (storage.UserPrefs, error)
		UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error)
		GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error)
	}
	cfg *Config
	log *slog.Logger
}

// of is, for each of seats of g whose player is away at now, what stands
// in for them there (storage.AwayComputer or AwayWait), and the latest
// return of those whose deadlines wait.
func (a *absences) of(ctx context.Context, g *storage.Game, seats []engine.Seat, now time.Time) (map[engine.Seat]string, time.Time) {
	if a == nil {
		return nil, time.Time{}
	}
	var out map[engine.Seat]string
	var back time.Time
	var settings *storage.GuildSettings
	for _, seat := range seats {
		user := g.Seats[seat].User
		if user == "" {
			continue
		}
		prefs, err := a.store.UserPrefs(ctx, user)
		if err != nil || !prefs.AwayAt(now) {
			continue
		}
		if settings == nil {
			s, err := guildSettings(ctx, a.store, a.cfg, g.Guild)
			if err != nil {
				a.log.Warn("reading a server's absence limits failed", "game", g.ID, "err", err)
			}
			settings = &s
		}
		if out == nil {
			out = map[engine.Seat]string{}
		}
		out[seat] = absence(prefs, *settings, now)
		if out[seat] == storage.AwayWait && prefs.Away.After(back) {
			back = prefs.Away
		}
	}
	return out, back
}

// until is when user's absence ends, zero when they are not away at now.
func (a *absences) until(ctx context.Context, user string, now time.Time) time.Time {
	if a == nil || user == "" {
		return time.Time{}
	}
	prefs, err := a.store.UserPrefs(ctx, user)
	if err != nil || !prefs.AwayAt(now) {
		return time.Time{}
	}
	return prefs.Away
}

// back ends user's absence, if they announced one: they acted.
func (a *absences) back(ctx context.Context, user string) {
	if a == nil || user == "" {
		return
	}
	prefs, err := a.store.UserPrefs(ctx, user)
	if err != nil || prefs.Away.IsZero() {
		return
	}
	if err := endAbsence(ctx, a.store, user); err != nil {
		a.log.Warn("ending an absence failed", "err", err)
	}
}
