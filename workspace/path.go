package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

var (
	// ErrOutsideRoots is wrapped by Resolve errors for paths that escape
	// every root, lexically (via "..") or physically (via a symlink).
	ErrOutsideRoots = errors.New("outside workspace roots")
	// ErrInvalidPath is wrapped by Resolve errors for malformed paths.
	ErrInvalidPath = errors.New("invalid path")
)

// maxSymlinks bounds link chasing in resolveReal, like the kernel's ELOOP.
const maxSymlinks = 255

// Roots is the set of directories tools may touch. Every path a tool
// receives goes through Resolve, which returns the physical location (all
// symlinks evaluated) only if it lies inside a root. Roots is immutable and
// safe for concurrent use; the file system can of course change between
// Resolve and the caller's open (no TOCTOU protection is attempted).
type Roots struct {
	roots []rootPath
}

type rootPath struct {
	real  string // absolute, clean, symlinks evaluated: the root's identity
	given string // absolute and clean as configured, accepted by Rel
}

// NewRoots validates and canonicalises root directories. Each must exist and
// be a directory; duplicates (after evaluating symlinks) are dropped. The
// first root is the primary one for relative paths that exist nowhere yet.
func NewRoots(paths ...string) (*Roots, error) {
	if len(paths) == 0 {
		return nil, errors.New("workspace roots: none given")
	}
	r := &Roots{}
	for _, p := range paths {
		if strings.IndexByte(p, 0) >= 0 {
			return nil, fmt.Errorf("workspace root %q: %w: contains NUL byte", p, ErrInvalidPath)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("workspace root %s: %w", p, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("workspace root %s: %w", p, err)
		}
		fi, err := os.Stat(real)
		if err != nil {
			return nil, fmt.Errorf("workspace root %s: %w", p, err)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("workspace root %s: not a directory", p)
		}
		if !r.hasReal(real) {
			r.roots = append(r.roots, rootPath{real: real, given: abs})
		}
	}
	return r, nil
}

func (r *Roots) hasReal(real string) bool {
	for _, rp := range r.roots {
		if rp.real == real {
			return true
		}
	}
	return false
}

// Paths returns the canonical (symlink-evaluated) roots in configured order.
func (r *Roots) Paths() []string {
	out := make([]string, len(r.roots))
	for i, rp := range r.roots {
		out[i] = rp.real
	}
	return out
}

// Resolve maps a tool-supplied path to its physical location. p may be
// absolute or relative; a relative path is taken against the first root in
// which it exists, else the primary root, and may not climb out with "..".
// The result abs has every symlink of its existing prefix evaluated (a path
// that does not exist yet is resolved through its deepest existing parent,
// and a dangling symlink through its target), and must lie within a root.
// root is that (canonical) root and rel the slash-separated path below it
// ("." for the root itself). Errors name the path and wrap ErrOutsideRoots
// or ErrInvalidPath where applicable.
func (r *Roots) Resolve(p string) (abs, root, rel string, err error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", "", "", fmt.Errorf("path %q: %w: contains NUL byte", p, ErrInvalidPath)
	}
	var lexical string
	if filepath.IsAbs(p) {
		lexical = filepath.Clean(p)
	} else {
		if p == "" {
			p = "."
		}
		if !filepath.IsLocal(p) {
			return "", "", "", fmt.Errorf("path %q escapes the workspace root: %w", p, ErrOutsideRoots)
		}
		lexical = r.pickRoot(p)
	}
	real, err := resolveReal(lexical)
	if err != nil {
		return "", "", "", fmt.Errorf("path %q: %w", p, err)
	}
	root, rel, ok := r.relReal(real)
	if !ok {
		if _, _, inside := r.Rel(lexical); inside {
			return "", "", "", fmt.Errorf("path %q resolves through a symlink to %s: %w", p, real, ErrOutsideRoots)
		}
		if real != lexical {
			return "", "", "", fmt.Errorf("path %q (resolves to %s): %w", p, real, ErrOutsideRoots)
		}
		return "", "", "", fmt.Errorf("path %q: %w", p, ErrOutsideRoots)
	}
	return real, root, rel, nil
}

// pickRoot joins a local relative path to the first root where it exists.
func (r *Roots) pickRoot(p string) string {
	for _, rp := range r.roots {
		cand := filepath.Join(rp.real, p)
		if _, err := os.Lstat(cand); err == nil {
			return cand
		}
	}
	return filepath.Join(r.roots[0].real, p)
}

// Rel maps an absolute path lexically (no file system access, no symlink
// evaluation) to the innermost root containing it, accepting both the
// canonical and the configured spelling of a root. root is canonical.
func (r *Roots) Rel(abs string) (root, rel string, ok bool) {
	if !filepath.IsAbs(abs) {
		return "", "", false
	}
	abs = filepath.Clean(abs)
	if root, rel, ok = r.relReal(abs); ok {
		return root, rel, true
	}
	best := -1
	for i, rp := range r.roots {
		if within(rp.given, abs) && (best < 0 || len(rp.given) > len(r.roots[best].given)) {
			best = i
		}
	}
	if best < 0 {
		return "", "", false
	}
	return r.roots[best].real, relBelow(r.roots[best].given, abs), true
}

// relReal finds the innermost canonical root containing the clean path p.
func (r *Roots) relReal(p string) (root, rel string, ok bool) {
	best := -1
	for i, rp := range r.roots {
		if within(rp.real, p) && (best < 0 || len(rp.real) > len(r.roots[best].real)) {
			best = i
		}
	}
	if best < 0 {
		return "", "", false
	}
	return r.roots[best].real, relBelow(r.roots[best].real, p), true
}

// relBelow returns the slash-separated path of p below root (p within root).
func relBelow(root, p string) string {
	if p == root {
		return "."
	}
	rest := strings.TrimPrefix(p, root)
	rest = strings.TrimPrefix(rest, string(os.PathSeparator))
	return filepath.ToSlash(rest)
}

// resolveReal evaluates symlinks in the absolute clean path p component by
// component, like filepath.EvalSymlinks, except that missing components are
// kept lexically instead of failing. That is what makes "create a new file
// under a symlinked directory" checkable, and it follows dangling links to
// where a write would land.
func resolveReal(p string) (string, error) {
	vol := filepath.VolumeName(p)
	real := vol + string(os.PathSeparator)
	rest := p[len(vol):]
	links := 0
	for rest != "" {
		var comp string
		comp, rest = splitFirst(rest)
		switch comp {
		case "", ".":
			continue
		case "..":
			real = filepath.Dir(real) // real is symlink-free, so lexical ".." is exact
			continue
		}
		next := filepath.Join(real, comp)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			real = next // nothing below can be a symlink (until someone creates one)
			continue
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			real = next
			continue
		}
		if links++; links > maxSymlinks {
			return "", fmt.Errorf("%s: too many levels of symbolic links", p)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			v := filepath.VolumeName(target)
			real, target = v+string(os.PathSeparator), target[len(v):]
		}
		rest = target + string(os.PathSeparator) + rest
	}
	return real, nil
}

// splitFirst splits off the first path component.
func splitFirst(p string) (first, rest string) {
	isSep := func(r rune) bool { return r == '/' || r == os.PathSeparator }
	p = strings.TrimLeftFunc(p, isSep)
	if i := strings.IndexFunc(p, isSep); i >= 0 {
		return p[:i], p[i+1:]
	}
	return p, ""
}
