package extract

import (
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/testenv"
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
		{"var literals", "package p\nvar a, b = T{1, 2}, []int{3}\nvar s struct{ x int } = struct{ x int }{1}\nconst c = 1\nvar m = map[string]func(){\"a\": func() {}}\ntype T struct{ x, y int }\n", 4},
		{"struct table", "package p\nvar errs = [...]struct {\n\tnum  int\n\tname string\n}{\n\t{1, \"EPERM\"},\n}\nfunc f() {}\n", 2},
		{"func field table", "package p\nvar ops = []struct {\n\tname string\n\tf    func(int) int\n}{\n\t{\"id\", func(x int) int { return x }},\n}\nvar n = 1\n", 1},
		{"grouped vars", "package p\nvar (\n\tx = 1\n\ty = []string{\n\t\t\"a\",\n\t}\n\tz int\n)\nfunc f() { x += 1; y[0] = \"b\" }\n", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			toks := scanGo(src)
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
	files := gorootFiles(t)
	checked := 0
	for i := 0; i < len(files); i += 7 {
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

// TestLexerMatchesGoScanner compares goLexer with go/scanner on a sample of
// GOROOT: the same identifiers at the same offsets, the same line starts,
// and every function body found, so the parser never needs the fallback.
func TestLexerMatchesGoScanner(t *testing.T) {
	if testing.Short() {
		t.Skip("reads GOROOT")
	}
	files := gorootFiles(t)
	checked, fallbacks := 0, 0
	for i := 0; i < len(files); i += 7 {
		src, err := os.ReadFile(files[i])
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		tf := fset.AddFile(files[i], -1, len(src))
		var sc scanner.Scanner
		errs := 0
		sc.Init(tf, src, func(token.Position, string) { errs++ }, 0)
		var want []goIdent
		for {
			pos, tok, lit := sc.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.IDENT && lit != "_" {
				want = append(want, goIdent{name: lit, off: tf.Offset(pos)})
			}
		}
		if errs > 0 {
			continue // testdata with lexical errors
		}
		toks := scanGo(src)
		got := make([]goIdent, len(toks.idents))
		for j, id := range toks.idents {
			got[j] = goIdent{name: id.name, off: id.off}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: identifiers differ (%d vs %d)", files[i], len(got), len(want))
		}
		if !reflect.DeepEqual(toks.lines, tf.Lines()) {
			t.Errorf("%s: line starts differ", files[i])
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution); err == nil {
			compact, _ := compactBodies(src, toks.bodies)
			if _, err := parser.ParseFile(token.NewFileSet(), "", compact, parser.SkipObjectResolution); err != nil {
				fallbacks++
				t.Logf("%s: compacted parse fails: %v", files[i], err)
			}
		}
		checked++
	}
	if fallbacks > 0 {
		t.Errorf("%d of %d files needed the full-parse fallback", fallbacks, checked)
	}
	t.Logf("compared %d files", checked)
}

func gorootFiles(t testing.TB) []string {
	root := filepath.Join(runtime.GOROOT(), "src")
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		testenv.Need(t, "no GOROOT sources")
	}
	return files
}

// TestSymbolCountExact checks on a sample of GOROOT that symbolCount
// predicts the symbols extraction adds, so Symbols never regrows nor
// carries slack.
func TestSymbolCountExact(t *testing.T) {
	if testing.Short() {
		t.Skip("reads GOROOT")
	}
	files := gorootFiles(t)
	for i := 0; i < len(files); i += 5 {
		src, err := os.ReadFile(files[i])
		if err != nil {
			continue
		}
		res := extractGo(files[i], src, true)
		if len(res.Symbols) != cap(res.Symbols) {
			t.Errorf("%s: %d symbols in a slice of capacity %d", files[i], len(res.Symbols), cap(res.Symbols))
		}
	}
}

// BenchmarkExtractGoGOROOT extracts every Go file of GOROOT/src once per
// iteration; -benchmem and -cpuprofile show how the cost splits between
// the scan, go/parser and the walker (go test ./index/extract -run '^$'
// -bench ExtractGoGOROOT -benchmem).
func BenchmarkExtractGoGOROOT(b *testing.B) {
	var srcs [][]byte
	for _, p := range gorootFiles(b) {
		if src, err := os.ReadFile(p); err == nil {
			srcs = append(srcs, src)
		}
	}
	b.ResetTimer()
	for range b.N {
		for _, src := range srcs {
			extractGo("x.go", src, true)
		}
	}
}
