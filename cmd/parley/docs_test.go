package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository's top, seen from this package's directory.
const repoRoot = "../.."

// TestDocs keeps the documentation true: every command, subcommand and
// flag the commands tables of the README and docs/ name exists in the
// matching `parley ... --help`, every relative link in README.md,
// ARCHITECTURE.md, docs/*.md and the editors' and testdata's READMEs leads
// to a file that exists and, with a #fragment, to one of its headings, and
// ARCHITECTURE.md has a row for every package.
func TestDocs(t *testing.T) {
	t.Run("commands", func(t *testing.T) {
		files := []string{"README.md", "docs/cli.md", "docs/mcp-acp.md"}
		rows := 0
		h := &helpCache{t: t, out: map[string]string{}}
		for _, name := range files {
			text := readDoc(t, name)
			for _, row := range commandRows(text) {
				rows++
				for _, problem := range checkCommandRow(h, row) {
					t.Errorf("%s: %s\n\trow: %s", name, problem, row)
				}
			}
		}
		if rows < 20 {
			t.Errorf("found %d rows in the commands tables of %v; the tables' header is | command | what it does |", rows, files)
		}
	})
	t.Run("links", func(t *testing.T) {
		docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		editors, err := filepath.Glob(filepath.Join(repoRoot, "editors", "*", "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		files := []string{filepath.Join(repoRoot, "README.md"), filepath.Join(repoRoot, "ARCHITECTURE.md"),
			filepath.Join(repoRoot, "testdata", "README.md")}
		files = append(append(files, docs...), editors...)
		for _, problem := range checkLinks(files) {
			t.Error(problem)
		}
	})
	t.Run("architecture", func(t *testing.T) {
		arch := readDoc(t, "ARCHITECTURE.md")
		for _, pkg := range goPackages(t) {
			if n := strings.Count(arch, "\n| `"+pkg+"` |"); n != 1 {
				t.Errorf("ARCHITECTURE.md has %d rows | `%s` | in its packages table, want one", n, pkg)
			}
		}
		if m := regexp.MustCompile(`\w+://\S+|\]\(\.\./[^)]*\)`).FindString(arch); m != "" {
			t.Errorf("ARCHITECTURE.md cites %s, outside the repository", m)
		}
	})
	// The checker itself must fail on a missing file and a missing heading.
	t.Run("broken links are found", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n\n## Real `heading`: yes\n"), 0o644)
		doc := filepath.Join(dir, "b.md")
		os.WriteFile(doc, []byte("[ok](a.md#real-heading-yes) [self](#b) `[code](gone.md)`\n"+
			"[gone](gone.md) [bad anchor](a.md#nope)\n\n# B\n"), 0o644)
		got := checkLinks([]string{doc})
		if len(got) != 2 || !strings.Contains(got[0], "gone.md") || !strings.Contains(got[1], "#nope") {
			t.Errorf("checkLinks found %q, want the two broken links", got)
		}
	})
}

// goPackages returns the directories below the repository's top that hold
// non-test Go files, as slash paths (the module's packages, but for
// testdata, hidden directories and node_modules).
func goPackages(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var pkgs []string
	err := filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != repoRoot && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(repoRoot, filepath.Dir(path))
		if err != nil || rel == "." {
			return err
		}
		if rel = filepath.ToSlash(rel); !seen[rel] {
			seen[rel] = true
			pkgs = append(pkgs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// helpCache runs `parley ARGS... --help` in-process, once per command.
type helpCache struct {
	t   *testing.T
	out map[string]string
}

func (h *helpCache) help(args ...string) string {
	key := strings.Join(args, " ")
	if s, ok := h.out[key]; ok {
		return s
	}
	var buf bytes.Buffer
	cmd := newRootCmd()
	cmd.SetArgs(append(slices.Clone(args), "--help"))
	cmd.SetOut(&buf)
	cmd.SetErr(&buf)
	if err := cmd.Execute(); err != nil {
		h.t.Fatalf("parley %s --help: %v", key, err)
	}
	h.out[key] = buf.String()
	return buf.String()
}

// helpSection returns the lines of a help text's section ("Available
// Commands:", "Flags:", "Global Flags:"), up to the next blank line.
func helpSection(help, title string) []string {
	_, after, ok := strings.Cut(help, "\n"+title+"\n")
	if !ok {
		return nil
	}
	block, _, _ := strings.Cut(after, "\n\n")
	return strings.Split(block, "\n")
}

func subcommands(help string) []string {
	var names []string
	for _, l := range helpSection(help, "Available Commands:") {
		if f := strings.Fields(l); len(f) > 0 {
			names = append(names, f[0])
		}
	}
	return names
}

var flagLine = regexp.MustCompile(`^\s+(?:-(\w), )?--([\w-]+)`)

// flags returns the short and long flags a help text lists, with dashes.
func flags(help string) []string {
	var out []string
	for _, title := range []string{"Flags:", "Global Flags:"} {
		for _, l := range helpSection(help, title) {
			if m := flagLine.FindStringSubmatch(l); m != nil {
				if m[1] != "" {
					out = append(out, "-"+m[1])
				}
				out = append(out, "--"+m[2])
			}
		}
	}
	return out
}

// commandRows returns the rows of the tables headed | command | what it does |.
func commandRows(text string) []string {
	var rows []string
	in := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "| command | what it does |"):
			in = true
		case in && strings.HasPrefix(l, "|---"):
		case in && strings.HasPrefix(l, "|"):
			rows = append(rows, l)
		default:
			in = false
		}
	}
	return rows
}

var (
	codeSpan  = regexp.MustCompile("`([^`]+)`")
	flagToken = regexp.MustCompile(`(?:^|[\s\[(])(--?[A-Za-z][\w-]*)`)
	subWord   = regexp.MustCompile(`^[a-z][a-z-]*$`)
)

// checkCommandRow checks a table row: each `parley CMD [SUB|SUB...]` it
// names must be a command (and subcommands) of parley, and each -f or
// --flag in its code spans a flag of one of those commands or a global one.
func checkCommandRow(h *helpCache, row string) []string {
	var problems []string
	var helps []string
	found := false
	for _, m := range codeSpan.FindAllStringSubmatch(row, -1) {
		span := strings.ReplaceAll(m[1], `\|`, "|")
		words := strings.Fields(span)
		if len(words) < 2 || words[0] != "parley" {
			continue
		}
		found = true
		cmd := words[1]
		if !slices.Contains(subcommands(h.help()), cmd) {
			problems = append(problems, fmt.Sprintf("parley has no command %q", cmd))
			continue
		}
		cmdHelp := h.help(cmd)
		helps = append(helps, cmdHelp)
		if len(words) < 3 {
			continue
		}
		alts := strings.Split(strings.Trim(words[2], "[]"), "|")
		for _, a := range alts {
			if !subWord.MatchString(a) {
				alts = nil // an argument such as FILE, [DIR|RALPH.md]
				break
			}
		}
		for _, sub := range alts {
			if !slices.Contains(subcommands(cmdHelp), sub) {
				problems = append(problems, fmt.Sprintf("parley %s has no subcommand %q", cmd, sub))
				continue
			}
			helps = append(helps, h.help(cmd, sub))
		}
	}
	if !found {
		return append(problems, "no `parley ...` command in the row")
	}
	var known []string
	for _, help := range helps {
		known = append(known, flags(help)...)
	}
	for _, m := range codeSpan.FindAllStringSubmatch(row, -1) {
		for _, f := range flagToken.FindAllStringSubmatch(m[1], -1) {
			if !slices.Contains(known, f[1]) {
				problems = append(problems, fmt.Sprintf("flag %s is in no help of the commands the row names", f[1]))
			}
		}
	}
	return problems
}

var (
	fence      = regexp.MustCompile("(?m)^\\s*(```|~~~)")
	inlineCode = regexp.MustCompile("`[^`\n]*`")
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	headingRe  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*$`)
)

// prose returns a markdown text's lines outside fenced code blocks, with
// inline code blanked.
func prose(text string) []string {
	var out []string
	var open string
	for _, l := range strings.Split(text, "\n") {
		if m := fence.FindStringSubmatch(l); m != nil {
			if open == "" {
				open = m[1]
			} else if m[1] == open {
				open = ""
			}
			out = append(out, "")
			continue
		}
		if open != "" {
			out = append(out, "")
			continue
		}
		out = append(out, inlineCode.ReplaceAllStringFunc(l, func(s string) string {
			if headingRe.MatchString(l) {
				return strings.Trim(s, "`") // headings keep code's text for their slug
			}
			return strings.Repeat(" ", len(s))
		}))
	}
	return out
}

// slugs returns the GitHub anchors of a markdown text's headings.
func slugs(text string) map[string]bool {
	out := map[string]bool{}
	for _, l := range prose(text) {
		m := headingRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		base := slug(m[1])
		s := base
		for i := 1; out[s]; i++ {
			s = fmt.Sprintf("%s-%d", base, i)
		}
		out[s] = true
	}
	return out
}

// slug is GitHub's heading anchor: lower case, only letters, digits,
// spaces, '-' and '_' kept, spaces turned into '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkLinks returns a line for each relative link of the files whose
// target does not exist, or whose #fragment names no heading of a
// markdown target.
func checkLinks(files []string) []string {
	var problems []string
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for n, l := range prose(string(b)) {
			for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, frag, _ := strings.Cut(target, "#")
				where := fmt.Sprintf("%s:%d: link %s", file, n+1, target)
				full := file
				if path != "" {
					full = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
					if _, err := os.Stat(full); err != nil {
						problems = append(problems, where+": no such file")
						continue
					}
				}
				if frag == "" || !strings.HasSuffix(full, ".md") {
					continue
				}
				tb, err := os.ReadFile(full)
				if err != nil {
					problems = append(problems, where+": "+err.Error())
					continue
				}
				if !slugs(string(tb))[frag] {
					problems = append(problems, where+": no heading with the anchor #"+frag)
				}
			}
		}
	}
	return problems
}
