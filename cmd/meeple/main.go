// Command meeple hosts board games on Discord and plays, replays and
// simulates them headless. Run "meeple help" for its subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
	_ "time/tzdata" // players' time zones (quiet hours) on hosts without a zone database

	"github.com/meeplegames/meeple/storage/postgres"
)

// command is one subcommand: it parses its own flags from args and writes to
// stdout and stderr.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"play":     {"play a game in this terminal against computer players (no Discord needed)", runPlay},
		"check":    {"check a bot's config, token, database and folders before starting it (no Discord connection)", runCheck},
		"backup":   {"write a consistent, verified copy of the database file", runBackup},
		"export":   {"print a stored game as a script that replay and import read", runExport},
		"import":   {"load a game script into a channel of the database", runImport},
		"migrate":  {"copy every game and setting between databases (bbolt file, PostgreSQL)", runMigrate},
		"render":   {"apply a script of actions and write the board, mats and scores as PNGs", runRender},
		"replay":   {"apply a script of actions and print the final state as JSON", runReplay},
		"run":      {"run the Discord bot (token in MEEPLE_DISCORD_TOKEN; -config for settings)", runRun},
		"simulate": {"play many games between computer players and print a JSON summary", runSimulate},
		"version":  {"print the version, commit and Go version this binary was built from", runVersion},
	}
}

// interruptible returns ctx, cancelled too when the process is asked to
// stop (Ctrl-C, SIGTERM): a command working on a database then stops at
// its next call and closes the database, rather than dying inside one.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// errUsage marks a mistake in the command line; its details were already printed.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	// A database may be named by a connection string with a password (in
	// a flag, the config or the environment): whatever a command prints,
	// its logs included, leaves with the secrets taken out.
	stdout, stderr = redacting{stdout}, redacting{stderr}
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout, cmds)
		return 0
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "meeple: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	if err := cmd.run(ctx, args[1:], getenv, stdout, stderr); err != nil {
		var bad *flagError
		if errors.As(err, &bad) {
			fmt.Fprintf(stderr, "meeple %s: %v\n", args[0], bad)
			return 2
		}
		if errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp) {
			return 2
		}
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "meeple %s: stopped as asked, before it finished: %v\n", args[0], err)
			return 1
		}
		fmt.Fprintf(stderr, "meeple %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: meeple <command> [flags]   (meeple <command> -h for its flags)")
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(cmds))
	for name := range cmds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-9s %s\n", name, cmds[name].summary)
	}
}

// newFlags returns a flag set that reports its errors to stderr and returns
// errUsage rather than exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("meeple "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args and refuses stray positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
}

// flagError is a flag's value out of its range: a mistake in the command
// line, told in one line.
type flagError struct{ msg string }

func (e *flagError) Error() string { return e.msg }

// badFlag is a flagError saying the flag called name is value and why
// that is wrong.
func badFlag(name string, value any, why string) error {
	return &flagError{fmt.Sprintf("-%s is %v: %s", name, value, why)}
}

// inRange refuses the value of the flag called name outside lo to hi.
func inRange(name string, value, lo, hi int) error {
	if value < lo || value > hi {
		return badFlag(name, value, fmt.Sprintf("give a number from %d to %d", lo, hi))
	}
	return nil
}

// redacting writes what it is given without the secrets of the PostgreSQL
// connection strings in it (postgres.Redact). Every line Meeple prints is
// written whole, so a secret is never split between two writes.
type redacting struct{ w io.Writer }

func (r redacting) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, postgres.Redact(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
