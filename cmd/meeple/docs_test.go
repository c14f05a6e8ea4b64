package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The docs convention (docs/architecture.md, "The docs are tested"): every
// relative link in README.md and docs/*.md resolves, and every line of a
// code block fenced as sh is a command that parses, with meeple's own
// subcommands and flags checked in-process.

// repoRoot is where README.md lives, seen from this package's directory.
const repoRoot = "../.."

// docFiles lists README.md and docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(repoRoot, "README.md")}, files...)
	if len(files) < 2 {
		t.Fatalf("no docs found under %s/docs", repoRoot)
	}
	return files
}

// markdownDoc is a Markdown file split into its prose and its fenced code
// blocks.
type markdownDoc struct {
	path   string
	prose  []string // lines outside code blocks; code lines left blank, so that prose[i] is line i+1
	blocks []codeBlock
}

type codeBlock struct {
	lang  string
	line  int // line of the opening fence, from 1
	lines []string
}

func readMarkdown(t *testing.T, path string) markdownDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := markdownDoc{path: path}
	var block *codeBlock
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			doc.prose = append(doc.prose, "")
			if block == nil {
				block = &codeBlock{lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: i + 1}
			} else {
				doc.blocks = append(doc.blocks, *block)
				block = nil
			}
			continue
		}
		if block != nil {
			block.lines = append(block.lines, trimmed)
			line = ""
		}
		doc.prose = append(doc.prose, line)
	}
	if block != nil {
		t.Errorf("%s:%d: code block never closed", path, block.line)
	}
	return doc
}

var (
	inlineCode = regexp.MustCompile("`[^`]*`")
	mdLink     = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	heading    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// anchors returns the #fragments GitHub makes for the headings of doc.
func anchors(doc markdownDoc) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, line := range doc.prose {
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := slugify(m[1])
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// slugify makes a heading's anchor as GitHub does: lower case, spaces to
// hyphens, every other character that is not a letter, digit, hyphen or
// underscore dropped.
func slugify(title string) string {
	title = strings.ReplaceAll(title, "`", "")
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestDocLinksResolve(t *testing.T) {
	docs := map[string]markdownDoc{}
	for _, path := range docFiles(t) {
		docs[filepath.Clean(path)] = readMarkdown(t, path)
	}
	anchorsOf := func(path string) map[string]bool {
		doc, ok := docs[path]
		if !ok {
			doc = readMarkdown(t, path)
			docs[path] = doc
		}
		return anchors(doc)
	}
	links := 0
	for path, doc := range docs {
		for i, line := range doc.prose {
			for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, "code"), -1) {
				target := m[1]
				if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				file, frag, _ := strings.Cut(target, "#")
				dest := path
				if file != "" {
					dest = filepath.Clean(filepath.Join(filepath.Dir(path), file))
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link %q: %v", path, i+1, target, err)
						continue
					}
				}
				if frag != "" {
					if !strings.HasSuffix(dest, ".md") {
						t.Errorf("%s:%d: link %q: an anchor into a file that is not Markdown", path, i+1, target)
					} else if !anchorsOf(dest)[frag] {
						t.Errorf("%s:%d: link %q: no heading in %s makes the anchor #%s", path, i+1, target, dest, frag)
					}
				}
			}
		}
	}
	if links == 0 {
		t.Fatal("no relative links found; the Markdown parsing is broken")
	}
}

func TestSlugify(t *testing.T) {
	for title, want := range map[string]string{
		"Self-hosting in brief":             "self-hosting-in-brief",
		"Around the World in 80 Days":       "around-the-world-in-80-days",
		"1. Create the Discord application": "1-create-the-discord-application",
		"The `meeple` command, (really)":    "the-meeple-command-really",
	} {
		if got := slugify(title); got != want {
			t.Errorf("slugify(%q) = %q, want %q", title, got, want)
		}
	}
}

// shellCommands returns the commands of a doc's sh blocks (continuation
// lines joined, blank lines dropped) and the ExecStart lines of its ini
// blocks (systemd units).
func shellCommands(doc markdownDoc) []docCommand {
	var out []docCommand
	for _, b := range doc.blocks {
		if b.lang == "ini" {
			for i, line := range b.lines {
				if cmd, ok := strings.CutPrefix(line, "ExecStart="); ok {
					out = append(out, docCommand{where: fmt.Sprintf("%s:%d", doc.path, b.line+i+1), text: cmd})
				}
			}
		}
		if b.lang != "sh" {
			continue
		}
		var cur string
		for i, line := range b.lines {
			if strings.HasSuffix(line, `\`) {
				cur += strings.TrimSuffix(line, `\`) + " "
				continue
			}
			cur += line
			if strings.TrimSpace(cur) != "" && !strings.HasPrefix(strings.TrimSpace(cur), "#") {
				out = append(out, docCommand{where: fmt.Sprintf("%s:%d", doc.path, b.line+i+1), text: strings.TrimSpace(cur)})
			}
			cur = ""
		}
	}
	return out
}

type docCommand struct {
	where, text string
}

// shellWords splits a command line into words as a POSIX shell would for
// simple commands: quotes removed, a comment cut off, and splitting stopped
// at the first operator (redirection, pipe, list), which is returned as
// rest.
func shellWords(line string) (words []string, rest string, err error) {
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, "", fmt.Errorf("unclosed %c quote", c)
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case c == '\\' && i+1 < len(line):
			cur.WriteByte(line[i+1])
			inWord, i = true, i+1
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			flush()
			return words, "", nil
		case strings.IndexByte("<>|&;", c) >= 0:
			flush()
			return words, line[i:], nil
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, "", nil
}

// meepleArgs returns the arguments given to meeple by words, and whether
// words run meeple at all: "go run ./cmd/meeple …", "meeple …" or
// "./meeple …", after any VAR=value assignments and "sudo [-u USER]".
func meepleArgs(words []string) ([]string, bool) {
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		words = words[1:]
	}
	if len(words) > 0 && words[0] == "sudo" {
		words = words[1:]
		if len(words) > 1 && words[0] == "-u" {
			words = words[2:]
		}
	}
	switch {
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/meeple":
		return words[3:], true
	case len(words) >= 1 && (words[0] == "meeple" || strings.HasSuffix(words[0], "/meeple")):
		return words[1:], true
	}
	return nil, false
}

// checkMeeple runs meeple's subcommand with "-h" appended: the flags and
// their values are parsed, nothing else is done, and the usage is printed.
func checkMeeple(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("no subcommand")
	}
	var stdout, stderr bytes.Buffer
	if args[0] == "help" {
		if code := run(context.Background(), args, os.Getenv, &stdout, &stderr); code != 0 {
			return fmt.Errorf("exit %d: %s", code, stderr.String())
		}
		return nil
	}
	if _, ok := commands()[args[0]]; !ok {
		return fmt.Errorf("meeple has no subcommand %q", args[0])
	}
	code := run(context.Background(), append(append([]string{}, args...), "-h"), os.Getenv, &stdout, &stderr)
	usage := "Usage of meeple " + args[0]
	if code != 2 || !strings.HasPrefix(stderr.String(), usage) {
		return fmt.Errorf("flags refused (exit %d): %s", code, firstLine(stderr.String()))
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// goPackages returns the package paths ("./…") among the words of a go
// command.
func goPackages(words []string) []string {
	var pkgs []string
	for _, w := range words[2:] {
		if strings.HasPrefix(w, "./") {
			pkgs = append(pkgs, w)
		}
	}
	return pkgs
}

func TestDocCommandsParse(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash is needed to parse the docs' shell lines: %v", err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is needed to check the docs' package paths: %v", err)
	}
	meepleLines, pkgs := 0, map[string]string{}
	for _, path := range docFiles(t) {
		for _, c := range shellCommands(readMarkdown(t, path)) {
			if out, err := exec.Command(bash, "-n", "-c", c.text).CombinedOutput(); err != nil {
				t.Errorf("%s: %q does not parse as shell: %s", c.where, c.text, out)
				continue
			}
			words, _, err := shellWords(c.text)
			if err != nil {
				t.Errorf("%s: %q: %v", c.where, c.text, err)
				continue
			}
			if args, ok := meepleArgs(words); ok {
				meepleLines++
				if err := checkMeeple(args); err != nil {
					t.Errorf("%s: %q: %v", c.where, c.text, err)
				}
				continue
			}
			if len(words) >= 2 && words[0] == "go" && (words[1] == "test" || words[1] == "build" || words[1] == "run") {
				for _, p := range goPackages(words) {
					pkgs[p] = c.where
				}
			}
		}
	}
	if meepleLines == 0 {
		t.Fatal("no meeple command found in the docs; the code block parsing is broken")
	}
	for p, where := range pkgs {
		cmd := exec.Command(goTool, "list", p)
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: package %s: %s", where, p, bytes.TrimSpace(out))
		}
	}
}

func TestDocCommandCheckerRefusesMistakes(t *testing.T) {
	for _, line := range []string{
		"go run ./cmd/meeple nosuch -x",
		"go run ./cmd/meeple play -players",
		"go run ./cmd/meeple play -no-such-flag 3",
		"go run ./cmd/meeple play -players three",
		"sudo -u meeple meeple backup -bogus x",
	} {
		words, _, err := shellWords(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		args, ok := meepleArgs(words)
		if !ok {
			t.Errorf("%q: not seen as a meeple command", line)
			continue
		}
		if err := checkMeeple(args); err == nil {
			t.Errorf("%q: accepted", line)
		}
	}
	words, rest, err := shellWords(`MEEPLE_DISCORD_TOKEN=x go run ./cmd/meeple export -db 'a b.db' -channel 1 > game.txt  # c`)
	if err != nil {
		t.Fatal(err)
	}
	args, ok := meepleArgs(words)
	if !ok || strings.Join(args, "|") != "export|-db|a b.db|-channel|1" || !strings.HasPrefix(rest, ">") {
		t.Errorf("words %q, args %q, rest %q", words, args, rest)
	}
	if err := checkMeeple(args); err != nil {
		t.Errorf("%q: %v", args, err)
	}
}

// TestEverySubcommandIsDocumented: docs/commands.md has a row for each
// subcommand meeple offers.
func TestEverySubcommandIsDocumented(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range commands() {
		if !strings.Contains(string(data), "| `"+name+"` |") {
			t.Errorf("docs/commands.md has no row for meeple %s", name)
		}
	}
}

// TestEveryPackageIsDocumented: docs/architecture.md has a row for each
// package of the module.
func TestEveryPackageIsDocumented(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is needed to list the packages: %v", err)
	}
	list := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{.Module.Path}}", "./...")
	list.Dir = repoRoot
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 5 {
		t.Fatalf("go list found %d packages: %q", len(lines), out)
	}
	for _, line := range lines {
		pkg, module, _ := strings.Cut(line, " ")
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		if !strings.Contains(string(data), "| `"+rel+"` |") {
			t.Errorf("docs/architecture.md has no row for package %s", rel)
		}
	}
}

// TestReadmeLinksEveryPage: a newcomer reaches every page of docs/ from the
// README.
func TestReadmeLinksEveryPage(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs pages: %v", err)
	}
	for _, page := range pages {
		if !strings.Contains(string(readme), "](docs/"+filepath.Base(page)+")") {
			t.Errorf("README.md does not link docs/%s", filepath.Base(page))
		}
	}
}
