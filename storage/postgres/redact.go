package postgres

import (
	"net/url"
	"regexp"
	"strings"
)

// hidden replaces a password in what Redact and scrub return.
const hidden = "xxxxx"

// keywordPassword finds a password in a key=value connection string:
// password=secret or password='sec ret' (with \' and \\ escapes).
func keywordPassword() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S*)`)
}

// Redact returns dsn with its password (if any) replaced, fit for logs and
// error messages: postgres://meeple:xxxxx@db/meeple.
func Redact(dsn string) string {
	if isURL(dsn) {
		u, err := url.Parse(dsn)
		if err != nil {
			return "postgres://(a connection string that does not parse)"
		}
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), hidden)
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", hidden)
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	return keywordPassword().ReplaceAllString(dsn, "${1}"+hidden)
}

// IsDSN reports whether database names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than a bbolt file.
func IsDSN(database string) bool { return isURL(database) }

func isURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// passwords lists the passwords written in dsn.
func passwords(dsn string) []string {
	var out []string
	if isURL(dsn) {
		if u, err := url.Parse(dsn); err == nil {
			if p, has := u.User.Password(); has && p != "" {
				out = append(out, p, url.QueryEscape(p), url.PathEscape(p))
			}
			if p := u.Query().Get("password"); p != "" {
				out = append(out, p, url.QueryEscape(p))
			}
		}
		return out
	}
	for _, m := range keywordPassword().FindAllStringSubmatch(dsn, -1) {
		if p := strings.Trim(m[2], "'"); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// scrub returns err with every password in dsn taken out of its message;
// it still wraps err, for errors.Is and errors.As.
func scrub(err error, dsn string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, p := range passwords(dsn) {
		msg = strings.ReplaceAll(msg, p, hidden)
	}
	return scrubbed{msg: msg, err: err}
}

type scrubbed struct {
	msg string
	err error
}

func (e scrubbed) Error() string { return e.msg }
func (e scrubbed) Unwrap() error { return e.err }
