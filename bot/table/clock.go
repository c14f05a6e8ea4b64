package table

import (
	"slices"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// A game's clock: the edits that charge a decision to its seat's time
// bank and arm the game's deadline (see the fair clock in package bot,
// clock.go, for how time banks work).

// BankOf is what seat's bank held when its present wait began.
func BankOf(g *storage.Game, seat engine.Seat) time.Duration {
	if int(seat) < len(g.Banks) && seat >= 0 {
		return g.Banks[seat]
	}
	return g.Timing.Bank
}

// WaitSince is when g began waiting on seat, and whether it waits on it.
func WaitSince(g *storage.Game, seat engine.Seat) (time.Time, bool) {
	for _, w := range g.Waits {
		if w.Seat == seat {
			return w.Since, true
		}
	}
	return time.Time{}, false
}

// BankLeft is what seat's bank holds at now: less the time its present
// wait has lasted, when g waits on it; never below zero.
func BankLeft(g *storage.Game, seat engine.Seat, now time.Time) time.Duration {
	bank := BankOf(g, seat)
	if since, ok := WaitSince(g, seat); ok {
		bank -= now.Sub(since)
	}
	return max(bank, 0)
}

// SetBank keeps left as seat's bank in r.
func SetBank(r *storage.Game, seat engine.Seat, left time.Duration) {
	for len(r.Banks) < len(r.Seats) {
		r.Banks = append(r.Banks, r.Timing.Bank)
	}
	r.Banks[seat] = left
}

// DrawBank is the edit that charges seat, which decided at now, the time
// its wait lasted and adds the time a decision earns, up to the cap; nil
// when g has no time banks.
func DrawBank(g *storage.Game, seat engine.Seat, now time.Time) func(r *storage.Game) error {
	if !g.Timing.Banked() || seat < 0 || int(seat) >= len(g.Seats) {
		return nil
	}
	left := BankLeft(g, seat, now)
	return func(r *storage.Game) error {
		SetBank(r, seat, min(left+r.Timing.BankAdd, max(r.Timing.BankCap, left)))
		return nil
	}
}

// BankDeadline is the edit that arms the deadline of a game with time banks:
// the earliest moment one of seats' banks runs out, each seat's wait
// beginning at starts[s] (now when absent), with a reminder after the
// game's reminder time when that comes first; no deadline when no seat
// waits.
func BankDeadline(seats []engine.Seat, starts map[engine.Seat]time.Time, reminder time.Duration, now time.Time) func(r *storage.Game) error {
	return func(r *storage.Game) error {
		r.Deadline, r.RemindAt = time.Time{}, time.Time{}
		for _, s := range seats {
			start, ok := starts[s]
			if !ok {
				start = now
			}
			if at := start.Add(BankOf(r, s)); r.Deadline.IsZero() || at.Before(r.Deadline) {
				r.Deadline = at
			}
		}
		if !r.Deadline.IsZero() && !r.Deadline.After(now) {
			r.Deadline = now // ran out already: the next tick applies the policy
		}
		if reminder > 0 && !r.Deadline.IsZero() && now.Add(reminder).Before(r.Deadline) {
			r.RemindAt = now.Add(reminder)
		}
		return nil
	}
}

// WaitStarts is when the waits of g's seats that still wait after entries
// began: a seat that waited before and took no action in entries keeps its
// start, as the store keeps its wait (storage.Wait); any other begins now.
func WaitStarts(g *storage.Game, entries []storage.Entry) map[engine.Seat]time.Time {
	out := map[engine.Seat]time.Time{}
	for _, w := range g.Waits {
		if !slices.ContainsFunc(entries, func(e storage.Entry) bool { return e.Seat == w.Seat }) {
			out[w.Seat] = w.Since
		}
	}
	return out
}

// StoredWaitStarts is when the waits g keeps began.
func StoredWaitStarts(g *storage.Game) map[engine.Seat]time.Time { return WaitStarts(g, nil) }

// Both is the edit that makes a, then b (either may be nil).
func Both(a, b func(r *storage.Game) error) func(r *storage.Game) error {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(r *storage.Game) error {
		if err := a(r); err != nil {
			return err
		}
		return b(r)
	}
}

// clearMissed is the edit that forgets the deadlines seat's player missed
// in a row (they decided), or nil when there are none to forget.
func clearMissed(g *storage.Game, seat engine.Seat) func(r *storage.Game) error {
	if int(seat) >= len(g.MissedInARow) || seat < 0 || g.MissedInARow[seat] == 0 {
		return nil
	}
	return func(r *storage.Game) error {
		if int(seat) < len(r.MissedInARow) {
			r.MissedInARow[seat] = 0
		}
		return nil
	}
}
