package boltdb

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

// Layout returns the version of the bucket layout the file holds, and the
// newest version this build reads (Open refuses a file newer than that).
func (s *Store) Layout() (file, current uint64, err error) {
	err = s.view(context.Background(), func(tx *bolt.Tx) error {
		v, n := binary.Uvarint(bucket(tx, bktMeta).Get([]byte(keyLayout)))
		if n <= 0 {
			return fmt.Errorf("%w: no layout version", storage.ErrCorrupt)
		}
		file = v
		return nil
	})
	if err != nil {
		return 0, layoutVersion, fmt.Errorf("storage: layout of %s: %w", s.path, err)
	}
	return file, layoutVersion, nil
}
