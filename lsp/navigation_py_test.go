package lsp

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestPythonNavigation: the server answers Python definition, references
// and highlights from syntax (index/python/testdata/resolve_py.txtar): an import
// alias leads to the declaration, a parameter shadowing the imported name
// is not one of its references.
func TestPythonNavigation(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "python", "testdata", "resolve_py.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	// h() on line 13 (0-based 12): `from pkg.util import helper as h`.
	if got, want := definitions(t, e, "app/main.py", pos(12, 4)), []string{"pkg/util.py:3:4-10"}; !slices.Equal(got, want) {
		t.Errorf("definition of h: %v, want %v", got, want)
	}
	// u.save() on line 18: Base.save, through User's base class.
	if got, want := definitions(t, e, "app/main.py", pos(16, 6)), []string{"pkg/models.py:3:8-12"}; !slices.Equal(got, want) {
		t.Errorf("definition of u.save: %v, want %v", got, want)
	}
	got := references(t, e, "pkg/util.py", pos(3, 5), true)
	want := []string{"app/main.py:3:21-27", "app/main.py:13:9-15", "pkg/__init__.py:0:18-24", "pkg/util.py:3:4-10"}
	if !slices.Equal(got, want) {
		t.Errorf("references of helper:\n got %v\nwant %v", got, want)
	}
	var lines []uint32
	for _, h := range highlights(t, e, "app/main.py", pos(24, 9)) {
		lines = append(lines, h.Line)
	}
	// inner's parameter helper (line 25) and its call, not the import.
	if !slices.Equal(lines, []uint32{23, 24}) {
		t.Errorf("highlights of the parameter helper: lines %v, want [23 24]", lines)
	}
}

// TestTypeScriptNavigation: the same for TypeScript
// (index/typescript/testdata/resolve_ts.txtar): a re-exported alias leads to the
// declaration; a parameter and a block constant named like it are not its
// references.
func TestTypeScriptNavigation(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "typescript", "testdata", "resolve_ts.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	// assist(helper) on line 13: `export { helper as assist }` in index.ts.
	if got, want := definitions(t, e, "src/app.ts", pos(12, 3)), []string{"src/util/help.ts:0:16-22"}; !slices.Equal(got, want) {
		t.Errorf("definition of assist: %v, want %v", got, want)
	}
	got := references(t, e, "src/util/help.ts", pos(0, 17), true)
	// defaults.ts: its import, a call and a JSDoc {@link helper}.
	want := []string{"src/defaults.ts:0:9-15", "src/defaults.ts:2:9-15", "src/defaults.ts:4:16-22",
		"src/index.ts:1:9-15", "src/util/help.ts:0:16-22"}
	if !slices.Equal(got, want) {
		t.Errorf("references of helper:\n got %v\nwant %v", got, want)
	}
}

// TestResolveBudget: a request whose resolution does not finish within the
// budget answers from the name ranking (here: every `helper` of the
// workspace, the parameter of inner included), and so does one arriving
// while another resolution of the folder still runs; once the resolution
// is free again, answers are resolved.
func TestResolveBudget(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "python", "testdata", "resolve_py.txtar"))
	release := make(chan struct{})
	var blocked atomic.Bool
	blocked.Store(true)
	e := startEditor(t, root, editorConfig{noInit: true, serverOpts: func(o *Options) { o.ResolveBudget = 20 * time.Millisecond }})
	e.srv.testHookResolve = func() {
		if blocked.Load() {
			<-release
		}
	}
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	refs := func() []string {
		return references(t, e, "pkg/util.py", pos(3, 5), true)
	}
	resolved := []string{"app/main.py:3:21-27", "app/main.py:13:9-15", "pkg/__init__.py:0:18-24", "pkg/util.py:3:4-10"}
	slow := refs() // resolution blocked past the budget
	if slices.Equal(slow, resolved) || !slices.Contains(slow, "pkg/util.py:3:4-10") {
		t.Errorf("references past the budget: %v; want the name ranking's answer", slow)
	}
	if busy := refs(); !slices.Equal(busy, slow) {
		t.Errorf("references while a resolution runs: %v, want %v", busy, slow)
	}
	blocked.Store(false)
	close(release)
	deadline := time.Now().Add(waitTimeout)
	for got := refs(); !slices.Equal(got, resolved); got = refs() {
		if time.Now().After(deadline) {
			t.Fatalf("references once the resolution is free: %v, want %v", got, resolved)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSyntaxFixturesDefinition: the server's definition of every use the
// golden fixtures (index/python/testdata/resolve_py.txtar, resolve_ts.txtar)
// settle is the declaration they give, as `parley defs FILE:LINE:COL` and
// find_definition answer (tools.TestFindAtSyntaxFixtures).
func TestSyntaxFixturesDefinition(t *testing.T) {
	for _, archive := range []string{"python/testdata/resolve_py.txtar", "typescript/testdata/resolve_ts.txtar"} {
		t.Run(path.Base(archive), func(t *testing.T) {
			archive = filepath.Join("..", "index", filepath.FromSlash(archive))
			root := fixture.Extract(t, archive)
			e := startEditor(t, root, editorConfig{noInit: true})
			e.initialize(editorConfig{utf8: true})
			e.waitIndexed(1)
			for _, u := range fixture.Uses(t, archive, root) {
				if u.Want == "-" {
					continue
				}
				file, line, _ := strings.Cut(u.Want, ":")
				want := fmt.Sprintf("%s:%d:", file, max(atoi(line)-1, 0))
				got := definitions(t, e, u.File, pos(uint32(u.Line-1), uint32(u.Col-1)))
				if len(got) != 1 || !strings.HasPrefix(got[0], want) {
					t.Errorf("%s: got %v, want %s", u, got, u.Want)
				}
			}
		})
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// TestPythonReferencesLeaveOutUncertain: the server's Python references
// are those the syntax confirms (pyCertain): self.errors of an unrelated
// class and x.errors of an unknown x are left out, as pyright leaves them
// out and as Go's ambiguous ones are (the CLI and tools list them marked
// uncertain).
func TestPythonReferencesLeaveOutUncertain(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "python", "testdata", "resolve_py_refs.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	got := references(t, e, "base.py", pos(2, 14), true)
	want := []string{"base.py:2:13-19", "ext.py:4:20-26"}
	if !slices.Equal(got, want) {
		t.Errorf("references of Enc.errors:\n got %v\nwant %v", got, want)
	}
	if hs := highlights(t, e, "ext.py", pos(4, 20)); len(hs) != 1 || hs[0].Line != 4 {
		t.Errorf("highlights of self.errors in ext.py: %v, want line 4 only", hs)
	}
}

// TestLateResolutionCancelled: a resolution still running past its
// request's budget is cancelled by the next request, which then resolves
// within its own budget instead of answering from the name ranking behind
// it. The first resolution stands for a long references search: it stops
// only when cancelled, as the index's resolvers do at their next step.
func TestLateResolutionCancelled(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "typescript", "testdata", "resolve_ts.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true, serverOpts: func(o *Options) { o.ResolveBudget = time.Second }})
	var calls atomic.Int32
	firstDone := make(chan struct{})
	e.srv.testHookResolve = func() {
		if calls.Add(1) != 1 {
			return
		}
		defer close(firstDone)
		e.srv.mu.RLock()
		st := e.srv.folders[0].store
		e.srv.mu.RUnlock()
		for deadline := time.Now().Add(waitTimeout); !nav.CancelledSince(st, 0); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				return
			}
		}
	}
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	// The first request gives up after its budget; its resolution runs on.
	definitions(t, e, "src/app.ts", pos(12, 3))
	if got, want := definitions(t, e, "src/app.ts", pos(12, 3)), []string{"src/util/help.ts:0:16-22"}; !slices.Equal(got, want) {
		t.Errorf("definition behind a late resolution: %v, want %v", got, want)
	}
	select {
	case <-firstDone:
	default:
		t.Error("the late resolution was not cancelled")
	}
}

// TestNavigationAfterEdit: Python and TypeScript answers come from the
// descriptors the index stores, so an edit must not leave them describing
// the old text: after a line is inserted above, definition and references
// of u.save (index/python/testdata/resolve_py.txtar) and u.greet (resolve_ts.txtar)
// answer at the shifted positions, from the buffer's parse until its
// records are rewritten and from its new descriptors after.
func TestNavigationAfterEdit(t *testing.T) {
	for _, c := range []struct {
		name, archive, file, comment string
		use                          protocol.Position // after the edit; the line before it is the old one
		def                          string
		refs                         []string
	}{
		{"python", "python/testdata/resolve_py.txtar", "app/main.py", "# a comment line\n", pos(17, 6),
			"pkg/models.py:3:8-12", []string{"app/main.py:17:6-10", "pkg/models.py:3:8-12"}},
		{"typescript", "typescript/testdata/resolve_ts.txtar", "src/app.ts", "// a comment line\n", pos(8, 4),
			"src/models.ts:7:2-7", []string{"src/app.ts:8:4-9", "src/models.ts:7:2-7"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := fixture.Extract(t, filepath.Join("..", "index", filepath.FromSlash(c.archive)))
			e := startEditor(t, root, editorConfig{noInit: true})
			e.initialize(editorConfig{utf8: true})
			e.waitIndexed(1)
			e.open(c.file)
			e.change(c.file, 2, &protocol.TextDocumentContentChangePartial{
				Range: protocol.Range{Start: pos(0, 0), End: pos(0, 0)}, Text: c.comment})
			if got := definitions(t, e, c.file, c.use); !slices.Equal(got, []string{c.def}) {
				t.Errorf("definition after the edit: %v, want %v", got, c.def)
			}
			got := references(t, e, c.file, c.use, true)
			old := fmt.Sprintf("%s:%d:", c.file, c.use.Line-1)
			for _, l := range got {
				if strings.HasPrefix(l, old) {
					t.Errorf("a reference at the use's old line: %v", got)
				}
			}
			for _, want := range c.refs {
				if !slices.Contains(got, want) {
					t.Errorf("references after the edit: %v, want %s among them", got, want)
				}
			}
		})
	}
}
