package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/testenv"
)

// realTempDir is t.TempDir with symlinks evaluated (macOS /var -> /private/var).
func realTempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		testenv.SkipPlatform(t, "symlinks unavailable: %v", err)
	}
}

func TestNewRootsErrors(t *testing.T) {
	dir := realTempDir(t)
	fixture.WriteTree(t, dir, map[string]string{"f": ""})
	for _, tc := range [][]string{nil, {filepath.Join(dir, "missing")}, {filepath.Join(dir, "f")}, {"a\x00b"}} {
		if _, err := NewRoots(tc...); err == nil {
			t.Errorf("NewRoots(%q) succeeded", tc)
		}
	}
	r, err := NewRoots(dir, dir+string(os.PathSeparator)+".")
	if err != nil || len(r.Paths()) != 1 {
		t.Errorf("duplicate roots: %v %v", r, err)
	}
}

func TestRootsResolve(t *testing.T) {
	if runtime.GOOS == "windows" {
		testenv.SkipPlatform(t, "symlink-heavy test")
	}
	root := realTempDir(t)
	out := realTempDir(t)
	fixture.WriteTree(t, root, map[string]string{"a.go": "", "sub/inner.go": ""})
	fixture.WriteTree(t, out, map[string]string{"secret": "", "d/x": ""})
	symlink(t, "sub", filepath.Join(root, "in-link"))
	symlink(t, out, filepath.Join(root, "out-link"))
	symlink(t, filepath.Join(out, "secret"), filepath.Join(root, "out-file"))
	symlink(t, filepath.Join(out, "newfile"), filepath.Join(root, "dangling-out"))
	symlink(t, "new-target", filepath.Join(root, "dangling-in"))
	symlink(t, "loop", filepath.Join(root, "loop"))
	symlink(t, "../../"+filepath.Base(out)+"/d", filepath.Join(root, "sub", "rel-out"))
	r, err := NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	const (
		ok = iota
		outside
		invalid
		other
	)
	tests := []struct {
		in      string
		want    int
		wantRel string
	}{
		{"a.go", ok, "a.go"},
		{"", ok, "."},
		{".", ok, "."},
		{"new/dir/file.go", ok, "new/dir/file.go"},
		{"a/../a.go", ok, "a.go"},
		{"in-link/inner.go", ok, "sub/inner.go"},
		{"in-link/new.go", ok, "sub/new.go"},
		{"dangling-in", ok, "new-target"},
		{filepath.Join(root, "a.go"), ok, "a.go"},
		{filepath.Join(root, "sub", "..", "a.go"), ok, "a.go"},
		{"../x", outside, ""},
		{"a/../../x", outside, ""},
		{"..", outside, ""},
		{filepath.Join(out, "secret"), outside, ""},
		{filepath.Join(root, "..", filepath.Base(out), "secret"), outside, ""},
		{"out-link", outside, ""},
		{"out-link/secret", outside, ""},
		{"out-link/newfile", outside, ""},
		{"out-link/new/deeper/file.go", outside, ""},
		{"out-file", outside, ""},
		{"dangling-out", outside, ""},
		{"sub/rel-out/x", outside, ""},
		{"sub/rel-out/new", outside, ""},
		{"x\x00y", invalid, ""},
		{"loop", other, ""},
		{"a.go/x", other, ""},
	}
	for _, tc := range tests {
		abs, gotRoot, rel, err := r.Resolve(tc.in)
		var got int
		switch {
		case err == nil:
			got = ok
		case errors.Is(err, ErrOutsideRoots):
			got = outside
		case errors.Is(err, ErrInvalidPath):
			got = invalid
		default:
			got = other
		}
		if got != tc.want {
			t.Errorf("Resolve(%q) = %q, %v; want class %d", tc.in, abs, err, tc.want)
			continue
		}
		if err != nil {
			if !strings.Contains(err.Error(), strings.ReplaceAll(tc.in, "\x00", `\x00`)) {
				t.Errorf("Resolve(%q) error does not name the path: %v", tc.in, err)
			}
			continue
		}
		if rel != tc.wantRel || gotRoot != root || abs != filepath.Join(root, filepath.FromSlash(tc.wantRel)) {
			t.Errorf("Resolve(%q) = %q, %q, %q; want rel %q", tc.in, abs, gotRoot, rel, tc.wantRel)
		}
	}
	_, _, _, err = r.Resolve("out-link/secret")
	if err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("symlink escape error should say so: %v", err)
	}
}

func TestRootsMultiAndAliases(t *testing.T) {
	if runtime.GOOS == "windows" {
		testenv.SkipPlatform(t, "symlink-heavy test")
	}
	r1, r2 := realTempDir(t), realTempDir(t)
	fixture.WriteTree(t, r1, map[string]string{"one.go": "", "nested/n.go": ""})
	fixture.WriteTree(t, r2, map[string]string{"two.go": ""})
	alias := filepath.Join(realTempDir(t), "alias")
	symlink(t, r2, alias)
	nested := filepath.Join(r1, "nested")
	r, err := NewRoots(r1, alias, nested)
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Paths(); len(p) != 3 || p[1] != r2 {
		t.Fatalf("Paths() = %q", p)
	}
	check := func(in, wantRoot, wantRel string) {
		t.Helper()
		_, root, rel, err := r.Resolve(in)
		if err != nil || root != wantRoot || rel != wantRel {
			t.Errorf("Resolve(%q) = %q, %q, %v; want %q, %q", in, root, rel, err, wantRoot, wantRel)
		}
	}
	check("two.go", r2, "two.go")                        // exists only in the second root
	check("new.go", r1, "new.go")                        // nowhere yet: primary root
	check(filepath.Join(alias, "two.go"), r2, "two.go")  // configured spelling of a root
	check(filepath.Join(nested, "n.go"), nested, "n.go") // innermost root wins

	for _, tc := range []struct {
		abs, root, rel string
		ok             bool
	}{
		{filepath.Join(r1, "x", "y.go"), r1, "x/y.go", true},
		{r1, r1, ".", true},
		{filepath.Join(alias, "z"), r2, "z", true},
		{filepath.Join(nested, "q"), nested, "q", true},
		{filepath.Dir(r1), "", "", false},
		{"relative/path", "", "", false},
		{r1 + "x", "", "", false},
	} {
		root, rel, ok := r.Rel(tc.abs)
		if root != tc.root || rel != tc.rel || ok != tc.ok {
			t.Errorf("Rel(%q) = %q, %q, %v; want %q, %q, %v", tc.abs, root, rel, ok, tc.root, tc.rel, tc.ok)
		}
	}
}
