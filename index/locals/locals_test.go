package locals

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/index/syntax"
	"github.com/parleyhq/parley/workspace"
)

// FuzzLocalsResolve feeds arbitrary buffers and offsets to nav.LocalAt in
// each language it covers: none may panic.
func FuzzLocalsResolve(f *testing.F) {
	st, err := index.Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	var exts []string
	for lang := range localsLangs {
		if localsExt[lang] == "" {
			f.Fatalf("no extension for %s in localsExt", lang)
		}
		exts = append(exts, localsExt[lang])
	}
	slices.Sort(exts)
	// Seeds name their language by extension: the fuzzed byte indexes
	// the sorted extensions.
	for _, seed := range []struct {
		ext, src string
		at       string // the seed's offset is that of at in src
	}{
		{".java", "class A { void m(int x) { int y = x; Runnable r = () -> y; } }", "x; R"},
		{".rs", "fn f(p: i32) { let x = p; let x = x + 1; match x { Some(v) => v, _ => 0 } }", "x + 1"},
		{".c", "int f(int *p) { int x = *p, a[3]; { int x = 1; } return x; }", "x; }"},
		{".cs", "class A { void M(string s, object o) { if (!int.TryParse(s, out var n)) return; var (a, b) = P(n); _ = o switch { int j => j }; } }", "n); _"},
		{".java", "class A { void m(Object o) { if (!(o instanceof String t)) return; use(t); if (o instanceof P(int x, int y) && x > y) use(x); } }", "t); if"},
		{".java", "class A { void m(int x) { Runnable r = new Runnable() { int y; public void run() { use(x, y); } }; } }", "x, y)"},
		{".rs", "fn f(n: Option<i32>) { if let Some(n) = n && let Some(m) = g(n) { h(n, m) } else { h(n) } }", "n) } }"},
		{".swift", "func f(_ o: Int?) { guard let n = o, n > 0 else { return }; let g = { (k: Int) in k + n }; if let m = o { use(m) } }", "n }"},
		{".kt", "fun f(xs: List<Int>) = xs.map { it + xs.any { y -> it == y } }", "it =="},
	} {
		if navtest.RaceDetector && seed.ext == ".swift" {
			continue // see race_on_test.go
		}
		f.Add([]byte(seed.src), strings.Index(seed.src, seed.at), uint8(slices.Index(exts, seed.ext)))
	}
	f.Fuzz(func(t *testing.T, src []byte, off int, lang uint8) {
		file := "fuzz/a" + exts[int(lang)%len(exts)]
		// localAt: nav.LocalAt without its opt-in check, which would need
		// each input indexed first.
		name, tbl := localsLangOf(file, src)
		if l, ok := localAt(st, name, tbl, file, src, off); ok {
			if slices.Contains(l.Refs, l.Selection) == l.Implicit || !bytes.Contains(src, []byte(l.Name)) {
				t.Fatalf("local %q with refs %v", l.Name, l.Refs)
			}
		}
	})
}

// localsExt is a file extension of each language localsLangs covers.
var localsExt = map[string]string{
	"java": ".java", "rust": ".rs", "c": ".c", "cpp": ".cpp", "csharp": ".cs", "kotlin": ".kt",
	"ruby": ".rb", "lua": ".lua", "php": ".php", "bash": ".sh", "swift": ".swift",
}

// BenchmarkLocalAt measures a definition/references query on a local of a
// large buffer (a generated 0.5 MB Java file, or the file
// PARLEY_LOCALS_FILE names, queried at the byte offset PARLEY_LOCALS_OFF):
// "parse" is the bare tree-sitter parse, "cold" nav.LocalAt on content the
// tree cache has not seen (one parse and one walk), "cached" on the same
// content again (one walk). Issue 17 asks that a local cost about one
// parse of the buffer.
func BenchmarkLocalAt(b *testing.B) {
	file, src, off := "big/Big.java", bigJava(2500), 0
	if p := os.Getenv("PARLEY_LOCALS_FILE"); p != "" {
		var err error
		if src, err = os.ReadFile(p); err != nil {
			b.Fatal(err)
		}
		file = "big/" + filepath.Base(p)
		off, _ = strconv.Atoi(os.Getenv("PARLEY_LOCALS_OFF"))
	} else {
		off = bytes.LastIndex(src, []byte("return acc")) + len("return ")
	}
	lang := workspace.DetectLanguage(file, nil)
	st, err := index.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			tree, err := extract.ParseTree(context.Background(), lang, src, time.Minute)
			if err != nil {
				b.Fatal(err)
			}
			tree.Release()
		}
	})
	b.Run("cold", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for i := 0; b.Loop(); i++ {
			buf := append([]byte(nil), src...)
			buf[len(buf)-1] = byte('0' + i%2) // new content: not in the cache
			if _, ok := At(st, file, buf, off); !ok {
				b.Fatalf("no local at %d", off)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		At(st, file, src, off)
		for b.Loop() {
			if _, ok := At(st, file, src, off); !ok {
				b.Fatalf("no local at %d", off)
			}
		}
	})
}

// bigJava is a Java class of n methods with parameters, locals, loops and
// lambdas, ending in a newline.
func bigJava(n int) []byte {
	var b bytes.Buffer
	b.WriteString("class Big {\n    int acc;\n")
	for i := range n {
		fmt.Fprintf(&b, "    int m%d(int x, int y) {\n        int acc = x;\n        for (int i = 0; i < y; i++) {\n"+
			"            acc += i * x;\n        }\n        Runnable r = () -> use(acc, y);\n        return acc + this.acc;\n    }\n", i)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// TestLocalsOptIn: a language off by default (Swift) gets no locals,
// and no grammar load, while the store holds its file as skipped.
func TestLocalsOptIn(t *testing.T) {
	root := t.TempDir()
	src := []byte("func f(x: Int) -> Int {\n    let y = x\n    return y\n}\n")
	if err := os.WriteFile(filepath.Join(root, "a.swift"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	off := bytes.LastIndex(src, []byte("y"))
	if l, ok := At(st, "a.swift", src, off); ok {
		t.Errorf("Swift off: LocalAt = %+v, want none", l)
	}
	if got := Warm(st, "a.swift", src); got != nil {
		t.Errorf("Swift off: WarmSyntax = %v, want nil", got)
	}
}

// TestAfterMemberOp: the names nav.LocalAt rules out before parsing.
func TestAfterMemberOp(t *testing.T) {
	for _, c := range []struct {
		src   string
		arrow bool
		want  bool
	}{
		{"obj.x", false, true}, {"obj . x", false, true}, {"p->x", true, true}, {"N::x", false, true}, {"o&.x", false, true},
		{"x", false, false}, {"a + x", false, false}, {"0..x", false, false}, {"a .. x", false, false}, {"$x", false, false},
		{"y -> x", false, false}, // a Java or Kotlin lambda's body
	} {
		if got := afterMemberOp([]byte(c.src), len(c.src)-1, c.arrow); got != c.want {
			t.Errorf("afterMemberOp(%q, %v) = %v, want %v", c.src, c.arrow, got, c.want)
		}
	}
}

// TestWarmLocals: opening a document of a language nav.LocalAt covers parses
// it into the tree cache (nav.WarmSyntax, which the language server runs on
// didOpen), so that the first request finds it parsed within its budget.
func TestWarmLocals(t *testing.T) {
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	src := []byte("class A { int m(int x) { return x; } }\n")
	if got := Warm(st, "a/A.java", src); !slices.Equal(got, []string{"a/A.java"}) {
		t.Fatalf("WarmSyntax(A.java) = %v, want the buffer", got)
	}
	syntax.CacheOf(st).Lock()
	f, _ := syntax.CacheOf(st).Get("locals:java:a/A.java", src)
	syntax.CacheOf(st).Unlock()
	if f == nil {
		t.Fatal("the warmed tree is not in the cache")
	}
	if got := Warm(st, "notes.txt", []byte("x")); got != nil {
		t.Errorf("WarmSyntax(notes.txt) = %v, want nil", got)
	}
}

// TestLocalsCacheBound: nav.LocalAt keeps the trees of the buffers it parsed
// within localsCacheBytes of source, the latest first.
func TestLocalsCacheBound(t *testing.T) {
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	defer func(old int) { syntax.LocalsCacheBytes = old }(syntax.LocalsCacheBytes)
	syntax.LocalsCacheBytes = 20 << 10
	big := bigJava(40) // about 8 KB
	for i := range 6 {
		rel := fmt.Sprintf("a/Big%d.java", i)
		off := bytes.LastIndex(big, []byte("return acc")) + len("return ")
		if _, ok := At(st, rel, big, off); !ok {
			t.Fatalf("%s: no local", rel)
		}
	}
	syntax.CacheOf(st).Lock()
	defer syntax.CacheOf(st).Unlock()
	n, kept := 0, []string{}
	for _, k := range syntax.CacheOf(st).Keys() {
		if strings.HasPrefix(k, "locals:") {
			f, _ := syntax.CacheOf(st).Cached(k)
			n += len(f.Src)
			kept = append(kept, k)
		}
	}
	if n > syntax.LocalsCacheBytes || !slices.Contains(kept, "locals:java:a/Big5.java") {
		t.Errorf("kept %v, %d bytes of source (bound %d)", kept, n, syntax.LocalsCacheBytes)
	}
}

// testDescribers are the describers the tests index with.
var testDescribers navtest.Describers
