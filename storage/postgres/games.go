package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// The columns every read of a game selects, from games aliased g (see
// head).
const headCols = "g.id, g.version, g.last_action, g.record, g.revision, g.channel, g.guild, g.active, g.running, g.seats, g.deadline, g.remind_at"

// fullFrom reads games with their snapshot and log (in one statement, so
// one snapshot of the database); the caller adds the WHERE clause.
const fullFrom = `SELECT ` + headCols + `, g.snapshot, g.snapshot_version, g.snapshot_sum, l.seats, l.ats, l.actions, l.idxs, l.sums
	FROM games g LEFT JOIN LATERAL (
		SELECT array_agg(seat ORDER BY idx) AS seats, array_agg(at ORDER BY idx) AS ats,
			array_agg(action ORDER BY idx) AS actions, array_agg(idx ORDER BY idx) AS idxs, array_agg(sum ORDER BY idx) AS sums
		FROM game_log WHERE game_id = g.id) l ON true `

// Create stores a new active game in g.Channel, as storage.Store.Create.
func (s *Store) Create(ctx context.Context, g *storage.Game) error {
	rec, err := s.contract.Create(g)
	if err == nil {
		err = s.create(ctx, rec)
	}
	if err != nil {
		return fmt.Errorf("postgres: create game in channel %s: %w", g.Channel, err)
	}
	*g = *rec
	return nil
}

// Import stores a game exported from a file, as storage.Store.Import: one
// its log ends, or abandoned, goes straight to the archive.
func (s *Store) Import(ctx context.Context, g *storage.Game) error {
	rec, err := s.contract.Import(g)
	if err == nil {
		err = s.create(ctx, rec)
	}
	if err != nil {
		return fmt.Errorf("postgres: import game into channel %s: %w", g.Channel, err)
	}
	*g = *rec
	return nil
}

// create stores rec, a game record from the contract, under a new id; an
// archived one counts in its users' statistics.
func (s *Store) create(ctx context.Context, rec *storage.Game) error {
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var busy bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM games WHERE channel = $1 AND active)", rec.Channel).Scan(&busy); err != nil {
			return err
		}
		if busy && rec.Status.Active() {
			return storage.ErrChannelBusy
		}
		var id int64
		if err := tx.QueryRow(ctx, "SELECT nextval('game_ids')").Scan(&id); err != nil {
			return err
		}
		rec.ID = uint64(id)
		if err := revise(ctx, tx, nil, rec); err != nil {
			return err
		}
		if err := s.insertGame(ctx, tx, rec); err != nil {
			return err
		}
		if rec.Status.Active() {
			return nil
		}
		return addStats(ctx, tx, rec)
	})
	if uniqueViolation(err) {
		err = storage.ErrChannelBusy // another process created one meanwhile
	}
	return err
}

// insertGame writes a new game, its log, its users and its count.
func (s *Store) insertGame(ctx context.Context, tx pgx.Tx, g *storage.Game) error {
	data, err := storage.EncodeGame(g)
	if err != nil {
		return err
	}
	var snapVersion *int
	if g.Snapshot != nil {
		snapVersion = &g.Version
	}
	var last *int64
	if n := len(g.Log); n > 0 {
		last = nanos(g.Log[n-1].At)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO games (id, channel, guild, active, running, seats, version, last_action,
			deadline, remind_at, record, snapshot, snapshot_version, revision, snapshot_sum)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
		int64(g.ID), g.Channel, g.Guild, g.Status.Active(), g.Status == storage.StatusRunning, len(g.Seats), g.Version, last,
		nanos(g.Deadline), nanos(g.RemindAt), data, g.Snapshot, snapVersion, int64(g.Revision), snapshotSum(g.ID, g.Snapshot)); err != nil {
		return err
	}
	if err := insertLog(ctx, tx, g.ID, 0, g.Log); err != nil {
		return err
	}
	if err := countNew(ctx, tx, g); err != nil {
		return err
	}
	users, seats, err := seatRows(g)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, "INSERT INTO game_users (user_id, game_id, active, seating) SELECT u, $1, $2, r FROM unnest($3::text[], $4::bytea[]) AS x(u, r)",
		int64(g.ID), g.Status.Active(), users, seats)
	return err
}

// seatRows are g's rows in game_users: its users, and by each the seat
// index entry (storage.Seating) while g is active, nil once archived.
func seatRows(g *storage.Game) ([]string, [][]byte, error) {
	users := g.Users()
	recs, err := storage.EncodeSeatings(g)
	if err != nil {
		return nil, nil, err
	}
	seats := make([][]byte, len(users))
	for i, u := range users {
		seats[i] = recs[u]
	}
	return users, seats, nil
}

// insertLog writes entries to game id's log from index from on, in one
// statement.
func insertLog(ctx context.Context, tx pgx.Tx, id uint64, from int, entries []storage.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	seats, ats, actions := make([]int32, len(entries)), make([]int64, len(entries)), make([]string, len(entries))
	sums := make([]int64, len(entries))
	for i, e := range entries {
		seats[i], ats[i], actions[i] = int32(e.Seat), e.At.UnixNano(), e.Action
		sums[i] = entrySum(id, from+i, seats[i], ats[i], actions[i])
	}
	_, err := tx.Exec(ctx, `INSERT INTO game_log (game_id, idx, seat, at, action, sum)
		SELECT $1, $2 + n - 1, seat, at, action, sum FROM unnest($3::integer[], $4::bigint[], $5::text[], $6::bigint[]) WITH ORDINALITY AS e(seat, at, action, sum, n)`,
		int64(id), from, seats, ats, actions, sums)
	return err
}

// writeGame stores g's record, index columns, users with their seat index
// entries, and count after a change from old. The log, version and snapshot are the caller's.
func writeGame(ctx context.Context, tx pgx.Tx, old, g *storage.Game) error {
	data, err := storage.EncodeGame(g)
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	b.Queue(`UPDATE games SET active = $2, running = $3, seats = $4, record = $7, revision = $8,
			deadline_claim = CASE WHEN deadline IS DISTINCT FROM $5 THEN NULL ELSE deadline_claim END,
			remind_claim = CASE WHEN remind_at IS DISTINCT FROM $6 THEN NULL ELSE remind_claim END,
			deadline = $5, remind_at = $6
		WHERE id = $1`,
		int64(g.ID), g.Status.Active(), g.Status == storage.StatusRunning, len(g.Seats), nanos(g.Deadline), nanos(g.RemindAt), data, int64(g.Revision))
	users, seats, err := seatRows(g)
	if err != nil {
		return err
	}
	_, before, err := seatRows(old)
	if err != nil {
		return err
	}
	if old.Status.Active() != g.Status.Active() || !slices.Equal(users, old.Users()) || !slices.EqualFunc(seats, before, bytes.Equal) {
		b.Queue("DELETE FROM game_users WHERE game_id = $1 AND user_id <> ALL ($2::text[])", int64(g.ID), users)
		b.Queue(`INSERT INTO game_users (user_id, game_id, active, seating) SELECT u, $1, $2, r FROM unnest($3::text[], $4::bytea[]) AS x(u, r)
			ON CONFLICT (user_id, game_id) DO UPDATE SET active = EXCLUDED.active, seating = EXCLUDED.seating`, int64(g.ID), g.Status.Active(), users, seats)
	}
	countMove(b, old, g)
	return tx.SendBatch(ctx, b).Close()
}

// nanos is t in Unix nanoseconds, nil for the zero time; times before
// 1970 become 0, as in the bbolt store's timer index.
func nanos(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := max(t.UnixNano(), 0)
	return &n
}

// head is a game's row as headCols selects it.
type head struct {
	id                 int64
	version            int32
	last               *int64
	record             []byte
	revision           int64
	channel, guild     string
	active, running    bool
	seats              int32
	deadline, remindAt *int64
}

// dest is where a scan of headCols goes.
func (h *head) dest() []any {
	return []any{&h.id, &h.version, &h.last, &h.record, &h.revision, &h.channel, &h.guild, &h.active, &h.running, &h.seats, &h.deadline, &h.remindAt}
}

// decode builds a game (without log and snapshot) from its row: the
// record (checksummed by storage's Codec), and the columns that index it,
// which must say what the record says.
func (h *head) decode() (*storage.Game, error) {
	g, err := storage.DecodeGame(idKey(uint64(h.id)), h.record)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", h.id, err)
	}
	var bad string
	switch {
	case g.ID != uint64(h.id):
		bad = fmt.Sprintf("the record holds id %d", g.ID)
	case g.Channel != h.channel:
		bad = fmt.Sprintf("its channel column says %s, its record %s", h.channel, g.Channel)
	case g.Guild != h.guild:
		bad = fmt.Sprintf("its guild column says %s, its record %s", h.guild, g.Guild)
	case g.Status.Active() != h.active || (g.Status == storage.StatusRunning) != h.running:
		bad = fmt.Sprintf("its active and running columns (%v, %v) disagree with its record's status %s", h.active, h.running, g.Status)
	case int(h.seats) != len(g.Seats):
		bad = fmt.Sprintf("its seats column says %d, its record has %d seats", h.seats, len(g.Seats))
	case !sameTime(h.deadline, nanos(g.Deadline)) || !sameTime(h.remindAt, nanos(g.RemindAt)):
		bad = "its deadline or reminder column disagrees with its record"
	case h.revision < 0 || h.version < 0 || h.version > storage.MaxLog:
		bad = fmt.Sprintf("its revision %d or version %d column is impossible", h.revision, h.version)
	}
	if bad != "" {
		return nil, fmt.Errorf("%w: game %d: %s: the row is damaged", storage.ErrCorrupt, h.id, bad)
	}
	g.Version, g.Revision = int(h.version), uint64(h.revision)
	if h.last != nil {
		if at := time.Unix(0, *h.last).UTC(); at.After(g.Updated) {
			g.Updated = at
		}
	}
	return g, nil
}

// sameTime reports whether two nullable Unix ns times are equal.
func sameTime(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// readHead reads one game without its log, or storage.ErrNotFound. where
// is the condition on g; lock adds FOR UPDATE.
func readHead(ctx context.Context, q querier, where string, lock bool, arg any) (*storage.Game, error) {
	sql := "SELECT " + headCols + " FROM games g WHERE " + where
	if lock {
		sql += " FOR UPDATE"
	}
	var h head
	err := q.QueryRow(ctx, sql, arg).Scan(h.dest()...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound(ctx, q, where, arg)
	}
	if err != nil {
		return nil, err
	}
	return h.decode()
}

// notFound is the error of a read that found no row where: for a
// channel's active game, storage.ErrNotFound unless the channel's newest
// game says in its record that it is active, when its row's active column
// is damaged (storage.ErrCorrupt); "no game" is then never the answer.
func notFound(ctx context.Context, q querier, where string, arg any) error {
	if where != activeWhere {
		return storage.ErrNotFound
	}
	_, err := readHead(ctx, q, "g.channel = $1 ORDER BY g.id DESC LIMIT 1", false, arg)
	if err == nil || errors.Is(err, storage.ErrNotFound) {
		return storage.ErrNotFound
	}
	return err
}

// querier is what reads need of a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// snapshotInfo is what readFull found of a game's snapshot column.
type snapshotInfo struct {
	version int    // the version it is of; -1 when there is none
	damaged string // why it cannot be used, when its checksum fails
}

// readFull reads one game with its log and snapshot, or
// storage.ErrNotFound. Every log row is checked against its checksum (a
// damaged one is storage.ErrCorrupt naming the game and the entry); a
// snapshot that fails its checksum is left out of g and reported in
// snap.damaged.
func readFull(ctx context.Context, q querier, where string, arg any) (g *storage.Game, snap snapshotInfo, err error) {
	var (
		h       head
		data    []byte
		sv      *int32
		ssum    *int64
		seats   []int32
		ats     []int64
		actions []string
		idxs    []int32
		sums    []int64
	)
	err = q.QueryRow(ctx, fullFrom+"WHERE "+where, arg).Scan(append(h.dest(), &data, &sv, &ssum, &seats, &ats, &actions, &idxs, &sums)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, snap, notFound(ctx, q, where, arg)
	}
	if err != nil {
		return nil, snap, err
	}
	if g, err = h.decode(); err != nil {
		return nil, snap, err
	}
	id := h.id
	if len(idxs) != g.Version || len(seats) != g.Version || len(ats) != g.Version || len(actions) != g.Version || len(sums) != g.Version {
		return nil, snap, fmt.Errorf("%w: game %d is at version %d but its log holds %d actions", storage.ErrCorrupt, id, g.Version, len(idxs))
	}
	g.Log = make([]storage.Entry, g.Version)
	for i := range g.Log {
		if idxs[i] != int32(i) {
			return nil, snap, fmt.Errorf("%w: log of game %d has a gap at entry %d", storage.ErrCorrupt, id, i+1)
		}
		if entrySum(uint64(id), i, seats[i], ats[i], actions[i]) != sums[i] {
			return nil, snap, fmt.Errorf("%w: game %d: log entry %d (index %d): checksum mismatch, the row is damaged", storage.ErrCorrupt, id, i+1, i)
		}
		g.Log[i] = storage.Entry{Seat: engine.Seat(seats[i]), Action: actions[i], At: time.Unix(0, ats[i]).UTC()}
	}
	if n := len(g.Log); (n == 0) != (h.last == nil) || n > 0 && *h.last != max(ats[n-1], 0) {
		return nil, snap, fmt.Errorf("%w: game %d: its last_action column disagrees with its log's last entry: the row is damaged", storage.ErrCorrupt, id)
	}
	snap.version = -1
	if sv != nil {
		snap.version = int(*sv)
	}
	switch want := snapshotSum(g.ID, data); {
	case (want == nil) != (ssum == nil) || want != nil && *want != *ssum:
		snap.damaged = "snapshot does not match its checksum"
	default:
		g.Snapshot = data
	}
	return g, snap, nil
}

// Get returns the active game of channel with its log and snapshot, or
// storage.ErrNotFound.
func (s *Store) Get(ctx context.Context, channel string) (*storage.Game, error) {
	var g *storage.Game
	err := s.call(ctx, func(ctx context.Context) error {
		var (
			snap snapshotInfo
			err  error
		)
		g, snap, err = readFull(ctx, s.pool, activeWhere, channel)
		if err == nil {
			err = s.rebuilt(g, snap)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: get game in channel %s: %w", channel, err)
	}
	return g, nil
}

// GetByID returns any game, active or archived, with its log and
// snapshot, or storage.ErrNotFound.
func (s *Store) GetByID(ctx context.Context, id uint64) (*storage.Game, error) {
	var g *storage.Game
	err := s.call(ctx, func(ctx context.Context) error {
		if id > 1<<63-1 {
			return storage.ErrNotFound
		}
		var (
			snap snapshotInfo
			err  error
		)
		g, snap, err = readFull(ctx, s.pool, "g.id = $1", int64(id))
		if err == nil {
			err = s.rebuilt(g, snap)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: get game %d: %w", id, err)
	}
	return g, nil
}

// rebuilt gives g, read with a snapshot that failed its checksum, the
// snapshot its log replays to, so that the damaged bytes are never
// returned (Load also stores it; this read changes nothing).
func (s *Store) rebuilt(g *storage.Game, snap snapshotInfo) error {
	if snap.damaged == "" || g.Status == storage.StatusLobby {
		return nil
	}
	state, err := s.contract.Replay(g)
	if err == nil {
		g.Snapshot, err = state.Encode()
	}
	if err != nil {
		return fmt.Errorf("%w: game %d: %s, and its log does not replay: %v", storage.ErrCorrupt, g.ID, snap.damaged, err)
	}
	s.log.Warn("postgres: a game's snapshot failed its checksum; rebuilt from its log for this read",
		"game", g.ID, "version", g.Version)
	return nil
}

// activeWhere selects channel's active game.
const activeWhere = "g.channel = $1 AND g.active"

// Update changes the bot-owned fields of channel's active game, as
// storage.Store.Update. fn runs with the game's row locked.
func (s *Store) Update(ctx context.Context, channel string, game uint64, fn func(g *storage.Game) error) (*storage.Game, error) {
	var out *storage.Game
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		old, err := readHead(ctx, tx, activeWhere, true, channel)
		if err != nil {
			return err
		}
		if old.ID != game {
			return &storage.VersionError{Channel: channel, Expected: storage.Guard{Game: game}, Actual: old.Guard()}
		}
		g, err := s.contract.Update(old, fn)
		if err != nil {
			return err
		}
		out = g
		return writeGame(ctx, tx, old, g)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: update game in channel %s: %w", channel, err)
	}
	return out, nil
}

// Start moves channel's game from the lobby to running, as
// storage.Store.Start.
func (s *Store) Start(ctx context.Context, channel string) (*storage.Game, engine.State, error) {
	var (
		out   *storage.Game
		state engine.State
	)
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		old, err := readHead(ctx, tx, activeWhere, true, channel)
		if err != nil {
			return err
		}
		g, st, err := s.contract.Start(old)
		if err != nil {
			return err
		}
		if err := revise(ctx, tx, old, g); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE games SET snapshot = $2, snapshot_version = 0, snapshot_sum = $3 WHERE id = $1",
			int64(g.ID), g.Snapshot, snapshotSum(g.ID, g.Snapshot)); err != nil {
			return err
		}
		out, state = g, st
		return writeGame(ctx, tx, old, g)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: start game in channel %s: %w", channel, err)
	}
	return out, state, nil
}

// appendSQL appends one entry to an active running game at the expected
// game, revision and version, with the new snapshot and a new revision, in
// one statement: $1 channel, $2 expected revision, $3 snapshot, $4 seat,
// $5 time (Unix ns), $6 action, $7 expected game id, $8 expected version
// (the entry's index), $9 the entry's checksum, $10 the snapshot's, $11
// the time as last_action keeps it. It returns the new revision.
const appendSQL = `WITH g AS (
		UPDATE games SET version = version + 1, snapshot = $3, snapshot_version = version + 1, last_action = $11,
			revision = nextval('game_revisions'), snapshot_sum = $10
		WHERE channel = $1 AND active AND running AND id = $7 AND revision = $2 AND version = $8 AND $4 < seats
		RETURNING id, version, revision)
	INSERT INTO game_log (game_id, idx, seat, at, action, sum) SELECT id, version - 1, $4, $5, $6, $9 FROM g
	RETURNING (SELECT revision FROM g)`

// Append adds one accepted action to channel's running game, as
// storage.Store.Append: a stale guard fails with a *storage.VersionError.
// It reads the game's version at the guard's revision (the entry's index,
// which its checksum covers), then appends in one statement: a revision is
// never given twice, so the version read at it still holds when the
// revision does.
func (s *Store) Append(ctx context.Context, channel string, at storage.Guard, e storage.Entry, snapshot []byte) (storage.Guard, error) {
	var next storage.Guard
	err := s.call(ctx, func(ctx context.Context) error {
		e, err := s.contract.Entry(e, snapshot, int(e.Seat)+1) // the seat's upper bound is checked by appendSQL
		if err != nil && len(snapshot) == 0 {
			return err
		}
		if err == nil {
			var version int32
			err := s.pool.QueryRow(ctx, "SELECT version FROM games WHERE channel = $1 AND active AND id = $2 AND revision = $3",
				channel, int64(at.Game), int64(at.Revision)).Scan(&version)
			if err == nil {
				var rev int64
				ns := e.At.UnixNano()
				err = s.pool.QueryRow(ctx, appendSQL, channel, int64(at.Revision), snapshot, int(e.Seat), ns, e.Action, int64(at.Game),
					version, entrySum(at.Game, int(version), int32(e.Seat), ns, e.Action), snapshotSum(at.Game, snapshot), max(ns, 0)).Scan(&rev)
				if err == nil {
					next = storage.Guard{Game: at.Game, Revision: uint64(rev)}
					return nil
				}
				if !errors.Is(err, pgx.ErrNoRows) {
					return committed(err) // the statement commits itself
				}
			}
			if !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
		}
		return s.whyNotAppended(ctx, channel, at, e, snapshot)
	})
	if err != nil {
		return storage.Guard{}, fmt.Errorf("postgres: append to channel %s: %w", channel, err)
	}
	return next, nil
}

// whyNotAppended finds why an Append was refused, checking in the bbolt
// store's order: the game, its guard, its status, the entry. A revision
// is never given twice, so a refusal cannot be undone by a concurrent
// write: some reason always stands.
func (s *Store) whyNotAppended(ctx context.Context, channel string, at storage.Guard, e storage.Entry, snapshot []byte) error {
	var (
		id       int64
		revision int64
		running  bool
		seats    int
	)
	err := s.pool.QueryRow(ctx, "SELECT id, revision, running, seats FROM games WHERE channel = $1 AND active", channel).Scan(&id, &revision, &running, &seats)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return storage.ErrNotFound
	case err != nil:
		return err
	}
	if now := (storage.Guard{Game: uint64(id), Revision: uint64(revision)}); now != at {
		return &storage.VersionError{Channel: channel, Expected: at, Actual: now}
	}
	if !running {
		return fmt.Errorf("%w: the game has not started", storage.ErrInvalid)
	}
	if _, err := s.contract.Entry(e, snapshot, seats); err != nil {
		return err
	}
	return fmt.Errorf("%w: the action was refused for a reason that did not last", storage.ErrStale)
}

// revise gives g, the record a write makes of old (nil for a new game), a
// new revision when its history changed, from the database's sequence
// game_revisions, which never gives a value twice.
func revise(ctx context.Context, tx pgx.Tx, old, g *storage.Game) error {
	if !storage.HistoryChanged(old, g) {
		return nil
	}
	var rev int64
	if err := tx.QueryRow(ctx, "SELECT nextval('game_revisions')").Scan(&rev); err != nil {
		return err
	}
	g.Revision = uint64(rev)
	return nil
}

// Undo drops the last n actions of channel's running game, as
// storage.Store.Undo.
func (s *Store) Undo(ctx context.Context, channel string, at storage.Guard, n int) (*storage.Game, engine.State, error) {
	var (
		out   *storage.Game
		state engine.State
	)
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := readHead(ctx, tx, activeWhere, true, channel); err != nil {
			return err
		}
		old, _, err := readFull(ctx, tx, activeWhere, channel)

		if err != nil {
			return err
		}
		g, st, err := s.contract.Undo(old, at, n)
		if err != nil {
			return err
		}
		if err := revise(ctx, tx, old, g); err != nil {
			return err
		}
		var last *int64
		if len(g.Log) > 0 {
			last = nanos(g.Log[len(g.Log)-1].At)
		}
		b := &pgx.Batch{}
		b.Queue("DELETE FROM game_log WHERE game_id = $1 AND idx >= $2", int64(g.ID), g.Version)
		b.Queue("UPDATE games SET version = $2, snapshot = $3, snapshot_version = $2, last_action = $4, snapshot_sum = $5 WHERE id = $1",
			int64(g.ID), g.Version, g.Snapshot, last, snapshotSum(g.ID, g.Snapshot))
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		out, state = g, st
		return writeGame(ctx, tx, old, g)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: undo in channel %s: %w", channel, err)
	}
	return out, state, nil
}

// Load returns channel's active game with its log and its state (nil in
// the lobby), as storage.Store.Load: a snapshot that is missing, of
// another version or that does not decode is rebuilt from the log and
// saved.
func (s *Store) Load(ctx context.Context, channel string) (*storage.Game, engine.State, error) {
	var (
		g    *storage.Game
		snap snapshotInfo
	)
	err := s.call(ctx, func(ctx context.Context) error {
		var err error
		g, snap, err = readFull(ctx, s.pool, activeWhere, channel)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: load game in channel %s: %w", channel, err)
	}
	if g.Status == storage.StatusLobby {
		return g, nil, nil
	}
	var reason string
	switch {
	case snap.damaged != "":
		reason = snap.damaged
	case g.Snapshot == nil:
		reason = "snapshot missing"
	case snap.version != g.Version:
		reason = fmt.Sprintf("snapshot is of version %d, the log of %d", snap.version, g.Version)
	default:
		state, err := s.contract.Decode(g, g.Snapshot)
		if err == nil {
			return g, state, nil
		}
		reason = fmt.Sprintf("snapshot does not decode: %v", err)
	}
	state, err := s.repair(ctx, g, reason)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: load game in channel %s: %w", channel, err)
	}
	return g, state, nil
}

// repair rebuilds g's state from its log and stores it as the snapshot,
// unless the game moved on meanwhile.
func (s *Store) repair(ctx context.Context, g *storage.Game, reason string) (engine.State, error) {
	state, err := s.contract.Replay(g)
	if err != nil {
		return nil, err
	}
	if g.Snapshot, err = state.Encode(); err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	err = s.call(ctx, func(ctx context.Context) error {
		// The rebuilt snapshot starts a new revision: the one the damaged
		// snapshot held is not known to be the latest.
		var rev int64
		err := s.pool.QueryRow(ctx, `UPDATE games SET snapshot = $3, snapshot_version = $2, revision = nextval('game_revisions'), snapshot_sum = $5
			WHERE id = $1 AND version = $2 AND revision = $4 AND active RETURNING revision`,
			int64(g.ID), g.Version, g.Snapshot, int64(g.Revision), snapshotSum(g.ID, g.Snapshot)).Scan(&rev)
		if errors.Is(err, pgx.ErrNoRows) {
			return storage.ErrStale
		}
		if err == nil {
			g.Revision = uint64(rev)
		}
		return err
	})
	s.log.Warn("postgres: repaired a game's snapshot from its log",
		"channel", g.Channel, "game", g.ID, "version", g.Version, "reason", reason, "saved", err == nil)
	return state, nil
}

// Verified reports whether channel's stored snapshot equals its seed and
// log replayed, byte for byte.
func (s *Store) Verified(ctx context.Context, channel string) (bool, error) {
	g, err := s.Get(ctx, channel)
	if err != nil {
		return false, err
	}
	return s.contract.SnapshotMatchesLog(g)
}

// Finish ends channel's game and archives it, counting it in its users'
// statistics in the same transaction, as storage.Store.Finish.
func (s *Store) Finish(ctx context.Context, channel string, at storage.Guard, status storage.Status, result *engine.Result) (*storage.Game, error) {
	var out *storage.Game
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		old, err := readHead(ctx, tx, activeWhere, true, channel)
		if err != nil {
			return err
		}
		g, err := s.contract.Finish(old, at, status, result)
		if err != nil {
			return err
		}
		if err := addStats(ctx, tx, g); err != nil {
			return err
		}
		out = g
		return writeGame(ctx, tx, old, g)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: finish game in channel %s: %w", channel, err)
	}
	return out, nil
}
