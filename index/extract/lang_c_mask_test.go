package extract

import (
	"context"
	"slices"
	"strings"
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
	}, {
		name: "a pointer returned after a specifier",
		src:  "class env\n{\n   public:\n   virtual Status* open(const char *name);\n   static Node *make(int n);\n   void close();\n};\n",
		want: []string{"env", "open", "make", "close"},
	}, {
		name: "pure virtual functions returning a class",
		src:  "class Env {\n public:\n  virtual ~Env();\n  virtual Status NewFile(const std::string& fname) = 0;\n  virtual Status Rename(const std::string& from,\n                        const std::string& to) = 0;\n  virtual uint64_t NowMicros() = 0;\n};\n",
		want: []string{"Env", "NewFile", "Rename", "NowMicros"},
		sig:  map[string]string{"NewFile": "virtual Status NewFile(const std::string& fname) = 0;"},
	}, {
		name: "an export macro before the class's name",
		src:  "namespace leveldb {\nclass LEVELDB_EXPORT Env {\n public:\n  Env();\n  static Env* Default();\n};\n}\n",
		want: []string{"Env", "Default"},
	}, {
		name: "attribute macros before and after a declaration",
		src:  "class buffer {\n public:\n  FMT_API void flush();\n  BOOST_INTERPROCESS_FORCEINLINE buffer(int n) BOOST_NOEXCEPT\n    : n_(n)\n  {}\n  const_pointer data() const ABSL_ATTRIBUTE_LIFETIME_BOUND {\n    return data_;\n  }\n  void clear() LOCKS_EXCLUDED(mu_);\n private:\n  BOOST_COPYABLE_AND_MOVABLE(buffer)\n  int n_ GUARDED_BY(mu_);\n  std::mutex mu_;\n};\n",
		want: []string{"buffer", "flush", "data", "clear", "n_", "mu_"},
		sig:  map[string]string{"data": "const_pointer data() const ABSL_ATTRIBUTE_LIFETIME_BOUND"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if m := cppMask([]byte(tt.src)); len(m) != len(tt.src) || strings.Count(string(m), "\n") != strings.Count(tt.src, "\n") {
				t.Fatalf("cppMask changed the offsets: %q", m)
			}
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
		"#define MAX_SIZE(x) ((x) * CHAR_BIT)\nint a = sizeof(T) * CHAR_BIT;\nULONG_PTR handle;\nif (x) RETURN_IF_ERROR(y);\nint b = 0;\n",
		"// BOOST_NOEXCEPT in a comment\ns = \"f() ABSL_MUST_USE_RESULT\";\n",
	} {
		if got := string(cppMask([]byte(src))); got != src {
			t.Errorf("cMask(%q)\n= %q, want it unchanged", src, got)
		}
	}
}
