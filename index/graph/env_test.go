package graph

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// writeTxtar writes a txtar archive's files under dir.
func writeTxtar(t *testing.T, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadEnv(t *testing.T) {
	for _, c := range []struct {
		name, files, root string
		want              []GoModule
	}{{
		name: "root in a subdirectory of a module",
		files: `
-- mod/go.mod --
module example.com/proj // the module

go 1.22
-- mod/agent/sub/x.go --
package sub
`,
		root: "mod/agent/sub",
		want: []GoModule{{Path: "example.com/proj", Encloses: true, Sub: "agent/sub"}},
	}, {
		name: "root with its own go.mod",
		files: `
-- mod/go.mod --
module example.com/proj
-- mod/agent/go.mod --
module example.com/agent
`,
		root: "mod/agent",
	}, {
		name: "nearest go.mod wins",
		files: `
-- mod/go.mod --
module example.com/proj
-- mod/inner/go.mod --
module example.com/inner
-- mod/inner/pkg/p.go --
package p
`,
		root: "mod/inner/pkg",
		want: []GoModule{{Path: "example.com/inner", Encloses: true, Sub: "pkg"}},
	}, {
		name: "go.work with two modules, root inside one",
		files: `
-- w/go.work --
go 1.22

use (
	./a
	./b // comment
	./missing
)
-- w/a/go.mod --
module example.com/a
-- w/b/go.mod --
module shared
-- w/a/internal/i.go --
package internal
`,
		root: "w/a/internal",
		want: []GoModule{
			{Path: "example.com/a", Encloses: true, Sub: "internal"},
			{Path: "shared"},
		},
	}, {
		name: "go.work at the root: modules inside are workspace files",
		files: `
-- w/go.work --
go 1.22
use ./a
use ../elsewhere
-- w/a/go.mod --
module example.com/a
-- elsewhere/go.mod --
module example.com/elsewhere
`,
		root: "w",
		want: []GoModule{{Path: "example.com/elsewhere"}},
	}, {
		name: "go.work module enclosing from further up",
		files: `
-- w/go.work --
use ./outer
use ./outer/inner
-- w/outer/go.mod --
module example.com/outer
-- w/outer/inner/go.mod --
module example.com/inner
-- w/outer/inner/deep/d.go --
package deep
`,
		root: "w/outer/inner/deep",
		want: []GoModule{
			{Path: "example.com/inner", Encloses: true, Sub: "deep"},
			{Path: "example.com/outer", Encloses: true, Sub: "inner/deep"},
		},
	}, {
		name: "malformed manifests are skipped",
		files: `
-- w/go.work --
use (
-- w/go.mod --
this is not a go.mod
-- w/a/a.go --
package a
`,
		root: "w/a",
	}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTxtar(t, dir, c.files)
			root := filepath.Join(dir, filepath.FromSlash(c.root))
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			got := LoadEnv(root)
			if !reflect.DeepEqual(got.GoModules, c.want) {
				t.Errorf("LoadEnv(%s) =\n%+v\nwant\n%+v", c.root, got.GoModules, c.want)
			}
		})
	}
}

// A go.mod directly in the system temporary directory is ignored, as cmd/go
// does, so scratch directories under it are not taken for one module.
func TestLoadEnvIgnoresTempRoot(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	writeTxtar(t, tmp, "-- go.mod --\nmodule scratch\n-- x/sub/s.go --\npackage sub\n")
	if got := LoadEnv(filepath.Join(tmp, "x", "sub")); got.GoModules != nil {
		t.Errorf("LoadEnv = %+v, want nothing from $TMPDIR/go.mod", got.GoModules)
	}
}
