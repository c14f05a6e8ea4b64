//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the side a program runs on (a
// terminal to it) and the side the test reads and types on.
func openPTY(t *testing.T) (program, user *os.File) {
	t.Helper()
	user, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { user.Close() })
	if err := unix.IoctlSetPointerInt(int(user.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(user.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	program, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { program.Close() })
	if err := unix.IoctlSetWinsize(int(program.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: 132}); err != nil {
		t.Fatal(err)
	}
	return program, user
}

// TestHotSeatOnATerminal runs "meeple play" for two people on a
// pseudo-terminal, as a person would: it sees the terminal through the
// redaction around stdout, so it writes in colour and clears the screen
// before it asks for the keyboard to be passed on.
func TestHotSeatOnATerminal(t *testing.T) {
	t.Parallel()
	bin := buildMeeple(t)
	program, user := openPTY(t)
	cmd := exec.Command(bin, "play", "-game", "eightydays", "-players", "2", "-seats", "human,human", "-seed", "3", "-images", t.TempDir())
	cmd.Stdin, cmd.Stdout, cmd.Stderr = program, program, program
	cmd.Env = append(os.Environ(), "TERM=xterm", "NO_COLOR=", "COLUMNS=")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()
	var screen lockedBuffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := user.Read(buf)
			_, _ = screen.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	deadline := time.Now().Add(30 * time.Second) // a bound, so that a missing prompt fails rather than hangs
	for !strings.Contains(screen.String(), "Pass the keyboard") {
		if time.Now().After(deadline) {
			t.Fatalf("no hand-over on the screen:\n%q", screen.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	out := screen.String()
	before, _, _ := strings.Cut(out, "Pass the keyboard")
	if !strings.Contains(before, "\x1b[H\x1b[2J\x1b[3J") {
		t.Errorf("the screen was not cleared before the hand-over:\n%q", out)
	}
	if !strings.Contains(out, "\x1b[1m") {
		t.Errorf("no colour or bold on a terminal:\n%q", out)
	}
}
