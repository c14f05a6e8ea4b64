package bot

import (
	"sync"
	"time"

	"github.com/meeplegames/meeple/storage"
)

// zones loads IANA time zones once each: the zone database is read from
// the disk (or the copy embedded in the binary) on every LoadLocation.
type zones struct {
	mu   sync.Mutex
	byID map[string]*time.Location
}

// maxZones bounds the cache; there are some 600 zones.
const maxZones = 1024

// load returns the zone named tz ("" is UTC), or an error for a name the
// database lacks.
func (z *zones) load(tz string) (*time.Location, error) {
	if tz == "" {
		return time.UTC, nil
	}
	z.mu.Lock()
	loc, ok := z.byID[tz]
	z.mu.Unlock()
	if ok {
		return loc, nil
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, err
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.byID == nil || len(z.byID) >= maxZones {
		z.byID = map[string]*time.Location{}
	}
	z.byID[tz] = loc
	return loc, nil
}

// quietUntil is when the quiet hours of prefs that hold at now end, or the
// zero time when now is outside them (or prefs set none). A zone the
// database lacks reads as UTC.
func (z *zones) quietUntil(prefs storage.UserPrefs, now time.Time) time.Time {
	if !prefs.HasQuietHours() {
		return time.Time{}
	}
	loc, err := z.load(prefs.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	t := now.In(loc)
	h, from, to := t.Hour(), prefs.QuietFrom, prefs.QuietTo
	inside := from < to && h >= from && h < to || from > to && (h >= from || h < to)
	if !inside {
		return time.Time{}
	}
	end := time.Date(t.Year(), t.Month(), t.Day(), to, 0, 0, 0, loc)
	if !end.After(t) {
		end = time.Date(t.Year(), t.Month(), t.Day()+1, to, 0, 0, 0, loc)
	}
	return end
}
