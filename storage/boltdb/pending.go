package boltdb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

// bktPending holds the pending replies (storage.Pending): interaction id
// → pending reply record. Like the deliveries bucket, it is made at the
// first reply kept and stands outside the layout (allBuckets): what it
// holds is forgotten within storage.PendingLife anyway, so an older
// Meeple may leave it be.
const bktPending = "pending"

// KeepPending keeps p, as storage.PendingReplies: durable when it returns.
func (s *Store) KeepPending(ctx context.Context, p storage.Pending) error {
	if err := storage.CheckPending(p); err != nil {
		return fmt.Errorf("storage: keep %w", err)
	}
	rec, err := storage.EncodePending(p)
	if err != nil {
		return err
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(bktPending))
		if err != nil {
			return err
		}
		return b.Put([]byte(p.ID), rec)
	})
	if err != nil {
		return fmt.Errorf("storage: keep pending reply of interaction %.40s: %w", p.ID, err)
	}
	return nil
}

// DropPending forgets the pending reply of interaction id, if any.
func (s *Store) DropPending(ctx context.Context, id string) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		if b := bucket(tx, bktPending); b != nil {
			return b.Delete([]byte(id))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: drop pending reply of interaction %.40s: %w", id, err)
	}
	return nil
}

// TakePending forgets the pending replies take accepts and returns them,
// in one transaction, as storage.PendingReplies. A damaged record stays
// (meeple check names it) and is reported beside the replies taken.
func (s *Store) TakePending(ctx context.Context, take func(p storage.Pending) bool) ([]storage.Pending, error) {
	var taken []storage.Pending
	var damaged error
	err := s.update(ctx, func(tx *bolt.Tx) error {
		taken, damaged = nil, nil // a batch may run fn again
		b := bucket(tx, bktPending)
		if b == nil {
			return nil
		}
		err := b.ForEach(func(k, v []byte) error {
			p, err := storage.DecodePending(string(k), v)
			switch {
			case err != nil:
				damaged = errors.Join(damaged, err)
			case take(p):
				taken = append(taken, p)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, p := range taken {
			if err := b.Delete([]byte(p.ID)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: take pending replies: %w", err)
	}
	if damaged != nil {
		damaged = fmt.Errorf("storage: take pending replies: %w", damaged)
	}
	return taken, damaged
}

// Committed reports whether a commit with key was kept (and not yet
// pruned), as storage.PendingReplies.
func (s *Store) Committed(ctx context.Context, key string) (bool, error) {
	var kept bool
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := bucket(tx, bktCommits)
		if b == nil {
			return nil // a file of layout 1, from before interaction keys
		}
		v := b.Get([]byte(key))
		if v == nil {
			return nil
		}
		_, err := keptAt(key, v)
		kept = err == nil
		return err
	})
	if err != nil {
		return false, fmt.Errorf("storage: find commit of interaction %.40s: %w", key, err)
	}
	return kept, nil
}

// forgetPending deletes from tx the pending replies received before
// before; a damaged record is kept (Verify reports it).
func forgetPending(tx *bolt.Tx, before time.Time) error {
	return forgetWhere(tx, bktPending, func(k, v []byte) bool {
		p, err := storage.DecodePending(string(k), v)
		return err == nil && p.Received.Before(before)
	})
}

// verifyPending checks that every pending reply of tx's file reads, under
// its own interaction's id.
func verifyPending(tx *bolt.Tx) error {
	b := bucket(tx, bktPending)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		_, err := storage.DecodePending(string(k), v)
		return err
	})
}
