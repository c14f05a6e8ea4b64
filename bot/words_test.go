package bot

import (
	"testing"

	"github.com/meeplegames/meeple/locale"
)

// failureText is the English words of an error that is not the user's.
const failureText = "Something went wrong on Meeple's side. It has been logged; please try again, and tell the server admin if it keeps happening."

func testWords(t testing.TB) *locale.Catalogue {
	t.Helper()
	w, err := locale.New()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func englishWords(t testing.TB) *locale.Printer { return testWords(t).For(locale.English) }
