package extract

import (
	"strings"
	"testing"
)

// ScanCpp never panics, and every span it returns is within the file,
// whatever the text (unbalanced braces and conditionals, unterminated
// comments and literals, directives in odd places).
func FuzzScanCpp(f *testing.F) {
	for _, seed := range []string{
		"class A {\n public:\n  int f() const\n  {  return x;  }\n};\n",
		"#if X\nvoid f() {\n#else\nvoid f(int) {\n#endif\n}\n}\n}\n",
		"#define M(a) \\\n  do { \\\n  } while (0)\n",
		"#ifndef A_DOXYGEN\nint a;\n#else\nint b;\n#elif C\n#endif\n#endif\n#else\n",
		"auto f() -> int { /* } */ return '}'; }\nR\"(}\n)\";\n",
		"template <typename T, M(x<y)> struct S : B<decltype(f())> {\n  S() : a(1) {}\n};\n",
		"operator<(a, b) {\n}\n}\n{\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Split(src, "\n")
		sp := ScanCpp(lines)
		for _, list := range [][]LineSpan{sp.Bodies, sp.Macros, sp.Values, sp.DocOnly} {
			for _, r := range list {
				if r.Start < 1 || r.End > len(lines) {
					t.Fatalf("span %v outside lines 1-%d", r, len(lines))
				}
			}
		}
	})
}
