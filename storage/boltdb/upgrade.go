package boltdb

import (
	"encoding/binary"
	"fmt"

	"github.com/meeplegames/meeple/storage"
	bolt "go.etcd.io/bbolt"
)

// UpgradeBackup is where Open keeps the copy of a file it upgrades to the
// current layout, beside the file: path + UpgradeBackup.
const UpgradeBackup = ".before-layout-2.bak"

// fileLayout reads the layout version of tx's file.
func fileLayout(tx *bolt.Tx) uint64 {
	v, _ := binary.Uvarint(bucket(tx, bktMeta).Get([]byte(keyLayout)))
	return v
}

// upgrade brings a file of layout 1 to layout 2, once: it first writes a
// checked backup beside the file (path + UpgradeBackup), then, in one
// transaction, re-encodes every record with its checksum, creates the
// commits bucket and records layout 2. A record that does not read stops
// the upgrade, which then changes nothing: the error names it.
func (s *Store) upgrade() error {
	if _, err := s.BackupFile(s.path + UpgradeBackup); err != nil {
		return fmt.Errorf("upgrading the file to layout %d needs a backup first, and it failed: %w", layoutVersion, err)
	}
	old := storage.NewCodec() // reads both layouts' records
	err := s.guard(func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			kinds := []struct{ bucket, kind string }{
				{bktGames, storage.RecGame}, {bktLog, storage.RecEntry}, {bktSnapshots, storage.RecSnapshot},
				{bktStats, storage.RecStats}, {bktGuilds, storage.RecGuild}, {bktUsers, storage.RecUser},
			}
			for _, k := range kinds {
				if err := s.reseal(tx, old, k.bucket, k.kind); err != nil {
					return err
				}
			}
			if _, err := tx.CreateBucketIfNotExists([]byte(bktCommits)); err != nil {
				return err
			}
			return bucket(tx, bktMeta).Put([]byte(keyLayout), binary.AppendUvarint(nil, layoutVersion))
		})
	})
	if err != nil {
		return fmt.Errorf("upgrading the file to layout %d (nothing was changed; a copy is in %s): %w", layoutVersion, s.path+UpgradeBackup, err)
	}
	s.log.Info("storage: upgraded the database to the current layout: every record now carries a checksum",
		"path", s.path, "layout", layoutVersion, "backup", s.path+UpgradeBackup)
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
