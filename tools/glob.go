package tools

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parleyhq/parley/workspace"
)

//go:embed desc/glob.md
var globDesc string

// globCap bounds glob's output.
const globCap = 500

type globParams struct {
	Pattern string `json:"pattern" jsonschema:"description=Glob pattern matched against paths relative to path (or the workspace root): * and ? stay within one path segment, ** spans any number of directories, [abc] and {a,b} alternatives work. Example: **/*_test.go"`
	Path    string `json:"path,omitempty" jsonschema:"description=Directory to search under. Default: the whole workspace."`
	All     bool   `json:"all,omitempty" jsonschema:"description=Also match files excluded by ignore rules."`
}

// GlobTool finds files by path pattern.
type GlobTool struct{}

var globSchema = MustSchema[globParams]()

func (GlobTool) Name() string            { return "glob" }
func (GlobTool) Description() string     { return globDesc }
func (GlobTool) Schema() json.RawMessage { return globSchema }
func (GlobTool) ReadOnly() bool          { return true }

func (GlobTool) Access(env *Env, input json.RawMessage) (Access, error) {
	p, err := DecodeInput[globParams](input)
	if err != nil {
		return Access{}, err
	}
	a, err := pathAccess(env, AccessRead, cmp.Or(p.Path, "."), "glob")
	a.Summary = "glob " + p.Pattern
	return a, err
}

func (GlobTool) Run(ctx context.Context, env *Env, input json.RawMessage) (*Result, error) {
	p, err := DecodeInput[globParams](input)
	if err != nil {
		return Errorf("%v", err), nil
	}
	g, err := compileGlob(p.Pattern)
	if err != nil {
		return Errorf("%v", err), nil
	}
	bases, res := searchBases(env, p.Path)
	if res != nil {
		return res, nil
	}
	var found []string // sorted within each root, roots in order
	total := 0
	for _, base := range bases {
		from := len(found)
		err := walkFiles(ctx, base, p.All, func(f walkedFile) error {
			if g.match(f.baseRel) {
				total++
				if len(found) < globCap {
					found = append(found, displayRel(env, base.root, f.rel))
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(found[from:])
	}
	if total == 0 {
		msg := fmt.Sprintf("No files match %q.", p.Pattern)
		if !strings.Contains(p.Pattern, "/") {
			msg += fmt.Sprintf(" Patterns match whole relative paths; use \"**/%s\" to search subdirectories.", p.Pattern)
		}
		return &Result{Content: msg}, nil
	}
	out := strings.Join(found, "\n") + "\n"
	if total > len(found) {
		out += fmt.Sprintf("[%d more files not shown (limit %d); narrow the pattern or path]\n", total-len(found), globCap)
	}
	return &Result{Content: out}, nil
}

// searchBase is a directory (or single file) a search covers.
type searchBase struct {
	root string // canonical root
	rel  string // root-relative path of the base, "" for the root
	file bool   // the base is a single file
}

// searchBases resolves a search's optional path: empty means every root.
func searchBases(env *Env, p string) ([]searchBase, *Result) {
	if p == "" {
		if env.Roots == nil {
			return nil, Errorf("no workspace roots are configured")
		}
		var out []searchBase
		for _, r := range env.Roots.Paths() {
			out = append(out, searchBase{root: r})
		}
		return out, nil
	}
	abs, rel, res := resolveArg(env, p)
	if res != nil {
		return nil, res
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, readFailure(displayPath(env, abs), err)
	}
	return []searchBase{{root: rootOf(env, abs), rel: relDir(rel), file: !fi.IsDir()}}, nil
}

// walkedFile is one file found under a searchBase.
type walkedFile struct {
	abs     string
	rel     string // root-relative
	baseRel string // relative to the base directory (the name for a file base)
	size    int64
}

// walkFiles visits the regular files under base in path order, honouring
// ignore rules unless all is set. Ignore files above the base still apply
// because the walk always starts at the root. A file base is visited
// as-is: naming a file explicitly overrides the ignore rules.
func walkFiles(ctx context.Context, base searchBase, all bool, visit func(walkedFile) error) error {
	if base.file {
		abs := filepath.Join(base.root, filepath.FromSlash(base.rel))
		fi, err := os.Stat(abs)
		if err != nil {
			return nil
		}
		return visit(walkedFile{abs: abs, rel: base.rel, baseRel: path.Base(base.rel), size: fi.Size()})
	}
	prefix := ""
	if base.rel != "" {
		prefix = base.rel + "/"
	}
	emit := func(abs, rel string, size int64) error {
		if !strings.HasPrefix(rel, prefix) {
			return nil
		}
		return visit(walkedFile{abs: abs, rel: rel, baseRel: rel[len(prefix):], size: size})
	}
	if !all {
		return workspace.Walk(ctx, base.root, workspace.WalkOptions{MaxFileSize: -1}, func(e workspace.Entry) error {
			return emit(e.Abs, e.Rel, e.Size)
		}, nil)
	}
	start := filepath.Join(base.root, filepath.FromSlash(base.rel))
	return filepath.WalkDir(start, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && abs != start {
				return fs.SkipDir // unreadable directory: skip it, keep going
			}
			return nil
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, rerr := filepath.Rel(base.root, abs)
		if rerr != nil {
			return nil
		}
		info, ierr := d.Info()
		if ierr != nil {
			return nil
		}
		return emit(abs, filepath.ToSlash(rel), info.Size())
	})
}

// globPattern is a compiled doublestar pattern: brace alternatives, each
// split into path segments.
type globPattern struct {
	alts [][]string
}

// maxBraceAlts bounds brace expansion ({a,b}{c,d}... multiplies).
const maxBraceAlts = 256

// compileGlob checks and compiles a pattern. Leading "./" is dropped;
// absolute patterns and ".." segments are refused.
func compileGlob(pat string) (*globPattern, error) {
	pat = strings.TrimPrefix(filepath.ToSlash(pat), "./")
	switch {
	case pat == "":
		return nil, errors.New("pattern is empty")
	case strings.HasPrefix(pat, "/"):
		return nil, fmt.Errorf("pattern %q is absolute; patterns are relative to path (or the workspace root)", pat)
	}
	alts, err := expandBraces(pat)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pat, err)
	}
	g := &globPattern{}
	for _, a := range alts {
		segs := strings.Split(a, "/")
		for _, s := range segs {
			if s == ".." {
				return nil, fmt.Errorf("pattern %q: \"..\" is not allowed", pat)
			}
			if _, err := path.Match(s, ""); err != nil {
				return nil, fmt.Errorf("pattern %q: bad segment %q: %w", pat, s, err)
			}
		}
		g.alts = append(g.alts, segs)
	}
	return g, nil
}

// match reports whether the slash-separated relative path matches.
func (g *globPattern) match(rel string) bool {
	name := strings.Split(rel, "/")
	for _, a := range g.alts {
		if matchSegments(a, name) {
			return true
		}
	}
	return false
}

func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegments(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// expandBraces expands the first top-level {a,b} group recursively.
func expandBraces(p string) ([]string, error) {
	open, end, commas := -1, -1, []int(nil)
	depth := 0
	for i := 0; i < len(p) && end < 0; i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth--; depth == 0 && open >= 0 {
				end = i
			} else if depth < 0 {
				return nil, errors.New("unmatched }")
			}
		}
	}
	if open < 0 {
		return []string{p}, nil
	}
	if end < 0 {
		return nil, errors.New("unmatched {")
	}
	var out []string
	start := open + 1
	for _, c := range append(commas, end) {
		rest, err := expandBraces(p[:open] + p[start:c] + p[end+1:])
		if err != nil {
			return nil, err
		}
		out = append(out, rest...)
		if len(out) > maxBraceAlts {
			return nil, fmt.Errorf("more than %d brace alternatives", maxBraceAlts)
		}
		start = c + 1
	}
	return out, nil
}
