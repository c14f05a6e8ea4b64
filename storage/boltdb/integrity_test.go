package boltdb_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/storetest"
	bolt "go.etcd.io/bbolt"
)

// fillStore writes a file with games games of actions actions each and
// returns its path.
func fillStore(t testing.TB, games, actions int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "meeple.db")
	s, err := boltdb.Open(path, registry(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < games; i++ {
		ch := fmt.Sprintf("c%d", i)
		newRace(t, s, "g1", ch, 2, "1000000")
		for j := 0; j < actions; j++ {
			play(t, s, ch)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// rawUpdate edits a closed store's file with bbolt directly.
func rawUpdate(t testing.TB, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenDetectsDamagedFiles(t *testing.T) {
	good := fillStore(t, 40, 20)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	damaged := map[string][]byte{
		"truncated":       data[:len(data)/2],
		"truncated-tiny":  data[:1000],
		"not a database":  bytes.Repeat([]byte("meeple "), 2000),
		"headers zeroed":  append(make([]byte, 8192), data[8192:]...),
		"header bit flip": flipByte(data, 16+20), // inside meta page 0's root bucket id
	}
	for name, content := range damaged {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".db")
		if err := os.WriteFile(path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := boltdb.Open(path, registry(), boltdb.Options{})
		if name == "header bit flip" && err == nil {
			// bbolt falls back to the second header page, which is intact:
			// the file must then read back whole.
			if err := s.Verify(); err != nil {
				t.Errorf("%s: opened on the intact second header, but Verify: %v", name, err)
			}
			s.Close()
			continue
		}
		want := storage.ErrCorrupt
		if name == "not a database" {
			want = storage.ErrNotDatabase
		}
		if !errors.Is(err, want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Open error %v, want %v naming %s", name, err, want, path)
		}
	}
}

func flipByte(data []byte, at int) []byte {
	out := bytes.Clone(data)
	out[at] ^= 0x40
	return out
}

func TestVerifyFindsDamagedRecords(t *testing.T) {
	path := fillStore(t, 3, 5)
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("log"))
		k, _ := b.Cursor().First()
		return b.Put(k, []byte{1, 0xff}) // an entry with a broken seat
	})
	if _, err := boltdb.Open(path, registry(), boltdb.Options{Verify: true}); !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "entry record 1/0") {
		t.Fatalf("Open with Verify (as run does): %v, want ErrCorrupt naming entry 1/0", err)
	}
	s := openStore(t, path, boltdb.Options{})
	err := s.Verify()
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "entry record 1/0") {
		t.Fatalf("Verify: %v, want ErrCorrupt naming entry 1/0", err)
	}
	if _, err := s.Get(context.Background(), "c0"); !errors.Is(err, storage.ErrCorrupt) {
		t.Fatalf("Get of the damaged game: %v, want ErrCorrupt", err)
	}
	if _, err := s.Get(context.Background(), "c1"); err != nil {
		t.Fatalf("an undamaged game: %v", err)
	}
}

// TestOldGameRecordStillLoads writes a game record as schema 1 stored it
// (the lobby's time limits among the message ids) into a real file: the
// store reads it with its timing, plays on, and writes schema 2 back.
func TestOldGameRecordStillLoads(t *testing.T) {
	path := fillStore(t, 1, 2)
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		k, v := b.Cursor().First()
		_, n := binary.Uvarint(v)
		var rec map[string]any
		if err := json.Unmarshal(v[n:len(v)-4], &rec); err != nil { // the payload, without its checksum
			return err
		}
		delete(rec, "timing")
		rec["messages"] = map[string]string{"board": "m1", "setting.deadline": "48h0m0s", "setting.reminder": "12h0m0s", "setting.on-deadline": "computer"}
		payload, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		// Schema 1 records live in files of layout 1, which Open upgrades,
		// and which have no seat index.
		if err := tx.Bucket([]byte("meta")).Put([]byte("layout"), []byte{1}); err != nil {
			return err
		}
		if err := tx.DeleteBucket([]byte("user-seats")); err != nil {
			return err
		}
		return b.Put(k, append([]byte{1}, payload...))
	})
	s := openStore(t, path, boltdb.Options{Verify: true})
	g, _, err := s.Load(context.Background(), "c0")
	if err != nil {
		t.Fatalf("load of a schema-1 game: %v", err)
	}
	want := storage.Timing{TurnDeadline: 48 * time.Hour, ReminderEvery: 12 * time.Hour, OnDeadline: "computer"}
	if g.Timing != want || len(g.Messages) != 1 || g.Messages["board"] != "m1" || g.Version != 2 {
		t.Fatalf("schema-1 game read as timing %+v, messages %v, version %d", g.Timing, g.Messages, g.Version)
	}
	play(t, s, "c0")
	if _, err := s.Update(context.Background(), "c0", storetest.GameIn(t, s, "c0"), func(g *storage.Game) error { g.Timing.OnDeadline = "pause"; return nil }); err != nil {
		t.Fatal(err)
	}
	s.Close()
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		_, v := tx.Bucket([]byte("games")).Cursor().First()
		if v[0] != byte(storage.GameSchema()) || bytes.Contains(v, []byte("setting.")) || !bytes.Contains(v, []byte(`"on_deadline":"pause"`)) {
			t.Errorf("rewritten record %s", v)
		}
		return nil
	})
	if _, err := os.Stat(path + boltdb.UpgradeBackup); err != nil {
		t.Errorf("the upgrade left no backup of the layout-1 file: %v", err)
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	path := fillStore(t, 1, 2)
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("games"))
		k, v := b.Cursor().First()
		return b.Put(k, newerRecord(v, 7))
	})
	s := openStore(t, path, boltdb.Options{ReadOnly: true})
	_, err := s.Get(context.Background(), "c0")
	var se *storage.SchemaError
	if !errors.Is(err, storage.ErrNewerSchema) || !errors.As(err, &se) || se.Got != 7 || !strings.Contains(err.Error(), "upgrade") {
		t.Fatalf("Get of a schema-7 record: %v, want a SchemaError asking for an upgrade", err)
	}
	s.Close()

	rawUpdate(t, path, func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("layout"), binary.AppendUvarint(nil, 5))
	})
	if _, err := boltdb.Open(path, registry(), boltdb.Options{}); !errors.Is(err, storage.ErrNewerSchema) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open of a newer layout: %v, want ErrNewerSchema naming the path", err)
	}
}

func TestLoadRepairsABadSnapshotFromTheLog(t *testing.T) {
	damage := map[string]func(v []byte) []byte{
		"flipped state byte": func(v []byte) []byte { return flipByte(v, len(v)-3) },
		"stale version": func(v []byte) []byte {
			_, n := binary.Uvarint(v[1:])
			return append([]byte{1, 3}, v[1+n:]...) // claims version 3
		},
		"unreadable": func([]byte) []byte { return []byte{9, 9} },
		"missing":    nil,
	}
	for name, fn := range damage {
		t.Run(name, func(t *testing.T) {
			path := fillStore(t, 1, 12)
			var before []byte
			rawUpdate(t, path, func(tx *bolt.Tx) error {
				b := tx.Bucket([]byte("snapshots"))
				k, v := b.Cursor().First()
				before = bytes.Clone(v)
				if fn == nil {
					return b.Delete(k)
				}
				return b.Put(k, fn(v))
			})
			var logs logBuffer
			s := openStore(t, path, boltdb.Options{Logger: newLogger(&logs)})
			g, state, err := s.Load(context.Background(), "c0")
			if err != nil {
				t.Fatal(err)
			}
			data, _ := state.Encode()
			if !bytes.Equal(data, replayed(t, g)) {
				t.Fatal("repaired state differs from the replay")
			}
			mustContain(t, "log", logs.String(), "repaired", "channel=c0", "version=12")
			if ok, err := s.Verified(context.Background(), "c0"); !ok || err != nil {
				t.Fatalf("stored snapshot after the repair: verified %v, %v", ok, err)
			}
			s.Close()
			rawUpdate(t, path, func(tx *bolt.Tx) error {
				c := storage.NewCodec()
				_, v := tx.Bucket([]byte("snapshots")).Cursor().First()
				now, err := c.DecodeSnapshot("1", v)
				was, _ := c.DecodeSnapshot("1", before)
				if err != nil || now.Version != was.Version || !bytes.Equal(now.State, was.State) || now.Revision <= was.Revision {
					t.Errorf("the repaired snapshot record (%v) is not the original's state at a new revision", err)
				}
				return nil
			})
		})
	}
}

func TestBackupIsAConsistentOnlineCopy(t *testing.T) {
	s := openStore(t, "", boltdb.Options{})
	for i := 0; i < 5; i++ {
		newRace(t, s, "g1", fmt.Sprintf("c%d", i), 2, "1000000")
	}
	// Writers keep appending while the backup runs.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func(ch string) {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					play(t, s, ch)
				}
			}
		}(fmt.Sprintf("c%d", i))
	}
	for g, _ := s.Get(context.Background(), "c0"); g.Version < 20; g, _ = s.Get(context.Background(), "c0") {
		runtime.Gosched()
	}
	path := filepath.Join(t.TempDir(), "backup.db")
	for i := 0; i < 3; i++ { // several backups, so that some overlap the writers
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Backup(f); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	copy := openStore(t, path, boltdb.Options{Verify: true})
	if err := copy.Verify(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		ch := fmt.Sprintf("c%d", i)
		g, err := copy.Get(context.Background(), ch)
		if err != nil {
			t.Fatal(err)
		}
		live, _ := s.Get(context.Background(), ch)
		if g.Version > live.Version || !bytes.Equal(g.Snapshot, replayed(t, g)) {
			t.Fatalf("%s in the backup: version %d (live %d), snapshot equal to replay: %v", ch, g.Version, live.Version, bytes.Equal(g.Snapshot, replayed(t, g)))
		}
	}
}

// TestExportImportRoundTrip writes a game as a script (what "meeple
// export" prints), reads it back and creates it in another channel (what
// "meeple import" does): the imported game has the same log and state.
func TestExportImportRoundTrip(t *testing.T) {
	s := openStore(t, "", boltdb.Options{})
	newRace(t, s, "g1", "c1", 3, "1000")
	for i := 0; i < 25; i++ {
		play(t, s, "c1")
	}
	orig, _ := s.Get(context.Background(), "c1")
	var script bytes.Buffer
	if err := engine.WriteScript(&script, orig.Kind, orig.Setup, orig.Moves()); err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(script.String(), "\n")
	if header != "# game race players 3 seed 42 goal=1000" {
		t.Fatalf("script header %q", header)
	}
	kind, setup, ok := engine.ScriptHeader(header)
	moves, err := engine.ReadScript(&script)
	if !ok || err != nil {
		t.Fatalf("reading the script back: %v %v", ok, err)
	}
	imported := &storage.Game{Kind: kind, Guild: "g2", Channel: "c2", Status: storage.StatusRunning, Setup: setup, Seats: orig.Seats}
	for _, m := range moves {
		imported.Log = append(imported.Log, storage.Entry{Seat: m.Seat, Action: m.Action})
	}
	if err := s.Create(context.Background(), imported); err != nil {
		t.Fatal(err)
	}
	back, _ := s.Get(context.Background(), "c2")
	if back.Version != 25 || !bytes.Equal(back.Snapshot, orig.Snapshot) || fmt.Sprint(back.Moves()) != fmt.Sprint(orig.Moves()) {
		t.Fatalf("imported game: version %d, same state %v", back.Version, bytes.Equal(back.Snapshot, orig.Snapshot))
	}
}

// TestDamagedPagesNeverCrash damages each page of a file in turn and uses
// the store: bbolt panics when it meets a damaged page, and the store must
// turn that into an ErrCorrupt error for the request concerned. Every
// damaged branch or leaf page must be found by Open or Verify.
func TestDamagedPagesNeverCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("opens the file once per page")
	}
	const games = 30
	path := fillStore(t, games, 20)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := os.Getpagesize()
	types := map[int]string{}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *bolt.Tx) error {
		for id := 2; id < len(data)/pageSize; id++ {
			if info, err := tx.Page(id); err == nil && info != nil {
				types[id] = info.Type
			}
		}
		return nil
	})
	db.Close()
	corruptOrMissing := func(err error) bool {
		return err == nil || errors.Is(err, storage.ErrCorrupt) || errors.Is(err, storage.ErrNotFound)
	}
	checked := 0
	for id := 2; id < len(data)/pageSize; id++ {
		damaged := bytes.Clone(data)
		copy(damaged[id*pageSize:], bytes.Repeat([]byte{0xAB}, 64))
		if err := os.WriteFile(path, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := boltdb.Open(path, registry(), boltdb.Options{})
		if err != nil {
			if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), path) {
				t.Fatalf("page %d: Open: %v, want ErrCorrupt naming the file", id, err)
			}
			checked++
			continue
		}
		verr := s.Verify()
		if (types[id] == "leaf" || types[id] == "branch") && !errors.Is(verr, storage.ErrCorrupt) {
			t.Errorf("page %d (%s) damaged: Verify says %v", id, types[id], verr)
		}
		if verr != nil {
			checked++
		}
		for i := 0; i < games; i++ {
			ch := fmt.Sprintf("c%d", i)
			g, state, err := s.Load(context.Background(), ch)
			if err == nil && state != nil {
				_, err = step(s, g, state)
			}
			if !corruptOrMissing(err) && !errors.Is(err, storage.ErrStale) {
				var re *storage.ReplayError
				if !errors.As(err, &re) {
					t.Errorf("page %d (%s) damaged: game %s: %v", id, types[id], ch, err)
				}
			}
		}
		if _, err := s.ListActive(context.Background(), "g1"); !corruptOrMissing(err) {
			t.Errorf("page %d damaged: ListActive: %v", id, err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("page %d damaged: Close: %v", id, err)
		}
		if types[id] == "leaf" || types[id] == "branch" {
			s, err := boltdb.Open(path, registry(), boltdb.Options{Verify: true, LockTimeout: 50 * time.Millisecond})
			if err == nil {
				s.Close()
				t.Errorf("page %d (%s) damaged: Open with Verify accepted the file", id, types[id])
			} else if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), path) {
				t.Errorf("page %d (%s) damaged: Open with Verify: %v, want ErrCorrupt naming the file", id, types[id], err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no damaged page was found")
	}
	t.Logf("%d pages damaged one at a time, %d found by Open or Verify, no crash", len(data)/pageSize-2, checked)
}

// TestNewerRecordIsRefusedBeforeAnyWrite puts a newer game record, then a
// newer log entry in the middle of a log, into a file of the current
// layout: opening it to write fails naming the record, and leaves the file
// byte for byte as it was; opening it to read still serves the games it
// understands.
func TestNewerRecordIsRefusedBeforeAnyWrite(t *testing.T) {
	for _, c := range []struct{ bucket, record string }{{"games", "game record 1"}, {"log", "entry record 2/3"}} {
		path := fillStore(t, 2, 6)
		rawUpdate(t, path, func(tx *bolt.Tx) error {
			b := tx.Bucket([]byte(c.bucket))
			k, v := b.Cursor().First()
			if c.bucket == "log" {
				k = append(binary.BigEndian.AppendUint64(nil, 2), 0, 0, 0, 3)
				v = b.Get(k)
			}
			return b.Put(k, newerRecord(v, 9))
		})
		before, _ := os.ReadFile(path)
		_, err := boltdb.Open(path, registry(), boltdb.Options{Verify: true})
		var se *storage.SchemaError
		if !errors.Is(err, storage.ErrNewerSchema) || !errors.As(err, &se) || !strings.Contains(err.Error(), c.record) {
			t.Errorf("%s: Open to write (as run and import do): %v, want a SchemaError naming %s", c.bucket, err, c.record)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s: the refused open changed the file", c.bucket)
		}
		if c.bucket == "games" { // without Verify, the write itself refuses
			s := openStore(t, path, boltdb.Options{})
			if _, err := s.Append(context.Background(), "c0", storetest.GuardAt(t, s, "c0", 6), storage.Entry{Action: "roll"}, []byte("x")); !errors.Is(err, storage.ErrNewerSchema) {
				t.Errorf("append to a game with a newer record: %v, want ErrNewerSchema", err)
			}
			s.Close()
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Errorf("the refused append changed the file")
			}
		}
		s := openStore(t, path, boltdb.Options{ReadOnly: true})
		defer s.Close()
		if _, err := s.Get(context.Background(), "c0"); c.bucket == "log" && err != nil {
			t.Errorf("%s: the game without newer records: %v", c.bucket, err)
		}
		if _, err := s.Get(context.Background(), "c1"); c.bucket == "log" && !errors.Is(err, storage.ErrNewerSchema) {
			t.Errorf("%s: the game with a newer entry: %v, want ErrNewerSchema", c.bucket, err)
		}
	}
}

// TestCheckReadsWithoutWriting: Check counts a sound file's games, leaves
// it byte for byte as it was, refuses a damaged one and does not wait for
// a file another store holds.
func TestCheckReadsWithoutWriting(t *testing.T) {
	path := fillStore(t, 3, 4)
	before, _ := os.ReadFile(path)
	sum, err := boltdb.Check(path, registry())
	if err != nil || sum.Total != 3 || sum.Active != 3 {
		t.Fatalf("Check: %+v, %v", sum, err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("Check changed the file")
	}
	damaged := bytes.Clone(before)
	for at := 2 * 4096; at < len(damaged); at += 4096 { // every page header past the file's own
		copy(damaged[at:], bytes.Repeat([]byte{0xFF}, 16))
	}
	os.WriteFile(path, damaged, 0o600)
	if _, err := boltdb.Check(path, registry()); !errors.Is(err, storage.ErrCorrupt) {
		t.Fatalf("Check of a damaged file: %v", err)
	}
	os.WriteFile(path, before, 0o600)
	s := openStore(t, path, boltdb.Options{})
	if _, err := boltdb.Check(s.Path(), registry()); !errors.Is(err, boltdb.ErrInUse) {
		t.Fatalf("Check of a held file: %v", err)
	}
}

// TestAnUnknownGameKindIsDamage: every stored game was created with a game
// the program offers, so a record naming another one (a damaged byte in
// its kind) is refused as corrupt, naming the record.
func TestAnUnknownGameKindIsDamage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meeple.db")
	s := openStore(t, path, boltdb.Options{})
	newRace(t, s, "g1", "c1", 2, "50")
	play(t, s, "c1")
	s.Close()
	other, err := boltdb.Open(path, engine.NewRegistry(), boltdb.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, _, err = other.Load(context.Background(), "c1")
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "game record 1") || !strings.Contains(err.Error(), `unknown game "race"`) {
		t.Fatalf("load of a game the program does not offer: %v", err)
	}
}

// newerRecord is rec (of a kind with a checksum, not bound to its key) as
// a newer Meeple would seal it: at schema v, with its checksum computed
// anew.
func newerRecord(rec []byte, v uint64) []byte {
	_, n := binary.Uvarint(rec)
	out := append(binary.AppendUvarint(nil, v), rec[n:len(rec)-4]...)
	return binary.BigEndian.AppendUint32(out, storage.Checksum(out))
}

// TestADamagedSchemaNumberIsDamageNotANewerMeeple: a game record whose
// schema number is far beyond any Meeple's, or is above this build's but
// fails its checksum (a byte of the number changed), is reported as
// damage (ErrCorrupt), and the advice is not to look for a newer Meeple.
func TestADamagedSchemaNumberIsDamageNotANewerMeeple(t *testing.T) {
	for name, damage := range map[string]func(rec []byte) []byte{
		"far beyond": func(rec []byte) []byte { return newerRecord(rec, 8045) },
		"checksum fails": func(rec []byte) []byte {
			_, n := binary.Uvarint(rec)
			return append(binary.AppendUvarint(nil, storage.GameSchema()+2), rec[n:]...)
		},
	} {
		path := fillStore(t, 2, 6)
		rawUpdate(t, path, func(tx *bolt.Tx) error {
			b := tx.Bucket([]byte("games"))
			k, v := b.Cursor().First()
			return b.Put(k, damage(v))
		})
		_, err := boltdb.Open(path, registry(), boltdb.Options{Verify: true})
		var se *storage.SchemaError
		if !errors.Is(err, storage.ErrCorrupt) || errors.Is(err, storage.ErrNewerSchema) || !errors.As(err, &se) || strings.Contains(err.Error(), "upgrade") || !strings.Contains(err.Error(), "damaged") {
			t.Errorf("%s: %v, want damage, not a newer schema", name, err)
		}
	}
}
