package boltdb_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	bolt "go.etcd.io/bbolt"
)

// TestFailedBackupKeepsThePreviousOne takes a good backup, then damages
// one game record of the database (its pages stay sound) and backs up
// again over the first backup, as a nightly job does: the second backup
// fails naming the damage, the first is byte for byte as it was, and no
// half-written copy is left beside it.
func TestFailedBackupKeepsThePreviousOne(t *testing.T) {
	path := fillStore(t, 3, 4)
	nightly := filepath.Join(t.TempDir(), "nightly.db")
	s := openStore(t, path, boltdb.Options{})
	if _, err := s.BackupFile(nightly); err != nil {
		t.Fatal(err)
	}
	s.Close()
	good, _ := os.ReadFile(nightly)
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		k, v := b.Cursor().First()
		return b.Put(k, bytes.Replace(v, []byte(`"kind":"race"`), []byte(`"kind":"rbce"`), 1))
	})
	s, err := boltdb.Open(path, registry(), boltdb.Options{}) // a running bot: it opened before the damage could be seen
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.BackupFile(nightly)
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "game record 1") {
		t.Fatalf("backup of a damaged database: %v, want ErrCorrupt naming game record 1", err)
	}
	if now, _ := os.ReadFile(nightly); !bytes.Equal(now, good) {
		t.Fatal("the failed backup changed the previous one")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(nightly), "*.tmp")); len(left) > 0 {
		t.Fatalf("the failed backup left %v", left)
	}
}
