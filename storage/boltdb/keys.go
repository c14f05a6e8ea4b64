package boltdb

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"time"

	"github.com/meeplegames/meeple/storage"
)

// Keys. Integers are big-endian so that keys sort by value; a Discord id
// inside a composite key is followed by a 0 byte, which ids never contain.

func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

func idString(k []byte) string {
	if len(k) != 8 {
		return fmt.Sprintf("%x", k)
	}
	return strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
}

// logKey is the key of a game's index-th log entry.
func logKey(id uint64, index int) []byte {
	return binary.BigEndian.AppendUint32(idKey(id), uint32(index))
}

func logKeyString(k []byte) string {
	if len(k) != 12 {
		return fmt.Sprintf("%x", k)
	}
	return fmt.Sprintf("%d/%d", binary.BigEndian.Uint64(k), binary.BigEndian.Uint32(k[8:]))
}

// prefixKey is an index key: a Discord id, a 0 byte, then a game id.
func prefixKey(prefix string, id uint64) []byte {
	k := append([]byte(prefix), 0)
	return binary.BigEndian.AppendUint64(k, id)
}

// dueKey orders timers by time, then game, then kind.
func dueKey(at time.Time, id uint64, kind storage.DueKind) []byte {
	k := binary.BigEndian.AppendUint64(nil, unixNano(at))
	k = binary.BigEndian.AppendUint64(k, id)
	return append(k, byte(kind))
}

// unixNano maps times before 1970 to 0, so they sort first and are due.
func unixNano(t time.Time) uint64 {
	n := t.UnixNano()
	if n < 0 {
		return 0
	}
	return uint64(n)
}
