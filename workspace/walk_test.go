package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// collect walks root and returns visited Rel paths and skips.
func collect(t testing.TB, root string, opts WalkOptions) ([]string, []Skip) {
	t.Helper()
	var rels []string
	var skips []Skip
	err := Walk(context.Background(), root, opts, func(e Entry) error {
		rels = append(rels, e.Rel)
		return nil
	}, func(s Skip) { skips = append(skips, s) })
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return rels, skips
}

// checkSet fails unless every want is visited and no notWant is.
func checkSet(t *testing.T, got, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s not visited; got %q", w, got)
		}
	}
	for _, w := range notWant {
		if slices.Contains(got, w) {
			t.Errorf("%s visited but should be excluded", w)
		}
	}
}

func TestWalkNestedIgnoreFiles(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		".gitignore":             "*.log\nignored_dir/\n!ignored_dir/file.txt\ndir/*\n!dir/keep/\n*.gen\n",
		"keep.log":               "",
		"a.go":                   "",
		"sub/.gitignore":         "!keep.log\n!a.tmp\n", // deeper file overrides parent and info/exclude
		"sub/keep.log":           "",
		"sub/x.log":              "",
		"sub/deeper/keep.log":    "",
		"sub/a.tmp":              "",
		"sub/b.tmp":              "",
		"ignored_dir/file.txt":   "", // cannot be re-included: its parent is excluded
		"ignored_dir/.gitignore": "!file.txt\n",
		"dir/keep/a.txt":         "",
		"dir/other/b.txt":        "",
		"dir/c.txt":              "",
		".ignore":                "!x.gen\ny.gen\n", // same dir: .ignore beats .gitignore
		".parleyignore":          "!y.gen\n",        // and .parleyignore beats both
		"x.gen":                  "",
		"y.gen":                  "",
		"z.gen":                  "",
		".git/info/exclude":      "*.tmp\n",
		"b.tmp":                  "",
	})
	got, skips := collect(t, root, WalkOptions{})
	checkSet(t, got,
		[]string{"a.go", "sub/keep.log", "sub/deeper/keep.log", "dir/keep/a.txt", "x.gen", "y.gen", "sub/a.tmp",
			".gitignore", "sub/.gitignore", ".ignore", ".parleyignore"},
		[]string{"keep.log", "sub/x.log", "ignored_dir/file.txt", "ignored_dir/.gitignore", "dir/other/b.txt", "dir/c.txt",
			"z.gen", "b.tmp", "sub/b.tmp", ".git/info/exclude"})
	if len(skips) != 0 {
		t.Errorf("unexpected skips %v", skips)
	}
}

func TestWalkConfigExcludes(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		".gitignore":  "gen/\n",
		"gen/a.go":    "",
		"secret/k":    "",
		"main.go":     "",
		"vendor/x.go": "",
	})
	got, _ := collect(t, root, WalkOptions{Excludes: []string{"secret/", "!gen/", "/vendor"}})
	checkSet(t, got, []string{"gen/a.go", "main.go"}, []string{"secret/k", "vendor/x.go"})
}

func TestWalkBuiltinExcludes(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"node_modules/x.js":          "",
		".git/HEAD":                  "",
		"sub/.git":                   "gitdir: ../.git/modules/sub",
		"sub/a.go":                   "",
		"__pycache__/a.pyc":          "",
		".parley/db":                 "",
		".idea/ws.xml":               "",
		"rs/Cargo.toml":              "",
		"rs/target/debug/x":          "",
		"notrust/target/keep.go":     "",
		"js/package.json":            "",
		"js/build/bundle.js":         "",
		"js/dist/d.js":               "",
		"js/out/o.js":                "",
		"js/src/build":               "", // a file named build is never excluded
		"go/build/build.go":          "", // like GOROOT/src/go/build
		"cmd/dist/main.go":           "", // like GOROOT/src/cmd/dist
		"cmd/internal/obj/obj.go":    "",
		"cs/App.csproj":              "",
		"cs/bin/Debug/app.dll":       "",
		"cs/obj/x.json":              "",
		"gradle/build.gradle":        "",
		"gradle/build/classes/A":     "",
		"py/venv/pyvenv.cfg":         "",
		"py/venv/lib/site.py":        "",
		"py/env/config.py":           "", // no pyvenv.cfg: a real package
		"py/.venv/pyvenv.cfg":        "",
		"cmake/CMakeLists.txt":       "",
		"cmake/build/CMakeCache.txt": "",
	})
	want := []string{"sub/a.go", "notrust/target/keep.go", "js/package.json", "js/src/build", "go/build/build.go",
		"cmd/dist/main.go", "cmd/internal/obj/obj.go", "py/env/config.py", "cs/App.csproj", "rs/Cargo.toml"}
	excluded := []string{"node_modules/x.js", ".git/HEAD", "sub/.git", "__pycache__/a.pyc", ".parley/db", ".idea/ws.xml",
		"rs/target/debug/x", "js/build/bundle.js", "js/dist/d.js", "js/out/o.js", "cs/bin/Debug/app.dll", "cs/obj/x.json",
		"gradle/build/classes/A", "py/venv/pyvenv.cfg", "py/venv/lib/site.py", "py/.venv/pyvenv.cfg", "cmake/build/CMakeCache.txt"}
	got, _ := collect(t, root, WalkOptions{})
	checkSet(t, got, want, excluded)

	t.Run("disabled", func(t *testing.T) {
		got, _ := collect(t, root, WalkOptions{NoBuiltinExcludes: true})
		checkSet(t, got, append(want, excluded...), nil)
	})
	t.Run("re-included by ignore file", func(t *testing.T) {
		fixture.WriteTree(t, root, map[string]string{".parleyignore": "!node_modules/\n"})
		defer os.Remove(filepath.Join(root, ".parleyignore"))
		got, _ := collect(t, root, WalkOptions{})
		checkSet(t, got, []string{"node_modules/x.js"}, []string{".git/HEAD"})
	})
}

func TestWalkOrderSorted(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"a/b.go": "", "a.go": "", "a-b/c": "", "a0": "", "a/a/z": "", "ab": "", "B": "", "a.b/c": "",
	})
	got, _ := collect(t, root, WalkOptions{})
	want := []string{"B", "a-b/c", "a.b/c", "a.go", "a/a/z", "a/b.go", "a0", "ab"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
	if !slices.IsSorted(got) {
		t.Errorf("not sorted: %q", got)
	}
}

func TestWalkEntryFields(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"small": "0123456789", "big": "0123456789x", "d/f": "abc"})
	var entries []Entry
	err := Walk(context.Background(), root, WalkOptions{MaxFileSize: 10}, func(e Entry) error {
		entries = append(entries, e)
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	byRel := map[string]Entry{}
	for _, e := range entries {
		byRel[e.Rel] = e
	}
	if e := byRel["big"]; !e.TooLarge || e.Size != 11 {
		t.Errorf("big: %+v", e)
	}
	if e := byRel["small"]; e.TooLarge || e.Size != 10 {
		t.Errorf("small: %+v", e)
	}
	e := byRel["d/f"]
	fi, err := os.Stat(filepath.Join(root, "d", "f"))
	if err != nil {
		t.Fatal(err)
	}
	if e.Abs != filepath.Join(root, "d", "f") || e.ModTime != fi.ModTime().UnixNano() || !e.Mode.IsRegular() || e.TooLarge {
		t.Errorf("d/f: %+v", e)
	}
	// Default limit applies when MaxFileSize is 0; negative disables it.
	fixture.WriteTree(t, root, map[string]string{"huge": strings.Repeat("x", DefaultMaxFileSize+1)})
	for _, tc := range []struct {
		max  int64
		want bool
	}{{0, true}, {-1, false}} {
		var too bool
		Walk(context.Background(), root, WalkOptions{MaxFileSize: tc.max}, func(e Entry) error {
			if e.Rel == "huge" {
				too = e.TooLarge
			}
			return nil
		}, nil)
		if too != tc.want {
			t.Errorf("MaxFileSize %d: TooLarge=%v, want %v", tc.max, too, tc.want)
		}
	}
}

func TestWalkRootErrors(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"file": "x"})
	noop := func(Entry) error { return nil }
	err := Walk(context.Background(), filepath.Join(root, "file"), WalkOptions{}, noop, nil)
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("file root: %v", err)
	}
	err = Walk(context.Background(), filepath.Join(root, "missing"), WalkOptions{}, noop, nil)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing root: %v", err)
	}
}

func TestWalkStops(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"a": "", "b/c": "", "d": ""})
	stop := errors.New("stop")
	n := 0
	err := Walk(context.Background(), root, WalkOptions{}, func(Entry) error { n++; return stop }, nil)
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("visit error: err=%v after %d visits", err, n)
	}

	ctx, cancel := context.WithCancel(context.Background())
	n = 0
	err = Walk(ctx, root, WalkOptions{}, func(Entry) error { n++; cancel(); return nil }, nil)
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Errorf("cancel during walk: err=%v after %d visits", err, n)
	}
	err = Walk(ctx, root, WalkOptions{}, func(Entry) error { t.Error("visited after cancel"); return nil }, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("pre-cancelled: %v", err)
	}
}

func TestIgnored(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		".gitignore":        "*.log\nbuild/\n",
		"sub/.gitignore":    "!keep.log\n",
		"js/package.json":   "",
		".git/info/exclude": "*.tmp\n",
		"cs/a.csproj":       "",
	})
	opts := WalkOptions{Excludes: []string{"/secret"}}
	for _, tc := range []struct {
		rel   string
		isDir bool
		want  bool
	}{
		{"a.log", false, true},
		{"sub/keep.log", false, false},
		{"sub/x.log", false, true},
		{"build", true, true},
		{"build/x.go", false, true},
		{"build", false, false},
		{"node_modules/a/b.js", false, true},
		{"js/dist/a.js", false, true},
		{"go/dist/a.go", false, false},
		{"cs/bin/x", false, true},
		{"x.tmp", false, true},
		{"secret/x", false, true},
		{"src/main.go", false, false},
	} {
		got, err := Ignored(root, tc.rel, tc.isDir, opts)
		if err != nil || got != tc.want {
			t.Errorf("Ignored(%q, dir=%v) = %v, %v; want %v", tc.rel, tc.isDir, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", ".", "../x", "/abs"} {
		if _, err := Ignored(root, bad, false, opts); err == nil {
			t.Errorf("Ignored(%q) accepted", bad)
		}
	}
}

func TestCmpWalkKey(t *testing.T) {
	// Directory keys behave as name+"/".
	for _, tc := range []struct {
		a    string
		aDir bool
		b    string
		bDir bool
		want int
	}{
		{"a", true, "a.go", false, 1},
		{"a", false, "a.go", false, -1},
		{"a", true, "a0", false, -1},
		{"a", true, "a", false, 1},
		{"ab", false, "a", true, 1},
	} {
		if got := cmpWalkKey(tc.a, tc.aDir, tc.b, tc.bDir); got != tc.want {
			t.Errorf("cmpWalkKey(%q,%v,%q,%v) = %d, want %d", tc.a, tc.aDir, tc.b, tc.bDir, got, tc.want)
		}
	}
}

// BenchmarkWalkGOROOT walks GOROOT/src, the target workload (warm cache).
func BenchmarkWalkGOROOT(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		b.Skip("GOROOT/src not available")
	}
	var files int
	for b.Loop() {
		files = 0
		err := Walk(context.Background(), src, WalkOptions{}, func(Entry) error { files++; return nil }, nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(files), "files")
}

// TestConcurrentUse backs the package doc's concurrency contract under -race.
func TestConcurrentUse(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{".gitignore": "*.log\n", "a/b.go": "", "c.log": "", "d/e/f.py": ""})
	r, err := NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	rules := ParseIgnore("", []byte("*.o\n!keep.o\na/**/b\n"))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			var got []string
			err := Walk(context.Background(), root, WalkOptions{Excludes: []string{"d/"}}, func(e Entry) error {
				got = append(got, e.Rel)
				return nil
			}, nil)
			if err != nil || !slices.Equal(got, []string{".gitignore", "a/b.go"}) {
				t.Errorf("concurrent walk got %q, %v", got, err) // not Fatal: off the test goroutine
			}
			for range 100 {
				rules.Match("x/keep.o", false)
				rules.Match("a/x/y/b", true)
				if _, _, _, err := r.Resolve("a/b.go"); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}
