package boltdb

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

// probeRoom is how much disk a write probe reserves beside the file: less
// than that free, and the next write that grows the file fails.
const probeRoom = 1 << 20

// Writable reports whether the store takes writes now, for a readiness
// probe. It commits a real write (the layout record rewritten as it is:
// the writer's turn, a page, the fsync) and reserves probeRoom bytes of
// disk beside the file for a moment (see haveRoom), so that a read-only
// file system, a failing disk and a full one all fail it, as they fail
// the writes that grow the file while writes into its free pages still
// pass.
func (s *Store) Writable() error {
	if s.readOnly {
		return storage.ErrReadOnly
	}
	err := s.update(context.Background(), func(tx *bolt.Tx) error {
		meta := bucket(tx, bktMeta)
		return meta.Put([]byte(keyLayout), bytes.Clone(meta.Get([]byte(keyLayout))))
	})
	if err == nil {
		err = haveRoom(filepath.Dir(s.path), probeRoom)
	}
	if err != nil {
		return fmt.Errorf("storage: %s takes no writes: %w", s.path, err)
	}
	return nil
}
