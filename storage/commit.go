package storage

import (
	"fmt"
	"slices"

	"github.com/meeplegames/meeple/engine"
	bolt "go.etcd.io/bbolt"
)

// Outcome is everything one interaction changes in a running game, for
// Store.Commit to keep in one transaction: the actions it accepted (the
// player's, then any computer moves they set off), the state after them,
// the bot's own fields (the next deadline and reminder, message ids), and
// the end of the game when it ended.
type Outcome struct {
	// Entries are the accepted actions, in order; Snapshot is the state
	// after the last one (State.Encode()), required with entries.
	Entries  []Entry
	Snapshot []byte
	// Edit, when set, changes the bot-owned fields as Store.Update's fn
	// does; it is given the game as it was before the entries (Version
	// included). It may run more than once and must not call the store.
	Edit func(g *Game) error
	// Finish, when set, archives the game after the entries, as
	// Store.Finish does with its status and result.
	Finish *Ending
	// Start, when set, starts a game in the lobby, as Store.Start does,
	// before the entries: Edit is given the lobby's game (it may order
	// the seats), the game is started from it, and the entries (the
	// computer players' opening moves) follow. expectVersion is the
	// lobby's (0). Without entries the start's state is kept as the
	// snapshot.
	Start bool
}

// Ending is how a game ends: StatusFinished with a result (one score per
// seat), or StatusAbandoned with an optional one.
type Ending struct {
	Status Status
	Result *engine.Result
}

// Commit keeps an interaction's whole outcome on channel's running game in
// one transaction, so one durable write, and returns the game (without
// its log). expectVersion is the version the interaction started from; a
// stale one fails with a *VersionError and, like any refusal (an entry
// Append would refuse, an error from Edit, an ending Finish would refuse),
// changes nothing.
func (s *Store) Commit(channel string, expectVersion int, o Outcome) (*Game, error) {
	entries, err := s.prepareOutcome(o)
	if err != nil {
		return nil, fmt.Errorf("storage: commit to channel %s: %w", channel, err)
	}
	var out *Game
	err = s.update(func(tx *bolt.Tx) error {
		old, err := s.activeGame(tx, channel, false)
		if err != nil {
			return refuse(err)
		}
		g, err := s.outcomeGame(old, expectVersion, entries, o)
		if err != nil {
			return refuse(err)
		}
		for i, e := range entries {
			if err := bucket(tx, bktLog).Put(logKey(g.ID, old.Version+i), s.codec.encodeEntry(e)); err != nil {
				return err
			}
		}
		if snap := outcomeSnapshot(g, o); snap != nil {
			if err := bucket(tx, bktSnapshots).Put(idKey(g.ID), s.codec.encodeSnapshot(newSnapshot(g.Version, snap))); err != nil {
				return err
			}
		}
		if !g.Status.Active() {
			if err := s.addStats(tx, g); err != nil {
				return err
			}
		}
		out = g
		return s.putGame(tx, old, g)
	})
	if err != nil {
		return nil, fmt.Errorf("storage: commit to channel %s: %w", channel, err)
	}
	return out, nil
}

// outcomeSnapshot is the snapshot a commit of o that made g writes: the
// state after o's entries, or the started state of a start without
// entries, or nil when the state did not change.
func outcomeSnapshot(g *Game, o Outcome) []byte {
	if len(o.Entries) == 0 && o.Start {
		return g.Snapshot
	}
	return o.Snapshot
}

// prepareOutcome checks what an Outcome must hold whatever the game, and
// returns its entries with their times set.
func (s *Store) prepareOutcome(o Outcome) ([]Entry, error) {
	if len(o.Entries) > 0 && len(o.Snapshot) == 0 {
		return nil, fmt.Errorf("%w: no state snapshot", ErrInvalid)
	}
	if len(o.Entries) == 0 && o.Snapshot != nil {
		return nil, fmt.Errorf("%w: a state snapshot without actions", ErrInvalid)
	}
	entries := slices.Clone(o.Entries)
	for i := range entries {
		var err error
		if entries[i], err = s.prepareEntry(entries[i], o.Snapshot); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// outcomeGame returns old, a running game at expectVersion (a game in
// the lobby for o.Start), after the outcome: Edit applied, started for
// o.Start, entries counted in its version, and archived when it finished.
// The log and snapshot are the caller's to write.
func (s *Store) outcomeGame(old *Game, expectVersion int, entries []Entry, o Outcome) (*Game, error) {
	if o.Start {
		if old.Version != expectVersion {
			return nil, &VersionError{Channel: old.Channel, Expected: expectVersion, Actual: old.Version}
		}
	} else if err := checkRunning(old, expectVersion); err != nil {
		return nil, err
	}
	for i, e := range entries {
		if err := checkEntry(e, len(old.Seats)); err != nil {
			return nil, fmt.Errorf("action %d: %w", i+1, err)
		}
	}
	g := old.clone()
	if o.Edit != nil {
		var err error
		if g, err = s.editGame(old, o.Edit); err != nil {
			return nil, err
		}
	}
	if o.Start {
		var err error
		if g, _, err = s.startGame(g); err != nil {
			return nil, err
		}
	}
	g.Version += len(entries)
	if o.Start && len(entries) > 0 {
		g.Snapshot = o.Snapshot // the state after the opening moves
	}
	if n := len(entries); n > 0 && entries[n-1].At.After(g.Updated) {
		g.Updated = entries[n-1].At
	}
	if o.Finish != nil {
		return s.finishGame(g, g.Version, o.Finish.Status, o.Finish.Result)
	}
	return g, nil
}
