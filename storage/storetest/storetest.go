// Package storetest is the store contract's test suite: Run checks that a
// store keeps games exactly as the bot expects (creation, appends with
// optimistic versions, undo, updates, finishing and the archive,
// statistics, settings, preferences, timers, durability across reopening,
// and every refusal), so that the bbolt store (storage/boltdb) and the
// PostgreSQL one (storage/postgres) can be shown to behave alike.
//
// It imports storage and the engine, and provides the race, a tiny dice
// game whose random draws make a wrong replay visible. It is for tests
// only, and keeps no state between calls: parallel tests may share it.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// Store is the contract every store keeps (see storage.Store), with the
// methods only the suite and the stores themselves use: Append (one
// action on its own), Start (a start with no moves) and Verified
// (whether a game's snapshot checks against its log).
type Store interface {
	storage.Store
	Append(ctx context.Context, channel string, at storage.Guard, e storage.Entry, snapshot []byte) (storage.Guard, error)
	Start(ctx context.Context, channel string) (*storage.Game, engine.State, error)
	Verified(ctx context.Context, channel string) (bool, error)
}

// Opener opens one database; calling it again after Close opens the same
// database again, with what was committed before.
type Opener func() (Store, error)

// NewDatabase makes an empty database for t whose stores replay logs with
// games, and returns how to open it. It may skip t (no server here).
type NewDatabase func(t testing.TB, games *engine.Registry) Opener

// Run runs the contract's tests against the stores newDB makes, each test
// on a database of its own.
func Run(t *testing.T, newDB NewDatabase) {
	tests := []struct {
		name string
		fn   func(t *testing.T, open Opener)
	}{
		{"CreateAppendLoadKeepSnapshotEqualToReplay", testCreateAppendLoad},
		{"CreateRefusesBadGamesAndBusyChannels", testCreateRefuses},
		{"ImportedGameKeepsItsLogAndTimes", testImportedGame},
		{"ImportArchivesAFinishedGame", testImport},
		{"AppendRefusesStaleVersionAndBadInput", testAppendRefuses},
		{"ConcurrentAppendsToOneGame", testConcurrentAppends},
		{"UndoRebuildsTheSnapshotFromTheLog", testUndo},
		{"UpdateChangesOnlyWhatIsTheCallers", testUpdate},
		{"StartKeepsTheRulesReason", testStartReason},
		{"FinishArchivesAndCountsStats", testFinish},
		{"HandoversNudgesAndTheWholeArchive", testHandovers},
		{"DueFindsPassedTimersOnly", testDue},
		{"ClaimDueHandsEachTimerOutOnce", testClaimDue},
		{"SettingsAndPreferences", testSettings},
		{"CommitKeepsAnInteractionWhole", testCommit},
		{"PrunedKeysAreOnlyOlderOnes", testPruneKeys},
		{"CommitStartsAGameWithItsOpeningMoves", testCommitStart},
		{"EverythingSurvivesReopening", testDurability},
		{"ClosedStoreRefusesWork", testClosed},
		{"CancelledContextChangesNothing", testCancelled},
		{"StaleWritesToAReplacedGameAreRefused", testReplacedGame},
		{"StaleWritesToAnUndoneHistoryAreRefused", testUndoneHistory},
		{"RetriedCommitIsFoundNotAppliedTwice", testRetriedCommit},
		{"GameCountsFollowEveryMove", testGameCounts},
		{"DeliveriesAreTakenOnceThroughRestarts", testDeliveries},
		{"PendingRepliesAreKeptAndTakenOnce", testPendingReplies},
		{"SeatIndexFollowsEveryChange", testSeatIndex},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) { c.fn(t, newDB(t, Games())) })
	}
	t.Run("CopyKeepsEveryGameAndSetting", func(t *testing.T) {
		testCopy(t, newDB(t, Games()), newDB(t, Games()))
	})
}

// open opens the database and closes the store when t ends.
func open(t *testing.T, opener Opener) Store {
	t.Helper()
	s, err := opener()
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func testCreateAppendLoad(t *testing.T, opener Opener) {
	s := open(t, opener)
	g := NewRace(t, s, "g1", "c1", 3, "1000")
	if g.ID == 0 || g.Version != 0 || g.Snapshot == nil || g.Created.IsZero() {
		t.Fatalf("created game %+v: want an id, version 0, a snapshot and a creation time", g)
	}
	for i := 1; i <= 40; i++ {
		if v := Play(t, s, "c1"); v != i {
			t.Fatalf("append %d returned version %d", i, v)
		}
	}
	got, err := s.Get(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 40 || len(got.Log) != 40 || got.Log[3].Action != "step 1" || got.Log[1].Seat != 1 {
		t.Fatalf("log after 40 appends: version %d, %d entries, %+v", got.Version, len(got.Log), got.Log[:4])
	}
	if !bytes.Equal(got.Snapshot, Replayed(t, got)) {
		t.Fatal("snapshot differs from seed + log replayed")
	}
	if got.Updated.Before(got.Log[39].At) {
		t.Fatalf("updated %v is before the last action %v", got.Updated, got.Log[39].At)
	}
	if ok, err := s.Verified(context.Background(), "c1"); !ok || err != nil {
		t.Fatalf("Verified = %v, %v", ok, err)
	}
	_, state, err := s.Load(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := state.Encode(); !bytes.Equal(data, got.Snapshot) {
		t.Fatal("Load's state differs from the snapshot")
	}
	byID, err := s.GetByID(context.Background(), g.ID)
	if err != nil || byID.Channel != "c1" || byID.Version != 40 {
		t.Fatalf("GetByID(%d): %+v, %v", g.ID, byID, err)
	}
	if _, err := s.GetByID(context.Background(), g.ID+1000); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("GetByID of a missing game: %v, want ErrNotFound", err)
	}
	if _, _, err := s.Load(context.Background(), "c2"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("Load of an empty channel: %v, want ErrNotFound", err)
	}
	if active, total, err := s.Counts(context.Background()); active != 1 || total != 1 || err != nil {
		t.Fatalf("Counts = %d, %d, %v; want 1, 1", active, total, err)
	}
}

func testCreateRefuses(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 2, "50")
	seats := []storage.Seat{{User: "a"}, {User: "b"}}
	cases := []struct {
		name string
		g    storage.Game
		want error
	}{
		{"busy channel", storage.Game{Kind: "race", Channel: "c1"}, storage.ErrChannelBusy},
		{"unknown kind", storage.Game{Kind: "chess", Channel: "c2"}, storage.ErrInvalid},
		{"no channel", storage.Game{Kind: "race"}, storage.ErrInvalid},
		{"bad channel", storage.Game{Kind: "race", Channel: "c\x00"}, storage.ErrInvalid},
		{"seat count", storage.Game{Kind: "race", Channel: "c2", Status: storage.StatusRunning, Setup: engine.Setup{Players: 3}, Seats: seats}, storage.ErrInvalid},
		{"finished", storage.Game{Kind: "race", Channel: "c2", Status: storage.StatusFinished}, storage.ErrInvalid},
		{"lobby with log", storage.Game{Kind: "race", Channel: "c2", Log: []storage.Entry{{Action: "roll"}}}, storage.ErrInvalid},
		{"user and computer", storage.Game{Kind: "race", Channel: "c2", Seats: []storage.Seat{{User: "a", Computer: "random"}}}, storage.ErrInvalid},
		{"illegal log", storage.Game{Kind: "race", Channel: "c2", Status: storage.StatusRunning, Setup: engine.Setup{Players: 2}, Seats: seats,
			Log: []storage.Entry{{Seat: 0, Action: "roll"}, {Seat: 0, Action: "roll"}}}, engine.ErrNotYourTurn},
		{"comment in action", storage.Game{Kind: "race", Channel: "c2", Status: storage.StatusRunning, Setup: engine.Setup{Players: 2}, Seats: seats,
			Log: []storage.Entry{{Seat: 0, Action: "roll # x"}}}, storage.ErrInvalid},
	}
	for _, c := range cases {
		g := c.g
		if err := s.Create(context.Background(), &g); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	if games, _ := s.ListActive(context.Background(), "g1"); len(games) != 1 {
		t.Fatalf("refused creates left %d active games in g1, want 1", len(games))
	}
	if _, err := s.Get(context.Background(), "c2"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("Get of an empty channel: %v, want ErrNotFound", err)
	}
	if active, total, _ := s.Counts(context.Background()); active != 1 || total != 1 {
		t.Fatalf("refused creates left %d active games of %d, want 1 of 1", active, total)
	}
}

// testImportedGame creates a running game with a log (an import): the
// store replays it, keeps every entry's time to the nanosecond, and gives
// entries without a time the store's clock.
func testImportedGame(t *testing.T, opener Opener) {
	s := open(t, opener)
	at := time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.FixedZone("X", 3600))
	g := &storage.Game{Kind: "race", Guild: "g1", Channel: "c1", Status: storage.StatusRunning,
		Setup: RaceSetup(2), Seats: []storage.Seat{{User: "u1"}, {Computer: "random"}}}
	for v := 0; v < 30; v++ {
		e := storage.Entry{Seat: engine.Seat(v % 2), Action: NextAction(v)}
		if v != 29 {
			e.At = at.Add(time.Duration(v) * time.Second)
		}
		g.Log = append(g.Log, e)
	}
	before := time.Now()
	if err := s.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 30 || !bytes.Equal(got.Snapshot, Replayed(t, got)) {
		t.Fatalf("imported game at version %d; snapshot equal to the replay: %v", got.Version, bytes.Equal(got.Snapshot, Replayed(t, got)))
	}
	for i, e := range got.Log[:29] {
		if want := at.Add(time.Duration(i) * time.Second); !e.At.Equal(want) || e.At.Location() != time.UTC {
			t.Fatalf("entry %d at %v, want %v in UTC", i, e.At, want)
		}
	}
	if last := got.Log[29].At; last.Before(before.Add(-time.Second)) || last.After(time.Now().Add(time.Second)) {
		t.Fatalf("entry without a time got %v, want about now", last)
	}
	if users, _ := s.ActiveForUser(context.Background(), "u1"); len(users) != 1 || users[0].Version != 30 {
		t.Fatalf("u1's active games: %v", Channels(users))
	}
}

func testAppendRefuses(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 2, "1000")
	Play(t, s, "c1")
	Play(t, s, "c1")
	before, _ := s.Get(context.Background(), "c1")
	_, err := s.Append(context.Background(), "c1", GuardAt(t, s, "c1", 1), storage.Entry{Seat: 1, Action: "roll"}, []byte("{}"))
	var ve *storage.VersionError
	if !errors.Is(err, storage.ErrStale) || !errors.As(err, &ve) || ve.Expected == ve.Actual || ve.Actual.Game != before.ID || ve.Channel != "c1" {
		t.Fatalf("stale append: %v, want a VersionError 1 vs 2", err)
	}
	lobby := &storage.Game{Kind: "race", Guild: "g1", Channel: "lobby", Seats: []storage.Seat{{User: "u1"}, {}}}
	if err := s.Create(context.Background(), lobby); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		channel string
		version int
		e       storage.Entry
		snap    []byte
		want    error
	}{
		{"c9", 2, storage.Entry{Action: "roll"}, []byte("x"), storage.ErrNotFound},
		{"c9", 2, storage.Entry{Action: "bad # text"}, []byte("x"), storage.ErrNotFound},
		{"lobby", 0, storage.Entry{Action: "roll"}, []byte("x"), storage.ErrInvalid},
		{"c1", 2, storage.Entry{Seat: 2, Action: "roll"}, []byte("x"), storage.ErrInvalid},
		{"c1", 2, storage.Entry{Seat: -1, Action: "roll"}, []byte("x"), storage.ErrInvalid},
		{"c1", 2, storage.Entry{Seat: 0, Action: "roll\nP2: roll"}, []byte("x"), storage.ErrInvalid},
		{"c1", 2, storage.Entry{Seat: 0, Action: ""}, []byte("x"), storage.ErrInvalid},
		{"c1", 2, storage.Entry{Seat: 0, Action: "roll", At: time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)}, []byte("x"), storage.ErrInvalid},
		{"c1", 2, storage.Entry{Seat: 0, Action: "roll"}, nil, storage.ErrInvalid},
		{"c1", 7, storage.Entry{Seat: 0, Action: "roll"}, []byte("x"), storage.ErrStale},
	} {
		if _, err := s.Append(context.Background(), c.channel, GuardAt(t, s, c.channel, c.version), c.e, c.snap); !errors.Is(err, c.want) {
			t.Errorf("append %+v to %s: %v, want %v", c.e, c.channel, err, c.want)
		}
	}
	after, _ := s.Get(context.Background(), "c1")
	if after.Version != before.Version || !bytes.Equal(after.Snapshot, before.Snapshot) || !after.Updated.Equal(before.Updated) {
		t.Fatal("refused appends changed the game")
	}
}

// testConcurrentAppends races writers on one game: each reads the game,
// applies the next action and appends; exactly one writer wins each
// version and the others get ErrStale.
func testConcurrentAppends(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 4, "1000000")
	const writers, target = 12, 120
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		won    = map[int]int{} // version → writer
		stales int
	)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				g, state, err := s.Load(context.Background(), "c1")
				if err != nil {
					t.Error(err)
					return
				}
				if g.Version >= target {
					return
				}
				v, err := Step(s, g, state)
				mu.Lock()
				switch {
				case errors.Is(err, storage.ErrStale):
					stales++
				case err != nil:
					t.Errorf("writer %d: %v", w, err)
				default:
					if prev, dup := won[v]; dup {
						t.Errorf("version %d acknowledged to writers %d and %d", v, prev, w)
					}
					won[v] = w
				}
				mu.Unlock()
				if err != nil && !errors.Is(err, storage.ErrStale) {
					return
				}
			}
		}()
	}
	wg.Wait()
	g, err := s.Get(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if g.Version != target || len(won) != target {
		t.Fatalf("version %d with %d acknowledged appends, want %d", g.Version, len(won), target)
	}
	if !bytes.Equal(g.Snapshot, Replayed(t, g)) {
		t.Fatal("snapshot differs from the replay after concurrent appends")
	}
	t.Logf("%d writers, %d appends, %d stale refusals", writers, target, stales)
}

func testUndo(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 2, "1000")
	snaps := map[int][]byte{}
	for i := 1; i <= 10; i++ {
		Play(t, s, "c1")
		g, _ := s.Get(context.Background(), "c1")
		snaps[i] = g.Snapshot
	}
	if _, _, err := s.Undo(context.Background(), "c1", GuardAt(t, s, "c1", 9), 3); !errors.Is(err, storage.ErrStale) {
		t.Fatalf("undo at a stale version: %v", err)
	}
	if _, _, err := s.Undo(context.Background(), "c9", GuardAt(t, s, "c9", 10), 1); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("undo in an empty channel: %v", err)
	}
	for _, n := range []int{0, -1, 11} {
		if _, _, err := s.Undo(context.Background(), "c1", GuardAt(t, s, "c1", 10), n); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("undo %d of 10: %v, want ErrInvalid", n, err)
		}
	}
	g, state, err := s.Undo(context.Background(), "c1", GuardAt(t, s, "c1", 10), 3)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := state.Encode()
	if g.Version != 7 || len(g.Log) != 7 || !bytes.Equal(data, snaps[7]) || !bytes.Equal(g.Snapshot, snaps[7]) {
		t.Fatalf("after undo: version %d, %d entries, state equal to version 7's: %v", g.Version, len(g.Log), bytes.Equal(data, snaps[7]))
	}
	stored, _ := s.Get(context.Background(), "c1")
	if stored.Version != 7 || len(stored.Log) != 7 || !bytes.Equal(stored.Snapshot, snaps[7]) {
		t.Fatalf("stored after undo: version %d, %d entries", stored.Version, len(stored.Log))
	}
	if _, err := s.Append(context.Background(), "c1", GuardAt(t, s, "c1", 10), storage.Entry{Seat: 1, Action: "roll"}, []byte("x")); !errors.Is(err, storage.ErrStale) {
		t.Fatalf("append at the version before the undo: %v, want ErrStale", err)
	}
	// Replaying the undone actions draws the same dice again.
	for i := 8; i <= 10; i++ {
		Play(t, s, "c1")
		g, _ := s.Get(context.Background(), "c1")
		if !bytes.Equal(g.Snapshot, snaps[i]) {
			t.Fatalf("replaying action %d after the undo gave a different state", i)
		}
	}
}

func testUpdate(t *testing.T, opener Opener) {
	s := open(t, opener)
	lobby := &storage.Game{Kind: "race", Guild: "g1", Channel: "c1", Creator: "u1", Seats: []storage.Seat{{User: "u1"}, {}}}
	if err := s.Create(context.Background(), lobby); err != nil {
		t.Fatal(err)
	}
	if lobby.Status != storage.StatusLobby || lobby.Snapshot != nil {
		t.Fatalf("lobby game %+v", lobby)
	}
	if _, state, err := s.Load(context.Background(), "c1"); err != nil || state != nil {
		t.Fatalf("Load of a lobby: state %v, %v; want none", state, err)
	}
	if _, _, err := s.Start(context.Background(), "c1"); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("start with an open seat: %v", err)
	}
	if _, err := s.Update(context.Background(), "c9", GameIn(t, s, "c9"), func(*storage.Game) error { return nil }); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("update of an empty channel: %v", err)
	}
	g, err := s.Update(context.Background(), "c1", GameIn(t, s, "c1"), func(g *storage.Game) error {
		if g.Log != nil || g.Snapshot != nil {
			t.Errorf("Update's fn got a log or a snapshot")
		}
		g.Seats[1] = storage.Seat{Computer: "random"}
		g.Setup.Seed = 7
		g.Messages = map[string]string{"board": "m1"}
		g.Timing = storage.Timing{TurnDeadline: time.Hour, OnDeadline: "pause"}
		return nil
	})
	if err != nil || g.Seats[1].Computer != "random" || g.Messages["board"] != "m1" {
		t.Fatalf("update: %+v, %v", g, err)
	}
	if users, _ := s.ActiveForUser(context.Background(), "u1"); len(users) != 1 {
		t.Fatalf("u1 has %d active games, want 1", len(users))
	}
	g, state, err := s.Start(context.Background(), "c1")
	if err != nil || g.Status != storage.StatusRunning || g.Setup.Players != 2 || state == nil {
		t.Fatalf("start: %+v, %v", g, err)
	}
	if _, _, err := s.Start(context.Background(), "c1"); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("second start: %v", err)
	}
	if ok, err := s.Verified(context.Background(), "c1"); !ok || err != nil {
		t.Fatalf("Verified after start = %v, %v", ok, err)
	}
	if got, _ := s.Get(context.Background(), "c1"); got.Timing.TurnDeadline != time.Hour || got.Timing.OnDeadline != "pause" || got.Messages["board"] != "m1" {
		t.Fatalf("stored game lost its timing or messages: %+v", got)
	}
	errBoom := errors.New("boom")
	refused := []struct {
		name string
		fn   func(*storage.Game) error
		want error
	}{
		{"fn error", func(g *storage.Game) error { g.Creator = "x"; return errBoom }, errBoom},
		{"status", func(g *storage.Game) error { g.Status = storage.StatusFinished; return nil }, storage.ErrInvalid},
		{"version", func(g *storage.Game) error { g.Version = 9; return nil }, storage.ErrInvalid},
		{"setup while running", func(g *storage.Game) error { g.Setup.Seed = 8; return nil }, storage.ErrInvalid},
		{"seat added", func(g *storage.Game) error { g.Seats = append(g.Seats, storage.Seat{User: "u3"}); return nil }, storage.ErrInvalid},
		{"channel", func(g *storage.Game) error { g.Channel = "c2"; return nil }, storage.ErrInvalid},
		{"bad message id", func(g *storage.Game) error { g.Messages["x"] = ""; return nil }, storage.ErrInvalid},
		{"negative deadline", func(g *storage.Game) error { g.Timing.TurnDeadline = -1; return nil }, storage.ErrInvalid},
	}
	for _, c := range refused {
		if _, err := s.Update(context.Background(), "c1", GameIn(t, s, "c1"), c.fn); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if g, _ := s.Get(context.Background(), "c1"); g.Creator != "u1" || g.Setup.Seed != 7 || len(g.Seats) != 2 {
		t.Fatalf("refused updates changed the game: %+v", g)
	}
	// Seats of a running game may be reassigned (a substitute joins).
	if _, err := s.Update(context.Background(), "c1", GameIn(t, s, "c1"), func(g *storage.Game) error { g.Seats[0] = storage.Seat{User: "u9"}; return nil }); err != nil {
		t.Fatal(err)
	}
	if games, _ := s.ActiveForUser(context.Background(), "u9"); len(games) != 1 || games[0].Channel != "c1" {
		t.Fatalf("substitute u9's active games: %v", Channels(games))
	}
	if games, _ := s.ActiveForUser(context.Background(), "u1"); len(games) != 0 {
		t.Fatalf("replaced u1 still has active games: %v", Channels(games))
	}
}

func testStartReason(t *testing.T, opener Opener) {
	s := open(t, opener)
	g := &storage.Game{Kind: "race", Channel: "c1", Setup: engine.Setup{Options: map[string]string{"goal": "-3"}}, Seats: []storage.Seat{{User: "u1"}}}
	if err := s.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.Start(context.Background(), "c1")
	if !errors.Is(err, storage.ErrInvalid) || !errors.Is(err, engine.ErrBadSetup) || !strings.Contains(err.Error(), `bad goal "-3"`) {
		t.Fatalf("start with a bad option: %v, want ErrInvalid and the rules' ErrBadSetup with its reason", err)
	}
	if g, _ := s.Get(context.Background(), "c1"); g.Status != storage.StatusLobby {
		t.Fatalf("refused start left the game %s", g.Status)
	}
}

func testFinish(t *testing.T, opener Opener) {
	s := open(t, opener)
	// Game 1: u1 wins 60-40; game 2: u2 wins 30-50; game 3 abandoned.
	for i, scores := range [][]int{{60, 40}, {30, 50}} {
		ch := fmt.Sprintf("c%d", i+1)
		NewRace(t, s, "g1", ch, 2, "50")
		Play(t, s, ch)
		winner := engine.Seat(0)
		if scores[1] > scores[0] {
			winner = 1
		}
		res := &engine.Result{Over: true, Scores: scores, Winners: []engine.Seat{winner}}
		if _, err := s.Finish(context.Background(), ch, GuardAt(t, s, ch, 0), storage.StatusFinished, res); !errors.Is(err, storage.ErrStale) {
			t.Fatalf("finish at a stale version: %v", err)
		}
		if _, err := s.Finish(context.Background(), ch, GuardAt(t, s, ch, 1), storage.StatusFinished, &engine.Result{Scores: []int{1}}); !errors.Is(err, storage.ErrInvalid) {
			t.Fatalf("finish with one score for two seats: %v", err)
		}
		if _, err := s.Finish(context.Background(), ch, GuardAt(t, s, ch, 1), storage.StatusFinished, &engine.Result{Scores: scores, Winners: []engine.Seat{5}}); !errors.Is(err, storage.ErrInvalid) {
			t.Fatalf("finish with a winner not at the table: %v", err)
		}
		g, err := s.Finish(context.Background(), ch, GuardAt(t, s, ch, 1), storage.StatusFinished, res)
		if err != nil || g.Status != storage.StatusFinished || g.Finished.IsZero() {
			t.Fatalf("finish: %+v, %v", g, err)
		}
	}
	NewRace(t, s, "g1", "c3", 2, "50")
	Play(t, s, "c3")
	if _, err := s.Finish(context.Background(), "c3", GuardAt(t, s, "c3", 1), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	// Abandoned before anyone played: counts in nobody's statistics.
	NewRace(t, s, "g3", "c5", 2, "50")
	if _, err := s.Finish(context.Background(), "c5", GuardAt(t, s, "c5", 0), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	NewRace(t, s, "g2", "c4", 2, "50") // another guild, still running

	if _, err := s.Get(context.Background(), "c1"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("finished game still active: %v", err)
	}
	if _, err := s.Finish(context.Background(), "c1", GuardAt(t, s, "c1", 1), storage.StatusFinished, nil); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("finishing an archived game again: %v", err)
	}
	NewRace(t, s, "g1", "c1", 2, "50") // the channel is free again
	active, _ := s.ListActive(context.Background(), "g1")
	if len(active) != 1 || active[0].Channel != "c1" {
		t.Fatalf("active games of g1: %v", Channels(active))
	}
	archive, err := s.ArchiveForGuild(context.Background(), "g1", 0, 10)
	if err != nil || len(archive) != 3 || archive[0].Channel != "c3" || archive[2].Channel != "c1" {
		t.Fatalf("archive of g1 (newest first): %v, %v", Channels(archive), err)
	}
	page, _ := s.ArchiveForGuild(context.Background(), "g1", archive[0].ID, 1)
	if len(page) != 1 || page[0].ID != archive[1].ID {
		t.Fatalf("second page of the archive: %v", Channels(page))
	}
	mine, _ := s.ArchiveForUser(context.Background(), "u2", 0, 0)
	if len(mine) != 4 || mine[2].Result == nil || mine[2].Result.Scores[1] != 50 || mine[2].Result.Winners[0] != 1 {
		t.Fatalf("archive of u2: %v", Channels(mine))
	}
	if mine[1].Status != storage.StatusAbandoned || mine[1].Version != 1 || mine[1].Log != nil {
		t.Fatalf("abandoned game in the archive: %+v", mine[1])
	}
	if empty, _ := s.ArchiveForGuild(context.Background(), "g2", 0, 0); len(empty) != 0 {
		t.Fatalf("g2 has archived games %v", Channels(empty))
	}
	if users, _ := s.ActiveForUser(context.Background(), "u2"); len(users) != 2 {
		t.Fatalf("u2's active games: %v, want c4 and c1", Channels(users))
	}
	full, err := s.GetByID(context.Background(), archive[2].ID)
	if err != nil || len(full.Log) != 1 || full.Status != storage.StatusFinished || full.Deadline != (time.Time{}) {
		t.Fatalf("archived game by id: %+v, %v", full, err)
	}
	st, _ := s.Stats(context.Background(), "u1")
	want := []storage.Stats{{User: "u1", Kind: "race", Played: 2, Won: 1, Abandoned: 1, ScoreSum: 90, Best: 60}}
	if fmt.Sprint(st) != fmt.Sprint(want) || st[0].Average() != 45 {
		t.Fatalf("u1's stats %+v, want %+v (average 45)", st, want)
	}
	if st, _ := s.Stats(context.Background(), "u2"); len(st) != 1 || st[0].Won != 1 || st[0].Best != 50 {
		t.Fatalf("u2's stats %+v", st)
	}
	if _, err := s.Stats(context.Background(), ""); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("stats of no user: %v", err)
	}
	if _, err := s.Finish(context.Background(), "c4", GuardAt(t, s, "c4", 0), storage.StatusLobby, nil); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("finish as lobby: %v", err)
	}
	if active, total, _ := s.Counts(context.Background()); active != 2 || total != 6 {
		t.Fatalf("Counts = %d active of %d, want 2 of 6", active, total)
	}
}

func testDue(t *testing.T, opener Opener) {
	s := open(t, opener)
	base := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for i, offset := range []time.Duration{20 * time.Minute, -time.Hour, -2 * time.Hour} {
		ch := fmt.Sprintf("c%d", i+1)
		NewRace(t, s, "g1", ch, 2, "50")
		if _, err := s.Update(context.Background(), ch, GameIn(t, s, ch), func(g *storage.Game) error {
			g.Deadline = base.Add(offset)
			g.RemindAt = base.Add(offset - 30*time.Minute)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	due, err := s.Due(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(dueList(due))
	want := "[c3 reminder 09:30 c3 deadline 10:00 c2 reminder 10:30 c2 deadline 11:00 c1 reminder 11:50]"
	if got != want {
		t.Fatalf("due at noon: %s\nwant %s", got, want)
	}
	g, _ := s.Get(context.Background(), "c3")
	if due[1].GameID != g.ID || !due[1].At.Equal(g.Deadline) || due[1].Kind != storage.DueDeadline {
		t.Fatalf("c3's deadline timer %+v, game %d with deadline %v", due[1], g.ID, g.Deadline)
	}
	// Moving c3's deadline and finishing c2 take their timers away.
	if _, err := s.Update(context.Background(), "c3", GameIn(t, s, "c3"), func(g *storage.Game) error { g.Deadline, g.RemindAt = base.Add(time.Hour), time.Time{}; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Finish(context.Background(), "c2", GuardAt(t, s, "c2", 0), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	due, _ = s.Due(context.Background(), base)
	if got := fmt.Sprint(dueList(due)); got != "[c1 reminder 11:50]" {
		t.Fatalf("due after changes: %s", got)
	}
	if due, _ := s.Due(context.Background(), base.Add(-24*time.Hour)); len(due) != 0 {
		t.Fatalf("due a day earlier: %v", dueList(due))
	}
}

func dueList(due []storage.Due) []string {
	var out []string
	for _, d := range due {
		out = append(out, fmt.Sprintf("%s %s %s", d.Channel, d.Kind, d.At.Format("15:04")))
	}
	return out
}

func testSettings(t *testing.T, opener Opener) {
	s := open(t, opener)
	gs, err := s.GuildSettings(context.Background(), "g1")
	if err != nil || fmt.Sprint(gs) != fmt.Sprint(storage.DefaultGuildSettings()) {
		t.Fatalf("unsaved guild settings %+v, %v", gs, err)
	}
	gs = storage.GuildSettings{TurnDeadline: 24 * time.Hour, CreatorRoles: []string{"r1"}, GamesChannel: "c9"}
	if err := s.PutGuildSettings(context.Background(), "g1", gs); err != nil {
		t.Fatal(err)
	}
	gs.Saved = true // reported by GuildSettings once anything is saved
	if got, _ := s.GuildSettings(context.Background(), "g1"); fmt.Sprint(got) != fmt.Sprint(gs) {
		t.Fatalf("guild settings %+v, want %+v", got, gs)
	}
	// settings equal to the defaults, saved on purpose, are told apart
	// from none saved
	if err := s.PutGuildSettings(context.Background(), "g2", storage.DefaultGuildSettings()); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GuildSettings(context.Background(), "g2"); !got.Saved {
		t.Fatal("settings equal to the defaults read as none saved")
	}
	if got, _ := s.GuildSettings(context.Background(), "g3"); got.Saved {
		t.Fatal("a guild that saved nothing reads as saved")
	}
	// a record kept only for the server's locale is no saved settings
	if err := s.PutGuildSettings(context.Background(), "g4", storage.GuildSettings{Locale: "de", LocaleOnly: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GuildSettings(context.Background(), "g4"); got.Saved || got.Locale != "de" || got.TurnDeadline != storage.DefaultGuildSettings().TurnDeadline {
		t.Fatalf("settings kept only for the locale: %+v", got)
	}
	for name, bad := range map[string]storage.GuildSettings{
		"negative deadline": {TurnDeadline: -1},
		"bad games channel": {GamesChannel: "c\x01"},
		"bad locale":        {Locale: "de DE"},
	} {
		if err := s.PutGuildSettings(context.Background(), "g1", bad); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := s.PutGuildSettings(context.Background(), "", gs); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("settings of no guild: %v", err)
	}
	if got, _ := s.GuildSettings(context.Background(), "g1"); fmt.Sprint(got) != fmt.Sprint(gs) {
		t.Fatalf("refused settings changed g1's: %+v", got)
	}
	if p, _ := s.UserPrefs(context.Background(), "u1"); !reflect.DeepEqual(p, storage.DefaultUserPrefs()) {
		t.Fatalf("unsaved preferences %+v", p)
	}
	want := storage.UserPrefs{PingOnTurn: false, Secrets: storage.SecretsDM}
	if err := s.PutUserPrefs(context.Background(), "u1", want); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.UserPrefs(context.Background(), "u1"); !reflect.DeepEqual(p, want) {
		t.Fatalf("preferences %+v, want %+v", p, want)
	}
	if err := s.PutUserPrefs(context.Background(), "u1", storage.UserPrefs{Secrets: "smoke signals"}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("bad secrets choice: %v", err)
	}
	// the locale of the user's last interaction, the language of their DMs
	want.Locale = "de"
	if err := s.PutUserPrefs(context.Background(), "u1", want); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.UserPrefs(context.Background(), "u1"); !reflect.DeepEqual(p, want) {
		t.Fatalf("preferences with a locale %+v, want %+v", p, want)
	}
	for _, bad := range []string{"de\x00", "fr FR", strings.Repeat("x", 17)} {
		if err := s.PutUserPrefs(context.Background(), "u1", storage.UserPrefs{Secrets: storage.SecretsDM, Locale: bad}); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("locale %q: %v", bad, err)
		}
	}
	// quiet hours in the user's time zone, and the heads-up
	quiet := want
	quiet.TimeZone, quiet.QuietFrom, quiet.QuietTo, quiet.HeadsUp = "America/Argentina/Buenos_Aires", 22, 7, true
	quiet.Digest, quiet.DigestHour, quiet.DigestSent = true, 8, "2026-11-22"
	if err := s.PutUserPrefs(context.Background(), "u3", quiet); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.UserPrefs(context.Background(), "u3"); !reflect.DeepEqual(p, quiet) {
		t.Fatalf("quiet preferences %+v, want %+v", p, quiet)
	}
	for _, bad := range []storage.UserPrefs{
		{Secrets: storage.SecretsDM, QuietFrom: 24},
		{Secrets: storage.SecretsDM, QuietTo: -1},
		{Secrets: storage.SecretsDM, TimeZone: "Europe/Berlin; DROP"},
		{Secrets: storage.SecretsDM, TimeZone: strings.Repeat("x", 49)},
		{Secrets: storage.SecretsDM, DigestHour: 24},
		{Secrets: storage.SecretsDM, DigestSent: "yesterday"},
	} {
		if err := s.PutUserPrefs(context.Background(), "u1", bad); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if p, _ := s.UserPrefs(context.Background(), "u1"); !reflect.DeepEqual(p, want) {
		t.Fatalf("refused preferences changed u1's: %+v", p)
	}
	// an announced absence, and what stands in meanwhile
	want.Away, want.AwayStandIn = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC), storage.AwayWait
	if err := s.PutUserPrefs(context.Background(), "u1", want); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.UserPrefs(context.Background(), "u1"); !reflect.DeepEqual(p, want) || !p.AwayAt(want.Away.Add(-time.Second)) || p.AwayAt(want.Away) {
		t.Fatalf("preferences with an absence %+v, want %+v", p, want)
	}
	if err := s.PutUserPrefs(context.Background(), "u1", storage.UserPrefs{Secrets: storage.SecretsDM, AwayStandIn: "a cardboard cutout"}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("bad stand-in: %v", err)
	}
	testReliability(t, s, want)
	away := storage.GuildSettings{AwayMaxDays: 7, AwayChoices: []string{storage.AwayComputer}}
	if err := s.PutGuildSettings(context.Background(), "g5", away); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GuildSettings(context.Background(), "g5"); got.AwayMaxDays != 7 || fmt.Sprint(got.AwayChoices) != "[computer]" {
		t.Fatalf("absence limits %+v", got)
	}
	for _, bad := range []storage.GuildSettings{{AwayMaxDays: -1}, {AwayChoices: []string{"later"}}} {
		if err := s.PutGuildSettings(context.Background(), "g5", bad); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("bad absence limits %+v: %v", bad, err)
		}
	}
	if _, err := s.UserPrefs(context.Background(), ""); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("empty user id: %v", err)
	}
	if _, err := s.ListActive(context.Background(), ""); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("active games of no guild: %v", err)
	}
}

// testDurability closes the store and opens the database again: every
// kind of record comes back as it was.
func testDurability(t *testing.T, opener Opener) {
	s, err := opener()
	if err != nil {
		t.Fatal(err)
	}
	NewRace(t, s, "g1", "c1", 2, "1000")
	for i := 0; i < 9; i++ {
		Play(t, s, "c1")
	}
	deadline := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	if _, err := s.Update(context.Background(), "c1", GameIn(t, s, "c1"), func(g *storage.Game) error {
		g.Deadline, g.Messages = deadline, map[string]string{"board": "m7"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	NewRace(t, s, "g1", "c2", 2, "50")
	Play(t, s, "c2")
	if _, err := s.Finish(context.Background(), "c2", GuardAt(t, s, "c2", 1), storage.StatusFinished, &engine.Result{Over: true, Scores: []int{7, 3}, Winners: []engine.Seat{0}}); err != nil {
		t.Fatal(err)
	}
	lobby := &storage.Game{Kind: "race", Guild: "g1", Channel: "c3", Seats: []storage.Seat{{User: "u1"}, {}}}
	if err := s.Create(context.Background(), lobby); err != nil {
		t.Fatal(err)
	}
	if err := s.PutGuildSettings(context.Background(), "g1", storage.GuildSettings{ReminderEvery: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutUserPrefs(context.Background(), "u2", storage.UserPrefs{Secrets: storage.SecretsDM, Locale: "fr"}); err != nil {
		t.Fatal(err)
	}
	before, _ := s.Get(context.Background(), "c1")
	archived, _ := s.ArchiveForGuild(context.Background(), "g1", 0, 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, opener)
	after, err := s.Get(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("game after reopening:\n%+v\nbefore:\n%+v", after, before)
	}
	if v := Play(t, s, "c1"); v != 10 {
		t.Fatalf("append after reopening gave version %d", v)
	}
	if due, _ := s.Due(context.Background(), deadline); len(due) != 1 || !due[0].At.Equal(deadline) || due[0].Channel != "c1" {
		t.Fatalf("timers after reopening: %v", dueList(due))
	}
	again, _ := s.ArchiveForGuild(context.Background(), "g1", 0, 0)
	if len(again) != 1 || len(archived) != 1 || !reflect.DeepEqual(again[0], archived[0]) {
		t.Fatalf("archive after reopening: %v, before %v", again, archived)
	}
	if g, _ := s.Get(context.Background(), "c3"); g.Status != storage.StatusLobby || g.Seats[1] != (storage.Seat{}) {
		t.Fatalf("lobby after reopening: %+v", g)
	}
	if st, _ := s.Stats(context.Background(), "u1"); len(st) != 1 || st[0].Won != 1 || st[0].ScoreSum != 7 {
		t.Fatalf("stats after reopening: %+v", st)
	}
	if gs, _ := s.GuildSettings(context.Background(), "g1"); gs.ReminderEvery != time.Minute || gs.TurnDeadline != 0 {
		t.Fatalf("guild settings after reopening: %+v", gs)
	}
	if p, _ := s.UserPrefs(context.Background(), "u2"); p.Secrets != storage.SecretsDM || p.PingOnTurn || p.Locale != "fr" {
		t.Fatalf("preferences after reopening: %+v", p)
	}
	lobby2 := &storage.Game{Kind: "race", Guild: "g1", Channel: "c4"}
	if err := s.Create(context.Background(), lobby2); err != nil || lobby2.ID <= before.ID || lobby2.ID <= lobby.ID {
		t.Fatalf("a game created after reopening got id %d (%v), not above the earlier ones", lobby2.ID, err)
	}
}

func testClosed(t *testing.T, opener Opener) {
	s, err := opener()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(context.Background(), "c1"); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("Get after Close: %v", err)
	}
	if err := s.Create(context.Background(), &storage.Game{Kind: "race", Channel: "c1"}); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("Create after Close: %v", err)
	}
	if _, err := s.Append(context.Background(), "c1", GuardAt(t, s, "c1", 0), storage.Entry{Action: "roll"}, []byte("x")); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("Append after Close: %v", err)
	}
	if err := s.Close(); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("second Close: %v", err)
	}
}

// testCancelled asks a store for reads and writes under a context already
// cancelled: each fails with the context's error, and the game, the
// settings and the preferences are as they were.
func testCancelled(t *testing.T, opener Opener) {
	s := open(t, opener)
	bg := context.Background()
	g := NewRace(t, s, "g1", "c1", 2, "50")
	Play(t, s, "c1")
	before, err := s.Get(bg, "c1")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s under a cancelled context: %v, want context.Canceled", what, err)
		}
	}
	_, err = s.Get(ctx, "c1")
	refused("Get", err)
	_, _, err = s.Load(ctx, "c1")
	refused("Load", err)
	_, err = s.ListActive(ctx, "g1")
	refused("ListActive", err)
	refused("Create", s.Create(ctx, &storage.Game{Kind: "race", Guild: "g1", Channel: "c2", Creator: "u1", Status: storage.StatusLobby, Setup: RaceSetup(2),
		Seats: []storage.Seat{{User: "u1"}, {User: "u2"}}}))
	_, err = s.Commit(ctx, "c1", before.Guard(), storage.Outcome{Key: "k1", Edit: func(r *storage.Game) error { r.Deadline = time.Now().Add(time.Hour); return nil }})
	refused("Commit", err)
	_, err = s.Update(ctx, "c1", g.ID, func(r *storage.Game) error { r.Hints = true; return nil })
	refused("Update", err)
	_, _, err = s.Undo(ctx, "c1", before.Guard(), 1)
	refused("Undo", err)
	_, err = s.Finish(ctx, "c1", before.Guard(), storage.StatusAbandoned, nil)
	refused("Finish", err)
	refused("PutGuildSettings", s.PutGuildSettings(ctx, "g1", storage.GuildSettings{Language: "de"}))
	_, err = s.UpdateUserPrefs(ctx, "u1", func(p *storage.UserPrefs) error { p.Locale = "fr"; return nil })
	refused("UpdateUserPrefs", err)
	_, err = s.ClaimDue(ctx, time.Now().Add(48*time.Hour), time.Minute, nil)
	refused("ClaimDue", err)

	after, err := s.Get(bg, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if after.Revision != before.Revision || after.Version != before.Version || after.Status != before.Status || !after.Deadline.Equal(before.Deadline) || after.Hints != before.Hints {
		t.Errorf("the game changed under cancelled contexts: %+v, was %+v", after, before)
	}
	if _, err := s.Get(bg, "c2"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a game was created under a cancelled context: %v", err)
	}
	if kept, err := s.Committed(bg, "k1"); err != nil || kept {
		t.Errorf("Committed(k1) = %v, %v: a commit was kept under a cancelled context", kept, err)
	}
	if set, err := s.GuildSettings(bg, "g1"); err != nil || set.Language == "de" {
		t.Errorf("settings %+v, %v: changed under a cancelled context", set, err)
	}
	if prefs, err := s.UserPrefs(bg, "u1"); err != nil || prefs.Locale == "fr" {
		t.Errorf("preferences %+v, %v: changed under a cancelled context", prefs, err)
	}
}

// testCopy copies a database with games in every status into an empty
// one: every game comes back as it was, with its id, statistics are the
// same, and games created afterwards get new ids.
func testCopy(t *testing.T, fromDB, toDB Opener) {
	src, dst := open(t, fromDB), open(t, toDB)
	NewRace(t, src, "g1", "gone", 2, "50") // archived below, so ids have a gap in the active list
	for i := 0; i < 3; i++ {
		Play(t, src, "gone")
	}
	if _, err := src.Finish(context.Background(), "gone", GuardAt(t, src, "gone", 3), storage.StatusFinished, &engine.Result{Over: true, Scores: []int{50, 9}, Winners: []engine.Seat{0}}); err != nil {
		t.Fatal(err)
	}
	NewRace(t, src, "g1", "c1", 3, "1000")
	for i := 0; i < 7; i++ {
		Play(t, src, "c1")
	}
	if _, err := src.Update(context.Background(), "c1", GameIn(t, src, "c1"), func(g *storage.Game) error {
		g.Deadline, g.RemindAt = time.Date(2030, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(2029, 12, 31, 0, 0, 0, 0, time.UTC)
		g.Messages = map[string]string{"board": "m1"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	NewRace(t, src, "g2", "c2", 2, "50")
	Play(t, src, "c2")
	if _, err := src.Finish(context.Background(), "c2", GuardAt(t, src, "c2", 1), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	if err := src.Create(context.Background(), &storage.Game{Kind: "race", Guild: "g2", Channel: "lobby", Seats: []storage.Seat{{User: "u4"}, {}}}); err != nil {
		t.Fatal(err)
	}
	if err := src.PutGuildSettings(context.Background(), "g1", storage.GuildSettings{TurnDeadline: time.Hour, ManagerRoles: []string{"r"}}); err != nil {
		t.Fatal(err)
	}
	if err := src.PutUserPrefs(context.Background(), "u2", storage.UserPrefs{PingOnTurn: true, Secrets: storage.SecretsDM, TimeZone: "Asia/Tokyo", QuietFrom: 23, QuietTo: 8, HeadsUp: true, Digest: true, DigestHour: 7, DigestSent: "2026-11-21",
		Reliability: map[string]storage.Reliability{"g1": {InTime: 40, Missed: 2, HandedOver: 1}}}); err != nil {
		t.Fatal(err)
	}

	n, err := storage.Copy(context.Background(), dst, src)
	if err != nil || n != 4 {
		t.Fatalf("Copy = %d, %v; want 4 games", n, err)
	}
	ids, err := src.GameIDs(context.Background(), 0, 0)
	if err != nil || len(ids) != 4 {
		t.Fatalf("source ids %v, %v", ids, err)
	}
	if got, _ := dst.GameIDs(context.Background(), 0, 0); !reflect.DeepEqual(got, ids) {
		t.Fatalf("copied ids %v, want %v", got, ids)
	}
	want, err := src.GameCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := dst.GameCounts(context.Background()); err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the copy's GameCounts = %v, %v; the original's %v", got, err, want)
	}
	if got, _ := src.GameIDs(context.Background(), ids[1], 1); !reflect.DeepEqual(got, ids[2:3]) {
		t.Fatalf("one id after %d: %v, want %v", ids[1], got, ids[2:3])
	}
	for _, id := range ids {
		a, _ := src.GetByID(context.Background(), id)
		b, err := dst.GetByID(context.Background(), id)
		if err != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("game %d copied as\n%+v (%v)\nwant\n%+v", id, b, err, a)
		}
	}
	for _, user := range []string{"u1", "u2", "u3"} {
		a, _ := src.Stats(context.Background(), user)
		if b, _ := dst.Stats(context.Background(), user); !reflect.DeepEqual(a, b) {
			t.Fatalf("%s's stats copied as %+v, want %+v", user, b, a)
		}
	}
	later := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	dueA, _ := src.Due(context.Background(), later)
	if dueB, _ := dst.Due(context.Background(), later); !reflect.DeepEqual(dueA, dueB) || len(dueB) != 2 {
		t.Fatalf("timers copied as %v, want %v", dueList(dueB), dueList(dueA))
	}
	ga, ua, _ := src.SavedSettings(context.Background())
	gb, ub, err := dst.SavedSettings(context.Background())
	if err != nil || !reflect.DeepEqual(ga, gb) || !reflect.DeepEqual(ua, ub) || len(gb) != 1 || len(ub) != 1 {
		t.Fatalf("settings copied as %v %v (%v), want %v %v", gb, ub, err, ga, ua)
	}
	if v := Play(t, dst, "c1"); v != 8 {
		t.Fatalf("append to the copied game gave version %d", v)
	}
	fresh := &storage.Game{Kind: "race", Guild: "g3", Channel: "new"}
	if err := dst.Create(context.Background(), fresh); err != nil || fresh.ID <= ids[3] {
		t.Fatalf("a game created after the copy got id %d (%v), not above %d", fresh.ID, err, ids[3])
	}

	// Restoring again is refused: the ids are taken, the channels busy.
	again, _ := src.GetByID(context.Background(), ids[1])
	if err := dst.Restore(context.Background(), again); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("restoring a taken id: %v, want ErrInvalid", err)
	}
	again.ID = 1 << 40
	if err := dst.Restore(context.Background(), again); !errors.Is(err, storage.ErrChannelBusy) {
		t.Fatalf("restoring into a busy channel: %v, want ErrChannelBusy", err)
	}
	again.Channel, again.Version = "elsewhere", 3
	if err := dst.Restore(context.Background(), again); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("restoring a version that is not the log's length: %v, want ErrInvalid", err)
	}
	if _, total, _ := dst.Counts(context.Background()); total != 5 {
		t.Fatalf("refused restores left %d games, want 5", total)
	}
}

// outcome plays the next n actions on channel's game (read at its current
// version) without storing them, and returns them with the state after.
func outcome(t *testing.T, s Store, channel string, n int) (*storage.Game, storage.Outcome) {
	t.Helper()
	g, state, err := s.Load(context.Background(), channel)
	if err != nil {
		t.Fatal(err)
	}
	var o storage.Outcome
	for i := 0; i < n; i++ {
		p := state.Prompts()[0]
		action := NextAction(g.Version + i)
		if _, err := state.Apply(p.Seat, action); err != nil {
			t.Fatal(err)
		}
		o.Entries = append(o.Entries, storage.Entry{Seat: p.Seat, Action: action})
	}
	if o.Snapshot, err = state.Encode(); err != nil {
		t.Fatal(err)
	}
	return g, o
}

// testCommit keeps interactions whole: their actions, the bot's fields
// and the ending land together, and a refusal of any part changes nothing.
func testCommit(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 3, "1000000")
	Play(t, s, "c1")
	deadline := time.Date(2026, 5, 6, 7, 8, 9, 10, time.UTC)
	g, o := outcome(t, s, "c1", 3) // a player's action and two computer moves
	o.Edit = func(g *storage.Game) error {
		g.Deadline, g.Messages = deadline, map[string]string{"board": "m2"}
		return nil
	}
	done, err := s.Commit(context.Background(), "c1", GuardAt(t, s, "c1", g.Version), o)
	if err != nil || done.Version != 4 || !done.Deadline.Equal(deadline) || done.Status != storage.StatusRunning {
		t.Fatalf("commit: %+v, %v; want version 4 with the deadline", done, err)
	}
	got, _ := s.Get(context.Background(), "c1")
	if got.Version != 4 || len(got.Log) != 4 || got.Log[3].Action != o.Entries[2].Action || !bytes.Equal(got.Snapshot, Replayed(t, got)) ||
		!got.Deadline.Equal(deadline) || got.Messages["board"] != "m2" {
		t.Fatalf("stored after the commit: %+v", got)
	}
	if due, _ := s.Due(context.Background(), deadline); len(due) != 1 || due[0].Kind != storage.DueDeadline {
		t.Fatalf("timers after the commit: %v", dueList(due))
	}
	// The bot's fields alone, with no action.
	if g, err := s.Commit(context.Background(), "c1", GuardAt(t, s, "c1", 4), storage.Outcome{Edit: func(g *storage.Game) error { g.Deadline = time.Time{}; return nil }}); err != nil || g.Version != 4 || !g.Deadline.IsZero() {
		t.Fatalf("commit of an edit alone: %+v, %v", g, err)
	}

	before, _ := s.Get(context.Background(), "c1")
	g, o = outcome(t, s, "c1", 2)
	errBoom := errors.New("boom")
	badSeat := o
	badSeat.Entries = []storage.Entry{o.Entries[0], {Seat: 7, Action: "roll"}}
	for _, c := range []struct {
		name    string
		channel string
		version int
		o       storage.Outcome
		want    error
	}{
		{"stale", "c1", g.Version - 1, o, storage.ErrStale},
		{"no channel", "c9", g.Version, o, storage.ErrNotFound},
		{"second entry off the table", "c1", g.Version, badSeat, storage.ErrInvalid},
		{"no snapshot", "c1", g.Version, storage.Outcome{Entries: o.Entries}, storage.ErrInvalid},
		{"snapshot without actions", "c1", g.Version, storage.Outcome{Snapshot: o.Snapshot}, storage.ErrInvalid},
		{"edit fails", "c1", g.Version, storage.Outcome{Entries: o.Entries, Snapshot: o.Snapshot, Edit: func(*storage.Game) error { return errBoom }}, errBoom},
		{"edit changes the status", "c1", g.Version, storage.Outcome{Entries: o.Entries, Snapshot: o.Snapshot,
			Edit: func(g *storage.Game) error { g.Status = storage.StatusFinished; return nil }}, storage.ErrInvalid},
		{"ending without scores", "c1", g.Version, storage.Outcome{Entries: o.Entries, Snapshot: o.Snapshot,
			Finish: &storage.Ending{Status: storage.StatusFinished}}, storage.ErrInvalid},
	} {
		if _, err := s.Commit(context.Background(), c.channel, GuardAt(t, s, c.channel, c.version), c.o); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if after, _ := s.Get(context.Background(), "c1"); !reflect.DeepEqual(after, before) {
		t.Fatalf("refused commits changed the game:\n%+v\nbefore\n%+v", after, before)
	}

	// The last action and the ending in one commit.
	o.Finish = &storage.Ending{Status: storage.StatusFinished, Result: &engine.Result{Over: true, Scores: []int{9, 8, 7}, Winners: []engine.Seat{0}}}
	o.Edit = func(g *storage.Game) error { g.Deadline = deadline; return nil }
	done, err = s.Commit(context.Background(), "c1", GuardAt(t, s, "c1", g.Version), o)
	if err != nil || done.Status != storage.StatusFinished || done.Version != 6 || !done.Deadline.IsZero() || done.Finished.IsZero() {
		t.Fatalf("commit with the ending: %+v, %v", done, err)
	}
	if _, err := s.Get(context.Background(), "c1"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the finished game is still active: %v", err)
	}
	archived, _ := s.GetByID(context.Background(), done.ID)
	if archived.Version != 6 || len(archived.Log) != 6 || archived.Result == nil || archived.Result.Scores[2] != 7 {
		t.Fatalf("archived game %+v", archived)
	}
	if st, _ := s.Stats(context.Background(), "u1"); len(st) != 1 || st[0].Won != 1 || st[0].Best != 9 {
		t.Fatalf("u1's stats after the commit: %+v", st)
	}
	if due, _ := s.Due(context.Background(), deadline); len(due) != 0 {
		t.Fatalf("the finished game kept timers: %v", dueList(due))
	}
}

// testCommitStart starts a game in the lobby in one commit: the seats'
// order, the start, the opening moves and the first deadline; a refused
// start changes nothing.
func testCommitStart(t *testing.T, opener Opener) {
	s := open(t, opener)
	lobby := &storage.Game{Kind: "race", Guild: "g1", Channel: "c1", Creator: "u1",
		Setup: engine.Setup{Seed: 42, Options: map[string]string{"goal": "1000000"}},
		Seats: []storage.Seat{{User: "u1"}, {User: "u2"}, {Name: "bot", Computer: "random"}}}
	if err := s.Create(context.Background(), lobby); err != nil {
		t.Fatal(err)
	}
	// what the caller plays from the seats it orders
	state, err := Race{}.New(engine.Setup{Players: 3, Seed: 42, Options: lobby.Setup.Options})
	if err != nil {
		t.Fatal(err)
	}
	var o storage.Outcome
	for v := range 2 {
		p := state.Prompts()[0]
		if _, err := state.Apply(p.Seat, NextAction(v)); err != nil {
			t.Fatal(err)
		}
		o.Entries = append(o.Entries, storage.Entry{Seat: p.Seat, Action: NextAction(v)})
	}
	if o.Snapshot, err = state.Encode(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Date(2026, 5, 6, 7, 8, 9, 10, time.UTC)
	o.Start = true
	o.Edit = func(g *storage.Game) error {
		g.Seats[0], g.Seats[1] = g.Seats[1], g.Seats[0]
		g.Deadline = deadline
		return nil
	}

	before, _ := s.Get(context.Background(), "c1")
	open := o
	open.Edit = func(g *storage.Game) error { g.Seats = append(g.Seats, storage.Seat{}); return nil }
	for _, c := range []struct {
		name    string
		version int
		o       storage.Outcome
		want    error
	}{
		{"stale", 1, o, storage.ErrStale},
		{"not a start", 0, storage.Outcome{Entries: o.Entries, Snapshot: o.Snapshot}, storage.ErrInvalid},
		{"an open seat", 0, open, storage.ErrInvalid},
	} {
		if _, err := s.Commit(context.Background(), "c1", GuardAt(t, s, "c1", c.version), c.o); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if after, _ := s.Get(context.Background(), "c1"); !reflect.DeepEqual(after, before) {
		t.Fatalf("refused starts changed the game:\n%+v\nbefore\n%+v", after, before)
	}

	done, err := s.Commit(context.Background(), "c1", GuardAt(t, s, "c1", 0), o)
	if err != nil || done.Status != storage.StatusRunning || done.Version != 2 || done.Setup.Players != 3 || done.Seats[0].User != "u2" || !done.Deadline.Equal(deadline) {
		t.Fatalf("start commit: %+v, %v; want running at version 2, u2 first, the deadline", done, err)
	}
	got, st, err := s.Load(context.Background(), "c1")
	if err != nil || got.Version != 2 || len(got.Log) != 2 || !bytes.Equal(got.Snapshot, Replayed(t, got)) || !bytes.Equal(got.Snapshot, o.Snapshot) {
		t.Fatalf("stored after the start: %+v, %v", got, err)
	}
	if b, _ := st.Encode(); !bytes.Equal(b, o.Snapshot) {
		t.Fatal("the loaded state is not the state after the opening moves")
	}
	if due, _ := s.Due(context.Background(), deadline); len(due) != 1 || due[0].Kind != storage.DueDeadline {
		t.Fatalf("timers after the start: %v", dueList(due))
	}
	if running, _ := s.ActiveForUser(context.Background(), "u2"); len(running) != 1 || running[0].Status != storage.StatusRunning {
		t.Fatalf("u2's active games after the start: %+v", running)
	}
	if _, err := s.Commit(context.Background(), "c1", GuardAt(t, s, "c1", 2), o); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("starting a running game again: %v, want ErrInvalid", err)
	}

	// A start with no opening moves keeps the initial state.
	lobby2 := &storage.Game{Kind: "race", Guild: "g1", Channel: "c2", Creator: "u1",
		Setup: lobby.Setup, Seats: []storage.Seat{{User: "u1"}}}
	if err := s.Create(context.Background(), lobby2); err != nil {
		t.Fatal(err)
	}
	if g, err := s.Commit(context.Background(), "c2", GuardAt(t, s, "c2", 0), storage.Outcome{Start: true}); err != nil || g.Status != storage.StatusRunning || g.Version != 0 {
		t.Fatalf("a start alone: %+v, %v", g, err)
	}
	if got, _, err := s.Load(context.Background(), "c2"); err != nil || !bytes.Equal(got.Snapshot, Replayed(t, got)) {
		t.Fatalf("after a start alone: %+v, %v", got, err)
	}
}

// testClaimDue claims passed timers: a claimed timer is not handed out
// again until its claim runs out, a moved timer is a new one, and Due
// still lists them all.
func testClaimDue(t *testing.T, opener Opener) {
	s := open(t, opener)
	base := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for i, offset := range []time.Duration{-time.Hour, -2 * time.Hour, time.Hour} {
		ch := fmt.Sprintf("c%d", i+1)
		NewRace(t, s, "g1", ch, 2, "50")
		if _, err := s.Update(context.Background(), ch, GameIn(t, s, ch), func(g *storage.Game) error {
			g.Deadline, g.RemindAt = base.Add(offset), base.Add(offset-30*time.Minute)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	claimed, err := s.ClaimDue(context.Background(), base, time.Minute, nil)
	want := "[c2 reminder 09:30 c2 deadline 10:00 c1 reminder 10:30 c1 deadline 11:00]"
	if err != nil || fmt.Sprint(dueList(claimed)) != want {
		t.Fatalf("first claim: %v, %v; want %s", dueList(claimed), err, want)
	}
	all, _ := s.Due(context.Background(), base)
	if !reflect.DeepEqual(all, claimed) {
		t.Fatalf("claimed %v, but due are %v", dueList(claimed), dueList(all))
	}
	if again, _ := s.ClaimDue(context.Background(), base.Add(30*time.Second), time.Minute, nil); len(again) != 0 {
		t.Fatalf("claimed twice: %v", dueList(again))
	}
	// c1's reminder is handled and moved on; c2 finishes.
	if _, err := s.Update(context.Background(), "c1", GameIn(t, s, "c1"), func(g *storage.Game) error { g.RemindAt = base.Add(-time.Minute); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Finish(context.Background(), "c2", GuardAt(t, s, "c2", 0), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	if moved, _ := s.ClaimDue(context.Background(), base.Add(40*time.Second), time.Minute, nil); fmt.Sprint(dueList(moved)) != "[c1 reminder 11:59]" {
		t.Fatalf("after moving c1's reminder: %v, want it alone", dueList(moved))
	}
	// Nobody handled c1's deadline: once its claim runs out it comes back,
	// with c3's timers that have come by then.
	later := base.Add(2 * time.Hour)
	if back, _ := s.ClaimDue(context.Background(), later, time.Minute, nil); fmt.Sprint(dueList(back)) != "[c1 deadline 11:00 c1 reminder 11:59 c3 reminder 12:30 c3 deadline 13:00]" {
		t.Fatalf("after the claims ran out: %v", dueList(back))
	}
	// A process that owns some guilds (its gateway shards) claims only
	// their games' timers and leaves the rest to their owners.
	NewRace(t, s, "g2", "c9", 2, "50")
	if _, err := s.Update(context.Background(), "c9", GameIn(t, s, "c9"), func(g *storage.Game) error { g.Deadline = base; return nil }); err != nil {
		t.Fatal(err)
	}
	inGuild := func(want string) func(string) bool { return func(guild string) bool { return guild == want } }
	if got, _ := s.ClaimDue(context.Background(), later.Add(30*time.Second), time.Minute, inGuild("g1")); len(got) != 0 {
		t.Fatalf("claims for g1 alone: %v, want none (g1's are held)", dueList(got))
	}
	if got, _ := s.ClaimDue(context.Background(), later.Add(30*time.Second), time.Minute, inGuild("g2")); fmt.Sprint(dueList(got)) != "[c9 deadline 12:00]" {
		t.Fatalf("claims for g2 alone: %v, want c9's deadline", dueList(got))
	}
}

// testImport imports a race whose log reaches its
// goal: it is archived as finished with the rules' result and its own
// times, counts in its players' statistics and leaves the channel free;
// an abandoned one is archived as abandoned.
func testImport(t *testing.T, opener Opener) {
	s := open(t, opener)
	NewRace(t, s, "g1", "c1", 2, "10")
	for g, state, _ := s.Load(context.Background(), "c1"); !state.Over(); g, state, _ = s.Load(context.Background(), "c1") {
		if _, err := Step(s, g, state); err != nil {
			t.Fatal(err)
		}
	}
	played, _ := s.Get(context.Background(), "c1")
	created := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	imported := &storage.Game{Kind: "race", Guild: "g1", Channel: "c2", Status: storage.StatusRunning, Setup: played.Setup, Seats: played.Seats, Created: created}
	for i, e := range played.Log {
		imported.Log = append(imported.Log, storage.Entry{Seat: e.Seat, Action: e.Action, At: created.Add(time.Duration(i+1) * time.Hour)})
	}
	if err := s.Import(context.Background(), imported); err != nil {
		t.Fatal(err)
	}
	g, err := s.GetByID(context.Background(), imported.ID)
	last := imported.Log[len(imported.Log)-1].At
	if err != nil || g.Status != storage.StatusFinished || g.Result == nil || len(g.Result.Winners) != 1 ||
		!g.Created.Equal(created) || !g.Finished.Equal(last) || !g.Log[0].At.Equal(created.Add(time.Hour)) {
		t.Fatalf("imported finished game: %+v, %v", g, err)
	}
	if _, err := s.Get(context.Background(), "c2"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the archived import holds its channel: %v", err)
	}
	if st, err := s.Stats(context.Background(), "u1"); err != nil || len(st) != 1 || st[0].Played != 1 {
		t.Fatalf("statistics after the import: %+v, %v", st, err)
	}
	abandoned := &storage.Game{Kind: "race", Guild: "g1", Channel: "c2", Status: storage.StatusAbandoned, Setup: played.Setup, Seats: played.Seats, Log: played.Log[:1]}
	if err := s.Import(context.Background(), abandoned); err != nil || abandoned.Status != storage.StatusAbandoned {
		t.Fatalf("import of an abandoned game: %v, status %s", err, abandoned.Status)
	}
	if archive, _ := s.ArchiveForGuild(context.Background(), "g1", 0, 10); len(archive) != 2 {
		t.Fatalf("archive holds %d games, want 2", len(archive))
	}
}

// testHandovers keeps a game's handovers, last nudge and end votes through its
// archiving and a reopening, and pages through every guild's archive.
func testHandovers(t *testing.T, opener Opener) {
	s, err := opener()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	NewRace(t, s, "g1", "c1", 2, "50")
	Play(t, s, "c1")
	h := storage.Handover{Seat: 1, From: storage.Seat{User: "u2"}, To: storage.Seat{User: "u9", Name: "Nine"}, By: "u1", At: at}
	if _, err := s.Update(context.Background(), "c1", GameIn(t, s, "c1"), func(g *storage.Game) error {
		g.Seats[1] = h.To
		g.Handovers = append(g.Handovers, h)
		g.Nudged = at
		g.EndVotes = []string{"u1"}
		g.EndedByVote = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for name, fn := range map[string]func(g *storage.Game) error{
		"a handover of a seat the game lacks": func(g *storage.Game) error {
			g.Handovers = append(g.Handovers, storage.Handover{Seat: 5})
			return nil
		},
		"a handover forgotten":   func(g *storage.Game) error { g.Handovers = nil; return nil },
		"a vote without a voter": func(g *storage.Game) error { g.EndVotes = []string{""}; return nil },
	} {
		if _, err := s.Update(context.Background(), "c1", GameIn(t, s, "c1"), fn); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := s.Finish(context.Background(), "c1", GuardAt(t, s, "c1", 1), storage.StatusFinished, &engine.Result{Over: true, Scores: []int{3, 5}, Winners: []engine.Seat{1}}); err != nil {
		t.Fatal(err)
	}
	NewRace(t, s, "g2", "c2", 2, "50")
	Play(t, s, "c2")
	if _, err := s.Finish(context.Background(), "c2", GuardAt(t, s, "c2", 1), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	NewRace(t, s, "g1", "c3", 2, "50") // active: not in the archive
	// a game in a thread keeps its parent channel
	if err := s.Create(context.Background(), &storage.Game{Kind: "race", Guild: "g1", Channel: "t9", Parent: "c1", Status: storage.StatusLobby,
		Setup: RaceSetup(2), Seats: []storage.Seat{{User: "u1"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(context.Background(), "t9", GameIn(t, s, "t9"), func(g *storage.Game) error { g.Parent = "c2"; return nil }); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("moving a game to another parent: %v", err)
	}
	s.Close()

	s = open(t, opener) // the records survive a restart
	if g, err := s.Get(context.Background(), "t9"); err != nil || g.Parent != "c1" {
		t.Fatalf("the thread's game after a restart: %+v %v", g, err)
	}
	all, err := s.Archive(context.Background(), 0, 0)
	if err != nil || len(all) != 2 || all[0].Channel != "c1" || all[1].Channel != "c2" {
		t.Fatalf("archive: %v, %v", Channels(all), err)
	}
	g := all[0]
	if len(g.Handovers) != 1 || g.Handovers[0] != h || !g.Nudged.Equal(at) || g.Seats[1].User != "u9" {
		t.Fatalf("archived game: handovers %+v nudged %v seats %+v", g.Handovers, g.Nudged, g.Seats)
	}
	if !slices.Equal(g.EndVotes, []string{"u1"}) || !g.EndedByVote || all[1].EndedByVote {
		t.Fatalf("archived games: end votes %v, ended by vote %v and %v", g.EndVotes, g.EndedByVote, all[1].EndedByVote)
	}
	if page, _ := s.Archive(context.Background(), all[0].ID, 1); len(page) != 1 || page[0].ID != all[1].ID {
		t.Fatalf("the page after the first game: %v", Channels(page))
	}
	if page, _ := s.Archive(context.Background(), all[1].ID, 0); len(page) != 0 {
		t.Fatalf("past the last game: %v", Channels(page))
	}
}

// testGameCounts follows the games by kind and status through every write
// that moves one (create, start, commit, finish, import), the writes that
// do not (actions, edits, undo), and a reopening.
func testGameCounts(t *testing.T, opener Opener) {
	s, err := opener()
	if err != nil {
		t.Fatal(err)
	}
	want := func(step, counts string) {
		t.Helper()
		got, err := s.GameCounts(context.Background())
		if err != nil {
			t.Fatalf("%s: GameCounts: %v", step, err)
		}
		var parts []string
		for _, c := range got {
			parts = append(parts, fmt.Sprintf("%s %s %d", c.Kind, c.Status, c.Games))
		}
		if strings.Join(parts, ", ") != counts {
			t.Fatalf("%s: GameCounts = %q, want %q", step, strings.Join(parts, ", "), counts)
		}
	}
	want("empty", "")
	lobby := func(channel string) {
		t.Helper()
		g := &storage.Game{Kind: "race", Guild: "g1", Channel: channel, Creator: "u1", Status: storage.StatusLobby,
			Setup: engine.Setup{Seed: 42, Options: map[string]string{"goal": "1000000"}}, Seats: []storage.Seat{{User: "u1"}, {User: "u2"}}}
		if err := s.Create(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	lobby("c1")
	lobby("c2")
	lobby("c3")
	NewRace(t, s, "g1", "c4", 2, "1000000")
	want("created", "race lobby 3, race running 1")
	if _, _, err := s.Start(context.Background(), "c1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(context.Background(), "c2", GuardAt(t, s, "c2", 0), storage.Outcome{Start: true}); err != nil {
		t.Fatal(err)
	}
	want("started", "race lobby 1, race running 3")
	Play(t, s, "c1")
	Play(t, s, "c1")
	if _, err := s.Update(context.Background(), "c1", GameIn(t, s, "c1"), func(g *storage.Game) error { g.Messages = map[string]string{"board": "m1"}; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Undo(context.Background(), "c1", GuardAt(t, s, "c1", 2), 1); err != nil {
		t.Fatal(err)
	}
	want("played, edited, undone", "race lobby 1, race running 3")
	if _, err := s.Finish(context.Background(), "c3", GuardAt(t, s, "c3", 0), storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Finish(context.Background(), "c1", GuardAt(t, s, "c1", 1), storage.StatusFinished, &engine.Result{Scores: []int{1, 2}, Winners: []engine.Seat{1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(context.Background(), "c4", GuardAt(t, s, "c4", 0), storage.Outcome{Finish: &storage.Ending{Status: storage.StatusAbandoned}}); err != nil {
		t.Fatal(err)
	}
	want("ended", "race abandoned 2, race finished 1, race running 1")
	if _, err := s.Finish(context.Background(), "c1", GuardAt(t, s, "c1", 1), storage.StatusFinished, nil); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("finishing an archived game again: %v", err)
	}
	lobby("c3") // a refused create changes nothing
	if err := s.Create(context.Background(), &storage.Game{Kind: "race", Guild: "g1", Channel: "c3", Creator: "u1", Status: storage.StatusLobby,
		Seats: []storage.Seat{{User: "u1"}}}); !errors.Is(err, storage.ErrChannelBusy) {
		t.Fatalf("a second game in c3: %v", err)
	}
	imported := &storage.Game{Kind: "race", Guild: "g1", Channel: "c9", Status: storage.StatusAbandoned, Setup: RaceSetup(2),
		Seats: []storage.Seat{{User: "u1"}, {User: "u2"}}}
	if err := s.Import(context.Background(), imported); err != nil {
		t.Fatal(err)
	}
	want("imported", "race abandoned 3, race finished 1, race lobby 1, race running 1")
	s.Close()
	s = open(t, opener)
	want("reopened", "race abandoned 3, race finished 1, race lobby 1, race running 1")
}

// testReliability checks that the reliability counts per server are kept,
// and that UpdateUserPrefs adds them in one transaction each: counts
// added at once from many goroutines all count, and a refused change
// changes nothing.
func testReliability(t *testing.T, s Store, want storage.UserPrefs) {
	t.Helper()
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := s.UpdateUserPrefs(context.Background(), "u1", func(p *storage.UserPrefs) error {
				if p.Reliability == nil {
					p.Reliability = map[string]storage.Reliability{}
				}
				p.Reliability["g1"] = p.Reliability["g1"].Add(storage.Reliability{InTime: 1, Missed: i % 2})
				return nil
			}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	want.Reliability = map[string]storage.Reliability{"g1": {InTime: n, Missed: n / 2}}
	if p, _ := s.UserPrefs(context.Background(), "u1"); !reflect.DeepEqual(p, want) {
		t.Fatalf("preferences after counting %+v, want %+v", p, want)
	}
	// a user who saved nothing starts from the defaults
	got, err := s.UpdateUserPrefs(context.Background(), "u9", func(p *storage.UserPrefs) error {
		p.Reliability = map[string]storage.Reliability{"": {HandedOver: 1}}
		return nil
	})
	if err != nil || !got.PingOnTurn || got.Reliability[""].HandedOver != 1 {
		t.Fatalf("first count %+v, %v", got, err)
	}
	for _, bad := range []func(p *storage.UserPrefs) error{
		func(p *storage.UserPrefs) error { p.Reliability["g1"] = storage.Reliability{Missed: -1}; return nil },
		func(p *storage.UserPrefs) error { p.Reliability["g\x00"] = storage.Reliability{}; return nil },
		func(p *storage.UserPrefs) error {
			p.Reliability["g1"] = storage.Reliability{}
			return storage.ErrInvalid
		},
	} {
		if _, err := s.UpdateUserPrefs(context.Background(), "u1", bad); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("a refused change: %v", err)
		}
	}
	if p, _ := s.UserPrefs(context.Background(), "u1"); !reflect.DeepEqual(p, want) {
		t.Fatalf("refused changes changed the counts: %+v", p)
	}
}
