package discordtest

import (
	"slices"
	"sync"
	"time"
)

// Clock is a clock a test moves by hand: its Now can be a Server's
// Options.Now and the bot's clock, and its AfterFunc the bot's timers, so
// that a test walks the fake and the bot through response windows,
// automatic defers, retries, deadlines and expiries without waiting. A
// timer fires only when the test advances the clock past it. A Clock is
// safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*clockTimer
	set    *sync.Cond // on mu: broadcast when a timer is set
}

// clockTimer is one pending AfterFunc.
type clockTimer struct {
	at time.Time
	f  func()
}

// NewClock returns a Clock showing start.
func NewClock(start time.Time) *Clock {
	c := &Clock{now: start}
	c.set = sync.NewCond(&c.mu)
	return c
}

// Now returns the time the clock shows.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock d forward and runs the functions of the timers
// that came due, soonest first, each in the caller's goroutine with the
// clock showing its time; it returns once they have run. A timer set by
// one of them fires in the same call when it is due by then.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		next := c.next(end)
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		c.timers = slices.DeleteFunc(c.timers, func(t *clockTimer) bool { return t == next })
		if next.at.After(c.now) {
			c.now = next.at
		}
		c.mu.Unlock()
		next.f()
	}
}

// next is the soonest timer due by end, or nil; c.mu is held.
func (c *Clock) next(end time.Time) *clockTimer {
	var soonest *clockTimer
	for _, t := range c.timers {
		if !t.at.After(end) && (soonest == nil || t.at.Before(soonest.at)) {
			soonest = t
		}
	}
	return soonest
}

// AfterFunc arranges for f to run once the clock has been advanced d
// past its time now (in the goroutine that advances it). stop cancels the
// timer and reports whether it did, false once f has run or started.
// Its signature is the one bot.Config.AfterFunc takes.
func (c *Clock) AfterFunc(d time.Duration, f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &clockTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	c.set.Broadcast()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		n := len(c.timers)
		c.timers = slices.DeleteFunc(c.timers, func(p *clockTimer) bool { return p == t })
		return len(c.timers) < n
	}
}

// Timers returns how long from now each pending timer is due, soonest
// first.
func (c *Clock) Timers() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending()
}

func (c *Clock) pending() []time.Duration {
	out := make([]time.Duration, len(c.timers))
	for i, t := range c.timers {
		out[i] = t.at.Sub(c.now)
	}
	slices.Sort(out)
	return out
}

// WaitForTimer blocks until a timer due d from now is pending: code under
// test, in another goroutine, has reached the point where it waits for
// the clock. Then the test may advance it.
func (c *Clock) WaitForTimer(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for !slices.Contains(c.pending(), d) {
		c.set.Wait()
	}
}
