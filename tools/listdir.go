package tools

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/workspace"
)

//go:embed desc/list_dir.md
var listDirDesc string

// listDirCap bounds list_dir's output.
const listDirCap = 500

type listDirParams struct {
	Path  string `json:"path,omitempty" jsonschema:"description=Directory to list: relative to the workspace root, or absolute inside it. Default: the workspace root."`
	Depth int    `json:"depth,omitempty" jsonschema:"minimum=1,maximum=5,description=How many levels to descend (default 1: just the directory's own entries)."`
	All   bool   `json:"all,omitempty" jsonschema:"description=Include entries excluded by .gitignore/.parleyignore and built-in rules (VCS directories, build output)."`
}

// listDirTool lists a directory's entries with type and size.
var listDirTool = New(
	Spec{Name: "list_dir", Description: listDirDesc, ReadOnly: true},
	listDirAccess, listDirRun)

func listDirAccess(env *Env, p *listDirParams) (access.Access, error) {
	return pathAccess(env, access.Read, cmp.Or(p.Path, "."), "list")
}

// lister accumulates list_dir output.
type lister struct {
	root    string
	all     bool
	lines   []string
	more    int // entries past the cap
	ignored int
}

func listDirRun(ctx context.Context, env *Env, p *listDirParams) (*Result, error) {
	abs, rel, res := resolveArg(env, cmp.Or(p.Path, "."))
	if res != nil {
		return res, nil
	}
	shown := displayPath(env, abs)
	fi, err := os.Stat(abs)
	if err != nil {
		return readFailure(shown, err), nil
	}
	if !fi.IsDir() {
		return Errorf("%s is a file, not a directory; use read_file or file_info", shown), nil
	}
	l := &lister{root: rootOf(env, abs), all: p.All}
	if err := l.list(ctx, abs, relDir(rel), "", max(p.Depth, 1)); err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s/\n", strings.TrimSuffix(shown, "/"))
	if len(l.lines) == 0 {
		b.WriteString("(empty)\n")
	}
	for _, line := range l.lines {
		b.WriteString(line + "\n")
	}
	if l.more > 0 {
		fmt.Fprintf(&b, "[%d more entries not shown (limit %d); list a subdirectory or lower depth]\n", l.more, listDirCap)
	}
	if l.ignored > 0 {
		fmt.Fprintf(&b, "[%s hidden by ignore rules; set all=true to include]\n", plural(l.ignored, "entry"))
	}
	return &Result{Content: b.String()}, nil
}

// list appends dir's entries (prefix is their display prefix, rel the
// directory's root-relative path, "" for the root).
func (l *lister) list(ctx context.Context, dir, rel, prefix string, depth int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil && len(entries) == 0 {
		l.lines = append(l.lines, fmt.Sprintf("%-4s %10s  %s(unreadable: %v)", "?", "-", prefix, err))
		return nil
	}
	for _, de := range entries {
		if len(l.lines) >= listDirCap {
			l.more++
			continue
		}
		name, typ := de.Name(), de.Type()
		childRel := relJoin(rel, name)
		if !l.all {
			if ign, err := workspace.Ignored(l.root, childRel, typ.IsDir(), workspace.WalkOptions{}); err == nil && ign {
				l.ignored++
				continue
			}
		}
		abs := filepath.Join(dir, name)
		switch {
		case typ.IsDir():
			l.lines = append(l.lines, fmt.Sprintf("%-4s %10s  %s%s/", "dir", "-", prefix, name))
			if depth > 1 {
				if err := l.list(ctx, abs, childRel, prefix+name+"/", depth-1); err != nil {
					return err
				}
			}
		case typ&os.ModeSymlink != 0:
			target, _ := os.Readlink(abs)
			l.lines = append(l.lines, fmt.Sprintf("%-4s %10s  %s%s -> %s", "link", "-", prefix, name, target))
		default:
			size := "-"
			if info, err := de.Info(); err == nil && info.Mode().IsRegular() {
				size = fmt.Sprint(info.Size())
			}
			kind := "file"
			if !typ.IsRegular() {
				kind = "othr"
			}
			l.lines = append(l.lines, fmt.Sprintf("%-4s %10s  %s%s", kind, size, prefix, name))
		}
	}
	return nil
}

// relDir maps Resolve's "." for a root to "".
func relDir(rel string) string {
	if rel == "." {
		return ""
	}
	return rel
}

func relJoin(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
