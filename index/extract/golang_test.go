package extract

import (
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestCompactBodies(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		bodies    int
	}{
		{"plain", "package p\nfunc f() { x := 1; _ = x }\nfunc g() {}\n", 2},
		{"interface param", "package p\nfunc f(x interface{ M() }) interface{} { return nil }\n", 1},
		{"struct result", "package p\nfunc f() struct{ a int } { return struct{ a int }{} }\n", 1},
		{"generic receiver", "package p\nfunc (l *L[T]) Len() int { return len(l.x) }\n", 1},
		{"no body", "package p\nfunc asm(x int) int\nfunc g() { if true { } }\n", 1},
		{"func literal var", "package p\nvar f = func() { println() }\nfunc g() { f() }\n", 2},
		{"nested closures", "package p\nfunc f() { g := func() { h := func() {}; h() }; g() }\n", 1},
		{"func type param", "package p\nfunc f(cb func(int) error) error { return cb(1) }\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			toks := scanGo(newFset(), src)
			if len(toks.bodies) != tc.bodies {
				t.Fatalf("found %d bodies %v, want %d", len(toks.bodies), toks.bodies, tc.bodies)
			}
			out, m := compactBodies(src, toks.bodies)
			for c := range len(out) {
				if o := m.orig(c); src[o] != out[c] {
					t.Fatalf("offset %d maps to %d: %q != %q", c, o, out[c], src[o])
				}
			}
			fast, full := extractGo("x.go", src, true), extractGo("x.go", src, false)
			if !reflect.DeepEqual(fast, full) {
				t.Errorf("compacted and full parses differ:\n%+v\n%+v", fast, full)
			}
		})
	}
}

// TestCompactMatchesFullParseGOROOT checks, on a sample of real Go files,
// that parsing with bodies removed yields exactly the records a plain parse
// gives.
func TestCompactMatchesFullParseGOROOT(t *testing.T) {
	if testing.Short() {
		t.Skip("reads GOROOT")
	}
	root := filepath.Join(runtime.GOROOT(), "src")
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("no GOROOT sources")
	}
	checked := 0
	for i := 0; i < len(files); i += 23 {
		src, err := os.ReadFile(files[i])
		if err != nil {
			continue
		}
		fast, full := extractGo(files[i], src, true), extractGo(files[i], src, false)
		if fast.Partial != "" || full.Partial != "" {
			continue // broken fixtures: the modes may report different errors
		}
		if !reflect.DeepEqual(fast, full) {
			t.Errorf("%s: compacted and full parses differ", files[i])
		}
		checked++
	}
	t.Logf("compared %d files", checked)
}

func newFset() *token.FileSet { return token.NewFileSet() }
