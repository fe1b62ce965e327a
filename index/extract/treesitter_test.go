package extract

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func mustExtract(t *testing.T, lang, src string) *Result {
	t.Helper()
	ex := For(lang)
	if ex == nil {
		t.Fatalf("no extractor for %s", lang)
	}
	res, err := ex.Extract(context.Background(), "t", []byte(src), Options{})
	if err != nil {
		t.Fatalf("%s: %v", lang, err)
	}
	return res
}

func TestImportPaths(t *testing.T) {
	tests := []struct {
		lang, src string
		want      []string
	}{
		{"python", "import a.b, c as d\nfrom .x import y\nfrom .. import z\nfrom a . b import (c)\nfrom __future__ import annotations\n",
			[]string{"a.b", "c", ".x", "..", "a.b", "__future__"}},
		{"javascript", "import x from \"./a\";\nexport * from './b';\nconst y = require(\"c\");\nimport(\"d\");\nrequire(name);\n",
			[]string{"./a", "./b", "c", "d"}},
		{"typescript", "import fs = require(\"fs\");\nimport type { T } from \"t\";\n", []string{"fs", "t"}},
		{"c", "#include <stdio.h>\n#include \"x/y.h\"\n", []string{"stdio.h", "x/y.h"}},
		{"cpp", "#include <vector>\n", []string{"vector"}},
		{"java", "import a.b.C;\nimport static a.b.C.d;\nimport a.b.*;\n", []string{"a.b.C", "a.b.C.d", "a.b.*"}},
		{"kotlin", "import a.b.C\nimport a.b.*\nimport a.b.C as D\n", []string{"a.b.C", "a.b.*", "a.b.C"}},
		{"rust", "use a::b::{c, d};\nuse a::b as c;\nuse a::*;\nuse std;\nextern crate foo;\nmod m;\nmod n {}\n",
			[]string{"a::b", "a::b", "a::*", "std", "foo", "m"}},
		{"csharp", "using System;\nusing static System.Math;\nusing IO = System.IO;\n",
			[]string{"System", "System.Math", "System.IO"}},
		{"ruby", "require \"json\"\nrequire_relative \"lib/x\"\nrequire_relative \"../y\"\nrequire \"a#{b}\"\nobj.require \"z\"\n",
			[]string{"json", "./lib/x", "../y"}},
		{"php", "<?php\nuse A\\B;\nuse A\\{C, D as E};\nrequire 'x.php';\ninclude __DIR__ . '/y.php';\n",
			[]string{`A\B`, `A\C`, `A\D`, "x.php"}},
		{"lua", "local a = require(\"a.b\")\nlocal c = require \"c\"\nrequire(x)\n", []string{"a.b", "c"}},
		{"bash", "source ./a.sh\n. \"b.sh\"\nsource $X/c.sh\n", []string{"./a.sh", "b.sh", "$X/c.sh"}},
		{"swift", "import Foundation\nimport UIKit\n", []string{"Foundation", "UIKit"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			if testing.Short() && tt.lang == "swift" {
				t.Skip("swift grammar is slow to load")
			}
			var got []string
			for _, im := range mustExtract(t, tt.lang, tt.src).Imports {
				got = append(got, im.Path)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("imports = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExportedRules(t *testing.T) {
	tests := []struct {
		lang, src string
		want      map[string]bool // key: Container.Name, or Name at top level
	}{
		{"python", "def f(): pass\ndef _g(): pass\nclass C:\n  def __init__(self): pass\n  def _p(self): pass\n",
			map[string]bool{"f": true, "_g": false, "C": true, "C.__init__": true, "C._p": false}},
		{"java", "class A { private int x; int y; public void m() {} private void n() {} }",
			map[string]bool{"A": true, "A.x": false, "A.y": true, "A.m": true, "A.n": false}},
		{"csharp", "class A { int x; public int Y; void M() {} internal void N() {} }\ninterface I { void Q(); }\nenum E { V }\n",
			map[string]bool{"A": true, "A.x": false, "A.Y": true, "A.M": false, "A.N": true, "I": true, "I.Q": true, "E": true, "E.V": true}},
		{"javascript", "export function a() {}\nfunction b() {}\nclass C { m() {} _p() {} #q() {} }\nconst d = 1;\nexport { d };\n",
			map[string]bool{"a": true, "b": false, "C": false, "C.m": true, "C._p": false, "C.#q": false, "d": true}},
		{"typescript", "class C { private a = 1; public b = 2; protected c() {} }",
			map[string]bool{"C": false, "C.a": false, "C.b": true, "C.c": true}},
		{"rust", "pub fn a() {}\nfn b() {}\npub struct S { pub f: i32, g: i32 }\nenum E { V }\nimpl S { pub fn m(&self) {} fn n(&self) {} }\ntrait T { fn t(&self); }\nimpl T for S { fn u(&self) {} }\n",
			map[string]bool{"a": true, "b": false, "S": true, "S.f": true, "S.g": false, "E": false, "E.V": true,
				"S.m": true, "S.n": false, "T": false, "T.t": true, "S.u": true}},
		{"c", "static int a;\nint b;\nstatic void f(void) {}\nvoid g(void) {}\n",
			map[string]bool{"a": false, "b": true, "f": false, "g": true}},
		{"cpp", "class K { int p; public: int q; void m(); private: void n(); };\nstruct S { int r; };\n",
			map[string]bool{"K": true, "K.p": false, "K.q": true, "K.m": true, "K.n": false, "S": true, "S.r": true}},
		{"kotlin", "class A {\n  private val x = 1\n  val y = 2\n  internal fun z() {}\n}\nprivate fun top() {}\n",
			map[string]bool{"A": true, "A.x": false, "A.y": true, "A.z": true, "top": false}},
		{"php", "<?php\nclass A { private $x; public function m() {} private function n() {} function o() {} }\n",
			map[string]bool{"A": true, "A.x": false, "A.m": true, "A.n": false, "A.o": true}},
		{"ruby", "class A\n  def m; end\n  def _n; end\nend\n", map[string]bool{"A": true, "A.m": true, "A._n": false}},
		{"lua", "local function a() end\nfunction b() end\nfunction _c() end\nlocal x = 1\ny = 2\n",
			map[string]bool{"a": false, "b": true, "_c": false, "x": false, "y": true}},
		{"bash", "f() { :; }\n_g() { :; }\nX=1\n_y=2\n", map[string]bool{"f": true, "_g": false, "X": true, "_y": false}},
		{"swift", "class A {\n  private var x = 1\n  fileprivate func y() {}\n  func z() {}\n}\n",
			map[string]bool{"A": true, "A.x": false, "A.y": false, "A.z": true}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			if testing.Short() && tt.lang == "swift" {
				t.Skip("swift grammar is slow to load")
			}
			got := map[string]bool{}
			for _, s := range mustExtract(t, tt.lang, tt.src).Symbols {
				got[JoinQual(s.Container, s.Name)] = s.Exported
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("exported =\n %v\nwant\n %v", got, tt.want)
			}
		})
	}
}

func TestPartialAndErrors(t *testing.T) {
	ex := For("python")
	big := strings.Repeat("def f(x):\n    return [y for y in x if y and not x]\n", 20000)
	res, err := ex.Extract(context.Background(), "big.py", []byte(big), Options{Budget: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Partial, "parse budget exceeded") {
		t.Errorf("tiny budget: Partial = %q", res.Partial)
	}

	// gotreesitter's EOF recovery ignores the stop flag and is quadratic in
	// unclosed brackets; the watchdog must still return near the budget.
	start := time.Now()
	res, err = For("javascript").Extract(context.Background(), "deep.js", []byte(strings.Repeat("(", 15000)), Options{Budget: 50 * time.Millisecond})
	if err != nil {
		t.Errorf("deep nesting: %v", err)
	} else if !strings.HasPrefix(res.Partial, "parse budget exceeded") {
		t.Errorf("deep nesting: Partial = %q", res.Partial)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("deep nesting: Extract took %v with a 50ms budget", took)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ex.Extract(ctx, "x.py", []byte("x = 1\n"), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: err = %v", err)
	}

	if res := mustExtract(t, "python", "))))\n"); res.Partial != "syntax errors" {
		t.Errorf("garbage: Partial = %q", res.Partial)
	}
	// A few errors in otherwise good code are not worth a Partial mark.
	if res := mustExtract(t, "python", "def ok():\n    pass\n\nx = = 1\n"); res.Partial != "" || len(res.Symbols) == 0 {
		t.Errorf("one bad line: Partial = %q, %d symbols", res.Partial, len(res.Symbols))
	}
	if res := mustExtract(t, "python", ""); res.Partial != "" || len(res.Symbols)+len(res.Refs) != 0 {
		t.Errorf("empty file: %+v", res)
	}
}

// TestConcurrentExtract runs every fixture from many goroutines at once
// (meaningful under -race) and checks the results match a sequential run.
func TestConcurrentExtract(t *testing.T) {
	// A budget no fixture comes near even on a loaded CI machine under
	// -race: what differs must come from sharing, not from the clock.
	generous := Options{Budget: time.Minute}
	fixtures := loadFixtures(t)
	want := make([]*Result, len(fixtures))
	for i, f := range fixtures {
		if testing.Short() && f.lang == "swift" || For(f.lang) == nil {
			continue
		}
		res, err := For(f.lang).Extract(context.Background(), f.srcName, f.src, generous)
		if err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
		want[i] = res
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, f := range fixtures {
				if want[i] == nil {
					continue
				}
				got, err := For(f.lang).Extract(context.Background(), f.srcName, f.src, generous)
				if err != nil {
					t.Errorf("%s: %v", f.path, err)
				} else if !reflect.DeepEqual(got, want[i]) {
					t.Errorf("%s: concurrent result differs (partial %q, alone %q)", f.path, got.Partial, want[i].Partial)
				}
			}
		}()
	}
	wg.Wait()
}

func TestHelpers(t *testing.T) {
	for in, want := range map[string]string{`"a"`: "a", `'b'`: "b", "`c`": "c", "<d.h>": "d.h", `"e`: `"e`, `x`: "x", ` "f" `: "f"} {
		if got := unquoteDelims(in); got != want {
			t.Errorf("unquoteDelims(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]bool{"f": true, "_f": false, "__init__": true, "__x": false, "___": false, "__": false} {
		if got := underscoreExported(in); got != want {
			t.Errorf("underscoreExported(%q) = %v", in, got)
		}
	}
	for in, want := range map[string]bool{"MAX": true, "MAX_2": true, "Max": false, "_": false, "X1": true} {
		if got := isUpper(in); got != want {
			t.Errorf("isUpper(%q) = %v", in, got)
		}
	}
	if got := DocLine(stripXMLTags("/// <summary>\n/// Adds <c>x</c>.\n/// </summary>")); got != "Adds x." {
		t.Errorf("C# doc = %q", got)
	}
	w := &tsWalker{lines: LineStarts([]byte("ab\ncdé\n\nx"), nil)}
	for _, tc := range []struct {
		off, hint uint32
		want      Pos
	}{{0, 0, Pos{0, 0}}, {4, 1, Pos{1, 1}}, {4, 0, Pos{1, 1}}, {9, 9, Pos{3, 0}}, {8, 2, Pos{2, 0}}} {
		if got := w.pos(tc.off, tc.hint); got != tc.want {
			t.Errorf("pos(%d, hint %d) = %+v, want %+v", tc.off, tc.hint, got, tc.want)
		}
	}
}

// TestSpecTypeNames catches typos and grammar drift in the tables: compile
// ignores unknown type names (so one table can serve JavaScript and
// TypeScript), which would otherwise hide a misspelt rule. Every name must
// exist in at least one grammar sharing the table.
func TestSpecTypeNames(t *testing.T) {
	groups := [][]string{{"javascript", "typescript", "tsx"}, {"c", "cpp"}}
	for _, l := range Languages() {
		if _, ok := For(l).(*tsExtractor); ok && !strings.Contains(fmtGroups(groups), " "+l+" ") {
			groups = append(groups, []string{l})
		}
	}
	for _, group := range groups {
		if testing.Short() && group[0] == "swift" {
			continue
		}
		named, anon := map[string]bool{}, map[string]bool{}
		for _, l := range group {
			c, err := For(l).(*tsExtractor).load()
			if err != nil {
				t.Fatal(err)
			}
			idx := indexSymbols(c.lang)
			for n := range idx.named {
				named[n] = true
			}
			for n := range idx.anon {
				anon[n] = true
			}
		}
		spec := For(group[0]).(*tsExtractor).spec
		for _, n := range specNamedTypes(spec) {
			if !named[n] {
				t.Errorf("%v: node type %q is not in the grammar", group, n)
			}
		}
		for _, n := range strings.Fields(spec.branchOps) {
			if !anon[n] {
				t.Errorf("%v: token %q is not in the grammar", group, n)
			}
		}
	}
}

func fmtGroups(groups [][]string) string {
	var b strings.Builder
	for _, g := range groups {
		b.WriteString(" " + strings.Join(g, " ") + " ")
	}
	return b.String()
}

// specNamedTypes lists the named node types a table refers to.
func specNamedTypes(s *langSpec) []string {
	var out []string
	add := func(types string) { out = append(out, splitTypes(types)...) }
	for _, d := range s.defs {
		add(d.typ)
		add(d.parent)
		for _, st := range strings.Fields(d.name) {
			if strings.HasPrefix(st, "@") {
				add(st[1:])
			}
		}
	}
	for _, r := range s.idents {
		add(r.typ)
		add(r.parent)
	}
	for _, m := range []map[string]string{s.calls, s.callees, s.pkg} {
		for k := range m {
			add(k)
		}
	}
	for k := range s.imports {
		add(k)
	}
	for k := range s.hooks {
		add(k)
	}
	for _, ts := range []string{s.comments, s.branches, s.wrappers, s.docSkip, s.sigSkip, s.sigInto, s.opParents} {
		add(ts)
	}
	return out
}
