package typescript

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/index/syntax"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestResolveTSFixture indexes testdata/resolve_ts.txtar and resolves each
// use its "want" file lists with Definitions: from the stored
// descriptors (the buffer is the indexed content), and parsing the buffer
// at query time (the same buffer with a blank line appended, which the
// index does not hold): both follow one copy of the rules and must agree.
func TestResolveTSFixture(t *testing.T) {
	for _, mode := range []string{"indexed", "edited"} {
		t.Run(mode, func(t *testing.T) {
			navtest.CheckDefinitionFixture(t, "resolve_ts.txtar", testDescribers, func(st *index.Store, file string, src []byte, off int, read func(string) ([]byte, error)) string {
				if mode == "edited" {
					src = append(slices.Clip(src), '\n')
				}
				if tg, ok := Definitions(st, file, src, off, read); ok {
					return fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1)
				}
				return "-"
			})
		})
	}
}

// TestTSNavigationParsesNothing: definitions of uses in a buffer the index
// holds, and the references to what they resolve to, come from the stored
// descriptors: no file is parsed, not even the buffer; an edited buffer is
// parsed alone. The uses lead through an imported class, a re-export,
// this, a callback parameter and a declared return type.
func TestTSNavigationParsesNothing(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_ts.txtar"))
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	read := navtest.ReadUnder(root)
	cases := []struct{ loc, use, want, refs string }{
		{"src/app.ts:8", "u.greet", "src/models.ts:8", "src/app.ts:8 src/hello.ts:4 src/hello.ts:7 src/models.ts:8 src/models.ts:9"},
		{"src/app.ts:13", "assist", "src/util/help.ts:1", "src/defaults.ts:1 src/defaults.ts:3 src/defaults.ts:5 src/index.ts:2 src/util/help.ts:1"},
		{"src/models.ts:9", "this.save", "src/models.ts:3", "src/app.ts:10 src/app.ts:12 src/generic.ts:4 src/models.ts:3 src/models.ts:9 src/models.ts:10"},
		{"src/flow.ts:13", "sub.next", "src/flow.ts:1", "src/flow.ts:1 src/flow.ts:13 src/flow.ts:14 src/flow.ts:15 src/flow.ts:16 src/flow.ts:18 src/useflow.ts:2"},
		{"src/flow.ts:16", "make().subscribe", "src/flow.ts:4", ""},
		{"src/flow.ts:13", "source.subscribe", "src/flow.ts:4", ""},
	}
	for _, c := range cases {
		file, src, off, err := navtest.FixtureUse(root, c.loc, c.use)
		if err != nil {
			t.Fatal(err)
		}
		tg, ok := Definitions(st, file, src, off, read)
		if got := fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1); !ok || got != c.want {
			t.Errorf("%s %s: got %s (%v), want %s", c.loc, c.use, got, ok, c.want)
			continue
		}
		refs, err := syntax.References(st, RefsLang, tg, read)
		if err != nil {
			t.Fatal(err)
		}
		if got := navtest.RefString(refs); c.refs != "" && got != c.refs {
			t.Errorf("references of %s %s:\n got %s\nwant %s", c.loc, c.use, got, c.refs)
		}
	}
	if n := len(syntax.CacheOf(st).Keys()); n != 0 {
		t.Errorf("parsed %d files: %v", n, syntax.CacheOf(st).Keys())
	}
	// An edited buffer (a blank line appended: the index does not hold
	// it) is parsed alone; the files its uses lead to are still read from
	// their descriptors.
	buffers := map[string]bool{}
	for _, c := range cases {
		file, src, off, err := navtest.FixtureUse(root, c.loc, c.use)
		if err != nil {
			t.Fatal(err)
		}
		buffers["typescript:"+file] = true
		tg, ok := Definitions(st, file, append(src, '\n'), off, read)
		if got := fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1); !ok || got != c.want {
			t.Errorf("edited, %s %s: got %s (%v), want %s", c.loc, c.use, got, ok, c.want)
		}
	}
	for _, k := range syntax.CacheOf(st).Keys() {
		if !buffers[k] {
			t.Errorf("parsed %s, not an edited buffer", k)
		}
	}
}

// TestTSReferencesFixture checks nav.SyntaxReferences on TypeScript declarations
// of testdata/resolve_ts.txtar: a re-export is a reference, a parameter and
// a block-scoped constant of the same name are not; methods are found
// through instances and this; an overloaded function's references are
// those of all its signatures, a member's those of the members it
// overrides or implements; JSDoc links are references.
func TestTSReferencesFixture(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_ts.txtar"))
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	for _, c := range []struct{ loc, use, want string }{
		{"src/util/help.ts:1", "helper", "src/defaults.ts:1 src/defaults.ts:3 src/defaults.ts:5 src/index.ts:2 src/util/help.ts:1"},
		{"src/defaults.ts:2", "tick", "src/defaults.ts:2 src/defaults.ts:5"},
		// A member used through a callback parameter, in a file that does
		// not import its class.
		// A member's references are those of what it overrides and
		// implements, and of what overrides and implements that.
		{"src/impl.ts:4", "i.complete", "src/impl.ts:1 src/impl.ts:2 src/impl.ts:3 src/impl.ts:3 src/impl.ts:4 src/impl.ts:4 src/impl.ts:4"},
		{"src/flow.ts:1", "next", "src/flow.ts:1 src/flow.ts:13 src/flow.ts:14 src/flow.ts:15 src/flow.ts:16 src/flow.ts:18 src/useflow.ts:2"},
		{"src/models.ts:3", "save", "src/app.ts:10 src/app.ts:12 src/generic.ts:4 src/models.ts:3 src/models.ts:9 src/models.ts:10"},
		{"src/app.ts:16", "helper", "src/app.ts:15 src/app.ts:16"},
		// A module-level name no symbol lists (destructured) is no local.
		{"src/usedestr.ts:2", "alpha", "src/destr.ts:1 src/usedestr.ts:1 src/usedestr.ts:2"},
		{"src/app.ts:18", "helper", "src/app.ts:7 src/app.ts:13 src/app.ts:18"},
		// A JavaScript field declared by this.x = assignments, in a
		// class and the class extending it.
		{"src/sched.js:2", "this.active", "src/sched.js:2 src/sched.js:3 src/sched.js:6 src/sched.js:6 src/usesched.js:2"},
		// From a call that fits the third signature: every overload's
		// declaration and every call, whichever it fits.
		{"src/app.ts:29", "pick", "src/app.ts:26 src/app.ts:27 src/app.ts:28 src/app.ts:29 " +
			"src/util/help.ts:7 src/util/help.ts:8 src/util/help.ts:9 src/util/help.ts:10 src/util/help.ts:11"},
	} {
		file, src, off, err := navtest.FixtureUse(root, c.loc, c.use)
		if err != nil {
			t.Fatal(err)
		}
		got := "-"
		if tg, ok := Definitions(st, file, src, off, navtest.ReadUnder(root)); ok {
			refs, err := syntax.References(st, RefsLang, tg, navtest.ReadUnder(root))
			if err != nil {
				t.Fatal(err)
			}
			got = navtest.RefString(refs)
		}
		if got != c.want {
			t.Errorf("references of %s %s:\n got %s\nwant %s", c.loc, c.use, got, c.want)
		}
	}
}

// FuzzTSResolve: Definitions and nav.SyntaxFileReferences on arbitrary buffers
// and offsets against the fixture's store never panic.
func FuzzTSResolve(f *testing.F) {
	st, root := navtest.FuzzFixtureStore(f, "resolve_ts.txtar", testDescribers, 200, "src/app.ts", "src/models.ts", "src/index.ts")
	f.Add([]byte("export * from '../../';\nclass A extends A { m() { this.m().x } }"), 50)
	read := navtest.ReadUnder(root)
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		if tg, ok := Definitions(st, "src/app.ts", src, off, read); ok {
			syntax.FileReferences(st, RefsLang, tg, tg.Path, read)
		}
	})
}

// FuzzTSDescriptors indexes arbitrary TypeScript buffers (writing their
// descriptors, describe.go) and answers definitions and references
// from them at a few offsets (idx.go): none may panic or fail to
// index.
func FuzzTSDescriptors(f *testing.F) {
	st, root := navtest.FuzzFixtureStore(f, "resolve_ts.txtar", testDescribers, 0, "src/app.ts", "src/models.ts", "src/index.ts")
	f.Add([]byte("import d, * as n from './models';\nexport * from './app';\n/** {@link C} */\nclass C extends n.User<T> {\n  m(f: (x: C) => C): C { return this.m(y => y.m()).x; }\n}\nexport { C as default, d };\n"), 0)
	read := navtest.ReadUnder(root)
	f.Fuzz(func(t *testing.T, src []byte, _ int) {
		if err := st.PutContent(context.Background(), "src/fuzz.ts", src, index.Options{}); err != nil {
			t.Fatal(err)
		}
		for off := 0; off < len(src); off += 1 + len(src)/8 {
			if tg, ok := Definitions(st, "src/fuzz.ts", src, off, read); ok {
				if _, err := syntax.References(st, RefsLang, tg, read); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// TestTreeCacheHoldsPackage: the trees of a few hundred small files stay
// cached together; within the byte bound, the file count does not evict
// them.
func TestTreeCacheHoldsPackage(t *testing.T) {
	var c syntax.Cache
	c.Lock()
	for i := range 300 {
		src := []byte(fmt.Sprintf("export const v%d = %d;\n", i, i))
		tree, err := extract.ParseTree(context.Background(), "typescript", src, syntax.ParseBudget)
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprintf("typescript:m%d.ts", i)
		_, h := c.Get(key, src)
		c.Put(key, &syntax.File{Rel: key, Src: src, Tree: tree}, h)
	}
	c.Unlock()
	c.Lock()
	defer c.Unlock()
	if len(c.Keys()) != 300 {
		t.Errorf("%d of 300 small files cached", len(c.Keys()))
	}
}

// TestResolutionCancel: a cancelled store resolves nothing, and reports
// the cancellation, until resumed.
func TestResolutionCancel(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_ts.txtar"))
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	file, src, off, err := navtest.FixtureUse(root, "src/app.ts:13", "assist")
	if err != nil {
		t.Fatal(err)
	}
	gen := syntax.CacheOf(st).ResolveGen()
	syntax.CacheOf(st).Cancel()
	if tg, ok := Definitions(st, file, src, off, navtest.ReadUnder(root)); ok {
		t.Errorf("resolved %v while cancelled", tg)
	}
	if !syntax.CacheOf(st).CancelledSince(gen) {
		t.Error("CancelledSince is false after CancelResolutions")
	}
	syntax.CacheOf(st).Resume()
	if _, ok := Definitions(st, file, src, off, navtest.ReadUnder(root)); !ok {
		t.Error("not resolved after ResumeResolutions")
	}
	if gen := syntax.CacheOf(st).ResolveGen(); syntax.CacheOf(st).CancelledSince(gen) {
		t.Error("a resolution begun after ResumeResolutions counts as cancelled")
	}
}
