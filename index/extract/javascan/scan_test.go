package javascan_test

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/scantest"
	"github.com/parleyhq/parley/index/extract/javascan"
)

// treeSitter is the tree-sitter path's result for src under budget
// (0: four times the index's): what the scanner must reproduce.
func treeSitter(t testing.TB, src []byte, budget time.Duration) *extract.Result {
	t.Helper()
	if budget == 0 {
		budget = extract.BudgetFor(len(src)) * 4
	}
	return scantest.TreeSitter(t, "java", "T.java", src, extract.Options{Budget: budget})
}

// hasSyntaxError reports whether tree-sitter's tree of src has an error.
func hasSyntaxError(t testing.TB, src []byte) bool {
	t.Helper()
	return scantest.HasSyntaxError(t, "java", src, extract.BudgetFor(len(src))*4)
}

// diff describes the differences between two results.
func diff(want, got *extract.Result) string {
	var b strings.Builder
	if want.Partial != got.Partial {
		fmt.Fprintf(&b, "partial %q vs %q\n", want.Partial, got.Partial)
	}
	if want.Package != got.Package {
		fmt.Fprintf(&b, "package %q vs %q\n", want.Package, got.Package)
	}
	for i := 0; i < max(len(want.Symbols), len(got.Symbols)); i++ {
		if i >= len(want.Symbols) || i >= len(got.Symbols) {
			fmt.Fprintf(&b, "symbols: %d vs %d\n", len(want.Symbols), len(got.Symbols))
			break
		}
		if !reflect.DeepEqual(want.Symbols[i], got.Symbols[i]) {
			fmt.Fprintf(&b, "symbol %d\n  tree-sitter %+v\n  scanner     %+v\n", i, want.Symbols[i], got.Symbols[i])
		}
	}
	for i := 0; i < max(len(want.Refs), len(got.Refs)); i++ {
		if i >= len(want.Refs) || i >= len(got.Refs) {
			fmt.Fprintf(&b, "refs: %d vs %d\n", len(want.Refs), len(got.Refs))
			break
		}
		if want.Refs[i] != got.Refs[i] {
			fmt.Fprintf(&b, "ref %d: tree-sitter %+v, scanner %+v\n", i, want.Refs[i], got.Refs[i])
			break
		}
	}
	if !reflect.DeepEqual(want.Imports, got.Imports) {
		fmt.Fprintf(&b, "imports\n  tree-sitter %+v\n  scanner     %+v\n", want.Imports, got.Imports)
	}
	if !reflect.DeepEqual(want.Todos, got.Todos) {
		fmt.Fprintf(&b, "todos\n  tree-sitter %+v\n  scanner     %+v\n", want.Todos, got.Todos)
	}
	return b.String()
}

// tricky is Java syntax whose records the scanner must get exactly as the
// tree-sitter path does, or decline (fallback).
var tricky = []struct {
	name, src string
	fallback  bool
	tsError   bool // tree-sitter's tree has an error, its records are still right
}{
	{name: "package and imports", src: "package a.b.c;\nimport static java.lang.Math.*;\nimport java.util.List;\nimport static java.util.Objects.requireNonNull;\nclass A {}\n"},
	{name: "annotated package", src: "@Deprecated\npackage a.b;\n"},
	{name: "docs and modifiers", src: "/** Doc A. */\n@SuppressWarnings(\"x\")\npublic sealed class A<T extends Comparable<T>> extends B implements C, D permits E {\n    // X doc\n    private static final int X = 1, Y = a < b ? 1 : 2;\n    /* trailing */ int z; // TODO(me): later\n    @Override\n    // between\n    public @Nullable String toString() { return \"\"; }\n    non-sealed class N {}\n    protected final transient volatile int w;\n}\n"},
	{name: "generic fields and creations", src: "class A<T> {\n    Map<String, List<T>> m = new HashMap<String, List<T>>(), n;\n    List<?> l = new ArrayList<>(), k = x.<A, B>f(c, d);\n    var v;\n    int[] a = {1, 2}, b[] = new int[3][];\n    Object o = new a.b.C<T>(), p = new C<T>.D(), q = new @A E();\n}\n"},
	{name: "constructors and calls", src: "class A {\n    public A() { this(1); super.f(); }\n    <U> A(U u) throws E, F { super(u); Outer.this.new Inner(); g(h(i())).j(); k.l().m(); Foo::new; Bar::baz; }\n}\n"},
	{name: "anonymous and local classes", src: "class A {\n    Runnable r = new Runnable() { public void run() { if (x) y(); } int f; };\n    void g() {\n        new D<>() { void h() { if (x && y || z) {} } };\n        class Local { int w; void m() { for (;;) {} } }\n        final class F {}\n        record R(int a) {}\n        enum E { P, Q }\n        interface I { int K = 1; }\n        Runnable f = () -> { class InLambda { int v; } };\n    }\n    static { class S { private int p; } }\n}\n"},
	{name: "records", src: "public record R<T>(int x, @A List<T> y) implements I {\n    static int count;\n    public R { if (x < 0) throw new X(); }\n    R(int x) { this(x, null); }\n    int twice() { return x * 2; }\n}\n"},
	{name: "enums", src: "enum En implements I {\n    /** P doc */\n    @Deprecated P(1) { void q() { while (a) {} } },\n    Q,\n    R(2),;\n    private final int z;\n    En() { this(0); }\n    En(int z) { this.z = z; }\n}\nenum Empty {}\nenum Semi { ; int x; }\n"},
	{name: "annotation types", src: "@interface Ann {\n    int v() default 1;\n    String[] s() default {\"a\", \"b\"};\n    String K = \"x\";\n    Class<?> c() default Object.class;\n}\n@Target({ElementType.TYPE}) @interface B {}\n"},
	{name: "interfaces", src: "interface I<T> extends J, K<T> {\n    int K = 2, L = 3;\n    default void d() { if (a) b(); }\n    static <T> T s(T t) { return t; }\n    private void p() {}\n    void abs();\n    class Nested {}\n}\n"},
	{name: "switch and yield", src: "class A {\n    int s(Object o) {\n        int r = switch (o) { case Integer i when i > 0 -> { yield 1; } case String s -> 2; case null, default -> 3; };\n        switch (k) { case 1: case 2: break; default: f(); }\n        Thread.yield();\n        int q = switch (k) { case A, B -> { if (c) yield (int) x; else yield 2; } default -> 0; };\n        return r;\n    }\n}\n"},
	{name: "patterns", src: "class A {\n    boolean f(Object o) {\n        if (o instanceof Point(int px, var py) && px > 0) return true;\n        if (o instanceof final String s && !s.isEmpty()) return false;\n        return switch (o) { case Box<?>(Point(var a, var b)) -> a == b; case Foo f when f.ok() -> true; default -> o instanceof List<?> l ? l.isEmpty() : false; };\n    }\n}\n"},
	{name: "record patterns and calls in case labels", src: "class U {\n    void f(Object o) {\n        switch (o) { case Point(_, _) -> g(); case Q() -> h(); case R(S(var x)) -> i(); case T(a, b) -> j(); case W(V<X> y, int[] z) -> k(); case P(vart_, _) -> l(); default -> {} }\n    }\n}\n"},
	{name: "loops and branches", src: "class A {\n    void f() {\n        do { x(); } while (c);\n        do x(); while (d);\n        label: for (var e : list) { break label; }\n        while (a) { try { g(); } catch (E | F e) { h(); } catch (G _) { } finally { } }\n        int t = a ? b ? 1 : 2 : 3;\n        Map<? extends K, ? super V> m = null;\n        assert a : \"msg\";\n    }\n}\n"},
	{name: "lambdas and underscores", src: "class A {\n    void f() {\n        m.compute(k, (_, v) -> v + 1);\n        xs.forEach(_ -> {});\n        g((a, b) -> { return a < b; });\n        Function<Integer, Integer> h = x -> x * 2;\n    }\n}\n"},
	{name: "underscores", src: "class U {\n    void f(Object o, Object[] a) {\n        switch (o) { case Foo _ -> g(); case Point(var _, _) -> h(); default -> {} }\n        if (o instanceof A.B _ || o instanceof C<?> _ || o instanceof D[] _) {}\n        Foo _ = x;\n        for (var _ : a) {}\n        try { } catch (E _) { }\n        m.compute(k, (_, v) -> v);\n    }\n}\n"},
	{name: "literals", src: "class A {\n    String t = \"\"\"\n        text \"\" \\\"\"\" block { ( \n        \"\"\";\n    char c = '\\u0041', d = '\\'', e = '{';\n    double x = 1.5e-3, y = 0x1.8p1, z = 5.;\n    long l = 1_000L;\n    String s = \"a // not a comment /* \" + \"\\\"\";\n}\n"},
	{name: "non-ASCII name", src: "class A { int \u00e9t\u00e9 = 1; }\n", fallback: true},
	{name: "number without a leading digit", src: "class A { double z = .5; void f() { g(.75f, 1); } }\n", tsError: true},
	{name: "comments", src: "package p; // TODO: package\n/* FIXME block\n * XXX second line */\nclass A {\n    /** First.\n     * Second. */\n    void f() {} /** trailing */\n    // run 1\n\n    // run 2\n    void g() {}\n    /** HACK same line */ void h() {}\n}\n// end\n"},
	{name: "generic methods and arrays", src: "class A {\n    public static <K extends Comparable<? super K>, V> Map<K, V>[] f(K[] k, V... v)[] { return null; }\n    int g()[] { return new int[0]; }\n    java.util.List<String> h() throws java.io.IOException { return java.util.List.of(); }\n}\n"},
	{name: "nested types", src: "public class O {\n    private static class I1 { class I2 { void m() {} } }\n    protected interface J {}\n    enum K { A }\n    record L() {}\n    @interface M {}\n}\n"},
	{name: "unicode escape in a name", src: "class A { int \\u0061bc = 1; }\n", fallback: true},
	{name: "syntax error", src: "class A { void f( { }\n", fallback: true},
	{name: "unterminated comment", src: "class A {} /* x\n", fallback: true},
	{name: "generic method reference in a field initializer", src: "class A { Supplier<Map<K, V>> s = HashMap<K, V>::new, t; }\n", fallback: true},
	{name: "CRLF and form feeds", src: "package p;\r\n// Doc of A.\r\nclass A {\r\n\f  /** f */\r\n  void f() { g(); } // TODO: x\r\n}\r\n"},
	{name: "module declaration", src: "module a.b { requires c; }\n", fallback: true},
}

func TestScanMatchesTreeSitter(t *testing.T) {
	for _, tc := range tricky {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			got, err := javascan.Scan(src, false)
			if tc.fallback {
				if err == nil || !javascan.IsFallback(err) {
					t.Fatalf("Scan accepted %q; want a fallback, got err %v", tc.src, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Scan: %v", err)
			}
			if hasSyntaxError(t, src) != tc.tsError {
				t.Fatalf("tree-sitter's tree has an error: %v, want %v", !tc.tsError, tc.tsError)
			}
			if d := diff(treeSitter(t, src, 0), got); d != "" {
				t.Errorf("records differ from the tree-sitter path's:\n%s", d)
			}
		})
	}
}

// TestScanFixture compares the paths on the extract package's Java
// fixture.
func TestScanFixture(t *testing.T) {
	for _, src := range fixtures(t) {
		got, err := javascan.Scan(src, false)
		if err != nil {
			t.Fatalf("Scan: %v", err)
		}
		if d := diff(treeSitter(t, src, 0), got); d != "" {
			t.Errorf("records differ from the tree-sitter path's:\n%s", d)
		}
	}
}

func fixtures(t testing.TB) [][]byte {
	data, err := os.ReadFile("../testdata/java.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, f := range txtar.Parse(data).Files {
		if strings.HasSuffix(f.Name, ".java") {
			out = append(out, f.Data)
		}
	}
	return out
}

// TestScanWhereTreeSitterIsWrong pins the records in which the scanner
// differs from the tree-sitter path on purpose:
//   - when, a contextual keyword only in a case label's guard, is a
//     variable's name elsewhere; gotreesitter's Java grammar reads it as
//     the keyword after a cast or an if's condition, an error tree that
//     drops the reference (JDK: Calendar.java, DelayScheduler.java);
//   - a yield statement after an if's condition, when its expression
//     starts with a parenthesis, is read as a call of a method yield
//     (jdk.compiler's Flow.java);
//   - type patterns binding _ whose type is qualified, generic or an
//     array, and primitive array patterns, are error trees in a switch
//     label, which lose cases from the method's complexity;
//   - a file over the parse budget (the JDK's CharacterData*.java
//     tables) is stored partial, with no records at all, where the
//     scanner reads it whole; given all the time it needs, tree-sitter's
//     records equal the scanner's.
func TestScanWhereTreeSitterIsWrong(t *testing.T) {
	src := []byte("class A {\n    boolean f(long when, long d) {\n        if (d < 0L)\n            when = now() - d;\n        return g((Object)when);\n    }\n}\n")
	got, err := javascan.Scan(src, false)
	if err != nil {
		t.Fatal(err)
	}
	var lines []uint32
	for _, r := range got.Refs {
		if r.Name == "when" {
			lines = append(lines, r.Pos.Line)
		}
	}
	if !reflect.DeepEqual(lines, []uint32{1, 3, 4}) {
		t.Errorf("scanner: references to when on lines %v, want [1 3 4]", lines)
	}
	if !hasSyntaxError(t, src) {
		t.Errorf("tree-sitter now parses when as a name after a cast and an if: compare the paths again")
	}

	// A yield statement after an if's condition, whose expression starts
	// with a parenthesis, is read as a call of a method yield, without
	// an error mark (jdk.compiler's Flow.java).
	src = []byte("class A {\n    int f(Object o, boolean c) {\n        return switch (o) {\n            case String s -> {\n                if (c)\n                    yield ((String) o).length();\n                yield 0;\n            }\n            default -> 1;\n        };\n    }\n}\n")
	if got, err = javascan.Scan(src, false); err != nil {
		t.Fatal(err)
	}
	if r := refNamed(got, "yield"); r != nil {
		t.Errorf("scanner: a yield statement recorded as a reference: %+v", r)
	}
	if r := refNamed(treeSitter(t, src, 0), "yield"); r == nil || !r.Call {
		t.Errorf("tree-sitter now reads yield ((String) o) after an if as a statement: compare the paths again")
	}

	// Type patterns binding _ whose type is qualified, generic or an
	// array, and primitive array patterns, are error trees in a switch
	// label (jdk.internal's AnnotationReader, SignaturesImpl,
	// ParserVerifier, foreign/Utils): each case counts towards the
	// method's complexity and _ is a name as in case Foo _.
	src = []byte("class A {\n    int f(Object o) {\n        return switch (o) { case A.B _ -> 1; case C<?> _ -> 2; case byte[] _ -> 3; default -> 4; };\n    }\n}\n")
	if got, err = javascan.Scan(src, false); err != nil {
		t.Fatal(err)
	}
	if cx := got.Symbols[1].Complexity; cx != 4 {
		t.Errorf("scanner: complexity %d, want 4 (three cases)", cx)
	}
	if !hasSyntaxError(t, src) {
		t.Errorf("tree-sitter now parses qualified, generic and array type patterns in a switch: compare the paths again")
	}

	src = bigTable(20000)
	got, err = javascan.Scan(src, false)
	if err != nil {
		t.Fatal(err)
	}
	cut := treeSitter(t, src, time.Millisecond)
	if cut.Partial == "" || len(cut.Symbols) != 0 {
		t.Errorf("tree-sitter under a 1 ms budget: partial %q with %d symbols; want a cut with none", cut.Partial, len(cut.Symbols))
	}
	// Given the time, without the reparse cut either (a loaded machine
	// reaches that one first: "parse retries stopped after 1.1s").
	extract.LiftReparseCut()
	whole := treeSitter(t, src, time.Minute)
	if d := diff(whole, got); d != "" {
		t.Errorf("records differ from tree-sitter's given the time:\n%s", d)
	}
}

func refNamed(res *extract.Result, name string) *extract.Ref {
	for i := range res.Refs {
		if res.Refs[i].Name == name {
			return &res.Refs[i]
		}
	}
	return nil
}

// bigTable is a class holding a table of n numbers, as the JDK's
// generated CharacterData classes do.
func bigTable(n int) []byte {
	var b strings.Builder
	b.WriteString("package p;\n\nclass Table {\n    // The table.\n    static final int[] A = {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "        0x%04X,\n", i)
	}
	b.WriteString("    };\n    int get(int i) { return i < 0 ? 0 : A[i]; }\n}\n")
	return []byte(b.String())
}

// FuzzScan checks the scanner against the tree-sitter path on mutations
// of the tricky cases and the fixture: whenever the scanner accepts an
// input that tree-sitter parses without an error, their records must be
// equal.
//
//	go test ./index/extract/javascan -run '^$' -fuzz FuzzScan -fuzztime 60s -fuzzminimizetime 5x
func FuzzScan(f *testing.F) {
	for _, tc := range tricky {
		f.Add([]byte(tc.src))
	}
	for _, src := range fixtures(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got, err := javascan.Scan(src, false)
		if err != nil {
			if !javascan.IsFallback(err) {
				t.Fatalf("Scan: %v", err)
			}
			return
		}
		if len(src) > 1<<16 || hasSyntaxError(t, src) {
			return
		}
		want := treeSitter(t, src, 0)
		if want.Partial != "" {
			return
		}
		if d := diff(want, got); d != "" {
			t.Errorf("records differ on %q:\n%s", src, d)
		}
	})
}
