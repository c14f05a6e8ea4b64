package storage

import (
	"context"
	"fmt"
	"reflect"
)

// checkRestore refuses a game that no store could have kept.
func checkRestore(g *Game) error {
	if g.ID == 0 || g.ID > 1<<63-1 {
		return fmt.Errorf("%w: game id %d", ErrInvalid, g.ID)
	}
	if g.Version != len(g.Log) {
		return fmt.Errorf("%w: version %d with %d actions", ErrInvalid, g.Version, len(g.Log))
	}
	if err := checkID("channel", g.Channel); err != nil {
		return err
	}
	if err := checkSeats(g.Seats); err != nil {
		return err
	}
	players := len(g.Seats)
	for i, e := range g.Log {
		if err := checkEntry(e, players); err != nil {
			return fmt.Errorf("action %d: %w", i+1, err)
		}
	}
	switch g.Status {
	case StatusLobby, StatusRunning, StatusAbandoned:
	case StatusFinished:
		if g.Result == nil || len(g.Result.Scores) != players {
			return fmt.Errorf("%w: a finished game needs one score per seat", ErrInvalid)
		}
	default:
		return fmt.Errorf("%w: unknown status %q", ErrInvalid, g.Status)
	}
	if _, err := NewCodec().EncodeGame(g); err != nil {
		return err
	}
	return nil
}

// CheckRestore refuses a game Restore would refuse before looking at the
// store: another store's Restore uses it.
func CheckRestore(g *Game) error { return checkRestore(g) }

// Source is a store whose games and settings can be read out in full
// (both stores are).
type Source interface {
	GameIDs(ctx context.Context, after uint64, limit int) ([]uint64, error)
	GetByID(ctx context.Context, id uint64) (*Game, error)
	SavedSettings(ctx context.Context) (map[string]GuildSettings, map[string]UserPrefs, error)
}

// Destination is a store that takes games as another store kept them.
type Destination interface {
	Restore(ctx context.Context, g *Game) error
	GetByID(ctx context.Context, id uint64) (*Game, error)
	PutGuildSettings(ctx context.Context, guild string, s GuildSettings) error
	PutUserPrefs(ctx context.Context, user string, p UserPrefs) error
}

// copyPage is how many game ids Copy reads at a time.
const copyPage = 500

// Copy copies every game of src, active and archived, with its log,
// snapshot and result, and every saved setting and preference, into dst,
// which should be empty: statistics are rebuilt from the archived games.
// Each game is read back from dst and must equal the original. It returns
// how many games it copied; on error, those before it stay copied. Every
// read and write runs under ctx.
func Copy(ctx context.Context, dst Destination, src Source) (int, error) {
	n := 0
	for after := uint64(0); ; {
		ids, err := src.GameIDs(ctx, after, copyPage)
		if err != nil {
			return n, err
		}
		if len(ids) == 0 {
			break
		}
		for _, id := range ids {
			g, err := src.GetByID(ctx, id)
			if err != nil {
				return n, err
			}
			if err := dst.Restore(ctx, g); err != nil {
				return n, err
			}
			if back, err := dst.GetByID(ctx, id); err != nil || !reflect.DeepEqual(back, g) {
				if err == nil {
					err = fmt.Errorf("%w: game %d reads back differently from the copy", ErrCorrupt, id)
				}
				return n, err
			}
			n++
		}
		after = ids[len(ids)-1]
	}
	guilds, users, err := src.SavedSettings(ctx)
	if err != nil {
		return n, err
	}
	for guild, s := range guilds {
		if err := dst.PutGuildSettings(ctx, guild, s); err != nil {
			return n, err
		}
	}
	for user, p := range users {
		if err := dst.PutUserPrefs(ctx, user, p); err != nil {
			return n, err
		}
	}
	return n, nil
}
