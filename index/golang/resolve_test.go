package golang

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestResolveGoFixture indexes testdata/resolve_go.txtar and checks the
// best class of definitions of each use its "want" file lists.
func TestResolveGoFixture(t *testing.T) {
	archive := filepath.Join("testdata", "resolve_go.txtar")
	root := fixture.Extract(t, archive)
	st := navtest.Open(t, t.TempDir(), nil)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, f := range ar.Files {
		if f.Name == "want" {
			want = f.Data
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		use, defs, ok := strings.Cut(line, " -> ")
		if !ok {
			t.Fatalf("malformed want line %q", line)
		}
		loc, text, _ := strings.Cut(use, " ")
		got, err := resolveFixtureUse(st, root, loc, text)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if got != defs {
			t.Errorf("%s %s: got %s, want %s", loc, text, got, defs)
		}
	}
}

// resolveFixtureUse looks up the last identifier of text, found on the
// 1-based line of loc ("file:line"), as the language server does.
func resolveFixtureUse(st *index.Store, root, loc, text string) (string, error) {
	file, lineStr, _ := strings.Cut(loc, ":")
	var line int
	fmt.Sscanf(lineStr, "%d", &line)
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return "", err
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	if line < 1 || line > len(lines) {
		return "", fmt.Errorf("no line %d", line)
	}
	col := bytes.Index(lines[line-1], []byte(text))
	if col < 0 {
		return "", fmt.Errorf("%q not on line %d: %q", text, line, lines[line-1])
	}
	off := len(bytes.Join(lines[:line-1], nil)) + col + len(text) - 1
	name := text[strings.LastIndexAny(text, ".()")+1:]
	ctx, err := st.DefinitionContext(file)
	if err != nil {
		return "", err
	}
	use := index.UseAt(src, off)
	if use.Selector { // as the language server does
		if hits, ok := MemberDefinitions(st, file, src, off); ok && len(hits) > 0 {
			var out []string
			for _, h := range hits {
				out = append(out, fmt.Sprintf("%s:%d", h.Path, h.Symbol.Selection.Start.Line+1))
			}
			return strings.Join(out, " "), nil
		}
	}
	hits, err := st.DefinitionSites(name)
	if err != nil {
		return "", err
	}
	best := index.SortDefinitions(hits, func(h index.NameHit) index.DefinitionRank { return ctx.RankUse(use, h.Path, h.Container) })
	if best == 0 {
		return "-", nil
	}
	var out []string
	for _, h := range hits[:best] {
		out = append(out, fmt.Sprintf("%s:%d", h.Path, h.Selection.Start.Line+1))
	}
	return strings.Join(out, " "), nil
}

// TestDeclReferencesFixture checks which occurrences DeclReferences keeps
// for declarations of testdata/resolve_go.txtar ("?" marks Uncertain).
func TestDeclReferencesFixture(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_go.txtar"))
	st := navtest.Open(t, t.TempDir(), nil)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	riscvMark := "?"
	if runtime.GOOS == "linux" && runtime.GOARCH == "riscv64" {
		riscvMark = ""
	}
	for _, c := range []struct {
		name, decl string // decl: path:line of the declaration
		want       string
	}{
		// Not h.Get (net/http), not c.Get (a method), not the declarations
		// of other packages.
		{"Get", "store/store.go:3", "cmd/main.go:11 store/store.go:3"},
		{"FormatInt", "strconv/itoa.go:3", "cmd/conv.go:5 strconv/itoa.go:3"},
		// Files for other platforms are uncertain: the windows and BSD
		// variants' declarations and calls (sys_bsd.go by its //go:build
		// line), and on any machine but linux/riscv64 the riscv64 file's
		// call.
		{"Call", "sys/sys_linux.go:3", "sys/sys_bsd.go:5? sys/sys_bsd.go:7? sys/sys_linux.go:3 sys/sys_windows.go:3? sys/z_linux_riscv64.go:3" + riscvMark + " sys/z_windows_arm64.go:3?"},
		// A method: x.Close where x's type is DB (db from store.Open(),
		// newDB(), a.db, var d, a closure's tx parameter shadowing run's)
		// or embeds it (Wrapped), elements of a []*store.DB, new(store.DB),
		// a field of an element; not Tx's
		// (run's tx, a.db.Begin()'s result); a range variable over
		// []int is uncertain; a field of a variable of an anonymous
		// struct type (state.tx, a *Tx) is typed through the fields the
		// index records under the variable. Package-level variables initialized by composite
		// literals spanning lines (global, plain: their stored line ends
		// before the brace). Tx.Close's and
		// cache.Close's declarations are not references.
		{"Close", "store/store.go:9", "cmd/elems.go:6 cmd/elems.go:8 cmd/elems.go:10 cmd/elems.go:11 cmd/global.go:13 cmd/global.go:14 cmd/main.go:13 cmd/main.go:17 cmd/typed.go:11 cmd/typed.go:15 " +
			"cmd/typed.go:19 cmd/typed.go:20 cmd/typed.go:24? cmd/typed.go:32 store/store.go:9"},
		// An unexported method: only its own package's x.flush, here on
		// its receiver.
		{"flush", "store/store.go:19", "store/store.go:19 store/store.go:19"},
		// Two types with a method Area and an interface both implement:
		// Square's is called on sq, promoted through Named's embedded
		// Square and reached through the Shape interface (sh, and the
		// range variable over []Shape); Circle's c.Area is not it.
		// Through the alias Figure = Square too. Elements: b.Rows[0] is a
		// Circle, sqs[1] a Square (Squares is []Square), all["x"] a Square
		// (a map's value, its key a string literal).
		// An interface method's result (Maker.Make) is typed like a
		// function's; so are the elements of a call's result and of a
		// package-level variable initialized by a composite literal. A type switch's variable has, in a clause listing
		// one type, that type (switch.go:6 is a Circle), and in one
		// listing several the switched value's (a Shape).
		{"Area", "shapes/shapes.go:9", "shapes/alias.go:5 shapes/elems.go:9 shapes/elems.go:10 shapes/iface.go:9 shapes/results.go:9 shapes/results.go:10 shapes/shapes.go:9 shapes/switch.go:8 shapes/use.go:7 shapes/use.go:7 shapes/use.go:7 shapes/use.go:9"},
		{"Area", "shapes/shapes.go:13", "shapes/elems.go:8 shapes/shapes.go:13 shapes/switch.go:6 shapes/switch.go:8 shapes/use.go:7 shapes/use.go:7 shapes/use.go:9"},
		// The interface method: every implementation's call, and the
		// interface's own.
		{"Area", "shapes/shapes.go:4", "shapes/alias.go:5 shapes/elems.go:8 shapes/elems.go:9 shapes/elems.go:10 shapes/embed.go:16 shapes/iface.go:9 shapes/results.go:9 shapes/results.go:10 shapes/shapes.go:4 shapes/switch.go:6 shapes/switch.go:8 shapes/use.go:7 shapes/use.go:7 shapes/use.go:7 shapes/use.go:7 shapes/use.go:9"},
		// An interface method: Tile implements Polygon with the Area
		// promoted from its embedded base.
		{"Area", "shapes/embed.go:12", "shapes/embed.go:12 shapes/embed.go:16 shapes/switch.go:8 shapes/use.go:7 shapes/use.go:9"},
		// Fields: Square's Name on sq and promoted on n, not Circle's;
		// the composite-literal key Side is typed by its literal
		// (Square{Side: 2}).
		{"Name", "shapes/shapes.go:7", "shapes/shapes.go:7 shapes/use.go:11 shapes/use.go:11"},
		{"Side", "shapes/shapes.go:7", "shapes/shapes.go:7 shapes/shapes.go:9 shapes/shapes.go:9 shapes/use.go:4"},
		// gopls's answers on promo.go: T implements I with N promoted
		// from base, so i.M calls T's M; W implements I with both
		// methods promoted, so w.N calls I's N.
		{"M", "promo/promo.go:14", "promo/promo.go:14 promo/promo.go:19 promo/promo.go:20 promo/promo.go:21"},
		{"N", "promo/promo.go:5", "promo/promo.go:5 promo/promo.go:22 promo/promo.go:23"},
		{"N", "promo/promo.go:10", "promo/promo.go:10 promo/promo.go:23"},
		// Package-level Open of cache: its own call, not store.Open of the
		// local store parameter; the parameter's field declaration (line
		// 11) is a false positive scopes would remove.
		{"Open", "cache/cache.go:3", "cache/cache.go:3 cache/cache.go:7 cache/cache.go:11"},
		// Through the fields of anonymous struct types (a variable's,
		// a field's), a field promoted from an embedded struct of a
		// pointer conversion, and parenthesized operands: U's Add, not
		// V's.
		// An interface embedding two with the same method has one
		// method object for it, the first one's (go/types): Stat's
		// IsDir stands for both's, which corresponds to Entry's, so
		// every call of Stat's IsDir is a reference to Entry's (gopls),
		// and not the other way round; Other's is not.
		{"IsDir", "embed/embed.go:4", "embed/embed.go:4 embed/embed.go:26 embed/embed.go:27 embed/embed.go:29 embed/far/far.go:6 embed/far/far.go:7"},
		{"IsDir", "embed/embed.go:9", "embed/embed.go:9 embed/embed.go:27 embed/embed.go:29 embed/far/far.go:7"},
		// A generic type's method result typed by its type parameter
		// is the operand's type argument: Ptr[conn].Load() is a *conn.
		{"Close", "generic/generic.go:11", "cmd/typed.go:24? generic/generic.go:11 generic/generic.go:23 generic/generic.go:25"},
		// A literal's key is its type's field: A{F: 1}, not B{F: 2}.
		{"F", "keys/keys.go:3", "keys/keys.go:3 keys/keys.go:7"},
		// A local function literal's call has its result type, and so
		// has a func-typed parameter's; a chain
		// of five calls and selectors is still followed.
		{"AddBytes", "closure/closure.go:5", "closure/closure.go:5 closure/closure.go:16 closure/closure.go:17 closure/closure.go:21"},
		{"Get", "closure/chain.go:5", "closure/chain.go:5 closure/chain.go:21"},
		// Constants of an iota group have the type of its first spec.
		{"String", "closure/consts.go:5", "closure/consts.go:5 closure/consts.go:15 closure/consts.go:15"},
		// A value typed by a type parameter has its constraint's methods.
		{"Size", "closure/generic.go:3", "closure/generic.go:3 closure/generic.go:10 closure/generic.go:10"},
		{"Add", "atom/atom.go:7", "atom/atom.go:7 atom/atom.go:36 atom/atom.go:37 atom/atom.go:39 atom/atom.go:40 atom/atom.go:43"},
	} {
		sites, err := st.DefinitionSites(c.name)
		if err != nil {
			t.Fatal(err)
		}
		var def *index.NameHit
		for i := range sites {
			if fmt.Sprintf("%s:%d", sites[i].Path, sites[i].Selection.Start.Line+1) == c.decl && sites[i].Name == c.name {
				def = &sites[i]
			}
		}
		if def == nil {
			t.Fatalf("no declaration of %s at %s", c.name, c.decl)
		}
		refs, err := DeclReferences(st, *def, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range refs {
			s := fmt.Sprintf("%s:%d", r.Path, r.Pos.Line+1)
			if r.Uncertain {
				s += "?"
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("references to %s at %s:\n got %s\nwant %s", c.name, c.decl, g, c.want)
		}
		inFile, err := DeclFileReferences(st, *def, "cmd/main.go")
		if err != nil {
			t.Fatal(err)
		}
		var wantIn []string
		for _, w := range strings.Fields(c.want) {
			if strings.HasPrefix(w, "cmd/main.go:") {
				wantIn = append(wantIn, w)
			}
		}
		var gotIn []string
		for _, r := range inFile {
			s := fmt.Sprintf("%s:%d", r.Path, r.Pos.Line+1)
			if r.Uncertain {
				s += "?"
			}
			gotIn = append(gotIn, s)
		}
		if strings.Join(gotIn, " ") != strings.Join(wantIn, " ") {
			t.Errorf("highlights of %s in cmd/main.go: got %v, want %v", c.name, gotIn, wantIn)
		}
	}
}

// FuzzGoResolve feeds arbitrary buffers and cursor offsets to what the
// language server runs on the buffer being edited (UseAt, RankUse,
// MemberDefinitions against the fixture's store): none may panic.
func FuzzGoResolve(f *testing.F) {
	st, _ := fuzzFixtureStore(f, "resolve_go.txtar", 150, "cmd/typed.go", "cmd/main.go", "cache/cache.go")
	f.Add([]byte("package p\nfunc f() { var x struct{}; x.("), 40)
	ctx, _ := st.DefinitionContext("cmd/typed.go")
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		use := index.UseAt(src, off)
		ctx.RankUse(use, "store/store.go", "")
		MemberDefinitions(st, "cmd/typed.go", src, off)
		name := string(src[index.IdentStart(src, max(0, min(off, len(src)))):max(0, min(off, len(src)))])
		LocalReferences(st, "cmd/typed.go", src, off, name)
		PredeclaredAt(st, "cmd/typed.go", src, off, name)
		NotNameAt(src, off)
	})
}

// TestDeclReferencesAfterEdit checks that an edit that changes what an
// operand descriptor means (NewCircle now returns a Square) changes the
// answer: the evaluated operand types cached by the first query are
// dropped by the write.
func TestDeclReferencesAfterEdit(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_go.txtar"))
	st := navtest.Open(t, t.TempDir(), nil)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	area := func() int {
		decls, err := QualifiedDeclarations(st, "Square", "Area")
		if err != nil || len(decls) != 1 {
			t.Fatalf("Square.Area: %v %v", decls, err)
		}
		refs, err := DeclReferences(st, decls[0], 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range refs {
			if r.Path == "shapes/use.go" && r.Pos.Line == 6 && !r.Uncertain {
				n++
			}
		}
		return n
	}
	if n := area(); n != 3 {
		t.Fatalf("before the edit: %d confirmed calls of Square.Area on line 7, want 3", n)
	}
	src, err := os.ReadFile(filepath.Join(root, "shapes", "shapes.go"))
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.Replace(src, []byte("func NewCircle() *Circle { return &Circle{} }"), []byte("func NewCircle() *Square { return &Square{} }"), 1)
	if err := st.PutContent(context.Background(), "shapes/shapes.go", src, index.Options{}); err != nil {
		t.Fatal(err)
	}
	if n := area(); n != 4 {
		t.Errorf("after NewCircle returns a Square: %d confirmed calls on line 7, want 4 (c.Area too)", n)
	}
}

// fuzzFixtureStore indexes testdata/archive into a store closed with the
// fuzz test and seeds f with each of files at offset off.
func fuzzFixtureStore(f *testing.F, archive string, off int, files ...string) (*index.Store, string) {
	root := fixture.Extract(f, filepath.Join("testdata", archive))
	st, err := index.Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	if _, err := st.Index(context.Background(), root, index.Options{}); err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, off)
	}
	return st, root
}
