package bot

import (
	"errors"
	"fmt"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// StartTicker checks deadlines and reminders every TickEvery until Close.
// Deadlines live in the store, so those that passed while the bot was down
// are handled at the first tick.
func (b *Bot) StartTicker() {
	if b.stopTick != nil {
		return
	}
	b.stopTick, b.tickDone = make(chan struct{}), make(chan struct{})
	go func(stop, done chan struct{}) {
		defer close(done)
		t := time.NewTicker(b.cfg.TickEvery)
		defer t.Stop()
		for {
			b.CheckDeadlines(b.cfg.Now())
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}(b.stopTick, b.tickDone)
}

// CheckDeadlines handles every deadline and reminder due at now: reminders
// ping the players still to decide; a passed deadline lets a computer player
// decide for them, or pauses the game, as the game was set up.
func (b *Bot) CheckDeadlines(now time.Time) {
	if !b.enter() {
		return
	}
	defer b.leave()
	due, err := b.timers.Due(now)
	if err != nil {
		b.log.Error("reading due timers failed", "err", err)
		return
	}
	for _, d := range due {
		var err error
		switch d.Kind {
		case storage.DueReminder:
			err = b.remind(d, now)
		case storage.DueDeadline:
			err = b.expire(d, now)
		}
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			b.log.Error("handling a timer failed", "game", d.GameID, "timer", d.Kind.String(), "err", err)
		}
	}
}

// remind pings the players a game still waits for and schedules the next
// reminder.
func (b *Bot) remind(d storage.Due, now time.Time) error {
	unlock := b.locks.lock(d.Channel)
	g, st, err := b.store.Load(d.Channel)
	if err == nil && (g.ID != d.GameID || g.RemindAt.IsZero() || g.RemindAt.After(now)) {
		unlock()
		return nil // handled already, or the game moved on
	}
	if err == nil {
		_, every, _ := gameDeadline(g)
		_, err = b.store.Update(d.Channel, func(r *storage.Game) error {
			next := r.RemindAt.Add(every)
			r.RemindAt = time.Time{}
			if every > 0 && next.After(now) && next.Before(r.Deadline) {
				r.RemindAt = next
			}
			return nil
		})
	}
	unlock()
	if err != nil {
		return err
	}
	waiting := humanWaiting(g, st)
	left := "soon"
	if !g.Deadline.IsZero() {
		left = "by " + g.Deadline.UTC().Format("Mon 2 Jan 15:04 MST")
	}
	b.pingSeats(g, st, waiting, fmt.Sprintf("Reminder, game #%d is waiting for you (decide %s)", g.ID, left))
	return nil
}

// expire applies the game's deadline policy to the players it waits for.
func (b *Bot) expire(d storage.Due, now time.Time) error {
	unlock := b.locks.lock(d.Channel)
	g, st, err := b.store.Load(d.Channel)
	if err != nil {
		unlock()
		return err
	}
	if g.ID != d.GameID || g.Status != storage.StatusRunning || g.Deadline.IsZero() || g.Deadline.After(now) {
		unlock()
		return nil
	}
	waiting := humanWaiting(g, st)
	_, _, policy := gameDeadline(g)
	if policy == onDeadlinePause || len(waiting) == 0 {
		err := b.armDeadline(g, false)
		unlock()
		if err != nil {
			return err
		}
		if len(waiting) > 0 {
			b.pingSeats(g, st, waiting, fmt.Sprintf("The deadline has passed: game #%d is paused until these players decide", g.ID))
		}
		return nil
	}
	rules, err := b.games.Lookup(g.Kind)
	if err != nil {
		unlock()
		return err
	}
	out := &outcome{game: g, state: st, rules: rules, seat: engine.Spectator}
	standIn := map[engine.Seat]bool{}
	for _, s := range waiting {
		standIn[s] = true
	}
	err = b.settle(out, waiting, standIn)
	unlock()
	b.pub.notify(out)
	if err != nil {
		return err
	}
	var names []string
	for _, s := range waiting {
		names = append(names, seatLabel(g.Seats[s]))
	}
	b.postPublic(g.Channel, msg{Content: fmt.Sprintf("The deadline passed: a computer player (%s) decided for %s, and the game goes on.",
		b.standInName(rules), joinNames(names))}, g.ID)
	return nil
}

func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return "nobody"
	case 1:
		return names[0]
	}
	out := ""
	for n, s := range names {
		switch {
		case n == 0:
			out = s
		case n == len(names)-1:
			out += " and " + s
		default:
			out += ", " + s
		}
	}
	return out
}
