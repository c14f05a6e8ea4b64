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
		Messages: map[string]string{"board": "m1"}, Timing: Timing{TurnDeadline: 48 * time.Hour, OnDeadline: "pause", Bank: 72 * time.Hour, BankAdd: 24 * time.Hour, BankCap: 120 * time.Hour}, Deadline: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC),
		Created: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), Updated: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		Finished: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		Result:   &engine.Result{Over: true, Scores: []int{51, 40}, Winners: []engine.Seat{0}},
		Handovers: []Handover{{Seat: 0, From: Seat{User: "u2"}, To: Seat{Computer: "strong"}, Lapsed: true, At: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), Version: 3},
			{Seat: 0, From: Seat{Computer: "strong"}, To: Seat{User: "u1", Name: "Ada"}, At: time.Date(2026, 11, 20, 11, 0, 0, 0, time.UTC), Version: 4}},
		MinReliability: 80, NoRejoin: true, MissedInARow: []int{0, 2},
		Banks:     []time.Duration{3 * time.Hour, 26 * time.Hour},
		Extension: &Extension{Seat: 1, By: "u1", Time: 12 * time.Hour, Round: "x1", Votes: []string{"u1"}, At: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)},
		Proposed:  map[string]string{"u1": "x1"},
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	c := NewCodec()
	g := sampleGame()
	data, err := c.EncodeGame(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := c.DecodeGame("7", data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, g) {
		t.Fatalf("game round trip:\n got %+v\nwant %+v", back, g)
	}
	e := Entry{Seat: 3, Action: "dice 6 5 3 1", At: time.Date(2026, 11, 22, 1, 2, 3, 4, time.UTC)}
	if got, err := c.DecodeEntry("k", c.EncodeEntry(e)); err != nil || got != e {
		t.Fatalf("entry round trip: %+v, %v", got, err)
	}
	snap := NewSnapshot(12, 7, []byte(`{"state":1}`))
	got, err := c.DecodeSnapshot("k", c.EncodeSnapshot(snap))
	if err != nil || got.Version != 12 || got.Sum != snap.Sum || !bytes.Equal(got.State, snap.State) || !got.Intact() {
		t.Fatalf("snapshot round trip: %+v, %v", got, err)
	}
}

// TestMigrationPath shows how a record layout change is rolled out: a
// Codec with one migration step for game records reads schema-1 records
// through the step, writes schema 2, and the old Codec refuses schema 2.
func TestMigrationPath(t *testing.T) {
	var v1 Codec
	old, err := v1.EncodeGame(sampleGame())
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
	v2 := Codec{steps: map[string][]migration{RecGame: {rename}}}
	payload, err := v2.Open(RecGame, "7", old)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(payload, []byte(`"owner":"u1"`)) || bytes.Contains(payload, []byte(`"creator"`)) {
		t.Fatalf("migrated payload %s", payload)
	}
	sealed := v2.Seal(RecGame, payload)
	if sealed[0] != 2 {
		t.Fatalf("v2 Codec wrote schema %d", sealed[0])
	}
	_, err = v1.DecodeGame("7", sealed)
	var se *SchemaError
	if !errors.Is(err, ErrNewerSchema) || !errors.As(err, &se) || se.Got != 2 || se.Max != 1 {
		t.Fatalf("v1 Codec reading schema 2: %v", err)
	}
	broken := Codec{steps: map[string][]migration{RecGame: {func([]byte) ([]byte, error) { return nil, errors.New("no") }}}}
	if _, err := broken.Open(RecGame, "7", old); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("failed migration: %v", err)
	}
}

// FuzzDecodeRecords feeds arbitrary bytes to every record decoder: none may
// panic, and whatever decodes must encode and decode back to the same value.
func FuzzDecodeRecords(f *testing.F) {
	c := NewCodec()
	g, _ := c.EncodeGame(sampleGame())
	f.Add(g)
	f.Add(c.EncodeEntry(Entry{Seat: 1, Action: "roll", At: time.Unix(5, 0)}))
	f.Add(c.EncodeSnapshot(NewSnapshot(3, 1, []byte("{}"))))
	f.Add([]byte{1, '{', '}'})
	f.Add(append([]byte{1}, `{"id":1,"kind":"k","channel":"c","status":"lobby","messages":{"setting.deadline":"1h"}}`...))
	f.Add([]byte{1, 'n', 'u', 'l', 'l'})
	f.Add([]byte{2})
	f.Add([]byte{})
	f.Add([]byte{1, '{', '"', 'r', 'e', 's', 'u', 'l', 't', '"', ':', '{', '"', 'w', 'i', 'n', 'n', 'e', 'r', 's', '"', ':', '[', '9', ']', '}', '}'})
	f.Fuzz(func(t *testing.T, data []byte) {
		if g, err := c.DecodeGame("k", data); err == nil {
			again, err := c.EncodeGame(g)
			if err != nil {
				t.Fatalf("decoded game does not encode: %v", err)
			}
			if _, err := c.DecodeGame("k", again); err != nil {
				t.Fatalf("re-encoded game does not decode: %v", err)
			}
		} else if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNewerSchema) {
			t.Fatalf("game decode error %v wraps neither ErrCorrupt nor ErrNewerSchema", err)
		}
		if e, err := c.DecodeEntry("k", data); err == nil {
			back, err := c.DecodeEntry("k", c.EncodeEntry(e))
			if err != nil || back != e {
				t.Fatalf("entry %+v re-decodes as %+v, %v", e, back, err)
			}
		}
		if s, err := c.DecodeSnapshot("k", data); err == nil {
			back, err := c.DecodeSnapshot("k", c.EncodeSnapshot(s))
			if err != nil || back.Version != s.Version || back.Sum != s.Sum || !bytes.Equal(back.State, s.State) {
				t.Fatalf("snapshot re-decodes differently: %v", err)
			}
		}
		var st Stats
		_ = c.OpenJSON(RecStats, "k", data, &st)
		var gs GuildSettings
		_ = c.OpenJSON(RecGuild, "k", data, &gs)
	})
}

func TestSchema1GameRecordMigrates(t *testing.T) {
	c := NewCodec()
	old := func(messages string) []byte {
		return append([]byte{1}, `{"id":7,"kind":"race","guild":"g1","channel":"c1","status":"lobby","players":2,"seed":5,`+
			`"messages":`+messages+`,"created":"2026-11-20T09:00:00Z","updated":"2026-11-20T09:00:00Z"}`...)
	}
	g, err := c.DecodeGame("7", old(`{"lobby":"m9","setting.deadline":"6h0m0s","setting.reminder":"1h30m0s","setting.on-deadline":"pause"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Timing{TurnDeadline: 6 * time.Hour, ReminderEvery: 90 * time.Minute, OnDeadline: "pause"}
	if g.Timing != want || !reflect.DeepEqual(g.Messages, map[string]string{"lobby": "m9"}) {
		t.Errorf("migrated: timing %+v, messages %v", g.Timing, g.Messages)
	}
	data, err := c.EncodeGame(g)
	if err != nil {
		t.Fatal(err)
	}
	if data[0] != byte(GameSchema()) || bytes.Contains(data, []byte("setting.")) {
		t.Errorf("rewritten as %s", data)
	}
	if back, err := c.DecodeGame("7", data); err != nil || !reflect.DeepEqual(back, g) {
		t.Errorf("schema 2 round trip: %+v, %v", back, err)
	}
	// a record with only settings among its messages keeps no messages
	if g, err := c.DecodeGame("7", old(`{"setting.deadline":"0s","setting.reminder":"0s","setting.on-deadline":"computer"}`)); err != nil ||
		g.Messages != nil || g.Timing != (Timing{OnDeadline: "computer"}) {
		t.Errorf("settings only: %+v, %v", g, err)
	}
	if g, err := c.DecodeGame("7", old(`null`)); err != nil || g.Timing != (Timing{}) {
		t.Errorf("no messages: %+v, %v", g, err)
	}
	for _, bad := range []string{`{"setting.deadline":"soon"}`, `{"setting.reminder":"-1h"}`, `["x"]`} {
		if _, err := c.DecodeGame("7", old(bad)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("messages %s: %v, want ErrCorrupt", bad, err)
		}
	}
}
