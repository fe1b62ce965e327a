package mentions

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/uri"
)

// maxDiagnosticFiles bounds the files a workspace @diagnostics asks
// about (get_diagnostics takes 50).
const maxDiagnosticFiles = 50

// symbol shows a symbol's definition (the declaration with its body and
// leading comment, path:line first) through get_symbol, narrowed to the
// picked symbol's file when the picker gave it.
func (r *Resolver) symbol(ctx context.Context, m Mention) (string, error) {
	if m.Name == "" {
		return "", errors.New("the mention names no symbol")
	}
	in := map[string]string{"name": m.Name}
	switch {
	case m.Location != nil && m.Location.URI != "":
		in["path"] = uri.URI(m.Location.URI).FsPath()
	case m.Path != "":
		in["path"] = m.Path
	}
	return r.Run(ctx, "get_symbol", in)
}

// symbolExists reports whether a workspace symbol has exactly name
// (Name or Container.Name).
func (r *Resolver) symbolExists(name string) bool {
	env := r.Agent.Env
	if env == nil || env.Index == nil {
		return false
	}
	container, base := "", name
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		container, base = name[:i], name[i+1:]
	}
	for _, rs := range env.Index.Stores() {
		defs, err := rs.Store.Definitions(base)
		if err != nil {
			continue
		}
		for _, d := range defs {
			c := d.Symbol.Container
			if d.Symbol.Name == base && (container == "" || c == container || strings.HasSuffix(c, "."+container)) {
				return true
			}
		}
	}
	return false
}

// diagnostics reports the errors and warnings of one file, or of the
// workspace's files, through get_diagnostics (its formatting and
// bounds; in the editor the editor's own diagnostics).
func (r *Resolver) diagnostics(ctx context.Context, m Mention) (string, error) {
	var paths []string
	if p := diagnosticsFile(m); p != "" {
		paths = []string{p}
	} else {
		paths = r.workspaceFiles(ctx)
		if len(paths) == 0 {
			return "No changed or open files to check.", nil
		}
	}
	return r.Run(ctx, "get_diagnostics", map[string][]string{"paths": paths[:min(len(paths), maxDiagnosticFiles)]})
}

// workspaceFiles are the files a workspace @diagnostics asks about: the
// open ones and those git reports changed or untracked, each once.
func (r *Resolver) workspaceFiles(ctx context.Context) []string {
	out := slices.Clone(r.OpenFiles)
	for _, root := range r.Agent.Env.Roots.Paths() {
		st, err := r.Run(ctx, "git_status", map[string]string{"path": root})
		if err != nil {
			continue
		}
		for _, p := range statusPaths(st) {
			if abs := filepath.Join(root, filepath.FromSlash(p)); !slices.Contains(out, abs) {
				out = append(out, abs)
			}
		}
	}
	return out
}

// statusPaths are the files of `git status --short` lines (the new name
// of a rename), directories left out.
func statusPaths(status string) []string {
	var out []string
	for line := range strings.SplitSeq(status, "\n") {
		if len(line) < 4 || strings.HasPrefix(line, "##") {
			continue
		}
		p := strings.TrimSpace(line[3:])
		if _, to, ok := strings.Cut(p, " -> "); ok {
			p = to
		}
		if p != "" && !strings.HasSuffix(p, "/") {
			out = append(out, p)
		}
	}
	return out
}

// changes is the working tree against HEAD (staged and unstaged) of
// every root that is a git repository, and its untracked files, through
// git_diff and git_status.
func (r *Resolver) changes(ctx context.Context) (string, error) {
	var b strings.Builder
	var errs []error
	for _, root := range r.Agent.Env.Roots.Paths() {
		diff, err := r.Run(ctx, "git_diff", map[string]string{"path": root, "ref": "HEAD"})
		if err != nil {
			// A repository without commits has no HEAD.
			diff, err = r.Run(ctx, "git_diff", map[string]string{"path": root})
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", filepath.Base(root), firstLineErr(err)))
			continue
		}
		st, _ := r.Run(ctx, "git_status", map[string]string{"path": root})
		var untracked []string
		for line := range strings.SplitSeq(st, "\n") {
			if p, ok := strings.CutPrefix(line, "?? "); ok {
				untracked = append(untracked, p)
			}
		}
		if len(r.Agent.Env.Roots.Paths()) > 1 {
			fmt.Fprintf(&b, "# %s\n", filepath.Base(root))
		}
		b.WriteString(strings.TrimRight(diff, "\n") + "\n")
		if len(untracked) > 0 {
			fmt.Fprintf(&b, "Untracked files:\n  %s\n", strings.Join(untracked, "\n  "))
		}
	}
	if b.Len() == 0 && len(errs) > 0 {
		return "", errors.Join(errs...)
	}
	return b.String(), nil
}
