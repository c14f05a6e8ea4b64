package boltdb

import (
	"encoding/binary"
	"fmt"

	"github.com/meeplegames/meeple/storage"
	bolt "go.etcd.io/bbolt"
)

// UpgradeBackup is where Open keeps the copy of a layout 1 file it
// upgrades, beside the file: path + UpgradeBackup.
const UpgradeBackup = ".before-layout-2.bak"

// fileLayout reads the layout version of tx's file.
func fileLayout(tx *bolt.Tx) uint64 {
	v, _ := binary.Uvarint(bucket(tx, bktMeta).Get([]byte(keyLayout)))
	return v
}

// upgrade brings a file of an older layout to the current one, once, in
// one transaction. From layout 1 it first writes a checked backup beside
// the file (path + UpgradeBackup), re-encodes every record with its
// checksum and creates the commits bucket; from layout 1 or 2 it counts
// the games into the tally (which only adds a bucket, so needs no
// backup); from layout 3 or older it gives running games their waits and
// fills the seat index (fillSeats). A record that does not read stops the upgrade, which then
// changes nothing: the error names it.
func (s *Store) upgrade(from uint64) error {
	backup := ""
	if from < 2 {
		backup = s.path + UpgradeBackup
		if _, err := s.BackupFile(backup); err != nil {
			return fmt.Errorf("upgrading the file to layout %d needs a backup first, and it failed: %w", layoutVersion, err)
		}
	}
	old := storage.NewCodec() // reads both record encodings
	err := s.guard(func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			if from < 2 {
				if err := s.resealAll(tx, old); err != nil {
					return err
				}
			}
			if bucket(tx, bktTally) != nil { // counted afresh below
				if err := tx.DeleteBucket([]byte(bktTally)); err != nil {
					return err
				}
			}
			for _, name := range allBuckets() {
				if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
					return err
				}
			}
			counts, err := s.countGames(tx)
			if err != nil {
				return err
			}
			if err := fillTally(tx, counts); err != nil {
				return err
			}
			if from < 4 {
				if err := s.fillSeats(tx); err != nil {
					return err
				}
			}
			return bucket(tx, bktMeta).Put([]byte(keyLayout), binary.AppendUvarint(nil, layoutVersion))
		})
	})
	if err != nil && backup != "" {
		return fmt.Errorf("upgrading the file to layout %d (nothing was changed; a copy is in %s): %w", layoutVersion, backup, err)
	}
	if err != nil {
		return fmt.Errorf("upgrading the file to layout %d (nothing was changed): %w", layoutVersion, err)
	}
	s.log.Info("storage: upgraded the database to the current layout: every record carries a checksum, games are counted by kind, and each user's seats are indexed",
		"path", s.path, "from", from, "layout", layoutVersion, "backup", backup)
	return nil
}

// resealAll re-encodes the records of every bucket that holds them in the
// current schema, with their checksums (layout 1 to 2).
func (s *Store) resealAll(tx *bolt.Tx, c storage.Codec) error {
	kinds := []struct{ bucket, kind string }{
		{bktGames, storage.RecGame}, {bktLog, storage.RecEntry}, {bktSnapshots, storage.RecSnapshot},
		{bktStats, storage.RecStats}, {bktGuilds, storage.RecGuild}, {bktUsers, storage.RecUser},
	}
	for _, k := range kinds {
		if err := s.reseal(tx, c, k.bucket, k.kind); err != nil {
			return err
		}
	}
	return nil
}

// reseal rewrites every record of one bucket in the current schema, with
// its checksum.
func (s *Store) reseal(tx *bolt.Tx, c storage.Codec, name, kind string) error {
	b := bucket(tx, name)
	type record struct{ k, v []byte }
	var out []record
	err := b.ForEach(func(k, v []byte) error {
		key := recordKey(name, k)
		var data []byte
		switch kind {
		case storage.RecGame:
			g, err := c.DecodeGame(key, v)
			if err != nil {
				return err
			}
			if data, err = c.EncodeGame(g); err != nil {
				return err
			}
		case storage.RecEntry:
			e, err := c.DecodeEntry(key, v)
			if err != nil {
				return err
			}
			data = c.EncodeEntry(e)
		case storage.RecSnapshot:
			snap, err := c.DecodeSnapshot(key, v)
			if err != nil {
				return err
			}
			data = c.EncodeSnapshot(snap)
		default:
			payload, err := c.Open(kind, key, v)
			if err != nil {
				return err
			}
			sealer := c
			if name == bktGuilds || name == bktUsers {
				sealer = c.Keyed(string(k)) // their contents do not name their key
			}
			data = sealer.Seal(kind, payload)
		}
		out = append(out, record{append([]byte(nil), k...), data})
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range out {
		if err := b.Put(r.k, r.v); err != nil {
			return err
		}
	}
	return nil
}
