package postgres_test

import (
	"fmt"
	"github.com/meeplegames/meeple/storage/storetest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage/postgres"
)

func TestIsDSNTellsConnectionStringsFromFiles(t *testing.T) {
	for in, want := range map[string]bool{
		"postgres://meeple:pw@db/meeple":             true,
		"postgresql:///meeple?host=/run/postgresql":  true,
		"host=/sock user=u password=SECRET dbname=x": true,
		"dbname=meeple": true,
		"host = db  port=5433 password='p w\\'x'": true,
		"host=db search_path=meeple":              true, // run-time settings ride along
		"meeple.db":                               false,
		"/var/lib/meeple/meeple.db":               false,
		"./games=1.db":                            false, // a key that names no parameter
		"my games/host=x.db":                      false,
		"host=db password='unterminated":          false,
		"C:\\meeple\\meeple.db":                   false,
		"":                                        false,
		"file:meeple.db?mode=ro":                  false,
		"host=db dbname=meeple trailing-word-without-pair": false,
	} {
		if got := postgres.IsDSN(in); got != want {
			t.Errorf("IsDSN(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestRedactHidesEverySecretParameter(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://meeple:pw@db:5432/meeple":                       "postgres://meeple:xxxxx@db:5432/meeple",
		"postgresql://db/meeple?password=pw&sslmode=full":           "postgresql://db/meeple?password=xxxxx&sslmode=full",
		"postgres://db/meeple":                                      "postgres://db/meeple",
		"postgres://u:p@ss@db/meeple":                               "postgres://u:xxxxx@db/meeple",
		"postgres://u:pa/ss@db/meeple":                              "postgres://xxxxx@db/meeple",
		"postgres://u@db/m?sslpassword=k&sslkey=/k.pem&passfile=/p": "postgres://u@db/m?sslpassword=xxxxx&sslkey=xxxxx&passfile=xxxxx",
		"host=db password='p w\\'x' dbname=meeple":                  "host=db password=xxxxx dbname=meeple",
		"host=db PASSWORD = pw dbname=meeple":                       "host=db PASSWORD = xxxxx dbname=meeple",
		"host=db sslkey=/etc/k.pem sslpassword=kp passfile=/p":      "host=db sslkey=xxxxx sslpassword=xxxxx passfile=xxxxx",
		"host=db password='never closed":                            "host=db password=xxxxx",
		// in a message, quoted as %q would
		`open "host=/sock user=u password=SECRET dbname=x": no such file`: `open "host=/sock user=u password=xxxxx dbname=x": no such file`,
		`copying from "postgres://u:SECRET@db/m" stopped`:                 `copying from "postgres://u:xxxxx@db/m" stopped`,
		// words that only look alike stay
		"the password is asked by the server":   "the password is asked by the server",
		"mypassword=3 is not a parameter":       "mypassword=3 is not a parameter",
		"game 1075 at version 12 (host=db ok)":  "game 1075 at version 12 (host=db ok)",
		"meeple.db: layout 3, 12 games checked": "meeple.db: layout 3, 12 games checked",
	} {
		if got := postgres.Redact(in); got != want {
			t.Errorf("Redact(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// Every way of writing a password into either form of connection string,
// and every way a message may quote it, leaves no trace of it.
func TestRedactLeavesNoPasswordBehind(t *testing.T) {
	marks := []string{"S3cr3tMark", "p@ss:w/rd#1?", "sp ace'quote\\back", "semi;colon,comma", `dq"uote`}
	for _, pw := range marks {
		quoted := "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(pw) + "'"
		u := url.URL{Scheme: "postgres", User: url.UserPassword("meeple", pw), Host: "db", Path: "/meeple"}
		forms := []string{
			u.String(),
			"postgresql://meeple@db/meeple?password=" + url.QueryEscape(pw),
			"postgres://meeple@db/meeple?sslmode=require&sslpassword=" + url.QueryEscape(pw),
			"host=/sock user=u password=" + quoted + " dbname=x",
			"host=/sock user=u password = " + quoted,
			"host=db sslpassword=" + quoted + " sslkey=" + quoted + " passfile=" + quoted,
		}
		for _, dsn := range forms {
			for _, text := range []string{dsn, fmt.Sprintf("open %q: refused", dsn), "database=" + dsn, fmt.Sprintf("(%s)", dsn)} {
				got := postgres.Redact(text)
				for _, leak := range []string{pw, url.QueryEscape(pw), url.PathEscape(pw), fmt.Sprintf("%q", pw)[1 : len(fmt.Sprintf("%q", pw))-1]} {
					if len(leak) >= 4 && strings.Contains(got, leak) {
						t.Errorf("Redact(%q) = %q: %q is still there", text, got, leak)
					}
				}
			}
		}
	}
}

// A password with an @ that was not escaped is cut by pgx at its first @
// (the rest taken for the host) and by Go's net/url at its last: no part
// of it shows in an error, whichever way the driver read it.
func TestAPasswordWithAnUnescapedAtLeavesNoPiece(t *testing.T) {
	dsn := "postgres://meeple:Pw9@Secret@127.0.0.1:1/db?connect_timeout=1"
	_, err := postgres.Open(dsn, storetest.Games(), postgres.Options{Timeout: time.Second})
	_, inspected := postgres.Inspect(dsn, time.Second)
	for _, err := range []error{err, inspected} {
		if err == nil {
			t.Fatal("a connection string no parser agrees on was taken")
		}
		if msg := err.Error(); strings.Contains(msg, "Secret") || strings.Contains(msg, "Pw9") || !strings.Contains(msg, "%40") {
			t.Errorf("the error %q shows part of the password, or does not say how to write it", msg)
		}
	}
	if got := postgres.Redact(dsn); strings.Contains(got, "Secret") || strings.Contains(got, "Pw9") {
		t.Errorf("Redact(%q) = %q", dsn, got)
	}
}
