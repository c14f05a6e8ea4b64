package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
)

func sampleGame() *Game {
	return &Game{
		ID: 7, Kind: "race", Guild: "g1", Channel: "c1", Creator: "u1", Status: StatusFinished,
		Setup:    engine.Setup{Players: 2, Seed: 1<<63 + 5, Options: map[string]string{"goal": "50"}},
		Seats:    []Seat{{User: "u1", Name: "Ada"}, {Computer: "random"}}, // no Version: the log holds it
		Messages: map[string]string{"board": "m1"}, Deadline: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC),
		Created: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), Updated: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		Finished: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		Result:   &engine.Result{Over: true, Scores: []int{51, 40}, Winners: []engine.Seat{0}},
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	var c codec
	g := sampleGame()
	data, err := c.encodeGame(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := c.decodeGame("7", data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, g) {
		t.Fatalf("game round trip:\n got %+v\nwant %+v", back, g)
	}
	e := Entry{Seat: 3, Action: "dice 6 5 3 1", At: time.Date(2026, 11, 22, 1, 2, 3, 4, time.UTC)}
	if got, err := c.decodeEntry("k", c.encodeEntry(e)); err != nil || got != e {
		t.Fatalf("entry round trip: %+v, %v", got, err)
	}
	snap := newSnapshot(12, []byte(`{"state":1}`))
	got, err := c.decodeSnapshot("k", c.encodeSnapshot(snap))
	if err != nil || got.version != 12 || got.sum != snap.sum || !bytes.Equal(got.state, snap.state) || !got.intact() {
		t.Fatalf("snapshot round trip: %+v, %v", got, err)
	}
}

// TestMigrationPath shows how a record layout change is rolled out: a
// codec with one migration step for game records reads schema-1 records
// through the step, writes schema 2, and the old codec refuses schema 2.
func TestMigrationPath(t *testing.T) {
	var v1 codec
	old, err := v1.encodeGame(sampleGame())
	if err != nil {
		t.Fatal(err)
	}
	// Schema 2 (hypothetical) renames "creator" to "owner".
	rename := func(payload []byte) ([]byte, error) {
		var m map[string]any
		if err := json.Unmarshal(payload, &m); err != nil {
			return nil, err
		}
		m["owner"] = m["creator"]
		delete(m, "creator")
		return json.Marshal(m)
	}
	v2 := codec{steps: map[string][]migration{recGame: {rename}}}
	payload, err := v2.open(recGame, "7", old)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(payload, []byte(`"owner":"u1"`)) || bytes.Contains(payload, []byte(`"creator"`)) {
		t.Fatalf("migrated payload %s", payload)
	}
	sealed := v2.seal(recGame, payload)
	if sealed[0] != 2 {
		t.Fatalf("v2 codec wrote schema %d", sealed[0])
	}
	_, err = v1.decodeGame("7", sealed)
	var se *SchemaError
	if !errors.Is(err, ErrNewerSchema) || !errors.As(err, &se) || se.Got != 2 || se.Max != 1 {
		t.Fatalf("v1 codec reading schema 2: %v", err)
	}
	broken := codec{steps: map[string][]migration{recGame: {func([]byte) ([]byte, error) { return nil, errors.New("no") }}}}
	if _, err := broken.open(recGame, "7", old); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("failed migration: %v", err)
	}
}

// FuzzDecodeRecords feeds arbitrary bytes to every record decoder: none may
// panic, and whatever decodes must encode and decode back to the same value.
func FuzzDecodeRecords(f *testing.F) {
	var c codec
	g, _ := c.encodeGame(sampleGame())
	f.Add(g)
	f.Add(c.encodeEntry(Entry{Seat: 1, Action: "roll", At: time.Unix(5, 0)}))
	f.Add(c.encodeSnapshot(newSnapshot(3, []byte("{}"))))
	f.Add([]byte{1, '{', '}'})
	f.Add([]byte{1, 'n', 'u', 'l', 'l'})
	f.Add([]byte{2})
	f.Add([]byte{})
	f.Add([]byte{1, '{', '"', 'r', 'e', 's', 'u', 'l', 't', '"', ':', '{', '"', 'w', 'i', 'n', 'n', 'e', 'r', 's', '"', ':', '[', '9', ']', '}', '}'})
	f.Fuzz(func(t *testing.T, data []byte) {
		if g, err := c.decodeGame("k", data); err == nil {
			again, err := c.encodeGame(g)
			if err != nil {
				t.Fatalf("decoded game does not encode: %v", err)
			}
			if _, err := c.decodeGame("k", again); err != nil {
				t.Fatalf("re-encoded game does not decode: %v", err)
			}
		} else if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNewerSchema) {
			t.Fatalf("game decode error %v wraps neither ErrCorrupt nor ErrNewerSchema", err)
		}
		if e, err := c.decodeEntry("k", data); err == nil {
			back, err := c.decodeEntry("k", c.encodeEntry(e))
			if err != nil || back != e {
				t.Fatalf("entry %+v re-decodes as %+v, %v", e, back, err)
			}
		}
		if s, err := c.decodeSnapshot("k", data); err == nil {
			back, err := c.decodeSnapshot("k", c.encodeSnapshot(s))
			if err != nil || back.version != s.version || back.sum != s.sum || !bytes.Equal(back.state, s.state) {
				t.Fatalf("snapshot re-decodes differently: %v", err)
			}
		}
		var st Stats
		_ = c.openJSON(recStats, "k", data, &st)
		var gs GuildSettings
		_ = c.openJSON(recGuild, "k", data, &gs)
	})
}
