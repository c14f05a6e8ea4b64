package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// Games is the registry the suite's stores replay logs with: the race.
func Games() *engine.Registry { return engine.NewRegistry(Race{}) }

// Writer is the part of a store the helpers below play games through.
type Writer interface {
	Create(ctx context.Context, g *storage.Game) error
	Load(ctx context.Context, channel string) (*storage.Game, engine.State, error)
	Append(ctx context.Context, channel string, at storage.Guard, e storage.Entry, snapshot []byte) (storage.Guard, error)
}

// RaceSetup is the setup of a race that does not end.
func RaceSetup(players int) engine.Setup {
	return engine.Setup{Players: players, Seed: 42, Options: map[string]string{"goal": "1000000"}}
}

// NewRace creates a running race in channel with users u1, u2, … and the
// given goal.
func NewRace(t testing.TB, s Writer, guild, channel string, players int, goal string) *storage.Game {
	t.Helper()
	g := &storage.Game{
		Kind: "race", Guild: guild, Channel: channel, Creator: "u1", Status: storage.StatusRunning,
		Setup: engine.Setup{Players: players, Seed: 42, Options: map[string]string{"goal": goal}},
	}
	for i := 0; i < players; i++ {
		g.Seats = append(g.Seats, storage.Seat{User: fmt.Sprintf("u%d", i+1)})
	}
	if err := s.Create(context.Background(), g); err != nil {
		t.Fatalf("create: %v", err)
	}
	return g
}

// NextAction is the action the tests play at version v: mostly rolls, so
// the RNG matters.
func NextAction(v int) string {
	if v%4 == 3 {
		return fmt.Sprintf("step %d", v%3+1)
	}
	return "roll"
}

// Play loads channel's game, applies the next action and appends it,
// returning the new version.
func Play(t testing.TB, s Writer, channel string) int {
	t.Helper()
	g, state, err := s.Load(context.Background(), channel)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	v, err := Step(s, g, state)
	if err != nil {
		t.Fatalf("append at version %d: %v", g.Version, err)
	}
	return v
}

// Step applies the next action to state (game g) and appends it.
func Step(s Writer, g *storage.Game, state engine.State) (int, error) {
	p := state.Prompts()[0]
	action := NextAction(g.Version)
	if _, err := state.Apply(p.Seat, action); err != nil {
		return 0, err
	}
	snap, err := state.Encode()
	if err != nil {
		return 0, err
	}
	if _, err := s.Append(context.Background(), g.Channel, g.Guard(), storage.Entry{Seat: p.Seat, Action: action}, snap); err != nil {
		return 0, err
	}
	return g.Version + 1, nil
}

// Replayed returns the state bytes of g's setup and log, computed apart
// from any store.
func Replayed(t testing.TB, g *storage.Game) []byte {
	t.Helper()
	state, err := Race{}.New(g.Setup)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range g.Log {
		if _, err := state.Apply(e.Seat, e.Action); err != nil {
			t.Fatalf("replay of action %d %q: %v", i+1, e.Action, err)
		}
	}
	data, _ := state.Encode()
	return data
}

// Channels lists the games' channels, for messages.
func Channels(games []*storage.Game) []string {
	var out []string
	for _, g := range games {
		out = append(out, g.Channel)
	}
	return out
}

// GuardAt is the guard of channel's game (in s) when the game is at
// version v, and a stale one (the game's id with a revision it never had)
// otherwise: the tests written with versions keep their meaning.
func GuardAt(t testing.TB, s storage.Store, channel string, v int) storage.Guard {
	t.Helper()
	g, err := s.Get(context.Background(), channel)
	if err != nil {
		return storage.Guard{}
	}
	at := g.Guard()
	if g.Version != v {
		at.Revision += 1 << 40
	}
	return at
}

// GameIn is the id of channel's game in s, 0 when it has none.
func GameIn(t testing.TB, s storage.Store, channel string) uint64 {
	t.Helper()
	g, err := s.Get(context.Background(), channel)
	if err != nil {
		return 0
	}
	return g.ID
}
