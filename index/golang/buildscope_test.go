package golang

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/testenv"
)

func TestGoBuildScope(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "goscope.txtar"))
	st := navtest.Open(t, t.TempDir(), nil)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	switch runtime.GOOS {
	case "windows", "freebsd", "netbsd":
		// The expectations are for a host whose build has neither
		// a_windows.go nor a_bsd.go.
		testenv.SkipPlatform(t, "host builds a_windows.go or a_bsd.go")
	}
	all := []string{"a/a.go", "a/gen.go", "a/a_bsd.go", "a/a_windows.go", "vendor/golang.org/x/lib/lib.go",
		"vendor/golang.org/x/lib/more.go", "a/testdata/t.go", "tools/tool.go", "tools/more.go", "tools/tool_test.go"}
	for _, c := range []struct {
		name, from, decl string
		want             []string
	}{
		{"a package file: its platform, not vendor, testdata or the other module", "a/a.go", "a/a.go",
			[]string{"a/a.go"}},
		{"a generator no platform builds sees itself", "a/gen.go", "a/a.go",
			[]string{"a/a.go", "a/gen.go"}},
		{"a BSD file is checked for freebsd", "a/a_bsd.go", "a/a.go",
			[]string{"a/a.go", "a/a_bsd.go"}},
		{"a vendored declaration keeps its vendor tree", "a/a.go", "vendor/golang.org/x/lib/lib.go",
			[]string{"a/a.go", "vendor/golang.org/x/lib/lib.go", "vendor/golang.org/x/lib/more.go"}},
		{"from inside the vendor tree", "vendor/golang.org/x/lib/lib.go", "vendor/golang.org/x/lib/lib.go",
			[]string{"a/a.go", "vendor/golang.org/x/lib/lib.go", "vendor/golang.org/x/lib/more.go"}},
		{"a declaration in another module: its package's files, not its tests", "a/a.go", "tools/tool.go",
			[]string{"a/a.go", "tools/tool.go", "tools/more.go"}},
		{"from the other module: its own files and the declaration's package", "tools/tool.go", "a/a.go",
			[]string{"a/a.go", "tools/tool.go", "tools/more.go", "tools/tool_test.go"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := BuildScope(st, c.from, c.decl)
			var got []string
			for _, p := range all {
				if in(p) {
					got = append(got, p)
				}
			}
			if g, w := strings.Join(got, " "), strings.Join(c.want, " "); g != w {
				t.Errorf("got  %s\nwant %s", g, w)
			}
		})
	}
}
