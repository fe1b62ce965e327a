package graph

import (
	"cmp"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// Env is what Build knows of the workspace's surroundings: manifests
// outside the root that decide how imports inside it resolve. The zero Env
// means the root stands alone.
type Env struct {
	// GoModules are the Go modules whose go.mod lies outside the root: the
	// ones enclosing it, innermost first, then the other modules a go.work
	// uses.
	GoModules []GoModule
}

// GoModule is a Go module whose go.mod is not a workspace file.
type GoModule struct {
	Path string // module path
	// Encloses is set when the root lies inside the module; Sub is then
	// the root's directory relative to the module's, slash-separated ("."
	// for the module's own directory).
	Encloses bool
	Sub      string
}

// LoadEnv reads, from the disk outside the workspace root and read-only,
// the manifests that place the root in a larger build: the go.mod of the
// module enclosing the root when the root has none of its own (the nearest
// one above it, as cmd/go finds it), and the nearest go.work at or above the
// root with the go.mod of every module it uses outside the root (modules it
// uses inside the root are workspace files). It reads nothing else. As in
// cmd/go, a go.mod or go.work directly in the system temporary directory is
// ignored, and GOWORK is not consulted. root must be absolute.
//
// Missing files are the common case; unreadable or malformed ones are
// skipped like missing ones (resolution is best-effort, and one broken
// manifest above the root must not break every query inside it), which is
// why LoadEnv returns no error.
func LoadEnv(root string) Env {
	root = filepath.Clean(root)
	var env Env
	seen := make(map[string]bool) // module directories already listed
	add := func(dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		mp := goModulePath(filepath.Join(dir, "go.mod"), readManifest(filepath.Join(dir, "go.mod")))
		if mp == "" {
			return
		}
		m := GoModule{Path: mp}
		if rel, ok := within(dir, root); ok {
			m.Encloses, m.Sub = true, rel
		}
		env.GoModules = append(env.GoModules, m)
	}
	if !isFile(filepath.Join(root, "go.mod")) {
		if d, ok := findUp(filepath.Dir(root), "go.mod"); ok {
			add(d)
		}
	}
	if d, ok := findUp(root, "go.work"); ok {
		name := filepath.Join(d, "go.work")
		uses, err := goWorkUses(name, readManifest(name))
		if err == nil {
			for _, u := range uses {
				dir := u
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(d, filepath.FromSlash(u))
				}
				if _, in := within(root, dir); !in {
					add(dir)
				}
			}
		}
	}
	// Enclosing modules first, innermost (shortest Sub) first; the others
	// keep the go.work's order.
	slices.SortStableFunc(env.GoModules, func(a, b GoModule) int {
		if a.Encloses != b.Encloses {
			if a.Encloses {
				return -1
			}
			return 1
		}
		if !a.Encloses {
			return 0
		}
		return cmp.Compare(depth(a.Sub), depth(b.Sub))
	})
	return env
}

// findUp returns the first directory from dir upward holding a regular
// file name, skipping the system temporary directory as cmd/go does.
func findUp(dir, name string) (string, bool) {
	tmp := filepath.Clean(os.TempDir())
	for {
		if dir != tmp && isFile(filepath.Join(dir, name)) {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// maxManifest bounds what readManifest reads: go.mod and go.work files
// are small, and one outside the workspace is no reason to read a huge
// file.
const maxManifest = 1 << 20

// readManifest reads a manifest outside the workspace; nil when it cannot.
func readManifest(p string) []byte {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil || len(data) > maxManifest {
		return nil
	}
	return data
}

// within reports whether p is dir or below it, with p's slash-separated
// path relative to dir ("." for dir itself).
func within(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || filepath.IsAbs(rel) || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// depth counts the elements of a slash-separated relative path ("." is 0).
func depth(rel string) int {
	if rel == "." {
		return 0
	}
	n := 1
	for i := range len(rel) {
		if rel[i] == '/' {
			n++
		}
	}
	return n
}
