package storage

import (
	"fmt"
	"reflect"

	bolt "go.etcd.io/bbolt"
)

// GameIDs returns the ids of the games, active and archived, above after,
// in ascending order, at most limit of them (0: all). Moving a database
// to another store pages through it with this and GetByID.
func (s *Store) GameIDs(after uint64, limit int) ([]uint64, error) {
	var out []uint64
	err := s.view(func(tx *bolt.Tx) error {
		c := bucket(tx, bktGames).Cursor()
		for k, _ := c.Seek(idKey(after + 1)); k != nil && (limit <= 0 || len(out) < limit); k, _ = c.Next() {
			if len(k) != 8 {
				return fmt.Errorf("%w: game key %x", ErrCorrupt, k)
			}
			if id := beUint64(k); id > after {
				out = append(out, id)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: list game ids: %w", err)
	}
	return out, nil
}

// Restore stores a game exactly as another store kept it (see GetByID):
// its ID, status, times, log, snapshot and result. An archived game counts
// in its users' statistics as when it finished. It refuses a game whose
// ID is taken (ErrInvalid) or, for an active game, whose channel is busy
// (ErrChannelBusy). Games created later get IDs above every restored one.
func (s *Store) Restore(g *Game) error {
	if err := checkRestore(g); err != nil {
		return fmt.Errorf("storage: restore game %d: %w", g.ID, err)
	}
	rec := g.clone()
	err := s.update(func(tx *bolt.Tx) error {
		games := bucket(tx, bktGames)
		if games.Get(idKey(rec.ID)) != nil {
			return refuse(fmt.Errorf("%w: game %d already exists", ErrInvalid, rec.ID))
		}
		if rec.Status.Active() && bucket(tx, bktActive).Get([]byte(rec.Channel)) != nil {
			return refuse(ErrChannelBusy)
		}
		if rec.ID > games.Sequence() {
			if err := games.SetSequence(rec.ID); err != nil {
				return err
			}
		}
		for i, e := range rec.Log {
			if err := bucket(tx, bktLog).Put(logKey(rec.ID, i), s.codec.encodeEntry(e)); err != nil {
				return err
			}
		}
		if rec.Snapshot != nil {
			if err := bucket(tx, bktSnapshots).Put(idKey(rec.ID), s.codec.encodeSnapshot(newSnapshot(rec.Version, rec.Snapshot))); err != nil {
				return err
			}
		}
		if !rec.Status.Active() {
			if err := s.addStats(tx, rec); err != nil {
				return err
			}
		}
		return s.putGame(tx, nil, rec)
	})
	if err != nil {
		return fmt.Errorf("storage: restore game %d: %w", g.ID, err)
	}
	return nil
}

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
	if _, err := newCodec().encodeGame(g); err != nil {
		return err
	}
	return nil
}

// CheckRestore refuses a game Restore would refuse before looking at the
// store: another store's Restore uses it.
func CheckRestore(g *Game) error { return checkRestore(g) }

// SavedSettings returns every guild's saved settings and every user's
// saved preferences, by guild and user id.
func (s *Store) SavedSettings() (map[string]GuildSettings, map[string]UserPrefs, error) {
	guilds, users := map[string]GuildSettings{}, map[string]UserPrefs{}
	err := s.view(func(tx *bolt.Tx) error {
		err := bucket(tx, bktGuilds).ForEach(func(k, v []byte) error {
			gs := DefaultGuildSettings()
			err := s.codec.openJSON(recGuild, string(k), v, &gs)
			guilds[string(k)] = gs
			return err
		})
		if err != nil {
			return err
		}
		return bucket(tx, bktUsers).ForEach(func(k, v []byte) error {
			p := DefaultUserPrefs()
			err := s.codec.openJSON(recUser, string(k), v, &p)
			users[string(k)] = p
			return err
		})
	})
	if err != nil {
		return nil, nil, fmt.Errorf("storage: saved settings: %w", err)
	}
	return guilds, users, nil
}

// Source is a store whose games and settings can be read out in full
// (both stores are).
type Source interface {
	GameIDs(after uint64, limit int) ([]uint64, error)
	GetByID(id uint64) (*Game, error)
	SavedSettings() (map[string]GuildSettings, map[string]UserPrefs, error)
}

// Destination is a store that takes games as another store kept them.
type Destination interface {
	Restore(g *Game) error
	GetByID(id uint64) (*Game, error)
	PutGuildSettings(guild string, s GuildSettings) error
	PutUserPrefs(user string, p UserPrefs) error
}

// copyPage is how many game ids Copy reads at a time.
const copyPage = 500

// Copy copies every game of src, active and archived, with its log,
// snapshot and result, and every saved setting and preference, into dst,
// which should be empty: statistics are rebuilt from the archived games.
// Each game is read back from dst and must equal the original. It returns
// how many games it copied; on error, those before it stay copied.
func Copy(dst Destination, src Source) (int, error) {
	n := 0
	for after := uint64(0); ; {
		ids, err := src.GameIDs(after, copyPage)
		if err != nil {
			return n, err
		}
		if len(ids) == 0 {
			break
		}
		for _, id := range ids {
			g, err := src.GetByID(id)
			if err != nil {
				return n, err
			}
			if err := dst.Restore(g); err != nil {
				return n, err
			}
			if back, err := dst.GetByID(id); err != nil || !reflect.DeepEqual(back, g) {
				if err == nil {
					err = fmt.Errorf("%w: game %d reads back differently from the copy", ErrCorrupt, id)
				}
				return n, err
			}
			n++
		}
		after = ids[len(ids)-1]
	}
	guilds, users, err := src.SavedSettings()
	if err != nil {
		return n, err
	}
	for guild, s := range guilds {
		if err := dst.PutGuildSettings(guild, s); err != nil {
			return n, err
		}
	}
	for user, p := range users {
		if err := dst.PutUserPrefs(user, p); err != nil {
			return n, err
		}
	}
	return n, nil
}
