//go:build linux || darwin || freebsd || netbsd || openbsd

package terminal

import (
	"os"

	"golang.org/x/sys/unix"
)

// ScreenWidth is the width in characters of the terminal f is, or 0 when
// f is not a terminal.
func ScreenWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
