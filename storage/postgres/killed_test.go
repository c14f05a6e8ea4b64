package postgres_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
	"github.com/meeplegames/meeple/storage/storetest"
)

// The writer processes of TestKilledWritersNeverWriteToAnotherGame find
// their database, their intents file and their number here.
const (
	writerDSN     = "MEEPLE_TEST_WRITER_DSN"
	writerIntents = "MEEPLE_TEST_WRITER_INTENTS"
	writerNumber  = "MEEPLE_TEST_WRITER_NUMBER"
)

// writerChannels are the channels the writers play in.
const writerChannels = 4

// TestKilledWritersNeverWriteToAnotherGame runs writer processes on one
// PostgreSQL database, killed with SIGKILL and started again at random
// moments. Each plays races in a few channels: actions, undos, and, when a
// race ends, its ending and a new race in the channel, so that games are
// replaced and histories rewritten under the writers' feet. Before each
// commit a writer notes the game, the log position and the action before
// it (its intent) in a file of its own. Afterwards every action in every
// log must be where its writer meant it: in that game, at that position,
// after that action: 0 in another game or history.
func TestKilledWritersNeverWriteToAnotherGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs and kills writer processes")
	}
	dsn := server.Database(t)
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for c := range writerChannels {
		storetest.NewRace(t, s, "g1", fmt.Sprintf("c%d", c), 2, "40")
	}
	dir := t.TempDir()
	start := func(n int) *osexec.Cmd {
		cmd := osexec.Command(os.Args[0], "-test.run=^TestWriterProcess$")
		cmd.Env = append(os.Environ(), writerDSN+"="+dsn, writerIntents+"="+filepath.Join(dir, fmt.Sprintf("intents-%d", n)),
			writerNumber+"="+strconv.Itoa(n))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	const writers = 3
	procs := make([]*osexec.Cmd, writers)
	next := 0
	for i := range procs {
		procs[i] = start(next)
		next++
	}
	// Kill writers for 4 s, and on (for a minute at most) until a race
	// has ended and been replaced: a loaded machine plays slowly.
	replaced := func() bool {
		ids, err := s.GameIDs(context.Background(), 0, 0)
		return err == nil && len(ids) > writerChannels
	}
	kills := 0
	for begun := time.Now(); time.Since(begun) < 4*time.Second || !replaced() && time.Since(begun) < time.Minute; kills++ {
		time.Sleep(time.Duration(150+rand.IntN(250)) * time.Millisecond)
		i := rand.IntN(writers)
		procs[i].Process.Signal(syscall.SIGKILL)
		procs[i].Wait()
		procs[i] = start(next)
		next++
	}
	for _, p := range procs {
		p.Process.Signal(syscall.SIGKILL)
		p.Wait()
	}

	intents := map[int64]intent{}
	for n := range next {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("intents-%d", n)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var in intent
			if _, err := fmt.Sscan(sc.Text(), &in.at, &in.game, &in.index, &in.after); err == nil {
				intents[in.at] = in
			}
		}
		f.Close()
	}
	var all []*storage.Game
	ids, err := s.GameIDs(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		g, err := s.GetByID(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, g)
	}
	actions, wrong := 0, 0
	for _, g := range all {
		for i, e := range g.Log {
			actions++
			in, ok := intents[e.At.UnixNano()]
			var after int64
			if i > 0 {
				after = g.Log[i-1].At.UnixNano()
			}
			if !ok || in.game != g.ID || in.index != i || in.after != after {
				wrong++
				t.Errorf("game %d, action %d (%s at %d): meant for game %d, action %d after %d (noted: %v)",
					g.ID, i+1, e.Action, e.At.UnixNano(), in.game, in.index+1, in.after, ok)
			}
		}
		if g.Status == storage.StatusRunning && !bytesEqual(g.Snapshot, storetest.Replayed(t, g)) {
			t.Errorf("game %d: its snapshot is not its log replayed", g.ID)
		}
	}
	t.Logf("%d writer processes started, %d killed; %d games, %d actions in their logs, %d in another game or history",
		next, kills+writers, len(all), actions, wrong)
	if len(all) <= writerChannels || actions == 0 {
		t.Errorf("the run replaced no game (%d games) or kept no action (%d)", len(all), actions)
	}
}

// intent is what a writer meant one action for: the game, its position in
// the log and the time of the action before it (0 for none); at is the
// action's own time, unique to it.
type intent struct {
	at, after int64
	game      uint64
	index     int
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }

// TestWriterProcess is a writer of TestKilledWritersNeverWriteToAnotherGame,
// run as a process of its own; it does nothing in an ordinary test run.
func TestWriterProcess(t *testing.T) {
	dsn := os.Getenv(writerDSN)
	if dsn == "" {
		t.Skip("a helper process of TestKilledWritersNeverWriteToAnotherGame")
	}
	number, _ := strconv.Atoi(os.Getenv(writerNumber))
	f, err := os.OpenFile(os.Getenv(writerIntents), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(number) * time.Hour)
	for n := 0; ; n++ {
		ch := fmt.Sprintf("c%d", rand.IntN(writerChannels))
		g, state, err := s.Load(context.Background(), ch)
		if err != nil {
			continue
		}
		switch {
		case state.Over():
			res := state.Result()
			if _, err := s.Commit(context.Background(), ch, g.Guard(), storage.Outcome{Finish: &storage.Ending{Status: storage.StatusFinished, Result: &res}}); err == nil {
				storetest.NewRace(t, s, "g1", ch, 2, "40")
			}
		case g.Version > 0 && rand.IntN(5) == 0:
			s.Undo(context.Background(), ch, g.Guard(), 1)
		default:
			p := state.Prompts()[0]
			action := storetest.NextAction(g.Version + rand.IntN(2)) // writers disagree on the action
			if _, err := state.Apply(p.Seat, action); err != nil {
				continue
			}
			snap, _ := state.Encode()
			at := base.Add(time.Duration(n) * time.Microsecond)
			var after int64
			if len(g.Log) > 0 {
				after = g.Log[len(g.Log)-1].At.UnixNano()
			}
			fmt.Fprintln(f, at.UnixNano(), g.ID, len(g.Log), after) // a write(2): it outlives a SIGKILL
			s.Commit(context.Background(), ch, g.Guard(), storage.Outcome{Entries: []storage.Entry{{Seat: p.Seat, Action: action, At: at}}, Snapshot: snap})
		}
	}
}
