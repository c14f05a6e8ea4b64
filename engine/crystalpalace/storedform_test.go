package crystalpalace

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// storedForm is the SHA-256 of every state stored along 240 random-legal
// games (60 per table size), recorded before State and Task took readable
// field names. A rename that changed a JSON key, a field's type or the
// order of the fields would change it: games already in a database must
// decode, and what is written from now on must read as it did. The state
// holds no text of any language (causes and log texts are keys), so one
// language covers them all.
const storedForm = "340d99bcbe01844e882064307c336ae7e9b0263b12b4d92a754bae3e0e324a3e"

func TestStoredFormUnchanged(t *testing.T) {
	r := testRules(t)
	sum := sha256.New()
	for players := 2; players <= 5; players++ {
		for g := range 60 {
			playFingerprinted(t, r, players, uint64(7000*players+g), sum)
		}
	}
	if got := fmt.Sprintf("%x", sum.Sum(nil)); got != storedForm {
		t.Errorf("the stored form of Crystal Palace changed: fingerprint %s, want %s", got, storedForm)
	}
}

// playFingerprinted plays one random-legal game, writing to sum the
// encoded state after every action, and checks that each of those bytes
// decodes to a state that encodes to the very same bytes (a stored game
// loads).
func playFingerprinted(t *testing.T, r *Rules, players int, seed uint64, sum hash.Hash) {
	t.Helper()
	s, err := r.New(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rng := engine.NewRNG(seed)
	for steps := 0; !s.Over(); steps++ {
		prompts := s.Prompts()
		if len(prompts) == 0 || steps > 5000 {
			t.Fatalf("%d players, seed %d: stuck after %d actions", players, seed, steps)
		}
		p := asked(prompts[rng.Intn(len(prompts))])
		if _, err := s.Apply(p.Seat, ai.Random{}.Choose(s, p, &rng)); err != nil {
			t.Fatalf("%d players, seed %d: %v", players, seed, err)
		}
		enc, err := s.Encode()
		if err != nil {
			t.Fatal(err)
		}
		sum.Write(enc)
		if steps%11 == 0 {
			back, err := r.Decode(enc)
			if err != nil {
				t.Fatalf("%d players, seed %d, action %d: %v", players, seed, steps+1, err)
			}
			if again, _ := back.Encode(); !bytes.Equal(again, enc) {
				t.Fatalf("%d players, seed %d, action %d: decoding and encoding changed the bytes", players, seed, steps+1)
			}
		}
	}
}

// States written before the rename (testdata/stored, with tasks waiting in
// a queue) load, encode to the very same bytes and play on.
func TestStoredStatesLoad(t *testing.T) {
	r := testRules(t)
	files, _ := filepath.Glob("testdata/stored/*.json")
	if len(files) == 0 {
		t.Fatal("no stored states")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if again, _ := s.Encode(); !bytes.Equal(again, data) {
			t.Errorf("%s: decoding and encoding changed the bytes", f)
		}
		prompts := s.Prompts()
		if len(prompts) == 0 {
			t.Fatalf("%s: no prompt", f)
		}
		rng := engine.NewRNG(1)
		if _, err := s.Apply(prompts[0].Seat, ai.Random{}.Choose(s, prompts[0], &rng)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// asked is p as games stored before the one question for a poster and
// its bonus were asked it: without "poster <bonus>", so that the random
// games, and their fingerprint, are the ones recorded.
func asked(p engine.Prompt) engine.Prompt {
	if p.Kind != "poster" {
		return p
	}
	p.Actions = slices.DeleteFunc(slices.Clone(p.Actions), func(a string) bool { return strings.HasPrefix(a, "poster ") })
	return p
}
