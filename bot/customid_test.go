package bot

import (
	"errors"
	"github.com/meeplegames/meeple/bot/transport"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCustomIDRoundTrip(t *testing.T) {
	t.Parallel()
	for _, id := range []customID{
		{Game: 1, Revision: 0, Verb: verbJoin},
		{Game: 1<<64 - 1, Revision: 1<<64 - 1, Verb: verbAct, Arg: "place 5 westminster"},
		{Game: 42, Revision: 7, Verb: verbAct, Arg: "odd: arg: with colons"},
		{Game: 42, Revision: 7, Verb: verbStart, Arg: "shuffle"},
	} {
		s := id.encode()
		if !fitsCustomID(s) {
			t.Fatalf("%+v: too long", id)
		}
		got, err := parseCustomID(s)
		if err != nil || got != id {
			t.Errorf("parse(%q) = %+v, %v; want %+v", s, got, err, id)
		}
	}
}

func TestCustomIDRefuses(t *testing.T) {
	t.Parallel()
	long := customID{Game: 1, Verb: verbAct, Arg: strings.Repeat("x", 100)}
	if fitsCustomID(long.encode()) {
		t.Error("a custom_id over 100 characters was accepted")
	}
	for _, s := range []string{
		"", "m2", "m2:1:2", "m0:1:2:join", "m2:Z:2:join", "m2:01:2:join", "m2:1:-2:join",
		"m2:1:02:join", "m2:1:2:fly", "m2:1:2:act:", "x1:1:2:act:move 3",
		"m2:1:2:act:" + strings.Repeat("y", 100),
	} {
		if id, err := parseCustomID(s); !errors.Is(err, errCustomID) {
			t.Errorf("parse(%q) = %+v, %v; want errCustomID", s, id, err)
		}
	}
	// an older build's ids, still on messages in channels, are stale
	for _, s := range []string{"m1:1:2:join", "m1:ab:17:act:move 3"} {
		if id, err := parseCustomID(s); !errors.Is(err, errOldCustomID) {
			t.Errorf("parse(%q) = %+v, %v; want errOldCustomID", s, id, err)
		}
	}
}

func FuzzCustomID(f *testing.F) {
	f.Add("m2:1:0:join")
	f.Add("m2:zz:12:act:move 14")
	f.Add("m2:1:2:act:a:b:c")
	f.Add("m2:::")
	f.Add("m1:1:0:join")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := parseCustomID(s)
		if err != nil {
			if !errors.Is(err, errCustomID) && !errors.Is(err, errOldCustomID) {
				t.Fatalf("parse(%q): error %v does not wrap errCustomID", s, err)
			}
			return
		}
		again := id.encode()
		if !fitsCustomID(again) || again != s {
			t.Fatalf("parse(%q) = %+v encodes back to %q", s, id, again)
		}
		if utf8.RuneCountInString(again) > transport.MaxCustomID {
			t.Fatalf("%q is over the limit", again)
		}
	})
}
