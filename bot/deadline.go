package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// deadlines handles the timers of games: reminders ping the players still
// to decide; a passed deadline lets a computer player stand in, or pauses
// the game, as the game was set up.
type deadlines struct {
	store  gameStore
	timers dueTimers
	games  *engine.Registry
	locks  *table.Locks
	ref    *table.Referee
	tally  *tallies
	away   *absences
	pub    *publisher
	langs  *languages
	log    *slog.Logger
	// think decides for searching stand-ins outside the game's lock.
	think *table.Thinker
	// settings are the servers' settings (how many deadlines in a row a
	// player may miss); nil reads as the defaults.
	settings interface {
		GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error)
	}
}

// errTimerTaken refuses the write of a timer's handling when the timer
// has moved since it was claimed: another process, whose claim came after
// this one's ran out, handled it first.
var errTimerTaken = errors.New("the timer was handled by another process")

// stillDue returns the edit that refuses (errTimerTaken) to handle d when
// the game's timer is no longer the one claimed, so that of two processes
// holding the same timer (a claim that ran out while its handler was slow)
// one writes, and only the one that wrote pings or posts.
func stillDue(d storage.Due) func(g *storage.Game) error {
	return func(g *storage.Game) error {
		at := g.RemindAt
		if d.Kind == storage.DueDeadline {
			at = g.Deadline
		}
		if g.ID != d.GameID || !at.Equal(d.At) {
			return errTimerTaken
		}
		return nil
	}
}

// check handles every deadline and reminder due at now.
func (dl *deadlines) check(ctx context.Context, now time.Time) {
	due, err := dl.timers.Due(ctx, now)
	if err != nil {
		dl.log.Error("reading due timers failed", "err", err)
		return
	}
	for _, d := range due {
		err := dl.handle(ctx, d, now)
		// a stale version: the game moved (another process's stand-in, a
		// player) between the read and the write; its timer is looked at
		// again at the next tick
		if errors.Is(err, errTimerTaken) || errors.Is(err, storage.ErrStale) {
			dl.log.Info("a timer was left: another process handled it, or the game moved on", "game", d.GameID, "timer", d.Kind.String())
			continue
		}
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			dl.log.Error("handling a timer failed", "game", d.GameID, "timer", d.Kind.String(), "err", err)
		}
	}
}

// handle handles one due timer; a panic is logged as that timer's failure,
// and the other timers are handled still.
func (dl *deadlines) handle(ctx context.Context, d storage.Due, now time.Time) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("recovered from a panic: %s\n%s", table.DescribePanic(p), debug.Stack())
		}
	}()
	switch d.Kind {
	case storage.DueReminder:
		return dl.remind(ctx, d, now)
	case storage.DueDeadline:
		return dl.expire(ctx, d, now)
	}
	return nil
}

// remind pings the players a game still waits for and schedules the next
// reminder.
func (dl *deadlines) remind(ctx context.Context, d storage.Due, now time.Time) error {
	var g *storage.Game
	var st engine.State
	err := dl.locks.With(d.Channel, func() error {
		var err error
		g, st, err = dl.store.Load(ctx, d.Channel)
		if err != nil {
			return err
		}
		if g.ID != d.GameID || g.RemindAt.IsZero() || g.RemindAt.After(now) {
			g = nil // handled already, or the game moved on
			return nil
		}
		_, every, _ := gameDeadline(g)
		taken := stillDue(d)
		_, err = dl.store.Update(ctx, d.Channel, d.GameID, func(r *storage.Game) error {
			if err := taken(r); err != nil {
				return err
			}
			next := r.RemindAt.Add(every)
			r.RemindAt = time.Time{}
			if every > 0 && next.After(now) && next.Before(r.Deadline) {
				r.RemindAt = next
			}
			return nil
		})
		return err
	})
	if err != nil || g == nil {
		return err
	}
	waiting := table.HumanWaiting(g, st)
	p := dl.langs.guild(ctx, g.Guild, "")
	text := p.T("deadline.reminder_soon", "ID", g.ID)
	if !g.Deadline.IsZero() { // a Discord timestamp: each reader sees it in their own language and time zone
		text = p.T("deadline.reminder", "ID", g.ID, "When", fmt.Sprintf("<t:%d:f>", g.Deadline.Unix()))
	}
	dl.pub.ping(ctx, g, st, waiting, text)
	return nil
}

// expire applies the game's deadline policy to the players it waits for.
func (dl *deadlines) expire(ctx context.Context, d storage.Due, now time.Time) error {
	var g *storage.Game
	var st engine.State
	var waiting []engine.Seat
	var away map[engine.Seat]string // the absent players among them, and what stands in
	var out *table.Outcome
	// A searching stand-in (normal, strong) thinks outside the lock, on the
	// game as the first look found it; its choices apply if the second
	// look finds the game unmoved.
	var thought map[engine.Seat]string
	var at storage.Guard
	// the seats whose players missed the deadline, and those of them a
	// computer keeps from now on, by their players (see lapse)
	var missedSeats []engine.Seat
	var lapsed map[engine.Seat]string
	var limit int
	for look := 0; look < 2; look++ {
		think := false
		err := dl.locks.With(d.Channel, func() error {
			var err error
			g, st, err = dl.store.Load(ctx, d.Channel)
			if err != nil {
				return err
			}
			if g.ID != d.GameID || g.Status != storage.StatusRunning || g.Deadline.IsZero() || g.Deadline.After(now) {
				g = nil
				return nil
			}
			waiting = table.HumanWaiting(g, st)
			var running []engine.Seat // with time banks: the seats whose banks still run
			if g.Timing.Banked() {
				if waiting, running = outOfTime(g, waiting, now); len(waiting) == 0 && len(running) > 0 {
					return dl.ref.ArmBanks(ctx, g, running, stillDue(d))
				}
			}
			var back time.Time
			waiting, away, back = dl.standFor(ctx, g, waiting, now)
			if len(waiting) == 0 && !back.IsZero() {
				// every player it waits on is away, their deadlines waiting
				return dl.ref.ExtendDeadline(ctx, g, back, stillDue(d))
			}
			if len(waiting) == 0 && dl.ref.WakeThinker(ctx, g, st) {
				// a searching computer's move a stopped process left undone
				g = nil
				return nil
			}
			if _, _, policy := gameDeadline(g); policy == onDeadlinePause && len(away) == 0 || len(waiting) == 0 {
				return dl.ref.ArmDeadline(ctx, g, false, stillDue(d))
			}
			rules, err := dl.games.Lookup(g.Kind)
			if err != nil {
				return err
			}
			if look == 0 && dl.searchingStandIn(ctx, rules, g.Guild) != nil {
				think = true
				return nil
			}
			standIn := map[engine.Seat]string{}
			for _, s := range waiting {
				standIn[s] = ""
				if g.Guard() == at {
					standIn[s] = thought[s]
				}
			}
			// the players who missed it (not those away) count one more
			// miss in a row; a computer keeps the seats of those who
			// reach the server's limit
			missedSeats = slices.DeleteFunc(slices.Clone(waiting), func(s engine.Seat) bool { return away[s] != "" })
			limit = missedInARow(dl.settingsOf(ctx, g.Guild))
			name := dl.ref.StandInName(ctx, rules, g.Guild)
			p := dl.langs.guild(ctx, g.Guild, "")
			miss, lapsedSeats := lapse(g, missedSeats, limit, storage.Seat{Computer: name, Name: p.T("seats.computer_name", "Kind", levelName(p, name))}, now)
			lapsed = map[engine.Seat]string{}
			for _, s := range lapsedSeats {
				lapsed[s] = g.Seats[s].User
			}
			after := g.Clone()
			if err := miss(after); err != nil {
				return err
			}
			if g.Timing.Banked() { // the banks that ran out earn a decision's time
				miss = table.Both(miss, refill(waiting))
			}
			taken := stillDue(d)
			change := func(r *storage.Game) error {
				if err := taken(r); err != nil {
					return err
				}
				return miss(r)
			}
			// the stand-in's moves, the misses and the new deadline: one
			// commit, refused when another process handled the deadline
			// first
			out, err = dl.ref.Conclude(ctx, &table.Outcome{Game: after, State: st, Rules: rules, Seat: engine.Spectator, Change: change}, append(slices.Clone(waiting), running...), standIn)
			return err
		})
		if err != nil || !think {
			if out != nil {
				dl.pub.notify(out)
			}
			if err != nil || g == nil {
				return err
			}
			break
		}
		thought, at = dl.standInChoices(ctx, g, st, waiting), g.Guard()
	}
	var names []string
	for _, s := range waiting {
		names = append(names, seatLabel(g.Seats[s]))
	}
	p := dl.langs.guild(ctx, g.Guild, "")
	if out == nil {
		if len(waiting) > 0 {
			for _, s := range waiting {
				dl.tally.add(ctx, g.Guild, g.Seats[s].User, storage.Reliability{Missed: 1})
			}
			// told in the channel always; mentioned only who wants pings
			dl.pub.announce(g.Channel, transport.Message{Content: p.T("deadline.paused", "ID", g.ID, "Names", joinNames(p, names), "Count", len(names)),
				Mentions: dl.pub.pingText(ctx, g, st, waiting, "").users}, g.ID)
		}
		return nil
	}
	for _, s := range missedSeats {
		add := storage.Reliability{Missed: 1}
		if _, ok := lapsed[s]; ok {
			add.HandedOver = 1
		}
		dl.tally.add(ctx, g.Guild, g.Seats[s].User, add)
	}
	defer dl.lapsed(ctx, g, lapsed, limit)
	if len(away) == len(waiting) {
		// players away who asked for it: told, not pinged
		dl.pub.announce(g.Channel, transport.Message{Content: p.T("away.stood_in", "Kind", levelName(p, dl.ref.StandInName(ctx, out.Rules, g.Guild)), "Names", joinNames(p, names)), Mentions: []string{}}, g.ID)
		return nil
	}
	// the absent players are named; mentioned only those who want pings
	// and are not in their quiet hours
	dl.pub.announce(g.Channel, transport.Message{Content: p.T("deadline.stood_in", "Kind", levelName(p, dl.ref.StandInName(ctx, out.Rules, g.Guild)), "Names", joinNames(p, names)),
		Mentions: dl.pub.pingText(ctx, g, st, waiting, "").users}, g.ID)
	return nil
}

// settingsOf is guild's settings, the defaults when they cannot be read.
func (dl *deadlines) settingsOf(ctx context.Context, guild string) storage.GuildSettings {
	if dl.settings == nil {
		return storage.GuildSettings{}
	}
	s, err := dl.settings.GuildSettings(ctx, guild)
	if err != nil {
		dl.log.Warn("reading a server's settings failed", "err", err)
	}
	return s
}

// standFor is, of the seats a passed deadline finds waiting, those a
// computer decides for: all of them under the game's computer policy,
// under its pause policy only the players away who asked for a computer;
// never a player away whose deadlines wait. It also returns the absent
// players among them, and the latest return of those whose deadlines
// wait.
func (dl *deadlines) standFor(ctx context.Context, g *storage.Game, waiting []engine.Seat, now time.Time) ([]engine.Seat, map[engine.Seat]string, time.Time) {
	away, back := dl.away.of(ctx, g, waiting, now)
	if len(away) == 0 {
		return waiting, nil, back
	}
	_, _, policy := gameDeadline(g)
	var out, present []engine.Seat
	for _, s := range waiting {
		switch away[s] {
		case storage.AwayComputer:
			out = append(out, s)
		case "":
			present = append(present, s)
		}
	}
	for s, c := range away {
		if c != storage.AwayComputer {
			delete(away, s)
		}
	}
	if policy != onDeadlinePause {
		out = append(out, present...)
	}
	switch {
	case len(out) > 0:
		return out, away, back
	case len(present) > 0:
		return waiting, nil, time.Time{} // paused as set up, for whoever is not away
	}
	return nil, nil, back // every one away, waited for
}

// searchingStandIn is the stand-in of rules when it searches (normal,
// strong), else nil: a stand-in that decides in an instant decides under
// the lock.
func (dl *deadlines) searchingStandIn(ctx context.Context, rules engine.Rules, guild string) engine.Player {
	if dl.think == nil {
		return nil
	}
	player, err := ai.LookupThinking(rules, dl.ref.StandInName(ctx, rules, guild), dl.think.Budget())
	if err != nil || !ai.Searching(player) {
		return nil
	}
	return player
}

// standInChoices thinks, outside the game's lock, for each waiting seat of
// g (in state st): the searching stand-in's choice for its first prompt.
func (dl *deadlines) standInChoices(ctx context.Context, g *storage.Game, st engine.State, waiting []engine.Seat) map[engine.Seat]string {
	rules, err := dl.games.Lookup(g.Kind)
	if err != nil {
		return nil
	}
	player := dl.searchingStandIn(ctx, rules, g.Guild)
	if player == nil {
		return nil
	}
	thought := map[engine.Seat]string{}
	for _, s := range waiting {
		if ps := table.PromptsOf(st, s); len(ps) > 0 {
			thought[s] = dl.think.Decide(player, st, ps[0], g)
		}
	}
	return thought
}

// joinNames lists names in p's language: "A, B and C".
func joinNames(p *locale.Printer, names []string) string {
	switch len(names) {
	case 0:
		return p.T("list.nobody")
	case 1:
		return names[0]
	}
	return p.T("list.and", "List", strings.Join(names[:len(names)-1], ", "), "Last", names[len(names)-1])
}
