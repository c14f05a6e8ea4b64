package boltdb

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

// ClaimDue returns the deadlines and reminders due at now (as Due does)
// that no caller has claimed within the last hold, and claims them until
// now+hold, so that each timer is handled once even when several callers
// ask at the same time; one whose handler died is returned again once its
// claim has run out. Moving a timer (Update) makes it a new one. owns,
// when not nil, limits the claim to games of the guilds it accepts (a
// process's gateway shards); the others' timers are left to their owners.
// The bbolt store keeps claims in memory: only one process can hold its
// file.
func (s *Store) ClaimDue(ctx context.Context, now time.Time, hold time.Duration, owns func(guild string) bool) ([]storage.Due, error) {
	due, err := s.Due(ctx, now)
	if err != nil {
		return nil, err
	}
	if owns != nil {
		err = s.view(ctx, func(tx *bolt.Tx) error {
			var keep error
			due = slices.DeleteFunc(due, func(d storage.Due) bool {
				g, err := s.readGame(tx, d.GameID, false)
				if err != nil {
					keep = errors.Join(keep, err)
					return true
				}
				return !owns(g.Guild)
			})
			return keep
		})
		if err != nil {
			return nil, fmt.Errorf("storage: claim due timers: %w", err)
		}
	}
	return s.claims.claim(due, now, hold), nil
}

// claimBook remembers which timers are claimed, and until when.
type claimBook struct {
	mu    sync.Mutex
	until map[storage.Due]time.Time
}

// claim returns the timers of due that are not claimed at now, claiming
// them until now+hold, and forgets claims that have run out.
func (c *claimBook) claim(due []storage.Due, now time.Time, hold time.Duration) []storage.Due {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.until == nil {
		c.until = map[storage.Due]time.Time{}
	}
	for d, until := range c.until {
		if !until.After(now) {
			delete(c.until, d)
		}
	}
	return slices.DeleteFunc(due, func(d storage.Due) bool {
		key := storage.Due{Kind: d.Kind, At: d.At.UTC(), GameID: d.GameID, Channel: d.Channel}
		if _, held := c.until[key]; held {
			return true
		}
		c.until[key] = now.Add(hold)
		return false
	})
}
