package tools

import "testing"

// A ".h" file written in C++ is outlined as C++: the C grammar reads a
// class as one long function and the outline would elide its members.
func TestOutlineLanguage(t *testing.T) {
	tests := []struct{ path, src, want string }{
		{"a.h", "namespace absl {\nclass FixedArray {\n};\n}\n", "cpp"},
		{"a.h", "template <typename T>\nT max(T a, T b);\n", "cpp"},
		{"a.h", "#include <stdio.h>\nint add(int a, int b);\n", "c"},
		{"a.c", "/* the class of a token */\nint add(int a, int b);\n", "c"},
		{"a.hpp", "int add(int a, int b);\n", "cpp"},
		{"a.go", "package a\n", "go"},
	}
	for _, tt := range tests {
		if got := outlineLanguage(tt.path, []byte(tt.src)); got != tt.want {
			t.Errorf("outlineLanguage(%s, %q) = %q, want %q", tt.path, tt.src, got, tt.want)
		}
	}
}

// A tree-sitter parse whose retries were cut after a complete first pass
// still gets an outline (C# and Kotlin files of a few hundred lines often
// end so on a loaded machine), and so does one cut by its budget or its
// iteration limit (the rest of the file is outlined by its text); a
// cancelled one does not.
func TestOutlineUsable(t *testing.T) {
	tests := []struct {
		partial string
		want    bool
	}{
		{"", true},
		{"parse retries stopped after 308ms (first pass complete)", true},
		{"parse budget exceeded after 250ms", true},
		{"parse stopped early: iteration limit", true},
		{"parse cancelled", false},
	}
	for _, tt := range tests {
		if got := outlineUsable(tt.partial); got != tt.want {
			t.Errorf("outlineUsable(%q) = %v, want %v", tt.partial, got, tt.want)
		}
	}
}
