package permission

import (
	"fmt"
	"io/fs"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/workspace"
)

// FileView reads files as the user sees them: the subset of tools.FileView
// that GuardFiles wraps (declared here so the policy does not depend on the
// tools). Read returns an absolute, resolved path's content and version.
type FileView interface {
	Read(abs string) (content []byte, version int32, err error)
}

// GuardFiles wraps a FileView so that reading a file that a deny rule of
// kind read forbids ("read(secrets/**)", or a bare "read") fails with an
// error wrapping fs.ErrPermission. Check judges a call by the paths it
// names; a search over a directory (grep, find_references, get_symbol,
// file_info) names the directory and reads the files below it through
// Env.Files, so without the guard it would show what the rule forbids.
// Rules naming one tool ("read_file(x)") only apply to that tool's calls.
// The edit tools read a file before they change or create it, so they
// cannot touch a file the rule forbids reading either. The result is safe
// for concurrent use if view is.
func (p *Policy) GuardFiles(view FileView, roots *workspace.Roots) FileView {
	return &guardedView{view: view, roots: roots, p: p}
}

type guardedView struct {
	view  FileView
	roots *workspace.Roots
	p     *Policy
}

func (g *guardedView) Read(abs string) ([]byte, int32, error) {
	if r := g.p.readDenied(g.roots, abs); r != nil {
		return nil, 0, fmt.Errorf("read %s: %w (the permission rule deny %q forbids reading it)", abs, fs.ErrPermission, r.text)
	}
	return g.view.Read(abs)
}

// readDenied returns the read deny rule covering abs, or nil. A path
// outside the roots is not judged here (Env.Resolve refuses it).
func (p *Policy) readDenied(roots *workspace.Roots, abs string) *rule {
	_, rel, ok := roots.Rel(abs)
	if !ok {
		return nil
	}
	for i := range p.deny {
		r := &p.deny[i]
		if r.name != string(access.Read) {
			continue
		}
		if r.kind == patNone || (r.kind == patPath && r.glob.Match(rel)) {
			return r
		}
	}
	return nil
}
