package bot

import (
	"context"
	"errors"
	"github.com/meeplegames/meeple/bot/transport"
	"log/slog"
	"sync"
	"time"

	"github.com/meeplegames/meeple/storage"
)

// digestStore is what the daily digests read and write: every user's
// saved preferences (one read an hour), and one user's when their digest
// goes.
type digestStore interface {
	SavedSettings(ctx context.Context) (map[string]storage.GuildSettings, map[string]storage.UserPrefs, error)
	UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error)
}

// errDigestSent: another process sent the day's digest meanwhile.
var errDigestSent = errors.New("the day's digest went already")

// digests sends each user who asked for it (/game prefs digest:true) their
// inbox by DM once a day, at the hour they chose in their time zone, when
// some game waits on them. Only the process that receives DMs (shard 0)
// sends them. The day of the last digest is saved in the user's
// preferences before the DM goes: a digest never goes twice in a day,
// whatever restarts, and one whose hour passed while the bot was down goes
// when it is back, the same day.
type digests struct {
	store digestStore
	inbox *inboxHandler
	send  *transport.Sender
	langs *languages
	zones *zones
	log   *slog.Logger
	owns  bool // this process sends them

	mu      sync.Mutex
	checked time.Time // the hour last checked
}

// check sends the digests due at now; it reads the preferences once an
// hour.
func (d *digests) check(ctx context.Context, now time.Time) {
	if !d.owns {
		return
	}
	hour := now.UTC().Truncate(time.Hour)
	d.mu.Lock()
	if hour.Equal(d.checked) {
		d.mu.Unlock()
		return
	}
	d.checked = hour
	d.mu.Unlock()
	_, users, err := d.store.SavedSettings(ctx)
	if err != nil {
		d.log.Warn("reading preferences for the digests failed", "err", err)
		return
	}
	for user, prefs := range users {
		if day, due := digestDue(d.zones, prefs, now); due {
			d.sendOne(ctx, user, prefs, day)
		}
	}
}

// digestDue reports whether prefs' digest is due at now, and the day (in
// the user's time zone) it is for.
func digestDue(z *zones, prefs storage.UserPrefs, now time.Time) (string, bool) {
	if !prefs.Digest {
		return "", false
	}
	loc, err := z.load(prefs.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	local := now.In(loc)
	day := local.Format(time.DateOnly)
	return day, local.Hour() >= prefs.DigestHour && prefs.DigestSent < day
}

// sendOne sends user's digest for day, unless no game waits on them.
func (d *digests) sendOne(ctx context.Context, user string, prefs storage.UserPrefs, day string) {
	// the day is claimed in one transaction on the stored preferences,
	// not on the hour-old copy the scan read: no change made since is
	// lost, and two processes never both send it
	_, err := d.store.UpdateUserPrefs(ctx, user, func(p *storage.UserPrefs) error {
		if p.DigestSent >= day {
			return errDigestSent
		}
		p.DigestSent = day
		return nil
	})
	if errors.Is(err, errDigestSent) {
		return
	}
	if err != nil {
		d.log.Warn("saving a digest's day failed", "err", err)
		return
	}
	tr := d.langs.user(ctx, user)
	m, err := d.inbox.render(ctx, tr, user, inboxPage{})
	if err != nil {
		d.log.Warn("drawing a digest failed", "err", err)
		return
	}
	if len(m.Embeds) == 0 {
		return // nothing waits on them: no DM
	}
	m.Content = tr.T("digest.header") + "\n" + m.Content
	if _, err := d.send.DM(user, m); err != nil {
		d.log.Warn("sending a digest failed", "err", transport.DescribeError(err))
	}
}
