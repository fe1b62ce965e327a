package extract

import (
	"context"
	"testing"
)

func TestLooksCpp(t *testing.T) {
	cases := []struct {
		name, src string
		want      bool
	}{
		{"C", "int f(void);\n/* a class of errors */\nstruct s { int m; };\n", false},
		{"one marker", "namespace x {\n}\n", false},
		{"C++", "namespace gmp {\ntemplate <class T>\nclass mpz_class : public base {\npublic:\n};\n}\n", true},
		{"classes", "class A {\n};\nclass B : public A\n{\n};\n", true},
		{"under __cplusplus", "#ifdef __cplusplus\nnamespace std {\ntemplate <class T> T f(T);\n}\n#endif\nint f(void);\n", false},
		{"in the #else of #ifndef __cplusplus", "#ifndef __cplusplus\n#define F 1\n#else\ntemplate <class T> T f(T);\ntemplate <class T> T g(T);\n#endif\n", false},
		{"after a __cplusplus block", "#if defined(__cplusplus) && X != 0\ntemplate <class T> T f(T);\n#endif\nnamespace a {\n}\nnamespace b {\n}\n", true},
		{"in a macro's body", "#define ANNOTATE(x) \\\n  namespace {  \\\n  template <class T> class y_ {}; \\\n  }\nint a;\n", false},
		{"class in prose", "/*\nclass of bugs\nclass: none\n*/\n", false},
	}
	for _, tc := range cases {
		if got := LooksCpp([]byte(tc.src)); got != tc.want {
			t.Errorf("%s: LooksCpp = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCHeaderReadAsCpp checks that the C extractor hands a C++ header
// to the C++ one: its class is a class with a method, not the errors
// tree-sitter-c makes of it.
func TestCHeaderReadAsCpp(t *testing.T) {
	src := []byte("namespace n {\nclass A {\npublic:\n  int f() const { return 1; }\n};\n}\n")
	res, err := For("c").Extract(context.Background(), "a.h", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.Symbols {
		got = append(got, s.Kind.String()+" "+s.Container+"."+s.Name)
	}
	want := []string{"namespace .n", "class n.A", "method n.A.f"}
	if len(got) != len(want) {
		t.Fatalf("symbols %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("symbols %q, want %q", got, want)
		}
	}
}
