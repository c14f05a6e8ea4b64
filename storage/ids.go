package storage

import (
	"fmt"
	"unicode/utf8"
)

// MaxIDLen bounds a Discord id (a snowflake has at most 20 digits; the
// margin allows other chat systems' ids).
const MaxIDLen = 64

// checkID refuses an id that cannot be a key: empty, too long, not UTF-8
// or holding a 0 byte.
func checkID(what, id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: no %s id", ErrInvalid, what)
	case len(id) > MaxIDLen || !utf8.ValidString(id):
		return fmt.Errorf("%w: bad %s id %.20q", ErrInvalid, what, id)
	}
	for i := 0; i < len(id); i++ {
		if id[i] < ' ' {
			return fmt.Errorf("%w: bad %s id %.20q", ErrInvalid, what, id)
		}
	}
	return nil
}
