package ralph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// FileName is the name of a ralph's prompt file.
const FileName = "RALPH.md"

// DefaultCommandTimeout applies to a command without a timeout.
const DefaultCommandTimeout = 60 * time.Second

// Ralph is one parsed RALPH.md.
type Ralph struct {
	Dir      string // the ralph's directory
	Name     string // the directory's name ({{ ralph.name }})
	Agent    string // external agent command line; "" runs parley's agent
	Commands []Command
	Args     []string // declared argument names, in order
	Credit   bool     // ask for a Co-authored-by trailer (default true)
	Body     string   // the prompt template
}

// Command is one entry of the commands list.
type Command struct {
	Name    string
	Run     string
	Timeout time.Duration
}

// frontmatter is the YAML shape; unknown keys are errors.
type frontmatter struct {
	Agent    string `yaml:"agent"`
	Commands []struct {
		Name    string  `yaml:"name"`
		Run     string  `yaml:"run"`
		Timeout float64 `yaml:"timeout"`
	} `yaml:"commands"`
	Args   []string `yaml:"args"`
	Credit *bool    `yaml:"credit"`
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Locate turns a path naming a ralph directory or its RALPH.md into the
// RALPH.md path.
func Locate(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("ralph %s: %w", path, err)
	}
	if fi.IsDir() {
		path = filepath.Join(path, FileName)
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("ralph: %w", err)
		}
	}
	return filepath.Abs(path)
}

// Load reads and parses the RALPH.md at path.
func Load(path string) (*Ralph, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ralph: %w", err)
	}
	r, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.Dir = filepath.Dir(path)
	r.Name = filepath.Base(r.Dir)
	return r, nil
}

// Parse reads a RALPH.md: optional frontmatter between "---" lines, then
// the prompt.
func Parse(data []byte) (*Ralph, error) {
	r := &Ralph{Credit: true}
	body := data
	text := string(bytes.TrimPrefix(data, []byte("\ufeff")))
	if rest, ok := strings.CutPrefix(text, "---"); ok && (strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, "\r\n")) {
		fm, after, found := cutFence(rest)
		if !found {
			return nil, errors.New("frontmatter: no closing ---")
		}
		if err := r.parseFrontmatter(fm); err != nil {
			return nil, err
		}
		body = []byte(after)
	}
	r.Body = string(body)
	return r, nil
}

// cutFence splits s after the opening fence at the first line that is
// exactly "---".
func cutFence(s string) (fm, after string, ok bool) {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if i > 0 && strings.TrimRight(l, "\r\n") == "---" {
			return strings.Join(lines[:i], ""), strings.Join(lines[i+1:], ""), true
		}
	}
	return "", "", false
}

func (r *Ralph) parseFrontmatter(src string) error {
	var fm frontmatter
	dec := yaml.NewDecoder(strings.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&fm); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("frontmatter: %w", err)
	}
	r.Agent = strings.TrimSpace(fm.Agent)
	if fm.Credit != nil {
		r.Credit = *fm.Credit
	}
	seen := map[string]bool{}
	for i, c := range fm.Commands {
		if !nameRE.MatchString(c.Name) {
			return fmt.Errorf("commands[%d]: name %q: use letters, digits, _ and -", i, c.Name)
		}
		if seen[c.Name] {
			return fmt.Errorf("commands[%d]: duplicate name %q", i, c.Name)
		}
		seen[c.Name] = true
		if strings.TrimSpace(c.Run) == "" {
			return fmt.Errorf("commands[%d] (%s): empty run", i, c.Name)
		}
		if c.Timeout < 0 {
			return fmt.Errorf("commands[%d] (%s): negative timeout", i, c.Name)
		}
		t := DefaultCommandTimeout
		if c.Timeout > 0 {
			t = time.Duration(c.Timeout * float64(time.Second))
		}
		r.Commands = append(r.Commands, Command{Name: c.Name, Run: c.Run, Timeout: t})
	}
	for i, a := range fm.Args {
		if !nameRE.MatchString(a) {
			return fmt.Errorf("args[%d]: name %q: use letters, digits, _ and -", i, a)
		}
	}
	r.Args = fm.Args
	return nil
}
