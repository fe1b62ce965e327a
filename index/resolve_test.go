package index

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

	"github.com/parleyhq/parley/internal/fixture"
)

func TestUseAt(t *testing.T) {
	for _, c := range []struct {
		src  string
		want Use
	}{
		{"x := F", Use{}},
		{"x := pkg.F", Use{Selector: true, Qualifier: "pkg"}},
		{"pkg.\n\tF", Use{Selector: true, Qualifier: "pkg"}},
		{"f().F", Use{Selector: true}},
		{"a[1].F", Use{Selector: true}},
		{"héllo.F", Use{Selector: true, Qualifier: "héllo"}},
		{"1.F", Use{Selector: true}},
	} {
		// The offset is inside the last identifier, as an editor's cursor.
		off := len(c.src) - 1
		if got := UseAt([]byte(c.src), off); got != c.want {
			t.Errorf("UseAt(%q) = %+v, want %+v", c.src, got, c.want)
		}
	}
	if got := UseAt([]byte("x"), 5); got != (Use{}) {
		t.Errorf("offset past the end: %+v", got)
	}
}

func TestGoImportName(t *testing.T) {
	for _, c := range []struct{ path, explicit, want string }{
		{"net/http", "", "http"},
		{"fmt", "", "fmt"},
		{"net/http", "h", "h"},
		{"math/rand/v2", "", "rand"},
		{"gopkg.in/yaml.v3", "", "yaml"},
		{"github.com/mattn/go-isatty", "", "isatty"},
		{"example.com/m/v2x", "", "v2x"},
		{"strings", ".", "."},
	} {
		if got := goImportName(c.path, c.explicit); got != c.want {
			t.Errorf("goImportName(%q, %q) = %q, want %q", c.path, c.explicit, got, c.want)
		}
	}
}

// TestResolveGoFixture indexes testdata/resolve_go.txtar and checks the
// best class of definitions of each use its "want" file lists.
func TestResolveGoFixture(t *testing.T) {
	archive := filepath.Join("testdata", "resolve_go.txtar")
	root := fixture.Extract(t, archive)
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
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
func resolveFixtureUse(st *Store, root, loc, text string) (string, error) {
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
	use := UseAt(src, off)
	if use.Selector { // as the language server does
		if hits, ok := st.GoMemberDefinitions(file, src, off); ok && len(hits) > 0 {
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
	best := SortDefinitions(hits, func(h NameHit) DefinitionRank { return ctx.RankUse(use, h.Path, h.Container) })
	if best == 0 {
		return "-", nil
	}
	var out []string
	for _, h := range hits[:best] {
		out = append(out, fmt.Sprintf("%s:%d", h.Path, h.Selection.Start.Line+1))
	}
	return strings.Join(out, " "), nil
}

func TestGoBuildsWith(t *testing.T) {
	for _, c := range []struct {
		from, target string
		want         bool
	}{
		{"syscall/zsyscall_linux_riscv64.go", "syscall/syscall_linux.go", true},
		{"syscall/zsyscall_linux_riscv64.go", "syscall/dll_windows.go", false},
		{"syscall/zsyscall_linux_riscv64.go", "syscall/zsyscall_linux_amd64.go", false},
		{"syscall/zsyscall_linux_riscv64.go", "syscall/syscall.go", true},
		{"os/file_android.go", "os/file_linux.go", true},
		{"os/exec_windows.go", "os/exec_posix_test.go", true},
		{"os/a_" + runtime.GOOS + ".go", "os/b_" + runtime.GOARCH + ".go", true},
	} {
		if got := portOf(c.from, "").admits(c.target, ""); got != c.want {
			t.Errorf("portOf(%s).admits(%s) = %v, want %v", c.from, c.target, got, c.want)
		}
	}
	for _, c := range []struct {
		file, build string
		want        goPort
	}{
		{"a/x.go", "", hostPort},
		{"a/x.go", "freebsd || netbsd", goPort{"freebsd", "386"}},
		{"a/x.go", "plan9", goPort{"plan9", "386"}},
		{"a/x_plan9.go", "arm", goPort{"plan9", "arm"}},
		{"a/x.go", "js && wasm", goPort{"js", "wasm"}},
		// Unsatisfiable: the host's, like a file no build has.
		{"a/x.go", "linux && windows", hostPort},
	} {
		if got := portOf(c.file, c.build); got != c.want {
			t.Errorf("portOf(%s, %q) = %v, want %v", c.file, c.build, got, c.want)
		}
	}
	linux, android := goPort{"linux", "amd64"}, goPort{"android", "arm64"}
	for _, c := range []struct {
		port        goPort
		file, build string
		want        bool
	}{
		{linux, "a/x.go", "unix && !windows", true},
		{linux, "a/x.go", "go1.21", true},
		{linux, "a/x.go", "goexperiment.jsonv2", false},
		{linux, "a/x.go", "goexperiment.regabiargs", true},
		{goPort{"linux", "386"}, "a/x.go", "goexperiment.regabiargs", false},
		{linux, "a/x.go", "gc && !purego", true},
		{linux, "a/x_android.go", "", false},
		{android, "a/x_linux.go", "", true},
		{android, "a/x.go", "linux && arm64", true},
		{android, "a/x.go", "cgo", android == hostPort},
		{linux, "a/x.go", "not a constraint(", true},
	} {
		if got := c.port.admits(c.file, c.build); got != c.want {
			t.Errorf("%v admits(%s, %q) = %v, want %v", c.port, c.file, c.build, got, c.want)
		}
	}
	if os, arch := goFileTarget("x/zerrors_linux_mips64le_test.go"); os != "linux" || arch != "mips64le" {
		t.Errorf("goFileTarget = %s %s", os, arch)
	}
	if os, arch := goFileTarget("linux.go"); os != "" || arch != "" {
		t.Errorf("a file named after an OS alone has no constraint; got %s %s", os, arch)
	}
}

// TestDeclReferencesFixture checks which occurrences DeclReferences keeps
// for declarations of testdata/resolve_go.txtar ("?" marks Uncertain).
func TestDeclReferencesFixture(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_go.txtar"))
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
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
		// []int is uncertain, and so is a field of a variable of an
		// anonymous struct type (state.tx), which the index does not
		// describe. Tx.Close's and
		// cache.Close's declarations are not references.
		{"Close", "store/store.go:9", "cmd/anon.go:14? cmd/elems.go:6 cmd/elems.go:8 cmd/elems.go:10 cmd/elems.go:11 cmd/main.go:13 cmd/main.go:17 cmd/typed.go:11 cmd/typed.go:15 " +
			"cmd/typed.go:19 cmd/typed.go:20 cmd/typed.go:24? cmd/typed.go:32 store/store.go:9"},
		// An unexported method: only its own package's x.flush, here on
		// its receiver.
		{"flush", "store/store.go:19", "store/store.go:19 store/store.go:19"},
		// Two types with a method Area and an interface both implement:
		// Square's is called on sq, promoted through Named's embedded
		// Square and reached through the Shape interface (sh, and the
		// range variable over []Shape); Circle's c.Area is not it.
		// Through the alias Figure = Square too. Elements: b.Rows[0] is a
		// Circle, sqs[1] a Square (Squares is []Square); a map element
		// indexed by a string literal is not read (uncertain).
		// An interface method's result (Maker.Make) is typed like a
		// function's; so are the elements of a call's result and of a
		// package-level variable initialized by a composite literal. A type switch's variable has, in a clause listing
		// one type, that type (switch.go:6 is a Circle), and in one
		// listing several the switched value's (a Shape).
		{"Area", "shapes/shapes.go:9", "shapes/alias.go:5 shapes/elems.go:9 shapes/elems.go:10? shapes/iface.go:9 shapes/results.go:9 shapes/results.go:10 shapes/shapes.go:9 shapes/switch.go:8 shapes/use.go:7 shapes/use.go:7 shapes/use.go:7 shapes/use.go:9"},
		{"Area", "shapes/shapes.go:13", "shapes/elems.go:8 shapes/elems.go:10? shapes/shapes.go:13 shapes/switch.go:6 shapes/switch.go:8 shapes/use.go:7 shapes/use.go:7 shapes/use.go:9"},
		// The interface method: every implementation's call, and the
		// interface's own.
		{"Area", "shapes/shapes.go:4", "shapes/alias.go:5 shapes/elems.go:8 shapes/elems.go:9 shapes/elems.go:10? shapes/embed.go:16 shapes/iface.go:9 shapes/results.go:9 shapes/results.go:10 shapes/shapes.go:4 shapes/switch.go:6 shapes/switch.go:8 shapes/use.go:7 shapes/use.go:7 shapes/use.go:7 shapes/use.go:7 shapes/use.go:9"},
		// An interface method: Tile implements Polygon with the Area
		// promoted from its embedded base.
		{"Area", "shapes/embed.go:12", "shapes/elems.go:10? shapes/embed.go:12 shapes/embed.go:16 shapes/switch.go:8 shapes/use.go:7 shapes/use.go:9"},
		// Fields: Square's Name on sq and promoted on n, not Circle's;
		// the composite-literal key Side is uncertain (keys are not
		// typed).
		{"Name", "shapes/shapes.go:7", "shapes/shapes.go:7 shapes/use.go:11 shapes/use.go:11"},
		{"Side", "shapes/shapes.go:7", "shapes/shapes.go:7 shapes/shapes.go:9 shapes/shapes.go:9 shapes/use.go:4?"},
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
	} {
		sites, err := st.DefinitionSites(c.name)
		if err != nil {
			t.Fatal(err)
		}
		var def *NameHit
		for i := range sites {
			if fmt.Sprintf("%s:%d", sites[i].Path, sites[i].Selection.Start.Line+1) == c.decl && sites[i].Name == c.name {
				def = &sites[i]
			}
		}
		if def == nil {
			t.Fatalf("no declaration of %s at %s", c.name, c.decl)
		}
		refs, err := st.DeclReferences(*def, 0)
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
		inFile, err := st.DeclFileReferences(*def, "cmd/main.go")
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
// GoMemberDefinitions against the fixture's store): none may panic.
func FuzzGoResolve(f *testing.F) {
	st, _ := fuzzFixtureStore(f, "resolve_go.txtar", 150, "cmd/typed.go", "cmd/main.go", "cache/cache.go")
	f.Add([]byte("package p\nfunc f() { var x struct{}; x.("), 40)
	ctx, _ := st.DefinitionContext("cmd/typed.go")
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		use := UseAt(src, off)
		ctx.RankUse(use, "store/store.go", "")
		st.GoMemberDefinitions("cmd/typed.go", src, off)
		name := string(src[IdentStart(src, max(0, min(off, len(src)))):max(0, min(off, len(src)))])
		st.GoLocalReferences("cmd/typed.go", src, off, name)
		st.GoPredeclaredAt("cmd/typed.go", src, off, name)
		GoNotNameAt(src, off)
	})
}

// TestDeclReferencesAfterEdit checks that an edit that changes what an
// operand descriptor means (NewCircle now returns a Square) changes the
// answer: the evaluated operand types cached by the first query are
// dropped by the write.
func TestDeclReferencesAfterEdit(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_go.txtar"))
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	area := func() int {
		decls, err := st.QualifiedDeclarations("Square", "Area")
		if err != nil || len(decls) != 1 {
			t.Fatalf("Square.Area: %v %v", decls, err)
		}
		refs, err := st.DeclReferences(decls[0], 0)
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
	if err := st.PutContent(context.Background(), "shapes/shapes.go", src, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := area(); n != 4 {
		t.Errorf("after NewCircle returns a Square: %d confirmed calls on line 7, want 4 (c.Area too)", n)
	}
}

// fuzzFixtureStore indexes testdata/archive into a store closed with the
// fuzz test and seeds f with each of files at offset off.
func fuzzFixtureStore(f *testing.F, archive string, off int, files ...string) (*Store, string) {
	root := fixture.Extract(f, filepath.Join("testdata", archive))
	st, err := Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	if _, err := st.Index(context.Background(), root, Options{}); err != nil {
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
