package bot

import (
	"fmt"
	"time"

	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// The fair clock: a game chooses at /lobby new between a fixed time per
// decision (the deadline as ever) and a time bank per player
// (storage.Timing.Bank, BankAdd, BankCap), as Board Game Arena's clocks
// go. Each seat's bank is kept with the game (storage.Game.Banks) as it
// stood when the seat's present wait began; a decision draws the time it
// took from it and adds BankAdd, never above BankCap. The game's one
// deadline timer is the earliest moment a waiting seat's bank runs out,
// so the timer survives restarts and is handed to one process once, as
// every deadline is; when it passes, the seats whose banks ran out meet
// the deadline's policy (deadline.go), and the timer is armed again for
// the others.

// Default time bank of a lobby that asks for one without saying more.
const (
	defaultBank    = 72 * time.Hour
	defaultBankAdd = 12 * time.Hour
	defaultBankCap = 7 * 24 * time.Hour
)

// Clocks a lobby can choose (optClock).
const (
	clockFixed = "fixed"
	clockBank  = "bank"
)

// ownDeadline is when the wait on user's seats in g (their seating s)
// runs out for them: the end of their own bank, the earliest of their
// waiting seats', in a game of time banks, whose one timer may be another
// player's; the game's deadline otherwise.
func ownDeadline(g *storage.Game, s storage.Seating) time.Time {
	if !g.Timing.Banked() {
		return s.Deadline
	}
	var first time.Time
	for _, seat := range s.Waiting {
		if since, ok := table.WaitSince(g, seat); ok {
			if end := since.Add(table.BankOf(g, seat)); first.IsZero() || end.Before(first) {
				first = end
			}
		}
	}
	if first.IsZero() {
		return s.Deadline
	}
	return first
}

// refill is the edit that gives each of seats, whose banks ran out and
// for whom a stand-in decided, the time a decision earns.
func refill(seats []engine.Seat) func(r *storage.Game) error {
	return func(r *storage.Game) error {
		for _, s := range seats {
			table.SetBank(r, s, min(r.Timing.BankAdd, r.Timing.BankCap))
		}
		return nil
	}
}

// outOfTime splits seats, which g waits on, into those whose banks have
// run out at now and the others.
func outOfTime(g *storage.Game, seats []engine.Seat, now time.Time) (out, left []engine.Seat) {
	for _, s := range seats {
		if table.BankLeft(g, s, now) <= 0 {
			out = append(out, s)
		} else {
			left = append(left, s)
		}
	}
	return out, left
}

// waitedSeats are the human seats g's stored waits name.
func waitedSeats(g *storage.Game) []engine.Seat {
	var out []engine.Seat
	for _, w := range g.Waits {
		if int(w.Seat) < len(g.Seats) && g.Seats[w.Seat].User != "" {
			out = append(out, w.Seat)
		}
	}
	return out
}

// bankMark is what the board shows beside seat's name in a game with
// time banks: the bank left, and when it runs out for a seat the game
// waits on (a Discord timestamp, in each reader's time zone).
func (vw *views) bankMark(p *locale.Printer, g *storage.Game, seat engine.Seat, waiting bool) string {
	if !g.Timing.Banked() || vw.now == nil || g.Seats[seat].User == "" {
		return ""
	}
	now := vw.now()
	left := table.BankLeft(g, seat, now)
	if since, ok := table.WaitSince(g, seat); ok && waiting {
		return " " + p.T("clock.running", "Left", shortDuration(p, left), "When", fmt.Sprintf("<t:%d:R>", since.Add(table.BankOf(g, seat)).Unix()))
	}
	return " " + p.T("clock.bank", "Left", shortDuration(p, left))
}

// shortDuration writes d in days and hours, or hours and minutes, in p's
// language: "2 d 5 h", "3 h 20 min".
func shortDuration(p *locale.Printer, d time.Duration) string {
	days, hours, minutes := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0:
		return p.T("clock.days_hours", "Days", days, "Hours", hours)
	case hours > 0:
		return p.T("clock.hours_minutes", "Hours", hours, "Minutes", minutes)
	}
	return p.T("clock.minutes", "Minutes", minutes)
}

// bankText says, in p's language, how a game's time banks work.
func bankText(p *locale.Printer, t storage.Timing, then string) string {
	return p.T("clock.text", "Bank", humanDuration(p, t.Bank), "Add", humanDuration(p, t.BankAdd), "Cap", humanDuration(p, t.BankCap), "Then", then)
}

// bankTiming reads the time bank a lobby asks for from opts, within the
// server's limit most; ok is false when it asks for a fixed time per
// decision.
func bankTiming(o options, most time.Duration) (storage.Timing, bool, error) {
	hours := func(name string, def time.Duration) time.Duration {
		if h, ok := o.integer(name); ok {
			return time.Duration(h) * time.Hour
		}
		return def
	}
	_, custom := o.integer(optBank)
	if o.str(optClock) != clockBank && !custom {
		return storage.Timing{}, false, nil
	}
	t := storage.Timing{Bank: hours(optBank, defaultBank), BankAdd: hours(optBankAdd, defaultBankAdd)}
	t.BankCap = hours(optBankCap, max(defaultBankCap, t.Bank))
	switch {
	case t.Bank <= 0:
		return t, true, refuseWith("clock.no_bank")
	case t.BankCap < t.Bank:
		return t, true, refuseWith("clock.cap_below_start")
	case t.Bank > most || t.BankCap > most:
		return t, true, refuseWith("clock.too_long", "Count", int(most/time.Hour))
	}
	return t, true, nil
}

// bankMax is the longest bank s allows.
func bankMax(s storage.GuildSettings) time.Duration {
	if s.BankMax > 0 {
		return s.BankMax
	}
	return storage.DefaultBankMax
}
