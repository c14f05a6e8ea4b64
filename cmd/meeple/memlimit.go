package main

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"
)

// defaultMemoryLimit is the Go runtime's soft memory limit when neither the
// config (memory_limit) nor GOMEMLIMIT sets one: the collector works harder
// as the process nears it, and gives freed memory back to the system,
// which keeps a bot of 1,000 games well under 150 MB resident. The bot's
// caches are bounded by bytes well below it; a limit under what the bot
// really uses costs CPU (the collector runs more often), never a crash.
const defaultMemoryLimit = 104 << 20

// byteSize is an amount of memory written as GOMEMLIMIT writes it: a
// number of bytes with an optional unit B, KiB, MiB, GiB or TiB ("120MiB"),
// or "0" for none.
type byteSize struct{ n int64 }

func (b *byteSize) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	shift := uint(0)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, shift = strings.TrimSpace(rest), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return fmt.Errorf("%s is not an amount of memory (write it like \"120MiB\" or \"1GiB\", or \"0\" for no limit)", shown(string(text)))
	}
	b.n = n << shift
	return nil
}

// applyMemoryLimit sets the runtime's soft memory limit: GOMEMLIMIT when
// set (the runtime has read it already), else the config's memory_limit,
// else defaultMemoryLimit. "0" leaves the process without a limit.
func applyMemoryLimit(c config, getenv func(string) string, log *slog.Logger) {
	if getenv("GOMEMLIMIT") != "" {
		log.Info("memory limit from GOMEMLIMIT", "limit", getenv("GOMEMLIMIT"))
		return
	}
	limit := int64(defaultMemoryLimit)
	if c.MemoryLimit != nil {
		limit = c.MemoryLimit.n
	}
	if limit == 0 {
		return
	}
	debug.SetMemoryLimit(limit)
	log.Debug("memory limit", "MiB", limit>>20)
}
