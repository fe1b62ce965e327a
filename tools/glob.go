package tools

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/pathglob"
	"github.com/parleyhq/parley/workspace"
)

//go:embed desc/glob.md
var globDesc string

// globCap bounds glob's output.
const globCap = 500

type globParams struct {
	Pattern string `json:"pattern" jsonschema:"description=Glob pattern matched against paths relative to path (or the workspace root): * and ? stay within one path segment, ** spans any number of directories, [abc] and [!abc] classes and {a,b} alternatives work. Example: **/*_test.go"`
	Path    string `json:"path,omitempty" jsonschema:"description=Directory to search under. Default: the whole workspace."`
	All     bool   `json:"all,omitempty" jsonschema:"description=Also match files excluded by ignore rules."`
}

// globTool finds files by path pattern.
var globTool = New(
	Spec{Name: "glob", Description: globDesc, ReadOnly: true},
	globAccess, globRun)

func globAccess(env *Env, p *globParams) (access.Access, error) {
	a, err := pathAccess(env, access.Read, cmp.Or(p.Path, "."), "glob")
	a.Summary = "glob " + p.Pattern
	return a, err
}

func globRun(ctx context.Context, env *Env, p *globParams) (*Result, error) {
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
			if g.Match(f.baseRel) {
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

// compileGlob checks and compiles a pattern of the glob tool or grep's
// filter (see package pathglob). A leading "./" is dropped; absolute
// patterns and ".." segments are refused, since the paths matched are
// relative and never contain "..".
func compileGlob(pat string) (pathglob.Pattern, error) {
	pat = strings.TrimPrefix(filepath.ToSlash(pat), "./")
	if strings.HasPrefix(pat, "/") {
		return pathglob.Pattern{}, fmt.Errorf("pattern %q is absolute; patterns are relative to path (or the workspace root)", pat)
	}
	if slices.Contains(strings.Split(pat, "/"), "..") {
		return pathglob.Pattern{}, fmt.Errorf("pattern %q: \"..\" is not allowed", pat)
	}
	return pathglob.Compile(pat)
}
