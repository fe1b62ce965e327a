package extract

import (
	"context"
	"slices"
	"testing"
)

// TestCMask: on the preprocessor habits of Boost and on a function
// returning a reference to a const class, the C++ extractor still finds
// the class and its members (before the mask: none of them), and reads
// their signatures from the source as written.
func TestCMask(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // names that must be found
		sig       map[string]string
	}{{
		name: "null directive after the include guard",
		src:  "#ifndef G_HPP\n#define G_HPP\n\n#ifndef C_HPP\n#  include <c.hpp>\n#endif\n#\n#if defined(P)\n#  pragma once\n#endif\n\nnamespace a {\nclass buffer\n{\n   public:\n   void clear();\n   int size;\n};\n}\n#endif\n",
		want: []string{"a", "buffer", "clear", "size"},
	}, {
		name: "two heads for one body under a Doxygen macro",
		src: `namespace http {
template<class Fields>
class header<true, Fields> : public Fields
{
public:
    /// Constructor
#if BEAST_DOXYGEN
    template<class... Args>
    explicit
    header(Args&&... args);

#else
    template<class Arg1, class... ArgN>
    explicit
    header(Arg1&& arg1, ArgN&&... argn);

private:
    int version_;
};

template<class Fields>
class header<false, Fields> : public Fields
#endif
{
public:
    unsigned result_int() const;
#if ! defined(BEAST_DOXYGEN)
    void target(string_view s);
#endif
};
}
`,
		want: []string{"header", "version_", "result_int", "target"},
	}, {
		name: "two heads for one body",
		src:  "#if defined(WIN)\nclass socket : public win_handle\n#else\nclass socket : public posix_handle\n#endif\n{\npublic:\n    void close();\n    int fd;\n};\n",
		want: []string{"socket", "close", "fd"},
	}, {
		name: "a reference to a const class returned",
		src:  "class mutex\n{\n   public:\n   const internal_type &internal() const\n   {  return m_mutex;   }\n   const Slice* key(int n);\n   void unlock();\n   private:\n   internal_type m_mutex;\n};\n",
		want: []string{"mutex", "internal", "key", "unlock", "m_mutex"},
		sig:  map[string]string{"internal": "const internal_type &internal() const", "key": "const Slice* key(int n);"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := For("cpp").Extract(context.Background(), "a.hpp", []byte(tt.src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range res.Symbols {
				names = append(names, s.Name)
				if want, ok := tt.sig[s.Name]; ok && s.Signature != want {
					t.Errorf("%s: signature %q, want %q", s.Name, s.Signature, want)
				}
			}
			for _, w := range tt.want {
				if !slices.Contains(names, w) {
					t.Errorf("%s not found; symbols: %v", w, names)
				}
			}
		})
	}
}

// TestCMaskKeeps: what parses is left as it is: conditionals whose
// branches are whole declarations (each branch's symbols are found),
// `const` before a primitive type or a variable, and text in comments
// and strings.
func TestCMaskKeeps(t *testing.T) {
	for _, src := range []string{
		"#ifdef _WIN32\nvoid f() {}\n#else\nvoid g() {}\n#endif\n",
		"const char *name(int i);\nconst T *p = f(x);\nx = (const T*)f(y);\n",
		"// const T &f() in a comment\n/* const T &g() */\ns = \"const T &h()\";\n",
		"#if FOO_DOXYGEN || defined(BAR)\nclass a : public b\n#endif\n",
	} {
		if got := string(cMask([]byte(src))); got != src {
			t.Errorf("cMask(%q)\n= %q, want it unchanged", src, got)
		}
	}
}
