package tools

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"regexp"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/pathglob"
	"github.com/parleyhq/parley/workspace"
)

//go:embed desc/grep.md
var grepDesc string

const (
	defaultGrepResults = 100
	maxGrepLine        = 400 // bytes of a matching line shown
)

type grepParams struct {
	Pattern         string `json:"pattern" jsonschema:"description=Regular expression (Go RE2 syntax) matched against each line."`
	Path            string `json:"path,omitempty" jsonschema:"description=File or directory to search. Default: the whole workspace."`
	Glob            string `json:"glob,omitempty" jsonschema:"description=Only search files matching this glob: without a slash it matches file names at any depth (*.go), with one the path relative to path (internal/**/*.go)."`
	CaseInsensitive bool   `json:"case_insensitive,omitempty" jsonschema:"description=Match letters regardless of case."`
	Context         int    `json:"context,omitempty" jsonschema:"minimum=0,maximum=10,description=Lines of context to show before and after each match."`
	MaxResults      int    `json:"max_results,omitempty" jsonschema:"minimum=1,maximum=1000,description=Maximum matching lines to show (default 100); the rest are counted."`
}

// grepTool searches file contents by regular expression.
var grepTool = New(
	Spec{Name: "grep", Description: grepDesc, ReadOnly: true},
	grepAccess, grepRun)

func grepAccess(env *Env, p *grepParams) (access.Access, error) {
	a, err := pathAccess(env, access.Read, cmp.Or(p.Path, "."), "grep")
	a.Summary = "grep " + p.Pattern
	return a, err
}

// grepper holds one search's state.
type grepper struct {
	env      *Env
	line     *regexp.Regexp    // per-line semantics
	scan     *regexp.Regexp    // (?m) variant to find candidates in a whole file
	filter   *pathglob.Pattern // nil: every file
	baseName bool              // filter matches base names
	context  int
	limit    int

	out                       strings.Builder
	shown, total, files       int
	skippedBinary, skippedBig int
}

func grepRun(ctx context.Context, env *Env, p *grepParams) (*Result, error) {
	g, res := newGrepper(env, p)
	if res != nil {
		return res, nil
	}
	bases, res := searchBases(env, p.Path)
	if res != nil {
		return res, nil
	}
	for _, base := range bases {
		err := walkFiles(ctx, base, false, func(f walkedFile) error {
			if base.file || g.wants(f.baseRel) {
				g.file(base, f)
			}
			return ctx.Err()
		})
		if err != nil {
			return nil, err
		}
	}
	return &Result{Content: g.report(p.Pattern)}, nil
}

func newGrepper(env *Env, p *grepParams) (*grepper, *Result) {
	if p.Pattern == "" {
		return nil, Errorf("pattern is empty")
	}
	flags := ""
	if p.CaseInsensitive {
		flags = "(?i)"
	}
	line, err := regexp.Compile(flags + p.Pattern)
	if err != nil {
		return nil, Errorf("invalid regular expression: %v", err)
	}
	g := &grepper{env: env, line: line, scan: regexp.MustCompile("(?m)" + flags + p.Pattern), context: p.Context, limit: cmp.Or(p.MaxResults, defaultGrepResults)}
	if p.Glob != "" {
		filter, err := compileGlob(p.Glob)
		if err != nil {
			return nil, Errorf("glob: %v", err)
		}
		g.filter, g.baseName = &filter, !strings.Contains(p.Glob, "/")
	}
	return g, nil
}

func (g *grepper) wants(baseRel string) bool {
	if g.filter == nil {
		return true
	}
	if g.baseName {
		return g.filter.Match(baseRel[strings.LastIndexByte(baseRel, '/')+1:])
	}
	return g.filter.Match(baseRel)
}

// file searches one file. Unreadable files are skipped silently: a search
// over a tree should not fail on one file that vanished or is locked.
func (g *grepper) file(base searchBase, f walkedFile) {
	if f.size > MaxFileSize {
		g.skippedBig++
		return
	}
	content, _, err := g.env.Files.Read(f.abs)
	if err != nil {
		return
	}
	if workspace.IsBinary(content) {
		g.skippedBinary++
		return
	}
	shown := displayRel(g.env, base.root, f.rel)
	var matches []int       // 0-based line numbers
	lineNo, counted := 0, 0 // lineNo lines end before offset counted
	for pos := 0; pos < len(content); {
		loc := g.scan.FindIndex(content[pos:])
		if loc == nil {
			break
		}
		start := lineBegin(content, pos+loc[0])
		lineNo += bytes.Count(content[counted:start], []byte{'\n'})
		counted = start
		end := start + lineLen(content[start:])
		if g.line.Match(trimCR(content[start:end])) {
			matches = append(matches, lineNo)
		}
		pos = end + 1
	}
	if len(matches) == 0 {
		return
	}
	g.files++
	g.total += len(matches)
	g.render(shown, splitLines(string(content)), matches)
}

func lineBegin(b []byte, at int) int { return bytes.LastIndexByte(b[:at], '\n') + 1 }

func lineLen(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i
	}
	return len(b)
}

func trimCR(b []byte) []byte { return bytes.TrimSuffix(b, []byte{'\r'}) }

// render writes a file's matches (within the overall limit) with context.
func (g *grepper) render(shown string, lines []string, matches []int) {
	last := -1 // last line written
	for _, m := range matches {
		if g.shown >= g.limit {
			return
		}
		g.shown++
		from, to := max(m-g.context, last+1), min(m+g.context, len(lines)-1)
		if g.context > 0 && last >= 0 && from > last+1 {
			g.out.WriteString("--\n")
		}
		for i := from; i <= to; i++ {
			sep := "-"
			if i == m || (i > m && g.isMatch(matches, i)) {
				sep = ":"
			}
			fmt.Fprintf(&g.out, "%s%s%d%s %s\n", shown, sep, i+1, sep, clip(lines[i]))
		}
		last = max(last, to)
	}
}

func (g *grepper) isMatch(matches []int, line int) bool {
	for _, m := range matches {
		if m == line {
			return true
		}
	}
	return false
}

func clip(line string) string {
	if len(line) <= maxGrepLine {
		return line
	}
	cut := maxGrepLine
	for cut > 0 && !utf8Start(line[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… [+%d bytes]", line[:cut], len(line)-cut)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func (g *grepper) report(pattern string) string {
	var b strings.Builder
	if g.total == 0 {
		fmt.Fprintf(&b, "No matches for %q.\n", pattern)
	} else {
		b.WriteString(g.out.String())
	}
	if g.total > g.shown {
		fmt.Fprintf(&b, "[%d more matching lines not shown (%d in %d files in all); narrow the pattern, path or glob, or raise max_results]\n", g.total-g.shown, g.total, g.files)
	}
	if g.skippedBinary > 0 || g.skippedBig > 0 {
		fmt.Fprintf(&b, "[skipped %d binary and %d oversized files]\n", g.skippedBinary, g.skippedBig)
	}
	return b.String()
}
