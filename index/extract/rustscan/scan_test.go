package rustscan_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	ts "github.com/odvcencio/gotreesitter"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/scantest"
	"github.com/parleyhq/parley/index/extract/rustscan"
)

// treeSitter is the tree-sitter path's result for src, with the given
// parse budget: what the scanner must reproduce.
func treeSitter(t testing.TB, src []byte, budget time.Duration) *extract.Result {
	t.Helper()
	return scantest.TreeSitter(t, "rust", "t.rs", src, extract.Options{Budget: budget})
}

// hasSyntaxError reports whether tree-sitter's tree of src has an error
// or a node its error recovery inserted (MISSING), which HasError does
// not count.
func hasSyntaxError(t testing.TB, src []byte) bool {
	t.Helper()
	return syntaxErrorWithin(t, src, extract.BudgetFor(len(src))*4)
}

// syntaxErrorWithin is hasSyntaxError with the parse budget given: a
// parse cut by its budget on a loaded machine shows no error.
func syntaxErrorWithin(t testing.TB, src []byte, budget time.Duration) bool {
	t.Helper()
	tree, err := extract.ParseTree(context.Background(), "rust", src, budget)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	defer tree.Release()
	if tree.Root().HasError() {
		return true
	}
	stack := []*ts.Node{tree.Root()}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.IsMissing() {
			return true
		}
		for i := 0; i < n.ChildCount(); i++ {
			if c := n.Child(i); c != nil {
				stack = append(stack, c)
			}
		}
	}
	return false
}

// tricky is Rust syntax whose records the scanner must get exactly as the
// tree-sitter path does, or decline (fallback).
var tricky = []struct {
	name, src string
	fallback  bool
}{
	{name: "items", src: "/// Doc of S.\n#[derive(Debug)]\npub struct S<'a, T: Copy + ?Sized> where T: Default { pub a: u8, b: &'a T }\npub(crate) struct Unit;\nstruct Tuple(pub u8, String);\nunion U { a: u32, b: f32 }\nenum E { #[default] A = 1, pub B { x: u8 }, C(u8), }\npub trait Tr: Sized { type Item: Copy; const N: usize; fn m(&self) -> u8; fn d() {} }\ntype Alias<T> = Vec<T>;\nconst _: () = ();\nstatic mut Z: u8 = 0;\npub mod m { pub fn q() {} fn r() {} }\nmod file;\nextern \"C\" { fn ext(x: i32, ...); static Y: u8; }\nextern crate alloc as a;\nextern crate self as me;\n"},
	{name: "impl blocks", src: "impl<T> Trait for Foo<T> { type X = u8; fn h(&self) {} const K: u8 = 1; }\nimpl Foo { pub fn new() -> Self { Self {} } fn private(&mut self) {} }\nimpl<'a> fmt::Display for &'a mod_a::Bar<'a> { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) } }\nimpl dyn Any + Send { fn is(&self) -> bool { true } }\nimpl<T> [T] { fn first(&self) {} }\nunsafe impl Send for *const Raw {}\nimpl !Sync for Q {}\nimpl<'a> Display for Expected + 'a { fn fmt(&self) {} }\n"},
	{name: "use trees", src: "use a::b;\nuse a::{b::{c, d}, e as f, self};\nuse ::x::y::*;\nuse {p, q};\nuse crate::r as _;\npub use super::s::t;\nuse self::default::{x};\nfn f() { use std::io::Write; }\n"},
	{name: "attributes and docs", src: "#![allow(dead_code)]\n//! Crate doc.\n\n/// One.\n\n\n/// Two.\n#[cfg(feature = \"x\")]\n#[doc = include_str!(\"x.md\")]\nfn f() {}\n//// Four slashes.\nfn g() {}\n/** Block doc. */\nfn h() {}\n/* plain */ fn i() {} // TODO: later\n/* outer /* nested */ still */\nfn j() {}\n"},
	{name: "generics and where", src: "fn f<'a, 'b: 'a, T: Into<String> + 'a, const N: usize>(x: &'a [T; N]) -> impl Iterator<Item = &'a T> + 'b where T: Clone, for<'c> &'c T: Debug, Vec<T>: Sized, { x.iter() }\nstruct W<T = u8, F = fn() -> T>(T, F);\ntype B = Box<dyn Fn(u8) -> u8 + Send + 'static>;\nfn g(_: u8, f: fn(_) -> _) {}\n"},
	{name: "lifetimes and chars", src: "fn f<'a>(s: &'a str) -> char { let c = 'a'; let d = '\\n'; let e = '\\''; let u = '\\u{1F600}'; let b = b'x'; 'outer: loop { break 'outer; } c }\n"},
	{name: "strings", src: "fn f() { let a = r#\"raw \" quote\"#; let b = br##\"bytes \"# \"##; let c = b\"x\\\"y\"; let d = \"multi\nline\\\n cont\"; let e = c\"cstr\"; g(a, b, c, d, e); }\n"},
	{name: "expressions", src: "fn f(v: Vec<u8>) -> u8 { let x = u8::MAX as u16; let y = <u8 as Default>::default(); let z = Vec::<u8>::new(); v.iter().map(|x| x + 1).filter(|&x| x > 2).count(); a.0.b(); (a.b)(c); x?.y(); f(x)(y); x.f(a)(b); let s = S { a, b: 1, ..Default::default() }; let r = 1..=2; let t = ..; [0; 4][1]; -x; !y; *z; &mut w; x += 1; _ = 3; async move { x.await }; unsafe { g() }; 0 }\n"},
	{name: "control flow", src: "fn f(x: Option<u8>) -> u8 { if a && b || c { 1 } else if let Some(y) = x { y } else { 2 }; while i < 3 { i += 1 } while let Some(z) = it.next() {} for (i, v) in xs.iter().enumerate() { continue; } match x { Some(1 | 2) => 1, Some(n) if n > 3 => n, None => { 0 } _ => unreachable!() } loop { break 5 } }\n"},
	{name: "let chains", src: "fn f() { if a && b && let Some(x) = y && c { } }\n"},
	{name: "patterns", src: "fn f(S { a, b: ref mut c, .. }: S, (p, q): (u8, u8), [h, rest @ ..]: [u8; 3], &x: &u8) { let T(m, _) = t; let 1..=9 = n else { return }; match v { Path::A { x: 0, .. } | Path::B(..) => {} E::C => {} 'a'..='z' => {} -1 => {} x @ 1.. => {} _ => {} } }\n"},
	{name: "closures", src: "fn f() { let a = || 1; let b = move |x: u8| -> u8 { x }; let c = |x, y| x + y; let d = async move |x| x; h(|_| {}); }\n"},
	{name: "macros", src: "macro_rules! m { ($x:expr, $($y:ident),*) => { $x + u8 + 'a' + 'b + self + union + default + fn + r#type + $crate::f() }; (@inner $($t:tt)*) => {}; }\nmacro_rules! n ( () => { }; );\nfn f() { println!(\"{}\", self.a); vec![1, 2]; m! { else in move dyn try 'static '_ default: default::x union::y $z }; a::b!(x); }\ncfg_if::cfg_if! { if #[cfg(x)] { macro_rules! k { ($a:expr) => { $a } } } }\ntype T = Token![=];\n"},
	{name: "macro repetition separators", src: "macro_rules! c { ($($i:ident) else * $(,)? ) => { $($i)else* }; }\n"},
	{name: "labels and blocks", src: "fn f() { 'a: { break 'a; } let v = 'b: loop { break 'b 1; }; const { 1 }; }\n"},
	{name: "raw identifiers", src: "fn r#type(r#fn: u8) -> u8 { r#fn }\nstruct r#struct { r#in: u8 }\n"},
	{name: "nested functions and complexity", src: "fn outer(x: u8) -> u8 { fn inner(y: u8) -> u8 { if y > 0 { 1 } else { 0 } } struct L { f: u8 } impl L { fn m(&self) -> bool { self.f > 0 && true } } match x { 0 => inner(x), _ => x } }\n"},
	{name: "todos", src: "// TODO: one\n/* FIXME(me): two\n   XXX three */\n/// HACK four\nfn f() {}\n"},
	{name: "crlf", src: "/// Doc.\r\nfn f() {\r\n    // TODO: x\r\n    g();\r\n}\r\n"},
	{name: "modifiers and visibility", src: "pub(in crate::a) fn f() {}\npub(super) const fn g() {}\nasync unsafe fn h() {}\npub unsafe extern \"C\" fn i(cb: extern \"C\" fn(u8) -> u8) {}\nimpl X { pub(crate) async fn j(&'a mut self, v: Vec<Vec<u8>>) -> Option<Box<dyn Fn() -> Vec<u8>>> { None } }\n"},
	{name: "statement attributes", src: "fn f() {\n    #![allow(unused)]\n    #[cfg(x)]\n    let a = 1;\n    #[rustfmt::skip]\n    g(a);\n    let v = [#[cfg(y)] 1, 2];\n    match a { #[cfg(z)] 1 => {} _ => {} }\n}\n"},
	{name: "macro patterns", src: "fn f() { let m![x] = y; match z { n!() => {} _ => {} } }\n"},
	{name: "use a::self", src: "use a::self;\nuse b::{self as c};\nuse super::super::d;\nfn f() { super::super::g(); }\n"},
	{name: "try as a path", src: "fn f() { try::g(); }\n", fallback: true},
	{name: "number with an unknown suffix", src: "fn f() { let x = 1u256; }\n", fallback: true},
	{name: "syntax error", src: "fn f( {\n", fallback: true},
	{name: "unterminated string", src: "fn f() { \"x }\n", fallback: true},
}

func TestScanMatchesTreeSitter(t *testing.T) {
	for _, tc := range tricky {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			got, err := rustscan.Scan(src, false)
			if tc.fallback {
				if err == nil {
					t.Fatalf("Scan accepted %q; want a fallback", tc.src)
				}
				return
			}
			if err != nil {
				t.Fatalf("Scan: %v", err)
			}
			if hasSyntaxError(t, src) {
				t.Fatalf("tree-sitter finds a syntax error in the case itself")
			}
			if d := scantest.Diff(treeSitter(t, src, time.Minute), got); d != "" {
				t.Errorf("records differ from the tree-sitter path's:\n%s", d)
			}
		})
	}
}

// TestScanFixtures compares the scanner with tree-sitter on
// index/extract's golden fixture for Rust.
func TestScanFixtures(t *testing.T) {
	data, err := os.ReadFile("../testdata/rust.txtar")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range txtar.Parse(data).Files {
		if !strings.HasSuffix(f.Name, ".rs") {
			continue
		}
		n++
		got, err := rustscan.Scan(f.Data, false)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if d := scantest.Diff(treeSitter(t, f.Data, time.Minute), got); d != "" {
			t.Errorf("%s: records differ:\n%s", f.Name, d)
		}
	}
	if n == 0 {
		t.Fatal("no .rs file in rust.txtar")
	}
}

// refOf returns the reference to name on line, or nil.
func refOf(res *extract.Result, name string, line uint32) *extract.Ref {
	for i := range res.Refs {
		if r := &res.Refs[i]; r.Name == name && r.Pos.Line == line {
			return r
		}
	}
	return nil
}

// TestScanWhereTreeSitterIsWrong pins valid Rust (rustc compiles it; the
// corpus's crates use it) that tree-sitter-rust under gotreesitter reads
// with a syntax error and wrong records, where the scanner reads it
// right: attributes on the fields of a struct pattern (proc-macro2's
// fallback.rs), and the 2015 edition's try!(x) macro (serde), which
// tree-sitter reads as a try keyword before a parenthesized expression,
// dropping the macro's name and call and marking calls inside its
// arguments as no other macro's are. The scanner's records differ from
// the tree-sitter path's there on purpose. (syn's Token![~] and quickcheck's |e| ..=e are read
// with an error too, but their records come out right.)
func TestScanWhereTreeSitterIsWrong(t *testing.T) {
	cases := []struct{ src, called string }{
		{"fn f(t: T) { match t { S { #[cfg(x)] a: b, .. } => h(b), _ => {} } }\n", "h"},
		{"fn f() -> Result<(), E> { let v = try!(g(x)); Ok(v) }\n", "try"},
	}
	for _, tc := range cases {
		src := []byte(tc.src)
		got, err := rustscan.Scan(src, false)
		if err != nil {
			t.Fatalf("Scan(%q): %v", tc.src, err)
		}
		if r := refOf(got, tc.called, 0); r == nil || !r.Call {
			t.Errorf("scanner: no call of %s in %q: %+v", tc.called, tc.src, got.Refs)
		}
		if !hasSyntaxError(t, src) {
			t.Errorf("tree-sitter now parses %q without an error: compare the paths again", tc.src)
		}
		if scantest.Diff(treeSitter(t, src, time.Minute), got) == "" {
			t.Errorf("tree-sitter's records of %q now equal the scanner's: drop the case", tc.src)
		}
	}
}

// fallbackRS is proc-macro2's fallback.rs from Debian's
// librust-proc-macro2-dev: the bench corpus's file that the tree-sitter
// path stores partial, cut where its parse budget runs out, at a point
// that moves between runs.
const fallbackRS = "/usr/share/cargo/registry/proc-macro2-1.0.47/src/fallback.rs"

// TestWholeWhereTreeSitterCuts checks that the scanner reads
// fallback.rs whole and right where the tree-sitter path cannot, even
// given an unlimited budget: its tree has a syntax error at the
// attributes of a struct pattern's fields (line 77, see
// TestScanWhereTreeSitterIsWrong), gotreesitter spends the budget
// reparsing around it, and even the reparses' best tree, 4 s later here,
// loses the fmt method of impl Display for TokenStream (line 204).
func TestWholeWhereTreeSitterCuts(t *testing.T) {
	src, err := os.ReadFile(fallbackRS)
	if err != nil {
		t.Fatalf("the bench corpus's file (Debian's librust-proc-macro2-dev): %v", err)
	}
	got, err := rustscan.Scan(src, false)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	if got.Partial != "" {
		t.Fatalf("scanner result is partial: %s", got.Partial)
	}
	has := func(res *extract.Result, name, container string, line uint32) bool {
		for _, s := range res.Symbols {
			if s.Name == name && s.Container == container && s.Selection.Start.Line == line {
				return true
			}
		}
		return false
	}
	if !has(got, "push_negative_literal", "push_token_from_proc_macro", 101) || !has(got, "fmt", "TokenStream", 203) {
		t.Errorf("scanner misses push_negative_literal (line 102) or TokenStream's fmt (line 204)")
	}
	extract.LiftReparseCut()
	if !syntaxErrorWithin(t, src, 10*time.Minute) {
		t.Errorf("tree-sitter now parses %s without an error: compare the paths again", fallbackRS)
	}
	whole := treeSitter(t, src, 10*time.Minute)
	if has(whole, "fmt", "TokenStream", 203) {
		t.Errorf("tree-sitter now reads %s (partial %q): compare the paths again", fallbackRS, whole.Partial)
	}
}

// FuzzScan checks the scanner against the tree-sitter path on mutations
// of the tricky cases: whenever the scanner accepts an input that
// tree-sitter parses without an error, their records must be equal.
//
//	go test ./index/extract/rustscan -run '^$' -fuzz FuzzScan -fuzztime 60s
func FuzzScan(f *testing.F) {
	for _, tc := range tricky {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		got, err := rustscan.Scan(src, false)
		var fb interface{ Error() string }
		if err != nil {
			if !errors.As(err, &fb) {
				t.Fatalf("Scan: unexpected error type %T", err)
			}
			return
		}
		if hasSyntaxError(t, src) {
			return
		}
		if d := scantest.Diff(treeSitter(t, src, time.Minute), got); d != "" {
			t.Errorf("records differ on %q:\n%s", src, d)
		}
	})
}
