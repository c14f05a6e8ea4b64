package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
)

// gameNames lists the games this program offers, by id.
func gameNames() []string { return []string{"crystalpalace", "eightydays"} }

// buildRegistry builds the games this program offers. contentDirs maps a
// game's name to a folder of content files that replace its embedded ones.
func buildRegistry(contentDirs map[string]string) (*engine.Registry, error) {
	for name := range contentDirs {
		if !slices.Contains(gameNames(), name) {
			return nil, fmt.Errorf("content override for unknown game %s", shown(name))
		}
	}
	cp, err := loadContent("crystalpalace", contentDirs, crystalpalace.DefaultContent, crystalpalace.LoadContent)
	if err != nil {
		return nil, err
	}
	eighty, err := loadContent("eightydays", contentDirs, eightydays.DefaultContent, eightydays.LoadContent)
	if err != nil {
		return nil, err
	}
	return engine.NewRegistry(crystalpalace.NewRules(cp), eightydays.NewRules(eighty)), nil
}

// loadContent loads a game's content from its folder in dirs, or the
// embedded content when it has none.
func loadContent[C any](game string, dirs map[string]string, embedded func() (C, error), load func(fs.FS) (C, error)) (C, error) {
	dir := dirs[game]
	if dir == "" {
		return embedded()
	}
	c, err := load(os.DirFS(dir))
	if err != nil {
		return c, fmt.Errorf("%s content in %s: %w", game, dir, err)
	}
	return c, nil
}

// gameFlags are the flags that choose a game and its setup.
type gameFlags struct {
	game    *string
	players *int
	seed    *uint64
	options *string
	content *string
}

func addGameFlags(fs *flag.FlagSet) *gameFlags {
	return &gameFlags{
		game:    fs.String("game", "crystalpalace", "game: crystalpalace or eightydays"),
		players: fs.Int("players", 4, "number of players"),
		seed:    fs.Uint64("seed", 1, "random seed; the same seed and actions give the same game"),
		options: fs.String("options", "", "game options as name=value pairs separated by commas"),
		content: fs.String("content", "", "folder of content files replacing the game's embedded ones"),
	}
}

// adopt takes the game, player count, seed and options from a script's
// header for each of those flags the command line did not set.
func (g *gameFlags) adopt(fs *flag.FlagSet, sf scriptFile) {
	if !sf.hasHeader {
		return
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["game"] {
		*g.game = sf.game
	}
	if !set["players"] {
		*g.players = sf.setup.Players
	}
	if !set["seed"] {
		*g.seed = sf.setup.Seed
	}
	if !set["options"] {
		var opts []string
		for k, v := range sf.setup.Options {
			opts = append(opts, k+"="+v)
		}
		slices.Sort(opts)
		*g.options = strings.Join(opts, ",")
	}
}

// setup resolves the chosen game and its setup.
func (g *gameFlags) setup() (engine.Rules, engine.Setup, error) {
	dirs := map[string]string{}
	if *g.content != "" {
		dirs[*g.game] = *g.content
	}
	reg, err := buildRegistry(dirs)
	if err != nil {
		return nil, engine.Setup{}, err
	}
	rules, err := reg.Lookup(*g.game)
	if err != nil {
		return nil, engine.Setup{}, err
	}
	if n := *g.players; n < rules.MinPlayers() || n > rules.MaxPlayers() {
		return nil, engine.Setup{}, badFlag("players", n, fmt.Sprintf("%s is for %d to %d players", rules.Title(), rules.MinPlayers(), rules.MaxPlayers()))
	}
	opts, err := parseOptions(*g.options)
	if err != nil {
		return nil, engine.Setup{}, err
	}
	return rules, engine.Setup{Players: *g.players, Seed: *g.seed, Options: opts}, nil
}

func parseOptions(s string) (map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	opts := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("option %q: want name=value", kv)
		}
		opts[k] = v
	}
	return opts, nil
}
