package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"time"

	"github.com/meeplegames/meeple/engine"
)

// Every record starts with its schema version as a uvarint. A record of an
// older schema is upgraded on read by the codec's migration steps; one of a
// newer schema is refused with a *SchemaError.

// Record kinds, as named in errors and in the codec's migration table.
const (
	RecGame     = "game"
	RecEntry    = "entry"
	RecSnapshot = "snapshot"
	RecStats    = "stats"
	RecGuild    = "guild settings"
	RecUser     = "user preferences"
)

// migration upgrades a record's payload (the bytes after the schema
// version) from one schema version to the next.
type migration func(payload []byte) ([]byte, error)

// Codec encodes and decodes records. steps[kind][i] upgrades a payload of
// schema i+1 to i+2, so a kind's current schema is len(steps[kind])+1.
// A change to a record's layout adds a step; the zero Codec reads and
// writes schema 1 of every kind (tests use it to write old records).
//
// From schema summed[kind] on, a record ends with the CRC-32C of
// everything before it (schema and payload, 4 bytes, big-endian), checked
// on every read: a damaged record is ErrCorrupt, never data. A strict
// Codec (Strict) also refuses a record of an older schema, which has no
// checksum: in a file whose records were all upgraded, such a record can
// only be a damaged schema number.
type Codec struct {
	steps  map[string][]migration
	summed map[string]uint64
	strict bool
	key    string // bound into checksums (see Keyed)
}

// Keyed returns c binding the checksums of the records it seals and opens
// to key as well: a record read under another key than the one it was
// sealed under fails its checksum. For records whose contents do not name
// their key (a guild's settings, a user's preferences).
func (c Codec) Keyed(key string) Codec {
	c.key = key
	return c
}

// sum is the checksum of rec, bound to c's key.
func (c Codec) sum(rec []byte) uint32 {
	if c.key == "" {
		return Checksum(rec)
	}
	return crc32.Update(Checksum([]byte(c.key)), castagnoli, rec)
}

// NewCodec returns the Codec of the current schemas: game records are at
// schema 4 (2: the game's timing moved out of its messages; 3: a
// checksum; 4: the lobby's reliability rules and the missed deadlines in
// a row; 5: the players' time banks and proposals of more time), snapshots at schema 2 (the game's revision and a checksum),
// user preferences at schema 5 (2: a checksum; 3: quiet hours, time zone
// and heads-up; 4: the daily digest and the announced absence; 5: the
// reliability counts per server; what an
// older record lacks reads as off, and an older build must refuse a newer
// record rather than drop what it does not know), every other kind at schema 2
// (a checksum), but seat index entries and pending replies, which began
// at schema 1 with one.
func NewCodec() Codec {
	return Codec{
		steps: map[string][]migration{
			RecGame:     {gameTimingFromMessages, unchanged, unchanged, unchanged},
			RecEntry:    {unchanged},
			RecSnapshot: {snapshotRevision},
			RecStats:    {unchanged},
			RecGuild:    {unchanged},
			RecUser:     {unchanged, unchanged, unchanged, unchanged},
			RecSeating:  nil,
			RecPending:  nil,
		},
		summed: map[string]uint64{RecGame: 3, RecEntry: 2, RecSnapshot: 2, RecStats: 2, RecGuild: 2, RecUser: 2, RecSeating: 1, RecPending: 1},
	}
}

// Strict returns c refusing records without a checksum (older schemas):
// for a file whose every record carries one.
func (c Codec) Strict() Codec {
	c.strict = true
	return c
}

// unchanged is the migration of a payload that only gained a checksum.
func unchanged(payload []byte) ([]byte, error) { return payload, nil }

// snapshotRevision upgrades a snapshot from schema 1 to 2: the game's
// revision (0 for a record from before revisions) follows the version.
func snapshotRevision(payload []byte) ([]byte, error) {
	_, n := binary.Uvarint(payload)
	if n <= 0 {
		return nil, errors.New("bad version")
	}
	out := append([]byte(nil), payload[:n]...)
	out = binary.AppendUvarint(out, 0)
	return append(out, payload[n:]...), nil
}

// Summed reports whether records of kind at c's current schema carry a
// checksum.
func (c Codec) Summed(kind string) bool {
	first, ok := c.summed[kind]
	return ok && c.Current(kind) >= first
}

// Schema 1 game records kept the lobby's time limits among the message
// ids, under these keys; schema 2 has a "timing" object instead.
const (
	v1SettingDeadline   = "setting.deadline"    // a Go duration, "0s" for none
	v1SettingReminder   = "setting.reminder"    // a Go duration
	v1SettingOnDeadline = "setting.on-deadline" // "computer" or "pause"
)

// gameTimingFromMessages upgrades a game record from schema 1 to 2: the
// setting.* entries of "messages" become the "timing" object.
func gameTimingFromMessages(payload []byte) ([]byte, error) {
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(payload, &rec); err != nil || rec == nil {
		return payload, nil // not an object: decoding reports it
	}
	var messages map[string]string
	if raw, ok := rec["messages"]; ok {
		if err := json.Unmarshal(raw, &messages); err != nil {
			return nil, fmt.Errorf("messages: %v", err)
		}
	}
	var t Timing
	for key, dst := range map[string]*time.Duration{v1SettingDeadline: &t.TurnDeadline, v1SettingReminder: &t.ReminderEvery} {
		if v, ok := messages[key]; ok {
			d, err := time.ParseDuration(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", key, err)
			}
			*dst = d
		}
	}
	t.OnDeadline = messages[v1SettingOnDeadline]
	for _, key := range []string{v1SettingDeadline, v1SettingReminder, v1SettingOnDeadline} {
		delete(messages, key)
	}
	var err error
	if rec["timing"], err = json.Marshal(t); err != nil {
		return nil, err
	}
	delete(rec, "messages")
	if len(messages) > 0 {
		if rec["messages"], err = json.Marshal(messages); err != nil {
			return nil, err
		}
	}
	return json.Marshal(rec)
}

func (c Codec) Current(kind string) uint64 { return uint64(len(c.steps[kind]) + 1) }

// Seal prefixes payload with kind's current schema version and, from the
// schema that has one, appends the checksum.
func (c Codec) Seal(kind string, payload []byte) []byte {
	return c.end(kind, append(c.begin(kind, len(payload)), payload...))
}

// begin starts a record of kind with room for size more bytes.
func (c Codec) begin(kind string, size int) []byte {
	return binary.AppendUvarint(make([]byte, 0, size+binary.MaxVarintLen64+sumSize), c.Current(kind))
}

// end finishes a record begin started: it appends the checksum of all of
// it when kind's current schema has one.
func (c Codec) end(kind string, rec []byte) []byte {
	if !c.Summed(kind) {
		return rec
	}
	return binary.BigEndian.AppendUint32(rec, c.sum(rec))
}

// Open returns a record's payload at the current schema, after checking
// its checksum, migrating it up from an older schema. key names the record
// in errors.
func (c Codec) Open(kind, key string, data []byte) ([]byte, error) {
	v, n := binary.Uvarint(data)
	if n <= 0 || v == 0 {
		return nil, fmt.Errorf("%s record %s: no schema version: %w", kind, key, ErrCorrupt)
	}
	cur := c.Current(kind)
	if v > cur {
		return nil, c.ahead(kind, key, data, v)
	}
	payload := data[n:]
	if first, ok := c.summed[kind]; ok && v >= first {
		if len(payload) < sumSize {
			return nil, fmt.Errorf("%s record %s: too short for its checksum: %w", kind, key, ErrCorrupt)
		}
		body := len(data) - sumSize
		if c.sum(data[:body]) != binary.BigEndian.Uint32(data[body:]) {
			return nil, fmt.Errorf("%s record %s: checksum mismatch, the record is damaged: %w", kind, key, ErrCorrupt)
		}
		payload = data[n:body]
	} else if ok && c.strict {
		return nil, fmt.Errorf("%s record %s: schema %d has no checksum, but every record of this file was given one: the record is damaged: %w", kind, key, v, ErrCorrupt)
	}
	for ; v < cur; v++ {
		up, err := c.steps[kind][v-1](payload)
		if err != nil {
			return nil, fmt.Errorf("%s record %s: migrating schema %d to %d: %v: %w", kind, key, v, v+1, err, ErrCorrupt)
		}
		payload = up
	}
	return payload, nil
}

// NotNewer refuses a stored record of kind whose schema is newer than this
// build's, before a write replaces it or writes beside it. It reads only
// the schema number; nil data (no record) passes. key names the record in
// the error and is called only then.
func (c Codec) NotNewer(kind string, key func() string, data []byte) error {
	if v, n := binary.Uvarint(data); n > 0 && v > c.Current(kind) {
		return c.ahead(kind, key(), data, v)
	}
	return nil
}

// ahead is the error for a record of kind whose schema v is newer than
// this build's: written by a newer Meeple, or damaged. A record of a kind
// that carries a checksum keeps it in every later schema, so one whose
// checksum fails is damaged whatever its schema number says.
func (c Codec) ahead(kind, key string, data []byte, v uint64) *SchemaError {
	e := &SchemaError{Record: kind, Key: key, Got: v, Max: c.Current(kind)}
	if c.Summed(kind) {
		body := len(data) - sumSize
		e.SumFails = body < 1 || c.sum(data[:body]) != binary.BigEndian.Uint32(data[body:])
	}
	return e
}

// SealJSON seals the JSON encoding of v.
func (c Codec) SealJSON(kind string, v any) ([]byte, error) {
	payload, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s record: %w", kind, err)
	}
	return c.Seal(kind, payload), nil
}

// OpenJSON opens a record and decodes its JSON payload into v.
func (c Codec) OpenJSON(kind, key string, data []byte, v any) error {
	payload, err := c.Open(kind, key, data)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(payload, v); err != nil {
		return fmt.Errorf("%s record %s: %v: %w", kind, key, err, ErrCorrupt)
	}
	return nil
}

// gameRecord is the stored form of a Game without its log and snapshot,
// which have records of their own. It holds no version: a game's version is
// the length of its log, which Append extends without rewriting this record.
type gameRecord struct {
	ID       uint64            `json:"id"`
	Kind     string            `json:"kind"`
	Guild    string            `json:"guild"`
	Channel  string            `json:"channel"`
	Parent   string            `json:"parent,omitempty"`
	Creator  string            `json:"creator,omitempty"`
	Status   Status            `json:"status"`
	Players  int               `json:"players"`
	Seed     uint64            `json:"seed"`
	Options  map[string]string `json:"options,omitempty"`
	Seats    []Seat            `json:"seats,omitempty"`
	Messages map[string]string `json:"messages,omitempty"`
	Timing   Timing            `json:"timing,omitzero"`
	Deadline time.Time         `json:"deadline,omitzero"`
	RemindAt time.Time         `json:"remind_at,omitzero"`
	Created  time.Time         `json:"created"`
	Updated  time.Time         `json:"updated"`
	Finished time.Time         `json:"finished,omitzero"`
	Result   *resultRecord     `json:"result,omitempty"`
	// Added without a schema change: older records have neither.
	Handovers []Handover `json:"handovers,omitempty"`
	Nudged    time.Time  `json:"nudged,omitzero"`
	EndVotes  []string   `json:"end_votes,omitempty"`
	EndedVote bool       `json:"ended_by_vote,omitempty"`
	Revision  uint64     `json:"revision,omitempty"`
	Rewound   uint64     `json:"rewound,omitempty"`
	Hints     bool       `json:"hints,omitempty"`
	HintsUsed []int      `json:"hints_taken,omitempty"`
	Waits     []Wait     `json:"waits,omitempty"`
	// From schema 4: what an older build must not drop.
	MinReliability int   `json:"min_reliability,omitempty"`
	NoRejoin       bool  `json:"no_rejoin,omitempty"`
	MissedInARow   []int `json:"missed_in_a_row,omitempty"`
	// From schema 5: the time banks.
	Banks     []time.Duration   `json:"banks,omitempty"`
	Extension *Extension        `json:"extension,omitempty"`
	Proposed  map[string]string `json:"proposed,omitempty"`
}

type resultRecord struct {
	Scores    []int            `json:"scores"`
	Winners   []int            `json:"winners"`
	Breakdown []map[string]int `json:"breakdown,omitempty"`
	Counters  map[string]int   `json:"counters,omitempty"`
}

func (c Codec) EncodeGame(g *Game) ([]byte, error) {
	r := gameRecord{
		ID: g.ID, Kind: g.Kind, Guild: g.Guild, Channel: g.Channel, Parent: g.Parent, Creator: g.Creator, Status: g.Status,
		Players: g.Setup.Players, Seed: g.Setup.Seed, Options: g.Setup.Options, Seats: g.Seats,
		Messages: g.Messages, Timing: g.Timing, Deadline: g.Deadline, RemindAt: g.RemindAt,
		Created: g.Created, Updated: g.Updated, Finished: g.Finished,
		Handovers: g.Handovers, Nudged: g.Nudged, EndVotes: g.EndVotes, EndedVote: g.EndedByVote, Revision: g.Revision, Rewound: g.Rewound,
		Hints: g.Hints, HintsUsed: g.HintsTaken, Waits: g.Waits,
		MinReliability: g.MinReliability, NoRejoin: g.NoRejoin, MissedInARow: g.MissedInARow,
		Banks: g.Banks, Extension: g.Extension, Proposed: g.Proposed,
	}
	if g.Result != nil {
		res := &resultRecord{Scores: g.Result.Scores, Breakdown: g.Result.Breakdown, Counters: g.Result.Counters}
		for _, w := range g.Result.Winners {
			res.Winners = append(res.Winners, int(w))
		}
		r.Result = res
	}
	return c.SealJSON(RecGame, r)
}

// DecodeGame reads a game record and checks that it makes sense, so that a
// damaged record is reported rather than acted upon.
func (c Codec) DecodeGame(key string, data []byte) (*Game, error) {
	var r gameRecord
	if err := c.OpenJSON(RecGame, key, data, &r); err != nil {
		return nil, err
	}
	bad := func(why string) error { return fmt.Errorf("game record %s: %s: %w", key, why, ErrCorrupt) }
	switch {
	case r.ID == 0:
		return nil, bad("no id")
	case r.Kind == "" || r.Channel == "":
		return nil, bad("no kind or channel")
	case r.Status != StatusLobby && r.Status != StatusRunning && r.Status != StatusFinished && r.Status != StatusAbandoned:
		return nil, bad(fmt.Sprintf("unknown status %q", r.Status))
	case len(r.Seats) > MaxSeats:
		return nil, bad(fmt.Sprintf("%d seats", len(r.Seats)))
	case checkTiming(r.Timing) != nil:
		return nil, bad("bad timing")
	case r.Status != StatusLobby && r.Players != len(r.Seats):
		return nil, bad(fmt.Sprintf("%d players but %d seats", r.Players, len(r.Seats)))
	}
	g := &Game{
		ID: r.ID, Kind: r.Kind, Guild: r.Guild, Channel: r.Channel, Parent: r.Parent, Creator: r.Creator, Status: r.Status,
		Setup: engine.Setup{Players: r.Players, Seed: r.Seed, Options: r.Options}, Seats: r.Seats,
		Messages: r.Messages, Timing: r.Timing, Deadline: r.Deadline, RemindAt: r.RemindAt,
		Created: r.Created, Updated: r.Updated, Finished: r.Finished,
		Handovers: r.Handovers, Nudged: r.Nudged, EndVotes: r.EndVotes, EndedByVote: r.EndedVote, Revision: r.Revision, Rewound: r.Rewound,
		Hints: r.Hints, HintsTaken: r.HintsUsed, Waits: r.Waits,
		MinReliability: r.MinReliability, NoRejoin: r.NoRejoin, MissedInARow: r.MissedInARow,
		Banks: r.Banks, Extension: r.Extension, Proposed: r.Proposed,
	}
	for _, w := range r.Waits {
		if w.Seat < 0 || int(w.Seat) >= len(r.Seats) {
			return nil, bad(fmt.Sprintf("waiting on seat %d", w.Seat+1))
		}
	}
	if len(r.MissedInARow) > len(r.Seats) || r.MinReliability < 0 || r.MinReliability > 100 {
		return nil, bad(fmt.Sprintf("missed deadlines counted for %d seats, or a least reliability of %d%%", len(r.MissedInARow), r.MinReliability))
	}
	if len(r.Banks) > len(r.Seats) || r.Extension != nil && (r.Extension.Seat < 0 || int(r.Extension.Seat) >= len(r.Seats)) {
		return nil, bad("time banks or a proposal of more time for seats the table does not have")
	}
	if len(r.HintsUsed) > len(r.Seats) {
		return nil, bad(fmt.Sprintf("hints counted for %d seats", len(r.HintsUsed)))
	}
	for _, h := range r.Handovers {
		if h.Seat < 0 || int(h.Seat) >= len(r.Seats) {
			return nil, bad(fmt.Sprintf("a handover of seat %d", h.Seat+1))
		}
	}
	if r.Result != nil {
		res := &engine.Result{Over: r.Status == StatusFinished, Scores: r.Result.Scores, Breakdown: r.Result.Breakdown, Counters: r.Result.Counters}
		for _, w := range r.Result.Winners {
			if w < 0 || w >= len(r.Seats) {
				return nil, bad(fmt.Sprintf("winner %d is not a seat", w))
			}
			res.Winners = append(res.Winners, engine.Seat(w))
		}
		g.Result = res
	}
	return g, nil
}

// MaxLog bounds a game's log, far above any real game, so that a damaged
// version number cannot make the store allocate without limit.
const MaxLog = 1 << 20

// MaxSeats bounds a game's seats, far above any real table.
const MaxSeats = 64

// An entry record is: schema, seat (uvarint), time (varint Unix
// nanoseconds), then the action text.
func (c Codec) EncodeEntry(e Entry) []byte {
	out := c.begin(RecEntry, 2*binary.MaxVarintLen64+len(e.Action))
	out = binary.AppendUvarint(out, uint64(e.Seat))
	out = binary.AppendVarint(out, e.At.UnixNano())
	return c.end(RecEntry, append(out, e.Action...))
}

func (c Codec) DecodeEntry(key string, data []byte) (Entry, error) {
	payload, err := c.Open(RecEntry, key, data)
	if err != nil {
		return Entry{}, err
	}
	seat, n := binary.Uvarint(payload)
	if n <= 0 || seat > 1<<16 {
		return Entry{}, fmt.Errorf("entry record %s: bad seat: %w", key, ErrCorrupt)
	}
	payload = payload[n:]
	at, n := binary.Varint(payload)
	if n <= 0 {
		return Entry{}, fmt.Errorf("entry record %s: bad time: %w", key, ErrCorrupt)
	}
	action := payload[n:]
	if len(action) == 0 {
		return Entry{}, fmt.Errorf("entry record %s: no action: %w", key, ErrCorrupt)
	}
	return Entry{Seat: engine.Seat(seat), At: time.Unix(0, at).UTC(), Action: string(action)}, nil
}

// A snapshot record is: schema, state version (uvarint), the game's
// revision (uvarint, from schema 2), the CRC-32C of the state bytes (4
// bytes, big-endian), then the state bytes (State.Encode()), and from
// schema 2 the record's checksum. CRC-32C runs in hardware at many GB/s,
// so a store can check every snapshot it reads.
type Snapshot struct {
	Version  int    // the game's version the state is of
	Revision uint64 // the game's revision the state is of
	Sum      uint32 // CRC-32C of State
	State    []byte // State.Encode()
}

const sumSize = 4

// Checksum is the CRC-32C (Castagnoli) of b.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// NewSnapshot returns the snapshot of state at version and revision, with
// its checksum.
func NewSnapshot(version int, revision uint64, state []byte) Snapshot {
	return Snapshot{Version: version, Revision: revision, Sum: Checksum(state), State: state}
}

// Intact reports whether the state bytes still match their checksum.
func (s Snapshot) Intact() bool { return Checksum(s.State) == s.Sum }

// EncodeSnapshot encodes a snapshot record.
func (c Codec) EncodeSnapshot(s Snapshot) []byte {
	out := c.begin(RecSnapshot, binary.MaxVarintLen64+sumSize+len(s.State))
	out = binary.AppendUvarint(out, uint64(s.Version))
	if c.Current(RecSnapshot) >= 2 {
		out = binary.AppendUvarint(out, s.Revision)
	}
	out = binary.BigEndian.AppendUint32(out, s.Sum)
	return c.end(RecSnapshot, append(out, s.State...))
}

// DecodeSnapshot decodes a snapshot record (it does not check the sum:
// see Intact). key names the record in errors.
func (c Codec) DecodeSnapshot(key string, data []byte) (Snapshot, error) {
	payload, err := c.Open(RecSnapshot, key, data)
	if err != nil {
		return Snapshot{}, err
	}
	v, n := binary.Uvarint(payload)
	if n <= 0 || v > MaxLog || len(payload)-n < sumSize {
		return Snapshot{}, fmt.Errorf("snapshot record %s: bad header: %w", key, ErrCorrupt)
	}
	s := Snapshot{Version: int(v)}
	payload = payload[n:]
	if c.Current(RecSnapshot) >= 2 {
		rev, m := binary.Uvarint(payload)
		if m <= 0 || len(payload)-m < sumSize {
			return Snapshot{}, fmt.Errorf("snapshot record %s: bad header: %w", key, ErrCorrupt)
		}
		s.Revision, payload = rev, payload[m:]
	}
	s.Sum = binary.BigEndian.Uint32(payload)
	s.State = bytes.Clone(payload[sumSize:])
	return s, nil
}
