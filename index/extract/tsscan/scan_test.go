package tsscan_test

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/scantest"
	"github.com/parleyhq/parley/index/extract/tsscan"
	"github.com/parleyhq/parley/index/typescript"
)

// The comparisons are with the tree-sitter path with index/typescript's
// describers: descriptors (Result.Operands, Ref.Operand) included.

var describers = map[string]extract.Annotator{
	"typescript": typescript.DescribeTypeScript,
	"javascript": typescript.DescribeJavaScript,
}

func scanner(lang string) func([]byte, bool) (*extract.Result, error) {
	if lang == "typescript" {
		return tsscan.ScanTypeScript
	}
	return tsscan.ScanJavaScript
}

// treeSitter is the tree-sitter path's result for src: what the scanner
// must reproduce.
func treeSitter(t testing.TB, lang string, src []byte) *extract.Result {
	t.Helper()
	return scantest.TreeSitter(t, lang, "t", src, extract.Options{Budget: extract.BudgetFor(len(src)) * 4,
		Describe: describers})
}

// hasSyntaxError reports whether tree-sitter's (masked) tree of src has
// an error.
func hasSyntaxError(t testing.TB, lang string, src []byte) bool {
	t.Helper()
	return scantest.HasSyntaxError(t, lang, src, extract.BudgetFor(len(src))*4)
}

// diff describes the differences between two results.
func diff(want, got *extract.Result) string {
	var b strings.Builder
	if want.Partial != got.Partial {
		fmt.Fprintf(&b, "partial %q vs %q\n", want.Partial, got.Partial)
	}
	if !reflect.DeepEqual(want.Symbols, got.Symbols) {
		fmt.Fprintf(&b, "symbols\n  tree-sitter %+v\n  scanner     %+v\n", want.Symbols, got.Symbols)
	}
	if !reflect.DeepEqual(want.Refs, got.Refs) {
		fmt.Fprintf(&b, "refs\n  tree-sitter %+v\n  scanner     %+v\n", want.Refs, got.Refs)
	}
	if !reflect.DeepEqual(want.Operands, got.Operands) {
		fmt.Fprintf(&b, "descriptors\n  tree-sitter %q\n  scanner     %q\n", want.Operands, got.Operands)
	}
	if !reflect.DeepEqual(want.Imports, got.Imports) {
		fmt.Fprintf(&b, "imports\n  tree-sitter %+v\n  scanner     %+v\n", want.Imports, got.Imports)
	}
	if !reflect.DeepEqual(want.Todos, got.Todos) {
		fmt.Fprintf(&b, "todos\n  tree-sitter %+v\n  scanner     %+v\n", want.Todos, got.Todos)
	}
	return b.String()
}

// tricky is syntax whose records the scanner must get exactly as the
// tree-sitter path does, or decline (fallback).
var tricky = []struct {
	name, lang, src string
	fallback        bool
}{
	{name: "templates", lang: "javascript", src: "const a = `x${b + `y${c(d)}z`}w${{e: f}.e}`\nfoo`t${g}`\nh.i`j`\n"},
	{name: "regex or division", lang: "javascript", src: "let a = b / c / d\nlet e = /[/(]+/g.test(f) ? g : /x\\/y/\nif (h) /re/.exec(i)\nj = k(l) / 2\n"},
	{name: "automatic semicolons", lang: "javascript", src: "let a = 1 // trailing\nlet b // no value\nconst r = /x/g // flags\nreturn\nfunction f() {\n  return\n  g()\n}\nx\n++y\n"},
	{name: "comments and docs", lang: "javascript", src: "// TODO: one\n// Doc of f.\nfunction f() {}\n/** Block doc. */\nclass C {\n  // Doc of m. FIXME(me): later\n  m() {}\n  /* trailing */ n() {}\n}\nx() // HACK here\n"},
	{name: "calls", lang: "javascript", src: "a.b(c)?.()\nd?.e(f)\nnew G.H(i)\nnew J\nk()()\nl[m]()\n(n)(o)\np.q.r(s.t())\nawait (u)\n"},
	{name: "classes", lang: "javascript", src: "export default class A extends B.C {\n  static #p = 1\n  _q = 2\n  static { init() }\n  get r() { return 1 }\n  set r(v) {}\n  static async *s() {}\n  constructor() { super() }\n  'str'() {}\n  [Symbol.iterator]() {}\n  @dec t() {}\n}\nconst D = class E { m() {} }\n"},
	{name: "string-named members", lang: "javascript", src: "class A {\n  'a'() {}\n  static 'b'() {}\n  get 'c'() { return 1 }\n}\n"},
	{name: "declarators", lang: "javascript", src: "const f = () => { if (a && b || c) {} }, g = function () {}, h = 1\nvar i, [j, k] = l, {m, n: o = 2} = p\nlet q = class {}\nfor (let r = 0; r < 2; r++) {}\nfor (const s of t) {}\nfunction u() { const v = 1; const w = async x => x ?? y }\n"},
	{name: "objects", lang: "javascript", src: "const o = {\n  a, b: c, [d]: e, ...f,\n  g() {}, get h() { return 1 }, set h(v) {}, async i() {}, *j() {},\n  'k': 1, 2: 3, constructor() {},\n}\n"},
	{name: "imports and exports", lang: "javascript", src: "import a, { b as c, default as d } from './m'\nimport * as e from \"n\"\nimport 'side'\nexport { f, g as default }\nexport * from './o'\nexport * as h from './p'\nconst i = require('q'), j = require('r' + s)\nimport('t').then(u)\nfunction f() {}\nconst g = 1\n"},
	{name: "complexity", lang: "javascript", src: "function f(a) {\n  switch (a) {\n  case 1: break\n  default: break\n  }\n  try { g() } catch (e) {} finally {}\n  do {} while (a)\n  while (a) {}\n  for (const k in a) {}\n  return a ? 1 : a?.b ?? 2\n}\n"},
	{name: "labels and keywords as names", lang: "javascript", src: "outer: for (;;) { break outer }\na.default = b.new\nconst { of, get, set, async } = c\nlet d = async\nyield_ = 1\n"},
	{name: "hash-bang", lang: "javascript", src: "#!/usr/bin/env node\nconst a = require('b')\n"},
	{name: "JSX", lang: "javascript", src: "const a = <div>{b}</div>\n", fallback: true},
	{name: "carriage returns", lang: "javascript", src: "const a = 1 // one\r\n/* two\r\n */\r\nconst b = `x\r\ny`\r\n"},
	{name: "lone carriage return", lang: "javascript", src: "const a = 1\rconst b = 2\n", fallback: true},
	{name: "let and new as names", lang: "javascript", src: "let\nA\nx = new.target\n"},
	{name: "meta properties that are names", lang: "javascript", src: "y = new.z\nimport.m.A\n", fallback: true},
	{name: "an operator after a module string", lang: "javascript", src: "import {f} from '0'\n+(a)\n", fallback: true},
	{name: "anonymous exported class", lang: "typescript", src: "export class<A>{m(A) {}}\n", fallback: true},
	{name: "patterns of for heads", lang: "javascript", src: "let a\nfor ({a} of b) a.c()\nfor (a in b) a.d()\n"},
	{name: "assignments after binary operators", lang: "javascript", src: "function F() {\n  x % this.b = 0\n  y || ({ c } = z)\n  this.b.d(c)\n}\n"},
	{name: "assignment after a generic call read as comparisons", lang: "typescript", src: "$<E>('x').y = z\n"},

	{name: "types", lang: "typescript", src: "type A<T extends B = C> = { readonly [K in keyof T]?: T[K] } | D.E<F[]> & [g: G, h?: H, ...I[]]\ntype J = (k: K, ...l: L[]) => asserts k is M\ntype N = new () => O\ntype P = `p${Q}` | typeof r.s | keyof typeof t | unique symbol\ntype U<V> = V extends (infer W)[] ? W : never\n"},
	{name: "interfaces and enums", lang: "typescript", src: "export interface A<T> extends B, C<T> {\n  a: string\n  b?(x: number): void\n  readonly c: T;\n  _d: D\n  [key: string]: unknown\n  (call: E): F\n  new (g: G): H\n}\nenum I { J, K = 2, 'L' = 3, 'M' }\nexport const enum N { O = 1 << 2 }\n"},
	{name: "classes", lang: "typescript", src: "abstract class A<T> extends B<T> implements C, D<T> {\n  private x: number = 0\n  protected readonly y?: string\n  declare z: Z\n  @dec() w!: W\n  constructor(private p: P, public q = 1) { super() }\n  abstract m(): void;\n  n(a: string): void;\n  n(a: any) {}\n  @dec o<U>(u: U): U { return u }\n  get v(): V { return this.x }\n  static #s = 1\n}\n"},
	{name: "functions and overloads", lang: "typescript", src: "export function f(a: string): string;\nexport function f(a: number): number;\nexport function f(a: any): any { return a }\ndeclare function g(x: { y: Y }): void\nconst h = <T,>(t: T): T => t\nconst i = async (j: J = 0, k = 'k') => j\nfunction l(this: M, n = true, o = null) {}\n"},
	{name: "generic calls", lang: "typescript", src: "f<T>(a)\nf<T, U>(a)\nf<T>(a, b).c()\nreturn1 = g<H[]>(i)\nnew Map<string, number>()\nj = k as L<M>\nn = <O>p\nq!.r!(s)\nt satisfies U\n"},
	{name: "namespaces and ambient", lang: "typescript", src: "namespace A.B {\n  export const c = 1\n  function d() {}\n}\ndeclare module 'e' {\n  export function f(): void\n}\ndeclare module 'g';\ndeclare global { interface Window { h: H } }\nexport declare const i: I\nimport j = require('k')\nimport l = m.n\nexport = o\nexport as namespace P\n"},
	{name: "automatic semicolons", lang: "typescript", src: "let a = 1 // c\n/** d */\nlet b // c\nlet c = 2 /* c */\ntype A = any // c\n\n/**\n * d\n */\nlet e = 2\n"},
	{name: "import types", lang: "typescript", src: "let b: import('z').U\n", fallback: true},
	{name: "infer constraints and template types", lang: "typescript", src: "type A<T> = T extends (...args: infer P extends readonly unknown[]) => infer R ? [P, R] : never\ntype B<K> = K extends `${infer N extends number}` ? N : `%${keyof C}%`\nconst d: `x${E}` = f\n"},
	{name: "type predicates", lang: "typescript", src: "function f(x: any): x is { a: A } { return true }\ndeclare function g(y: Y): y is {\n  b: B;\n};\n"},
	{name: "anonymous overload", lang: "typescript", src: "export default function (f: F): void;\n"},
	{name: "imports", lang: "typescript", src: "import type { A } from './a'\nimport { type B, C } from './b'\nexport type { D } from './d'\nimport e, * as f from 'f'\nimport g from './g.json' with { type: 'json' }\n"},
	// Descriptors: scopes and bindings, values, facts, exports, links.
	{name: "this fields", lang: "javascript", src: "function F(a) {\n  this.a = a\n  this.b = () => this.a\n  const o = { m() { this.c = 1 } }\n  this.a.x()\n}\nclass C extends D {\n  constructor() { super(); this.d = 1; this.d = 2 }\n  m() { return this.d + super.e() }\n  n = function () { this.f = 1 }\n}\n"},
	{name: "generator expressions", lang: "javascript", src: "export const walk = function* (path) {\n  yield path\n}\nconst g = function* h(x) { this.y = x; return h }\n"},
	{name: "contextual callbacks", lang: "javascript", src: "import { f } from './f'\nf(x => x.a, function (y, z = w) { return y.b })\nnew G((u) => u.c, async v => v.d)\n"},
	{name: "exports", lang: "javascript", src: "export const a = 1, { b, c: [d] } = e, f = (g) => g\nexport function h(i) {}\nexport default class { m(n) {} }\nexport { a as j, k }\nexport * from './l'\nexport * as m from './m'\nlet k = 2\nconst { o } = require('p')\n"},
	{name: "destructuring assignments", lang: "javascript", src: "let a, b\nif (x) {\n  ({ a, b: { c }, d = 1 } = y.z())\n  ;[a, b] = w\n}\nfor (e of f) {}\nfor (const { g } of h) g.i()\n"},
	{name: "doc links", lang: "javascript", src: "import { A } from './a'\n/** See {@link A} and {@linkcode B}, {@linkplain C.d} */\nfunction B() {\n  // {@link x}\n  let x\n}\nclass C {\n  /** {@link B} */\n  m() {}\n}\n"},
	{name: "values", lang: "typescript", src: "import * as ns from './ns'\nimport def, { Named as N } from './m'\nconst a = new ns.K().m()!.n\nconst b = (def || N) ?? a\nconst c = x as unknown as N.T<U>\nconst d = e - f!.g()\nconst h = i + j ?? k!.l\nconst { m, n: o } = await p<Q>(r)\nlet s: Array<T> | undefined = t satisfies V\n"},
	{name: "classes and types", lang: "typescript", src: "export class A<T> extends B.C<T> implements D, E.F<T> {\n  x: G = 1\n  f?: (a: H) => I\n  constructor(private readonly p: P, public q: Q, readonly r: R, override s: S) { super() }\n  m(cb: (e: J, k: K) => void): L { return this.x.y }\n  m(cb?: any): any {}\n  [key: string]: unknown\n}\ninterface M extends N<O> { o: { p: P; q(r: R): S }; t: null | U; [k: number]: V }\ntype W = { w: X } | Y\n"},
	{name: "signatures and overloads", lang: "typescript", src: "export function f(a: A): B;\nexport function f(a: (c: C) => D): E;\nexport function f(a: any): any {}\ndeclare function g(h: (i: I) => void): J\nconst k = (l: L): M => l\nconst n: (o: O) => P = q\nfunction* r(s: S): T {}\nnamespace U { export function f(v: V): W {} }\nf((c) => c.d)\nnew X((y: Y, z) => z)\n"},
	{name: "exports and scopes", lang: "typescript", src: "export default x\nexport { y as z } from './y'\nexport const enum E { A }\nexport namespace N.O { export const p = 1 }\nexport declare function q(r: R): void\nexport type { S } from './s'\nexport abstract class T { abstract u(v: V): W;\n}\nconst x = 1\ntry {} catch (err) { err.message }\nfor (const [a, b] of c) a.d(b)\nlabel: { const e = 1 }\n"},
	{name: "what tree-sitter's readings do to values", lang: "typescript", src: "import { a } from './a'\nlet b = +a.c(1)!.d\nlet e = typeof a!.f\ntype G = (\n  // comment first\n  a\n)\nlet h: /* c */ a = i\nlet j = (/* c */ a).k\ninterface L { readonly 'm': a }\nnamespace N { export import O = a.P; import Q = a.R.S.T; let u: a.V.W.X.Y }\n"},
	{name: "masked heritage and defaults", lang: "typescript", src: "class A extends B<C> { m() {} }\nclass D<E> extends F.G<E[], H> { n(o = true, p = 'x') {} }\nfunction q(r = undefined, s: number = 1) {}\n"},
}

func TestScanMatchesTreeSitter(t *testing.T) {
	for _, tc := range tricky {
		t.Run(tc.lang+"/"+tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			got, err := scanner(tc.lang)(src, true)
			if tc.fallback {
				if err == nil || !tsscan.IsFallback(err) {
					t.Fatalf("want a fallback, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Scan: %v", err)
			}
			if hasSyntaxError(t, tc.lang, src) {
				t.Fatalf("tree-sitter reads the test input with errors")
			}
			if d := diff(treeSitter(t, tc.lang, src), got); d != "" {
				t.Errorf("records differ:\n%s", d)
			}
		})
	}
}

// TestScanFixtures compares the scanner with tree-sitter on index/extract's
// golden fixtures.
func TestScanFixtures(t *testing.T) {
	for _, fx := range []struct{ file, lang string }{{"javascript.txtar", "javascript"}, {"typescript.txtar", "typescript"}} {
		data, err := os.ReadFile("../testdata/" + fx.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(data).Files {
			if !strings.HasSuffix(f.Name, ".js") && !strings.HasSuffix(f.Name, ".ts") {
				continue
			}
			got, err := scanner(fx.lang)(f.Data, true)
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			if d := diff(treeSitter(t, fx.lang, f.Data), got); d != "" {
				t.Errorf("%s: records differ:\n%s", f.Name, d)
			}
		}
	}
}

// TestScanWhereTreeSitterIsWrong pins the records where the scanner is
// right and tree-sitter is not.
func TestScanWhereTreeSitterIsWrong(t *testing.T) {
	// tree-sitter-typescript reads a || !f!(x) as (a || !f)!(x): a call
	// of a. f is the one called.
	src := []byte("if (a || !f!(x)) {}\n")
	calls := func(r *extract.Result) map[string]bool {
		m := map[string]bool{}
		for _, ref := range r.Refs {
			m[ref.Name] = m[ref.Name] || ref.Call
		}
		return m
	}
	got, err := tsscan.ScanTypeScript(src, true)
	if err != nil {
		t.Fatal(err)
	}
	if c := calls(got); !c["f"] || c["a"] {
		t.Errorf("scanner calls %v, want f called and a not", c)
	}
	if c := calls(treeSitter(t, "typescript", src)); !c["a"] || c["f"] {
		t.Errorf("tree-sitter calls %v: no longer a call of a, compare the records again", c)
	}
}

func FuzzScan(f *testing.F) {
	for _, tc := range tricky {
		f.Add(tc.lang == "typescript", []byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, ts bool, src []byte) {
		lang := "javascript"
		if ts {
			lang = "typescript"
		}
		got, err := scanner(lang)(src, true)
		if err != nil {
			if !tsscan.IsFallback(err) {
				t.Fatalf("Scan: %v", err)
			}
			return
		}
		if len(src) > 1<<14 || hasSyntaxError(t, lang, src) {
			return
		}
		want := treeSitter(t, lang, src)
		if want.Partial != "" {
			return
		}
		if d := diff(want, got); d != "" {
			t.Errorf("records differ on %q:\n%s", src, d)
		}
	})
}

// TestScanWithoutDescribe checks that without descriptors the records are
// the tree-sitter path's without describers: no table, no operands.
func TestScanWithoutDescribe(t *testing.T) {
	src := []byte("import { a } from './a'\nconst b = a.c()\n/** {@link b} */\nfunction d(e) { return e.f }\n")
	for _, lang := range []string{"javascript", "typescript"} {
		got, err := scanner(lang)(src, false)
		if err != nil {
			t.Fatal(err)
		}
		want := scantest.TreeSitter(t, lang, "t", src, extract.Options{Budget: extract.BudgetFor(len(src)) * 4})
		if d := diff(want, got); d != "" {
			t.Errorf("%s: records differ:\n%s", lang, d)
		}
		if len(got.Operands) > 0 {
			t.Errorf("%s: descriptors without describe: %q", lang, got.Operands)
		}
	}
}
