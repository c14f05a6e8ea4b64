package storage_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

func registry() *engine.Registry { return engine.NewRegistry(race{}) }

// openStore opens a store at path (in t.TempDir() when empty) and closes
// it when the test ends.
func openStore(t testing.TB, path string, opts storage.Options) *storage.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "meeple.db")
	}
	s, err := storage.Open(path, registry(), opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// raceSetup is the setup of a race that does not end.
func raceSetup(players int) engine.Setup {
	return engine.Setup{Players: players, Seed: 42, Options: map[string]string{"goal": "1000000"}}
}

// newRace creates a running race game in channel with users u1, u2, ….
func newRace(t testing.TB, s *storage.Store, guild, channel string, players int, goal string) *storage.Game {
	t.Helper()
	g := &storage.Game{
		Kind: "race", Guild: guild, Channel: channel, Creator: "u1", Status: storage.StatusRunning,
		Setup: engine.Setup{Players: players, Seed: 42, Options: map[string]string{"goal": goal}},
	}
	for i := 0; i < players; i++ {
		g.Seats = append(g.Seats, storage.Seat{User: fmt.Sprintf("u%d", i+1)})
	}
	if err := s.Create(g); err != nil {
		t.Fatalf("create: %v", err)
	}
	return g
}

// nextAction is the action the tests play at version v: mostly rolls, so
// the RNG matters.
func nextAction(v int) string {
	if v%4 == 3 {
		return fmt.Sprintf("step %d", v%3+1)
	}
	return "roll"
}

// play loads channel's game, applies the next action and appends it,
// returning the new version.
func play(t testing.TB, s *storage.Store, channel string) int {
	t.Helper()
	g, state, err := s.Load(channel)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	v, err := step(s, g, state)
	if err != nil {
		t.Fatalf("append at version %d: %v", g.Version, err)
	}
	return v
}

// step applies the next action to state (game g) and appends it.
func step(s *storage.Store, g *storage.Game, state engine.State) (int, error) {
	p := state.Prompts()[0]
	action := nextAction(g.Version)
	if _, err := state.Apply(p.Seat, action); err != nil {
		return 0, err
	}
	snap, err := state.Encode()
	if err != nil {
		return 0, err
	}
	return s.Append(g.Channel, g.Version, storage.Entry{Seat: p.Seat, Action: action}, snap)
}

// replayed returns the state bytes of setup + log, computed apart from the store.
func replayed(t testing.TB, g *storage.Game) []byte {
	t.Helper()
	setup := g.Setup
	state, err := race{}.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range g.Log {
		if _, err := state.Apply(e.Seat, e.Action); err != nil {
			t.Fatalf("replay of action %d %q: %v", i+1, e.Action, err)
		}
	}
	data, _ := state.Encode()
	return data
}

func TestCreateAppendLoadKeepSnapshotEqualToReplay(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	g := newRace(t, s, "g1", "c1", 3, "1000")
	if g.ID == 0 || g.Version != 0 || g.Snapshot == nil || g.Created.IsZero() {
		t.Fatalf("created game %+v: want an id, version 0, a snapshot and a creation time", g)
	}
	for i := 1; i <= 40; i++ {
		if v := play(t, s, "c1"); v != i {
			t.Fatalf("append %d returned version %d", i, v)
		}
	}
	got, err := s.Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 40 || len(got.Log) != 40 || got.Log[3].Action != "step 1" || got.Log[1].Seat != 1 {
		t.Fatalf("log after 40 appends: version %d, %d entries, %+v", got.Version, len(got.Log), got.Log[:4])
	}
	if !bytes.Equal(got.Snapshot, replayed(t, got)) {
		t.Fatal("snapshot differs from seed + log replayed")
	}
	if ok, err := s.Verified("c1"); !ok || err != nil {
		t.Fatalf("Verified = %v, %v", ok, err)
	}
	_, state, err := s.Load("c1")
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := state.Encode(); !bytes.Equal(data, got.Snapshot) {
		t.Fatal("Load's state differs from the snapshot")
	}
}

func TestCreateRefusesBadGamesAndBusyChannels(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	newRace(t, s, "g1", "c1", 2, "50")
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
		if err := s.Create(&g); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	if games, _ := s.ListActive("g1"); len(games) != 1 {
		t.Fatalf("refused creates left %d active games in g1, want 1", len(games))
	}
	if _, err := s.Get("c2"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("Get of an empty channel: %v, want ErrNotFound", err)
	}
}

func TestAppendRefusesStaleVersionAndBadInput(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	newRace(t, s, "g1", "c1", 2, "1000")
	play(t, s, "c1")
	play(t, s, "c1")
	before, _ := s.Get("c1")
	_, err := s.Append("c1", 1, storage.Entry{Seat: 1, Action: "roll"}, []byte("{}"))
	var ve *storage.VersionError
	if !errors.Is(err, storage.ErrStale) || !errors.As(err, &ve) || ve.Expected != 1 || ve.Actual != 2 {
		t.Fatalf("stale append: %v, want a VersionError 1 vs 2", err)
	}
	for _, c := range []struct {
		channel string
		e       storage.Entry
		snap    []byte
		want    error
	}{
		{"c9", storage.Entry{Action: "roll"}, []byte("x"), storage.ErrNotFound},
		{"c1", storage.Entry{Seat: 2, Action: "roll"}, []byte("x"), storage.ErrInvalid},
		{"c1", storage.Entry{Seat: -1, Action: "roll"}, []byte("x"), storage.ErrInvalid},
		{"c1", storage.Entry{Seat: 0, Action: "roll\nP2: roll"}, []byte("x"), storage.ErrInvalid},
		{"c1", storage.Entry{Seat: 0, Action: ""}, []byte("x"), storage.ErrInvalid},
		{"c1", storage.Entry{Seat: 0, Action: "roll"}, nil, storage.ErrInvalid},
	} {
		if _, err := s.Append(c.channel, 2, c.e, c.snap); !errors.Is(err, c.want) {
			t.Errorf("append %+v to %s: %v, want %v", c.e, c.channel, err, c.want)
		}
	}
	after, _ := s.Get("c1")
	if after.Version != before.Version || !bytes.Equal(after.Snapshot, before.Snapshot) || !after.Updated.Equal(before.Updated) {
		t.Fatal("refused appends changed the game")
	}
}

// TestConcurrentAppendsToOneGame races writers on one game: each reads the
// game, applies the next action and appends; exactly one writer wins each
// version and the others get ErrStale.
func TestConcurrentAppendsToOneGame(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	newRace(t, s, "g1", "c1", 4, "1000000")
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
				g, state, err := s.Load("c1")
				if err != nil {
					t.Error(err)
					return
				}
				if g.Version >= target {
					return
				}
				v, err := step(s, g, state)
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
	g, err := s.Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	if g.Version != target || len(won) != target {
		t.Fatalf("version %d with %d acknowledged appends, want %d", g.Version, len(won), target)
	}
	if !bytes.Equal(g.Snapshot, replayed(t, g)) {
		t.Fatal("snapshot differs from the replay after concurrent appends")
	}
	t.Logf("%d writers, %d appends, %d stale refusals", writers, target, stales)
}

// TestGamesDoNotBlockEachOther holds a write transaction open on one game
// (inside Update's function) and shows that another game's append waits
// for that one transaction only, that reads go on meanwhile, and that a
// refused write to one game does not sink another's in the same commit.
func TestGamesDoNotBlockEachOther(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	newRace(t, s, "g1", "a", 2, "1000000")
	newRace(t, s, "g1", "b", 2, "1000000")
	inside, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		_, err := s.Update("a", func(g *storage.Game) error {
			close(inside)
			<-release
			g.Messages = map[string]string{"board": "m1"}
			return nil
		})
		held <- err
	}()
	<-inside
	appended := make(chan error, 1)
	go func() {
		g, state, err := s.Load("b") // reads are not blocked by the writer
		if err == nil {
			_, err = step(s, g, state)
		}
		appended <- err
	}()
	// Reads of both games work while a's transaction is open.
	if _, err := s.Get("a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListActive("g1"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-appended:
		t.Fatalf("append to b finished (%v) while a's transaction was still open", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	if err := <-appended; err != nil {
		t.Fatalf("append to b after a's transaction: %v", err)
	}

	// Stale writes to a, racing with good writes to b, never fail b.
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := s.Append("a", 999, storage.Entry{Seat: 0, Action: "roll"}, []byte("x")); !errors.Is(err, storage.ErrStale) {
				t.Errorf("stale append to a: %v", err)
			}
		}()
		go func() {
			defer wg.Done()
			for {
				g, state, err := s.Load("b")
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := step(s, g, state); !errors.Is(err, storage.ErrStale) {
					if err != nil {
						t.Error(err)
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	if g, _ := s.Get("b"); g.Version != 51 || !bytes.Equal(g.Snapshot, replayed(t, g)) {
		t.Fatalf("b at version %d, want 51 with a snapshot equal to its replay", g.Version)
	}
}

func TestUndoRebuildsTheSnapshotFromTheLog(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	newRace(t, s, "g1", "c1", 2, "1000")
	snaps := map[int][]byte{}
	for i := 1; i <= 10; i++ {
		play(t, s, "c1")
		g, _ := s.Get("c1")
		snaps[i] = g.Snapshot
	}
	if _, _, err := s.Undo("c1", 9, 3); !errors.Is(err, storage.ErrStale) {
		t.Fatalf("undo at a stale version: %v", err)
	}
	for _, n := range []int{0, -1, 11} {
		if _, _, err := s.Undo("c1", 10, n); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("undo %d of 10: %v, want ErrInvalid", n, err)
		}
	}
	g, state, err := s.Undo("c1", 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := state.Encode()
	if g.Version != 7 || len(g.Log) != 7 || !bytes.Equal(data, snaps[7]) || !bytes.Equal(g.Snapshot, snaps[7]) {
		t.Fatalf("after undo: version %d, %d entries, state equal to version 7's: %v", g.Version, len(g.Log), bytes.Equal(data, snaps[7]))
	}
	stored, _ := s.Get("c1")
	if stored.Version != 7 || len(stored.Log) != 7 || !bytes.Equal(stored.Snapshot, snaps[7]) {
		t.Fatalf("stored after undo: version %d, %d entries", stored.Version, len(stored.Log))
	}
	// Replaying the undone actions draws the same dice again.
	for i := 8; i <= 10; i++ {
		play(t, s, "c1")
		g, _ := s.Get("c1")
		if !bytes.Equal(g.Snapshot, snaps[i]) {
			t.Fatalf("replaying action %d after the undo gave a different state", i)
		}
	}
}

func TestUpdateChangesOnlyWhatIsTheCallers(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	lobby := &storage.Game{Kind: "race", Guild: "g1", Channel: "c1", Creator: "u1", Seats: []storage.Seat{{User: "u1"}, {}}}
	if err := s.Create(lobby); err != nil {
		t.Fatal(err)
	}
	if lobby.Status != storage.StatusLobby || lobby.Snapshot != nil {
		t.Fatalf("lobby game %+v", lobby)
	}
	if _, _, err := s.Start("c1"); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("start with an open seat: %v", err)
	}
	g, err := s.Update("c1", func(g *storage.Game) error {
		g.Seats[1] = storage.Seat{Computer: "random"}
		g.Setup.Seed = 7
		g.Messages = map[string]string{"board": "m1"}
		return nil
	})
	if err != nil || g.Seats[1].Computer != "random" || g.Messages["board"] != "m1" {
		t.Fatalf("update: %+v, %v", g, err)
	}
	if users, _ := s.ActiveForUser("u1"); len(users) != 1 {
		t.Fatalf("u1 has %d active games, want 1", len(users))
	}
	g, state, err := s.Start("c1")
	if err != nil || g.Status != storage.StatusRunning || g.Setup.Players != 2 || state == nil {
		t.Fatalf("start: %+v, %v", g, err)
	}
	if ok, err := s.Verified("c1"); !ok || err != nil {
		t.Fatalf("Verified after start = %v, %v", ok, err)
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
	}
	for _, c := range refused {
		if _, err := s.Update("c1", c.fn); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if g, _ := s.Get("c1"); g.Creator != "u1" || g.Setup.Seed != 7 || len(g.Seats) != 2 {
		t.Fatalf("refused updates changed the game: %+v", g)
	}
	// Seats of a running game may be reassigned (a substitute joins).
	if _, err := s.Update("c1", func(g *storage.Game) error { g.Seats[1] = storage.Seat{User: "u9"}; return nil }); err != nil {
		t.Fatal(err)
	}
	if games, _ := s.ActiveForUser("u9"); len(games) != 1 || games[0].Channel != "c1" {
		t.Fatalf("substitute u9's active games: %v", games)
	}
}

func TestFinishArchivesAndCountsStats(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	// Game 1: u1 wins 60-40; game 2: u2 wins 30-50; game 3 abandoned.
	for i, scores := range [][]int{{60, 40}, {30, 50}} {
		ch := fmt.Sprintf("c%d", i+1)
		newRace(t, s, "g1", ch, 2, "50")
		play(t, s, ch)
		winner := engine.Seat(0)
		if scores[1] > scores[0] {
			winner = 1
		}
		res := &engine.Result{Over: true, Scores: scores, Winners: []engine.Seat{winner}}
		if _, err := s.Finish(ch, 0, storage.StatusFinished, res); !errors.Is(err, storage.ErrStale) {
			t.Fatalf("finish at a stale version: %v", err)
		}
		if _, err := s.Finish(ch, 1, storage.StatusFinished, &engine.Result{Scores: []int{1}}); !errors.Is(err, storage.ErrInvalid) {
			t.Fatalf("finish with one score for two seats: %v", err)
		}
		g, err := s.Finish(ch, 1, storage.StatusFinished, res)
		if err != nil || g.Status != storage.StatusFinished || g.Finished.IsZero() {
			t.Fatalf("finish: %+v, %v", g, err)
		}
	}
	newRace(t, s, "g1", "c3", 2, "50")
	play(t, s, "c3")
	if _, err := s.Finish("c3", 1, storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	newRace(t, s, "g2", "c4", 2, "50") // another guild, still running

	if _, err := s.Get("c1"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("finished game still active: %v", err)
	}
	newRace(t, s, "g1", "c1", 2, "50") // the channel is free again
	active, _ := s.ListActive("g1")
	if len(active) != 1 || active[0].Channel != "c1" {
		t.Fatalf("active games of g1: %v", active)
	}
	archive, err := s.ArchiveForGuild("g1", 0, 10)
	if err != nil || len(archive) != 3 || archive[0].Channel != "c3" || archive[2].Channel != "c1" {
		t.Fatalf("archive of g1 (newest first): %v, %v", channels(archive), err)
	}
	page, _ := s.ArchiveForGuild("g1", archive[0].ID, 1)
	if len(page) != 1 || page[0].ID != archive[1].ID {
		t.Fatalf("second page of the archive: %v", channels(page))
	}
	mine, _ := s.ArchiveForUser("u2", 0, 0)
	if len(mine) != 3 || mine[1].Result == nil || mine[1].Result.Scores[1] != 50 {
		t.Fatalf("archive of u2: %v", channels(mine))
	}
	if empty, _ := s.ArchiveForGuild("g2", 0, 0); len(empty) != 0 {
		t.Fatalf("g2 has archived games %v", channels(empty))
	}
	full, err := s.GetByID(archive[2].ID)
	if err != nil || len(full.Log) != 1 {
		t.Fatalf("archived game by id: %+v, %v", full, err)
	}
	st, _ := s.Stats("u1")
	want := []storage.Stats{{User: "u1", Kind: "race", Played: 2, Won: 1, Abandoned: 1, ScoreSum: 90, Best: 60}}
	if fmt.Sprint(st) != fmt.Sprint(want) || st[0].Average() != 45 {
		t.Fatalf("u1's stats %+v, want %+v (average 45)", st, want)
	}
	if st, _ := s.Stats("u2"); len(st) != 1 || st[0].Won != 1 || st[0].Best != 50 {
		t.Fatalf("u2's stats %+v", st)
	}
	if _, err := s.Finish("c4", 0, storage.StatusLobby, nil); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("finish as lobby: %v", err)
	}
}

func channels(games []*storage.Game) []string {
	var out []string
	for _, g := range games {
		out = append(out, g.Channel)
	}
	return out
}

func TestDueFindsPassedTimersOnly(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	base := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for i, offset := range []time.Duration{20 * time.Minute, -time.Hour, -2 * time.Hour} {
		ch := fmt.Sprintf("c%d", i+1)
		newRace(t, s, "g1", ch, 2, "50")
		if _, err := s.Update(ch, func(g *storage.Game) error {
			g.Deadline = base.Add(offset)
			g.RemindAt = base.Add(offset - 30*time.Minute)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	due, err := s.Due(base)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(dueList(due))
	want := "[c3 reminder 09:30 c3 deadline 10:00 c2 reminder 10:30 c2 deadline 11:00 c1 reminder 11:50]"
	if got != want {
		t.Fatalf("due at noon: %s\nwant %s", got, want)
	}
	// Moving c3's deadline and finishing c2 take their timers away.
	if _, err := s.Update("c3", func(g *storage.Game) error { g.Deadline, g.RemindAt = base.Add(time.Hour), time.Time{}; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Finish("c2", 0, storage.StatusAbandoned, nil); err != nil {
		t.Fatal(err)
	}
	due, _ = s.Due(base)
	if got := fmt.Sprint(dueList(due)); got != "[c1 reminder 11:50]" {
		t.Fatalf("due after changes: %s", got)
	}
}

func dueList(due []storage.Due) []string {
	var out []string
	for _, d := range due {
		out = append(out, fmt.Sprintf("%s %s %s", d.Channel, d.Kind, d.At.Format("15:04")))
	}
	return out
}

func TestSettingsAndPreferences(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	gs, err := s.GuildSettings("g1")
	if err != nil || fmt.Sprint(gs) != fmt.Sprint(storage.DefaultGuildSettings()) {
		t.Fatalf("unsaved guild settings %+v, %v", gs, err)
	}
	gs = storage.GuildSettings{TurnDeadline: 24 * time.Hour, CreatorRoles: []string{"r1"}, GamesChannel: "c9"}
	if err := s.PutGuildSettings("g1", gs); err != nil {
		t.Fatal(err)
	}
	gs.Saved = true // reported by GuildSettings once anything is saved
	if got, _ := s.GuildSettings("g1"); fmt.Sprint(got) != fmt.Sprint(gs) {
		t.Fatalf("guild settings %+v, want %+v", got, gs)
	}
	// settings equal to the defaults, saved on purpose, are told apart
	// from none saved
	if err := s.PutGuildSettings("g2", storage.DefaultGuildSettings()); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GuildSettings("g2"); !got.Saved {
		t.Fatal("settings equal to the defaults read as none saved")
	}
	if got, _ := s.GuildSettings("g3"); got.Saved {
		t.Fatal("a guild that saved nothing reads as saved")
	}
	if err := s.PutGuildSettings("g1", storage.GuildSettings{TurnDeadline: -1}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("negative deadline: %v", err)
	}
	if p, _ := s.UserPrefs("u1"); p != storage.DefaultUserPrefs() {
		t.Fatalf("unsaved preferences %+v", p)
	}
	want := storage.UserPrefs{PingOnTurn: false, Secrets: storage.SecretsDM}
	if err := s.PutUserPrefs("u1", want); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.UserPrefs("u1"); p != want {
		t.Fatalf("preferences %+v, want %+v", p, want)
	}
	if err := s.PutUserPrefs("u1", storage.UserPrefs{Secrets: "smoke signals"}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("bad secrets choice: %v", err)
	}
	if _, err := s.UserPrefs(""); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("empty user id: %v", err)
	}
}

func TestClosedStoreRefusesWork(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meeple.db")
	s, err := storage.Open(path, registry(), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("c1"); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("Get after Close: %v", err)
	}
	if err := s.Create(&storage.Game{Kind: "race", Channel: "c1"}); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("Create after Close: %v", err)
	}
	if err := s.Close(); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("second Close: %v", err)
	}
}

// logBuffer collects a store's log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newLogger(l *logBuffer) *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

func mustContain(t *testing.T, what, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%s %q does not mention %q", what, s, p)
		}
	}
}

func TestStartKeepsTheRulesReason(t *testing.T) {
	s := openStore(t, "", storage.Options{})
	g := &storage.Game{Kind: "race", Channel: "c1", Setup: engine.Setup{Options: map[string]string{"goal": "-3"}}, Seats: []storage.Seat{{User: "u1"}}}
	if err := s.Create(g); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.Start("c1")
	if !errors.Is(err, storage.ErrInvalid) || !errors.Is(err, engine.ErrBadSetup) || !strings.Contains(err.Error(), `bad goal "-3"`) {
		t.Fatalf("start with a bad option: %v, want ErrInvalid and the rules' ErrBadSetup with its reason", err)
	}
	if g, _ := s.Get("c1"); g.Status != storage.StatusLobby {
		t.Fatalf("refused start left the game %s", g.Status)
	}
}

func TestOpenRefusesAFileInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meeple.db")
	openStore(t, path, storage.Options{})
	_, err := storage.Open(path, registry(), storage.Options{LockTimeout: 50 * time.Millisecond})
	if !errors.Is(err, storage.ErrInUse) || !strings.Contains(err.Error(), "in use by another process") || !strings.Contains(err.Error(), path) {
		t.Fatalf("second open: %v, want an error saying the file is in use", err)
	}
	if _, err := storage.Open(path, nil, storage.Options{}); err == nil {
		t.Fatal("open without a registry succeeded")
	}
}
