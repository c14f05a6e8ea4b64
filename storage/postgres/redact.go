package postgres

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// How Meeple names a PostgreSQL database and keeps its secrets out of
// sight. A connection string comes in two forms, both libpq's and pgx's:
//
//	postgres://meeple:secret@db:5432/meeple?sslmode=verify-full
//	host=/run/postgresql user=meeple password='sec ret' dbname=meeple
//
// IsDSN tells either form from a bbolt file's path; Redact takes the
// secrets out of a connection string, or out of any text that quotes one
// (an error message, a log line). Everything Meeple prints about a
// database goes through them.

// hidden replaces a secret in what Redact and scrub return.
const hidden = "xxxxx"

// secretParams are the connection parameters whose values are kept out of
// messages and logs: the password, the client key's passphrase, and the
// paths of the files that hold them.
var secretParams = []string{"password", "sslpassword", "sslkey", "passfile"}

// connParams are the parameters libpq (and pgx) read from a connection
// string, other than run-time settings. A key=value string naming one of
// them is a connection string, not a file's path.
var connParams = []string{
	"host", "hostaddr", "port", "dbname", "database", "user", "password", "passfile", "require_auth", "channel_binding",
	"connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name",
	"keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
	"replication", "gssencmode", "sslmode", "sslnegotiation", "sslcompression", "sslcert", "sslkey", "sslpassword",
	"sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version",
	"ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs",
	"load_balance_hosts", "pool_max_conns", "pool_min_conns", "pool_max_conn_lifetime", "pool_max_conn_idle_time",
	"pool_health_check_period", "statement_cache_capacity", "default_query_exec_mode",
}

// IsDSN reports whether database names a PostgreSQL database rather than a
// bbolt file: a postgres:// or postgresql:// URL, or a key=value
// connection string (every word a key=value pair, one key a connection
// parameter such as host or dbname).
func IsDSN(database string) bool {
	if isURL(database) {
		return true
	}
	pairs, ok := keywordPairs(database)
	if !ok || len(pairs) == 0 {
		return false
	}
	return slices.ContainsFunc(pairs, func(p pair) bool { return slices.Contains(connParams, strings.ToLower(p.key)) })
}

func isURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Redact returns text with the secret of every PostgreSQL connection
// string in it replaced: a URL's password and its password, sslpassword,
// sslkey and passfile parameters, and those keys' values in key=value
// form. text may be a connection string (postgres://meeple:xxxxx@db/meeple)
// or a message that quotes one; anything else comes back unchanged.
func Redact(text string) string {
	text = urlPattern.ReplaceAllStringFunc(text, redactURL)
	return keywordPattern.ReplaceAllString(text, "${1}"+hidden)
}

// urlPattern finds a connection URL in text: the scheme and the rest of
// the word.
var urlPattern = regexp.MustCompile(`postgres(?:ql)?://\S*`)

// keywordPattern finds a secret parameter in key=value form: password=pw,
// password = 'p w\'x' (with \' and \\ escapes).
var keywordPattern = regexp.MustCompile(`(?i)((?:^|[\s"'(\[{,;])(?:` + strings.Join(secretParams, "|") + `)\s*=\s*)('(?:[^'\\]|\\.)*'?|[^\s"]*)`)

// querySecret finds a secret parameter in a URL's query.
var querySecret = regexp.MustCompile(`(?i)([?&](?:` + strings.Join(secretParams, "|") + `)=)[^&#\s"]*`)

// redactURL redacts one connection URL (with whatever ends the word in the
// text it came from, such as a closing quote).
func redactURL(word string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(word, "postgresql://"), "postgres://")
	scheme := word[:len(word)-len(rest)]
	// The user information ends at the last @ before the path: a password
	// may hold an @ that was not escaped.
	end := len(rest)
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		end = i
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		if colon := strings.Index(rest[:at], ":"); colon >= 0 {
			rest = rest[:colon+1] + hidden + rest[at:]
		}
	} else if at := strings.LastIndex(rest, "@"); at >= 0 && strings.Contains(rest[:at], ":") {
		// an @ after a /: a password with an unescaped slash, or not a URL
		// Meeple can read; the whole user part goes
		rest = hidden + rest[at:]
	}
	return scheme + querySecret.ReplaceAllString(rest, "${1}"+hidden)
}

// pair is one key=value of a connection string.
type pair struct{ key, value string }

// keywordPairs splits a key=value connection string as libpq does: pairs
// separated by spaces, spaces allowed around the =, a value in single
// quotes when it holds spaces, with \' and \\ escapes. ok is false when s
// is not of that form.
func keywordPairs(s string) (pairs []pair, ok bool) {
	i := 0
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	for {
		skip()
		if i == len(s) {
			return pairs, true
		}
		start := i
		for i < len(s) && s[i] != '=' && !isSpace(s[i]) {
			i++
		}
		key := s[start:i]
		skip()
		if key == "" || i == len(s) || s[i] != '=' {
			return nil, false
		}
		i++
		skip()
		var value strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			for ; i < len(s) && s[i] != '\''; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				value.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, false // an unterminated quote
			}
			i++
		} else {
			for ; i < len(s) && !isSpace(s[i]); i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				value.WriteByte(s[i])
			}
		}
		pairs = append(pairs, pair{key, value.String()})
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// secrets lists the secret values written in dsn, as written and as a
// driver might quote them (escaped or not), longest first.
func secrets(dsn string) []string {
	var out []string
	add := func(v string) {
		if v != "" && v != hidden {
			out = append(out, v, url.QueryEscape(v), url.PathEscape(v))
		}
	}
	if isURL(dsn) {
		if u, err := url.Parse(dsn); err == nil {
			if p, has := u.User.Password(); has {
				add(p)
				// A driver may cut the password elsewhere (pgx at its
				// first @, naming the rest as the host): every piece of
				// it between such characters is a secret too.
				for _, piece := range strings.FieldsFunc(p, func(r rune) bool { return strings.ContainsRune("@:/?#&=", r) }) {
					if len(piece) >= 3 {
						add(piece)
					}
				}
			}
			q := u.Query()
			for _, k := range secretParams {
				add(q.Get(k))
			}
		}
	} else if pairs, ok := keywordPairs(dsn); ok {
		for _, p := range pairs {
			if slices.Contains(secretParams, strings.ToLower(p.key)) {
				add(p.value)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// scrub returns err with every secret of dsn taken out of its message;
// it still wraps err, for errors.Is and errors.As.
func scrub(err error, dsn string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, p := range secrets(dsn) {
		msg = strings.ReplaceAll(msg, p, hidden)
	}
	return scrubbed{msg: Redact(msg), err: err}
}

type scrubbed struct {
	msg string
	err error
}

func (e scrubbed) Error() string { return e.msg }
func (e scrubbed) Unwrap() error { return e.err }

// ambiguous reports whether dsn is a URL whose user information holds an
// @ that was not escaped: parsers disagree on where its password ends
// (Go's net/url at the last @, pgx at the first), so pgx would take part
// of the password for the host.
func ambiguous(dsn string) bool {
	if !isURL(dsn) {
		return false
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(dsn, "postgresql://"), "postgres://")
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return strings.Count(rest, "@") > 1
}
