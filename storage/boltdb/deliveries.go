package boltdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/meeplegames/meeple/storage"

	bolt "go.etcd.io/bbolt"
)

// bktDeliveries holds the interactions delivered lately: interaction id →
// delivered (8, Unix ns). It is made at the first delivery and stands
// outside the layout (allBuckets): what it holds is forgotten within
// storage.KeyHorizon anyway, so an older Meeple may leave it be, and
// copies between stores leave it out.
const bktDeliveries = "deliveries"

// FirstDelivery records interaction id as delivered at at and reports
// whether it is its first delivery, as storage.Deliveries: durable when
// it returns, so a replay after a restart is refused too.
func (s *Store) FirstDelivery(ctx context.Context, id string, at time.Time) (bool, error) {
	if err := storage.CheckID("interaction", id); err != nil {
		return false, fmt.Errorf("storage: delivery: %w", err)
	}
	var first bool
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(bktDeliveries))
		if err != nil {
			return err
		}
		first = b.Get([]byte(id)) == nil
		if !first {
			return nil
		}
		if err := b.Put([]byte(id), binary.BigEndian.AppendUint64(nil, unixNano(at))); err != nil {
			return err
		}
		return s.pruneDue(tx)
	})
	if err != nil {
		return false, fmt.Errorf("storage: record delivery of interaction %.40s: %w", id, err)
	}
	return first, nil
}

// forgetDeliveries deletes from tx the interactions delivered before
// before.
func forgetDeliveries(tx *bolt.Tx, before time.Time) error {
	limit := unixNano(before)
	return forgetWhere(tx, bktDeliveries, func(_, v []byte) bool {
		return len(v) != 8 || binary.BigEndian.Uint64(v) < limit
	})
}

// forgetWhere deletes from tx's bucket name (which may not exist) the
// records old reports.
func forgetWhere(tx *bolt.Tx, name string, old func(k, v []byte) bool) error {
	b := bucket(tx, name)
	if b == nil {
		return nil
	}
	var drop [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if old(k, v) {
			drop = append(drop, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range drop {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
