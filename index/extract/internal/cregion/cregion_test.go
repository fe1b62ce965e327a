package cregion

import (
	"testing"

	"github.com/parleyhq/parley/index/extract/internal/clex"
)

// TestEnd checks the extent End gives the item at the first token:
// through is the source up to its last token.
// TestBadDirective checks that the lexer makes a directive it does not
// read one Bad token, with its name, and lexes on after it.
func TestBadDirective(t *testing.T) {
	src := "#include MACRO(x) /* a\n b */\nint a; /* TODO c */\n"
	toks, comments, err := clex.Lex([]byte(src), clex.C)
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) != 4 || toks[0].Kind != clex.Bad || toks[0].Dir != "include" || src[toks[0].Start:toks[0].End] != "#include MACRO(x) /* a\n b */" {
		t.Fatalf("tokens %+v", toks)
	}
	if a := toks[2]; src[a.Start:a.End] != "a" || a.Line != 2 || len(comments) != 1 || comments[0].Line != 2 {
		t.Errorf("after the directive: token %+v, comments %+v", a, comments)
	}
}

func TestEnd(t *testing.T) {
	keywords := map[string]bool{"int": true, "char": true, "void": true, "struct": true, "return": true, "class": true}
	cases := []struct {
		name, src, through string
		lang               Lang
		ok                 bool
	}{
		{"declaration", "int a = f(1, (2));\nint b;\n", "int a = f(1, (2));", C, true},
		{"function", "void f(void) { if (x) { y; } }\nint b;\n", "void f(void) { if (x) { y; } }", C, true},
		{"initializer", "int a[] = { 1, 2 };\nint b;\n", "int a[] = { 1, 2 };", C, true},
		{"struct and declarator", "struct s { int m; }\n  v;\nint b;\n", "struct s { int m; }\n  v;", C, true},
		{"old-style definition", "int f(a, b) int a; char *b; { return a; }\nint c;\n", "int f(a, b) int a; char *b; { return a; }", C, true},
		{"macro type", "F(x) y;\nint c;\n", "F(x) y;", C, true},
		{"run of macro calls", "M(int, f, (int (*cb)(int)))\nM(int, g, (void))\n", "M(int, f, (int (*cb)(int)))", C, true},
		{"conditional inside", "int f(int a\n#ifdef X\n, int b\n#endif\n);\nint c;\n", "int f(int a\n#ifdef X\n, int b\n#endif\n);", C, true},
		{"before an #endif", "A(x)\n#endif\n", "A(x)", C, true},
		{"before a linkage's close", "A(x)\n#ifdef __cplusplus\n}\n#endif\n", "A(x)", C, true},
		{"a directive's group", "#if A\nint a;\n#if B\nint b;\n#endif\n#endif\nint c;\n", "#if A\nint a;\n#if B\nint b;\n#endif\n#endif\n", C, true},
		{"unbalanced", "int f(", "", C, false},
		{"a stray bracket in a branch", "int f(void) {\n#if A\n  g(a), b);\n#else\n  g(a, b);\n#endif\n}\nint c;\n", "int f(void) {\n#if A\n  g(a), b);\n#else\n  g(a, b);\n#endif\n}", C, true},
		{"a bracket opened in each branch", "int f(void) {\n#if A\n  g(a,\n#else\n  h(a,\n#endif\n  b);\n}\nint c;\n", "int f(void) {\n#if A\n  g(a,\n#else\n  h(a,\n#endif\n  b);\n}", C, true},
		{"a Bad directive's group", "#if A /* c */ && B\nint a;\n#endif\nint b;\n", "#if A /* c */ && B\nint a;\n#endif\n", C, true},
		{"a Bad directive alone", "#include MACRO(x) \\\n  y\nint b;\n", "#include MACRO(x) \\\n  y", C, true},
		{"a Bad directive in an item", "int f(void) {\n#if A /* c */ && B\n  g();\n#endif\n}\nint b;\n", "int f(void) {\n#if A /* c */ && B\n  g();\n#endif\n}", C, true},
		{"C++ class", "class c { void f() {} }; int b;\n", "class c { void f() {} };", CPP, true},
		{"C++ class and declarator", "struct s { } v, *w; int b;\n", "struct s { } v, *w;", CPP, true},
		{"C++ function", "void f() { g(); }\nint b;\n", "void f() { g(); }", CPP, true},
		{"C++ member before the class's close", "  void f() { g(); } }\n", "  void f() { g(); }", CPP, true},
		{"C++ lambda", "auto f = [](int x) { return x; };\nint b;\n", "auto f = [](int x) { return x; };", CPP, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			toks, _, err := clex.Lex([]byte(tc.src), clex.C)
			if err != nil {
				t.Fatal(err)
			}
			x := &Toks{Src: []byte(tc.src), Toks: toks, Keyword: func(w string) bool { return keywords[w] }}
			last, ok := x.End(0, tc.lang)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if got := tc.src[toks[0].Start:toks[last].End]; got != tc.through[toks[0].Start:] {
				t.Errorf("item %q, want %q", got, tc.through)
			}
		})
	}
}

// TestSpanStart checks that a span takes the comments that may document
// its item and leaves the others to the scanner.
func TestSpanStart(t *testing.T) {
	cases := []struct{ src, want string }{
		{"int a;\n/* license */\n\n/* doc */\nint f(void);\n", "/* doc */\nint f(void);\n"},
		{"int a; // trailing\n// one\n// two\nint f(void);\n", "// trailing\n// one\n// two\nint f(void);\n"},
		{"int a;\n\nint f(void);\n", "int f(void);\n"},
		{"int a; /* c */ int f(void);\n", "/* c */ int f(void);\n"},
	}
	for _, tc := range cases {
		toks, comments, err := clex.Lex([]byte(tc.src), clex.C)
		if err != nil {
			t.Fatal(err)
		}
		first := 3 // int a ; | int
		start := SpanStart(toks[first-1].End, toks[first], comments)
		if got := tc.src[start:]; got != tc.want {
			t.Errorf("%q: span from %q, want %q", tc.src, got, tc.want)
		}
	}
}
