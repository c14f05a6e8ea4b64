// Package shard says which gateway shard a guild belongs to and which
// shards a process runs. Discord sends a guild's events to shard
// (guild_id >> 22) % shard_count and direct messages to shard 0; a bot too
// large for one gateway connection runs several, possibly spread over
// several processes.
//
// It imports only the standard library; its values are safe for
// concurrent use once built.
package shard

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxCount bounds a shard count: far more than Discord recommends for any
// bot (it asks for one shard per 1,000 guilds).
const MaxCount = 1 << 16

// Of returns the shard, of count, that receives guild's events: Discord's
// (guild_id >> 22) % count. Events of no guild ("": direct messages) go to
// shard 0. ok is false for an id that is not a snowflake or a count below 1.
func Of(guild string, count int) (id int, ok bool) {
	if count < 1 {
		return 0, false
	}
	if guild == "" {
		return 0, true
	}
	g, err := strconv.ParseUint(guild, 10, 64)
	if err != nil {
		return 0, false
	}
	return int((g >> 22) % uint64(count)), true
}

// Set is the shards one process runs: IDs, ascending, of Count in all.
// The zero value is one process running everything (shard 0 of 1).
type Set struct {
	IDs   []int
	Count int
}

// All returns every shard of count.
func All(count int) Set {
	s := Set{Count: max(count, 1)}
	for id := range s.Count {
		s.IDs = append(s.IDs, id)
	}
	return s
}

// Normal returns s with the zero value spelled out: shard 0 of 1.
func (s Set) Normal() Set {
	if s.Count == 0 && len(s.IDs) == 0 {
		return All(1)
	}
	return s
}

// Check reports what is wrong with s, if anything.
func (s Set) Check() error {
	s = s.Normal()
	if s.Count < 1 || s.Count > MaxCount {
		return fmt.Errorf("shard count %d: want 1 to %d", s.Count, MaxCount)
	}
	if len(s.IDs) == 0 {
		return errors.New("no shards to run")
	}
	for i, id := range s.IDs {
		if id < 0 || id >= s.Count {
			return fmt.Errorf("shard %d is outside 0-%d (the shard count is %d)", id, s.Count-1, s.Count)
		}
		if i > 0 && id <= s.IDs[i-1] {
			return fmt.Errorf("shard %d is listed twice or out of order", id)
		}
	}
	return nil
}

// Whole reports whether s runs every shard: a process alone.
func (s Set) Whole() bool {
	s = s.Normal()
	return len(s.IDs) == s.Count
}

// Holds reports whether s receives guild's events ("" for direct
// messages, which go to shard 0).
func (s Set) Holds(guild string) bool {
	s = s.Normal()
	id, ok := Of(guild, s.Count)
	if !ok {
		return false
	}
	_, found := slices.BinarySearch(s.IDs, id)
	return found
}

// String writes s as ParseRange reads it, with its count: "0-3 of 8".
func (s Set) String() string {
	s = s.Normal()
	var parts []string
	for i := 0; i < len(s.IDs); {
		j := i
		for j+1 < len(s.IDs) && s.IDs[j+1] == s.IDs[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(s.IDs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", s.IDs[i], s.IDs[j]))
		}
		i = j + 1
	}
	return fmt.Sprintf("%s of %d", strings.Join(parts, ","), s.Count)
}

// ParseRange reads which shards a process runs: "0-3", "5", or a
// comma-separated list of both ("0-1,4"). The result is ascending and
// checked against count.
func ParseRange(text string, count int) (Set, error) {
	s := Set{Count: count}
	if count < 1 || count > MaxCount {
		return Set{}, fmt.Errorf("shard count %d: want 1 to %d", count, MaxCount)
	}
	for part := range strings.SplitSeq(text, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		first, err1 := strconv.Atoi(strings.TrimSpace(lo))
		last, err2 := first, error(nil)
		if isRange {
			last, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || first < 0 || last < first {
			return Set{}, fmt.Errorf("shards %q: %q is not a shard or a range like \"0-3\"", text, part)
		}
		if last >= count || last-first >= MaxCount {
			return Set{}, fmt.Errorf("shards %q: shard %d is outside 0-%d (the shard count is %d)", text, last, count-1, count)
		}
		for id := first; id <= last; id++ {
			s.IDs = append(s.IDs, id)
		}
	}
	slices.Sort(s.IDs)
	if len(s.IDs) != len(slices.Compact(slices.Clone(s.IDs))) {
		return Set{}, fmt.Errorf("shards %q: a shard is named twice", text)
	}
	return s, s.Check()
}
