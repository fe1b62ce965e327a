package prompts

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/mentions"
)

// Source says where a command came from.
type Source string

const (
	Workspace Source = "workspace" // <root>/.parley/commands: needs approval to run shell
	User      Source = "user"      // the user config directory: trusted
)

// Limits on what is read, so a hostile repository cannot make loading
// slow or large.
const (
	maxFileSize = 256 << 10
	maxCommands = 500
	maxDepth    = 4
)

// Command is one prompt command file.
type Command struct {
	Name         string `json:"name"` // "review", "frontend:review"
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint,omitempty"`
	Model        string `json:"model,omitempty"`
	// AllowedTools are the front matter's tool names as written
	// ("Read", "Bash(git diff:*)", "grep"); see ToolNames.
	AllowedTools []string `json:"allowedTools,omitempty"`
	Source       Source   `json:"source"`
	Path         string   `json:"path"`
	// Root is the workspace root the command runs in ("" for a user
	// command, which runs in the primary root).
	Root string `json:"-"`
	Body string `json:"-"`
}

// frontMatter is the YAML shape; unknown keys (Claude Code's
// disable-model-invocation, OpenCode's agent) are ignored.
type frontMatter struct {
	Description  string    `yaml:"description"`
	ArgumentHint yaml.Node `yaml:"argument-hint"`
	Model        string    `yaml:"model"`
	AllowedTools yaml.Node `yaml:"allowed-tools"`
}

// Parse reads a command file's text.
func Parse(name string, data []byte) (*Command, error) {
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	text := strings.TrimPrefix(strings.ReplaceAll(string(data), "\r\n", "\n"), "\ufeff")
	c := &Command{Name: name, Body: text}
	head, body, ok := splitFrontMatter(text)
	if !ok {
		c.Description = firstLine(text)
		return c, nil
	}
	var fm frontMatter
	if err := yaml.NewDecoder(strings.NewReader(head)).Decode(&fm); err != nil && !errors.Is(err, io.EOF) {
		// Claude Code's own examples are not always YAML
		// ("argument-hint: [file] [focus]"): read them line by line.
		if fm, err = plainFrontMatter(head, err); err != nil {
			return nil, err
		}
	}
	c.Body = body
	c.Description = strings.TrimSpace(fm.Description)
	if c.Description == "" {
		c.Description = firstLine(body)
	}
	c.Model = strings.TrimSpace(fm.Model)
	hint, err := argumentHint(&fm.ArgumentHint)
	if err != nil {
		return nil, fmt.Errorf("argument-hint: %w", err)
	}
	c.ArgumentHint = strings.TrimSpace(hint)
	if c.AllowedTools, err = toolList(&fm.AllowedTools); err != nil {
		return nil, fmt.Errorf("allowed-tools: %w", err)
	}
	return c, nil
}

// plainFrontMatter reads front matter that is not YAML as "key: value"
// lines, values taken as written; yerr is YAML's complaint, returned when
// a line is not of that form either.
func plainFrontMatter(head string, yerr error) (frontMatter, error) {
	var fm frontMatter
	scalar := func(v string) yaml.Node { return yaml.Node{Kind: yaml.ScalarNode, Value: v} }
	for line := range strings.SplitSeq(head, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok || strings.ContainsAny(key, " \t") {
			return fm, fmt.Errorf("front matter: %w", yerr)
		}
		value = strings.TrimSpace(value)
		switch key {
		case "description":
			fm.Description = strings.Trim(value, `"'`)
		case "argument-hint":
			fm.ArgumentHint = scalar(value)
		case "model":
			fm.Model = strings.Trim(value, `"'`)
		case "allowed-tools":
			fm.AllowedTools = scalar(strings.Trim(value, "[]"))
		}
	}
	return fm, nil
}

// splitFrontMatter cuts "---\nYAML\n---\n" off the top of text.
func splitFrontMatter(text string) (head, body string, ok bool) {
	rest, found := strings.CutPrefix(text, "---\n")
	if !found {
		return "", text, false
	}
	if strings.HasPrefix(rest, "---\n") || rest == "---" {
		return "", strings.TrimPrefix(rest, "---"), true
	}
	i := strings.Index(rest, "\n---\n")
	if i < 0 {
		if h, ok := strings.CutSuffix(rest, "\n---"); ok {
			return h, "", true
		}
		return "", text, false // no closing line: the dashes are text
	}
	return rest[:i], rest[i+len("\n---\n"):], true
}

// scalarOrList reads a field written either as a string or a list of
// strings, joined with sep.
func scalarOrList(n *yaml.Node, sep string) (string, error) {
	switch n.Kind {
	case 0:
		return "", nil
	case yaml.ScalarNode:
		return n.Value, nil
	case yaml.SequenceNode:
		var parts []string
		for _, item := range n.Content {
			if item.Kind != yaml.ScalarNode {
				return "", errors.New("want a string or a list of strings")
			}
			parts = append(parts, item.Value)
		}
		return strings.Join(parts, sep), nil
	}
	return "", errors.New("want a string or a list of strings")
}

// argumentHint reads argument-hint. YAML reads Claude Code's
// "argument-hint: [file]" as a list; its items are shown bracketed, as
// written.
func argumentHint(n *yaml.Node) (string, error) {
	if n.Kind != yaml.SequenceNode {
		return scalarOrList(n, " ")
	}
	var parts []string
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode {
			return "", errors.New("want a string or a list of strings")
		}
		parts = append(parts, "["+item.Value+"]")
	}
	return strings.Join(parts, " "), nil
}

// toolList reads allowed-tools: "Read, Grep, Bash(git diff:*)" or a list.
// Commas inside parentheses belong to a pattern.
func toolList(n *yaml.Node) ([]string, error) {
	s, err := scalarOrList(n, ",")
	if err != nil {
		return nil, err
	}
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		if t := strings.TrimSpace(s[start:end]); t != "" {
			out = append(out, t)
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case ',', ' ':
			if depth == 0 {
				flush(i)
				start = i + 1
			}
		}
	}
	flush(len(s))
	return out, nil
}

// firstLine is a command's description when its front matter gives none.
func firstLine(body string) string {
	for line := range strings.SplitSeq(body, "\n") {
		if l := strings.TrimSpace(strings.TrimLeft(line, "# ")); l != "" {
			return clip(l, 100)
		}
	}
	return ""
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Dir is one directory of command files.
type Dir struct {
	Path   string
	Source Source
	Root   string // the workspace root a workspace directory belongs to
}

// Dirs are the command directories of a workspace, in precedence order:
// each root's .parley/commands, then the user's.
func Dirs(roots ...string) []Dir {
	var out []Dir
	for _, r := range roots {
		out = append(out, Dir{Path: filepath.Join(r, ".parley", "commands"), Source: Workspace, Root: r})
	}
	if f, err := config.UserFile(); err == nil {
		out = append(out, Dir{Path: filepath.Join(filepath.Dir(f), "commands"), Source: User})
	}
	return out
}

// Set is the commands of a workspace.
type Set struct {
	byName map[string]*Command
	list   []*Command
	// Problems are files skipped (malformed, shadowing a built-in,
	// unreadable), one line each, for the front end to show once.
	Problems []string
}

// Load reads dirs (missing ones are skipped). Names in reserved are the
// front end's built-in commands, which no file may shadow.
func Load(dirs []Dir, reserved ...string) *Set {
	s := &Set{byName: map[string]*Command{}}
	for _, d := range dirs {
		s.loadDir(d, d.Path, "", 0, reserved)
	}
	slices.SortFunc(s.list, func(a, b *Command) int { return strings.Compare(a.Name, b.Name) })
	return s
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*(:[A-Za-z0-9_][A-Za-z0-9_.-]*)*$`)

func (s *Set) loadDir(d Dir, dir, prefix string, depth int, reserved []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.Problems = append(s.Problems, fmt.Sprintf("prompt commands %s: %v", dir, err))
		}
		return
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		fi, err := os.Stat(path) // follows a symlink; checked below
		if err != nil || len(s.list) >= maxCommands {
			continue
		}
		if fi.IsDir() {
			if depth < maxDepth && !strings.HasPrefix(e.Name(), ".") {
				s.loadDir(d, path, prefix+e.Name()+":", depth+1, reserved)
			}
			continue
		}
		base, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || !fi.Mode().IsRegular() {
			continue
		}
		s.add(d, path, prefix+base, reserved)
	}
}

func (s *Set) add(d Dir, path, name string, reserved []string) {
	switch {
	case !nameRE.MatchString(name):
		s.Problems = append(s.Problems, fmt.Sprintf("prompt command %s skipped: its name %q may hold letters, digits, _, - and .", path, name))
		return
	case slices.Contains(reserved, name):
		s.Problems = append(s.Problems, fmt.Sprintf("prompt command %s skipped: /%s is a built-in command", path, name))
		return
	case s.byName[name] != nil:
		return // an earlier directory (the workspace) shadows this one
	}
	if d.Source == Workspace && !inside(d.Root, path) {
		s.Problems = append(s.Problems, fmt.Sprintf("prompt command %s skipped: it links outside the workspace", path))
		return
	}
	data, err := readCapped(path)
	if err != nil {
		s.Problems = append(s.Problems, fmt.Sprintf("prompt command %s: %v", path, err))
		return
	}
	c, err := Parse(name, data)
	if err != nil {
		s.Problems = append(s.Problems, fmt.Sprintf("prompt command %s skipped: %v", path, err))
		return
	}
	c.Source, c.Path, c.Root = d.Source, path, d.Root
	s.byName[name] = c
	s.list = append(s.list, c)
}

// inside reports whether path, symlinks resolved, lies below root.
func inside(root, path string) bool {
	r, err1 := filepath.EvalSymlinks(root)
	p, err2 := filepath.EvalSymlinks(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(r, p)
	return err == nil && filepath.IsLocal(rel)
}

func readCapped(path string) ([]byte, error) {
	return mentions.ReadCapped(path, maxFileSize)
}

// Lookup returns the command called name, or nil.
func (s *Set) Lookup(name string) *Command {
	if s == nil {
		return nil
	}
	return s.byName[name]
}

// List returns the commands sorted by name.
func (s *Set) List() []*Command {
	if s == nil {
		return nil
	}
	return slices.Clone(s.list)
}

// Invocation splits a message "/NAME args" into the command's name and
// its argument text; ok is false for a message that is not one.
func Invocation(msg string) (name, args string, ok bool) {
	msg = strings.TrimSpace(msg)
	rest, found := strings.CutPrefix(msg, "/")
	if !found {
		return "", "", false
	}
	i := strings.IndexAny(rest, " \t\n")
	if i < 0 {
		i = len(rest)
	}
	name = rest[:i]
	if !nameRE.MatchString(name) {
		return "", "", false
	}
	return name, strings.TrimSpace(rest[i:]), true
}
