//go:build linux && amd64

package boltdb_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// The power-loss test: a kill -9 cannot show a missing fsync, because the
// kernel keeps the pages a process wrote, so this test records every write
// and sync the store makes to its file and replays them as a power cut
// would leave the disk. bbolt's OpenFile option hands bbolt an *os.File, a
// concrete type no wrapper can stand in for, so the recording is done one
// level down: the writer runs as a child process under ptrace, and the test
// reads each pwrite64 (offset and bytes), fdatasync/fsync and ftruncate on
// the database file, and each acknowledgement the writer prints (a write to
// its standard output), in the order they complete.

// powerLossEnv names the database file (and the appends per game) when the
// test binary runs as the writer of TestPowerLossKeepsEveryAcknowledgedAction.
const powerLossEnv = "MEEPLE_STORAGE_POWERLOSS_WRITER"

// TestPowerLossWriter is the traced child: several goroutines create a game
// each and append to it, printing a line for every acknowledged write.
func TestPowerLossWriter(t *testing.T) {
	spec := strings.Fields(os.Getenv(powerLossEnv))
	if len(spec) != 2 {
		t.Skip("run by TestPowerLossKeepsEveryAcknowledgedAction")
	}
	appends, _ := strconv.Atoi(spec[1])
	s, err := boltdb.Open(spec[0], registry(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ack := func(line string) { os.Stdout.Write([]byte(line + "\n")) }
	ack("ack open")
	var wg sync.WaitGroup
	for i := 0; i < powerLossGames; i++ {
		wg.Add(1)
		go func(ch string) {
			defer wg.Done()
			newRace(t, s, "g1", ch, 2, "1000000")
			ack("ack game " + ch)
			for v := 1; v <= appends; v++ {
				g, state, err := s.Load(context.Background(), ch)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := step(s, g, state); err != nil {
					t.Error(err)
					return
				}
				ack(fmt.Sprintf("ack append %s %d %s", ch, v, nextAction(g.Version)))
			}
		}(fmt.Sprintf("c%d", i))
	}
	wg.Wait()
	s.Close()
}

const powerLossGames = 4

// TestPowerLossKeepsEveryAcknowledgedAction traces the writer, then cuts
// the power after every recorded event in turn. At each cut the disk holds
// everything synced before it, and of the writes not yet synced: none, all,
// random subsets in random order, and random subsets with torn writes (only
// some 512-byte sectors of a write reached the disk). Every such disk must
// open with the page check, verify clean, and hold every action (and game)
// acknowledged before the cut.
//
// MEEPLE_POWERLOSS_APPENDS sets the appends per game (default 150, 25
// with -short or the race detector); each cut is tried in up to 8 ways, so the default run tries
// over 10,000 crash images. MEEPLE_POWERLOSS_APPENDS=600 makes over 10,000
// cut points (about 100 s on two cores).
func TestPowerLossKeepsEveryAcknowledgedAction(t *testing.T) {
	skipInChild(t, powerLossEnv)
	appends := bySize(150, 25)
	if n, err := strconv.Atoi(os.Getenv("MEEPLE_POWERLOSS_APPENDS")); err == nil && n > 0 {
		appends = n
	}
	path := filepath.Join(t.TempDir(), "traced.db")
	events := traceWriter(t, path, appends)
	lost, images, distinct, cuts := 0, 0, 0, 0
	results := map[[32]byte]diskContent{}
	rng := rand.New(rand.NewPCG(7, uint64(appends)))
	disk := &powerLossDisk{}
	var acked []string
	check := filepath.Join(t.TempDir(), "after-the-cut.db")
	for i, e := range events {
		disk.apply(e)
		if e.ack != "" {
			acked = append(acked, e.ack)
		}
		if len(acked) == 0 { // the file was never acknowledged to exist
			continue
		}
		cuts++
		for _, image := range disk.crashImages(rng) {
			images++
			sum := sha256.Sum256(image)
			content, ok := results[sum]
			if !ok {
				distinct++
				content = readCrashImage(check, image)
				results[sum] = content
			}
			if content.err != nil {
				t.Fatalf("cut after event %d of %d: the disk does not open clean: %v", i+1, len(events), content.err)
			}
			if missing := content.missing(acked); len(missing) > 0 {
				lost += len(missing)
				t.Errorf("cut after event %d of %d: %d acknowledged writes lost, first %q", i+1, len(events), len(missing), missing[0])
			}
		}
		if t.Failed() {
			return
		}
	}
	writes, syncs := disk.counts()
	t.Logf("power loss: %d events traced (%d writes, %d syncs, %d acknowledgements); %d cut points, %d crash images tried (%d distinct), %d acknowledged writes lost",
		len(events), writes, syncs, len(acked), cuts, images, distinct, lost)
	if images < 10000 && bySize(1, 0) == 1 && os.Getenv("MEEPLE_POWERLOSS_APPENDS") == "" {
		t.Fatalf("only %d crash images tried, want at least 10,000", images)
	}
}

// traceEvent is one thing the writer did: a file operation or an
// acknowledgement.
type traceEvent struct {
	op  fileOp
	ack string // set for an acknowledgement
}

// fileOp is a write, a sync or a size change of the database file.
type fileOp struct {
	kind   byte // 'w' write, 's' sync, 't' truncate
	off    int64
	data   []byte
	size   int64
	covers int // for a sync: the number of file operations complete when it began
}

// powerLossDisk is the database file as the disk holds it: what is synced,
// and the operations since that a power cut may or may not have kept.
type powerLossDisk struct {
	synced  []byte
	ops     []fileOp // every file operation so far
	durable int      // ops[:durable] are synced
	writes  int
	syncs   int
}

func (d *powerLossDisk) counts() (writes, syncs int) { return d.writes, d.syncs }

func (d *powerLossDisk) apply(e traceEvent) {
	switch e.op.kind {
	case 'w', 't':
		if e.op.kind == 'w' {
			d.writes++
		}
		d.ops = append(d.ops, e.op)
	case 's':
		d.syncs++
		for ; d.durable < e.op.covers; d.durable++ {
			d.synced = applyOp(d.synced, d.ops[d.durable], nil)
		}
	}
}

// crashImages returns the disks a power cut now may leave: the synced
// state alone, with every pending operation, with random subsets in random
// order, and with random subsets of torn writes.
func (d *powerLossDisk) crashImages(rng *rand.Rand) [][]byte {
	pending := d.ops[d.durable:]
	images := [][]byte{bytes.Clone(d.synced)}
	if len(pending) == 0 {
		return images
	}
	all := bytes.Clone(d.synced)
	for _, op := range pending {
		all = applyOp(all, op, nil)
	}
	images = append(images, all)
	for v := 0; v < 6; v++ {
		order := rng.Perm(len(pending))
		if v >= 3 { // torn writes keep their order; the other three subsets are reordered
			slices.Sort(order)
		}
		image := bytes.Clone(d.synced)
		for _, i := range order {
			if rng.IntN(2) == 0 {
				continue
			}
			var sectors func() bool
			if v >= 3 {
				sectors = func() bool { return rng.IntN(2) == 0 }
			}
			image = applyOp(image, pending[i], sectors)
		}
		images = append(images, image)
	}
	return images
}

// applyOp applies a write or a size change to a disk image. keep, when
// set, tears a write: only the 512-byte sectors it approves are written.
func applyOp(image []byte, op fileOp, keep func() bool) []byte {
	switch op.kind {
	case 't':
		if int(op.size) <= len(image) {
			return image[:op.size]
		}
		return append(image, make([]byte, int(op.size)-len(image))...)
	case 'w':
		if end := int(op.off) + len(op.data); end > len(image) {
			image = append(image, make([]byte, end-len(image))...)
		}
		if keep == nil {
			copy(image[op.off:], op.data)
			return image
		}
		for at := 0; at < len(op.data); at += 512 {
			if keep() {
				copy(image[int(op.off)+at:], op.data[at:min(at+512, len(op.data))])
			}
		}
	}
	return image
}

// diskContent is what a crash image holds: each game's actions.
type diskContent struct {
	logs map[string][]string
	err  error
}

// missing lists the acknowledgements the content does not hold.
func (c diskContent) missing(acked []string) []string {
	var out []string
	for _, a := range acked {
		f := strings.SplitN(a, " ", 5)
		switch {
		case f[1] == "game":
			if _, ok := c.logs[f[2]]; !ok {
				out = append(out, a)
			}
		case f[1] == "append":
			v, _ := strconv.Atoi(f[3])
			log := c.logs[f[2]]
			if len(log) < v || log[v-1] != f[4] {
				out = append(out, a)
			}
		}
	}
	return out
}

// readCrashImage writes image to path, opens it as the bot does (every
// page checked), verifies it and reads every game's log.
func readCrashImage(path string, image []byte) diskContent {
	if err := os.WriteFile(path, image, 0o600); err != nil {
		return diskContent{err: err}
	}
	s, err := boltdb.Open(path, registry(), boltdb.Options{Verify: true, MustExist: true})
	if err != nil {
		return diskContent{err: err}
	}
	defer s.Close()
	c := diskContent{logs: map[string][]string{}}
	for i := 0; i < powerLossGames; i++ {
		ch := fmt.Sprintf("c%d", i)
		g, err := s.Get(context.Background(), ch)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return diskContent{err: err}
		}
		for _, e := range g.Log {
			c.logs[ch] = append(c.logs[ch], e.Action)
		}
		if c.logs[ch] == nil {
			c.logs[ch] = []string{}
		}
	}
	return c
}

// Linux amd64 system call numbers the tracer watches.
const (
	sysWrite     = 1
	sysPwrite64  = 18
	sysFsync     = 74
	sysFdatasync = 75
	sysFtruncate = 77
)

const ptraceExitKill = 0x100000 // PTRACE_O_EXITKILL

// traceWriter runs TestPowerLossWriter under ptrace and returns what it did
// to the file at path, and its acknowledgements, in order.
func traceWriter(t *testing.T, path string, appends int) []traceEvent {
	runtime.LockOSThread() // ptrace answers only the thread that started the tracee
	defer runtime.UnlockOSThread()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPowerLossWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d", powerLossEnv, path, appends))
	cmd.SysProcAttr = &syscall.SysProcAttr{Ptrace: true, Pdeathsig: syscall.SIGKILL}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, syscall.WALL, nil); err != nil || !ws.Stopped() {
		t.Fatalf("the writer did not stop at its start: %v %v", err, ws)
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACESYSGOOD|syscall.PTRACE_O_TRACECLONE|ptraceExitKill); err != nil {
		t.Fatal(err)
	}
	if err := syscall.PtraceSyscall(pid, 0); err != nil {
		t.Fatal(err)
	}
	tr := &tracer{path: path, inCall: map[int]*syscall.PtraceRegs{}, covers: map[int]int{}, seen: map[int]bool{pid: true}}
	exitCode := -1
	for {
		tid, err := syscall.Wait4(-1, &ws, syscall.WALL, nil)
		if errors.Is(err, syscall.ECHILD) {
			break
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case ws.Exited() || ws.Signaled():
			if tid == pid {
				exitCode = ws.ExitStatus()
			}
			delete(tr.inCall, tid)
			continue
		case !ws.Stopped():
			continue
		}
		sig := ws.StopSignal()
		deliver := 0
		switch {
		case sig == syscall.SIGTRAP|0x80:
			tr.syscallStop(tid)
		case sig == syscall.SIGTRAP && ws.TrapCause() > 0: // a clone event: the new thread is traced
		case sig == syscall.SIGSTOP && !tr.seen[tid]: // a new thread's first stop
		default:
			deliver = int(sig)
		}
		tr.seen[tid] = true
		syscall.PtraceSyscall(tid, deliver)
	}
	if exitCode != 0 || tr.err != nil {
		t.Fatalf("the traced writer: exit %d, %v\n%.3000s", exitCode, tr.err, stderr.String())
	}
	return tr.events
}

// tracer turns the writer's system calls into events.
type tracer struct {
	path   string
	inCall map[int]*syscall.PtraceRegs // per thread: the arguments of the call it is in
	covers map[int]int                 // per thread in a sync: the file operations complete as it began
	seen   map[int]bool
	events []traceEvent
	ops    int    // file operations recorded
	out    []byte // standard output not yet ended by a newline
	err    error
}

// syscallStop handles one stop at the entry to or exit from a system call.
func (tr *tracer) syscallStop(tid int) {
	var regs syscall.PtraceRegs
	if err := syscall.PtraceGetRegs(tid, &regs); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			// the thread is gone: the writer's exit took its other
			// threads down while they were stopped in a call
			delete(tr.inCall, tid)
			return
		}
		tr.err = err
		return
	}
	entry, ok := tr.inCall[tid]
	if !ok { // entering
		r := regs
		tr.inCall[tid] = &r
		if n := r.Orig_rax; n == sysFsync || n == sysFdatasync {
			tr.covers[tid] = tr.ops
		}
		return
	}
	delete(tr.inCall, tid)
	result := int64(regs.Rax)
	if result < 0 {
		return
	}
	fd := int(entry.Rdi)
	switch entry.Orig_rax {
	case sysPwrite64:
		if !tr.isDatabase(tid, fd) || result == 0 {
			return
		}
		data := make([]byte, result)
		if _, err := syscall.PtracePeekData(tid, uintptr(entry.Rsi), data); err != nil {
			tr.err = err
			return
		}
		tr.op(fileOp{kind: 'w', off: int64(entry.R10), data: data})
	case sysFsync, sysFdatasync:
		if tr.isDatabase(tid, fd) {
			tr.events = append(tr.events, traceEvent{op: fileOp{kind: 's', covers: tr.covers[tid]}})
		}
	case sysFtruncate:
		if tr.isDatabase(tid, fd) {
			tr.op(fileOp{kind: 't', size: int64(entry.Rsi)})
		}
	case sysWrite:
		if fd != 1 || result == 0 {
			return
		}
		data := make([]byte, result)
		if _, err := syscall.PtracePeekData(tid, uintptr(entry.Rsi), data); err != nil {
			tr.err = err
			return
		}
		tr.out = append(tr.out, data...)
		for {
			line, rest, ok := bytes.Cut(tr.out, []byte("\n"))
			if !ok {
				break
			}
			if bytes.HasPrefix(line, []byte("ack ")) {
				tr.events = append(tr.events, traceEvent{ack: string(line)})
			}
			tr.out = rest
		}
	}
}

func (tr *tracer) op(op fileOp) {
	tr.events = append(tr.events, traceEvent{op: op})
	tr.ops++
}

// isDatabase reports whether the thread's descriptor fd is the database file.
func (tr *tracer) isDatabase(tid, fd int) bool {
	target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%d", tid, fd))
	return err == nil && target == tr.path
}
