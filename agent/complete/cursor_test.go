package complete

import "testing"

func TestInCommentOrString(t *testing.T) {
	for _, tc := range []struct {
		lang, prefix string
		want         bool
	}{
		{"go", "x := 1 // note", true},
		{"go", "x := 1 // note\ny := ", false},
		{"go", "/* open", true},
		{"go", "/* closed */ x", false},
		{"go", `s := "abc`, true},
		{"go", `s := "a\"bc`, true},
		{"go", `s := "abc" + `, false},
		{"go", "s := `multi\nline", true},
		{"go", "r := '(' ; f(", false},
		{"python", "x = 1  # c", true},
		{"python", `"""doc` + "\nstill", true},
		{"python", `"""doc"""` + "\nx = ", false},
		{"python", "s = 'it", true},
		{"typescript", "const s = `${a}", true},
		{"rust", "fn f<'a>(x: &'a str) -> ", false},
		{"lua", "--[[ block", true},
		{"lua", "x = 1 -- c", true},
		{"go", "", false},
	} {
		if got := inCommentOrString(tc.lang, tc.prefix); got != tc.want {
			t.Errorf("%s %q: got %v, want %v", tc.lang, tc.prefix, got, tc.want)
		}
	}
}

func TestWantsMultiline(t *testing.T) {
	for _, tc := range []struct {
		lang, prefix, suffix string
		want                 bool
	}{
		{"go", "func f() {\n\t", "\n}\n", true},
		{"go", "func f() {", "\n}\n", true},
		{"go", "func f() {\n\tx := ", "\n}\n", false},
		{"go", "func f() {\n\ta()\n\t", "\n\tb()\n}\n", false},
		{"go", "func f() {\n\t", "x\n}\n", false},
		{"python", "def f():\n    ", "\n\ndef g():\n", true},
		{"python", "def f():\n    ", "\n    return 1\n", false},
		{"python", "x = ", "\n", false},
		{"typescript", "items.map((x) =>", "\n", true},
	} {
		if got := wantsMultiline(tc.lang, tc.prefix, tc.suffix); got != tc.want {
			t.Errorf("%s %q|%q: got %v, want %v", tc.lang, tc.prefix, tc.suffix, got, tc.want)
		}
	}
}

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		name, lang, raw, prefix, suffix string
		multi                           bool
		want                            string
	}{
		{"single line cut", "go", "Close()\n\treturn nil", "s.", "\n", false, "Close()"},
		{"suffix closer repeated", "go", "a, b)", "f(", ")\n", false, "a, b"},
		{"rest of line repeated", "go", "x + 1 // sum", "y := ", " // sum\n", false, "x + 1"},
		{"own brackets kept", "go", "g(x))", "f(", ")\n", false, "g(x)"},
		{"closer with no suffix kept", "go", "x)", "f(", "\n", false, "x)"},
		{"block end cut", "go", "return 1\n}\n\nfunc g() {}", "func f() int {\n\t", "\n}\n", true, "return 1"},
		{"nested block kept", "go", "if x {\n\t\treturn 1\n\t}\n\treturn 2\n}", "func f() int {\n\t", "\n}\n", true, "if x {\n\t\treturn 1\n\t}\n\treturn 2"},
		{"python dedent cut", "python", "return 1\n\ndef g():\n    pass", "def f():\n    ", "\n", true, "return 1"},
		{"python column 0", "python", "    return 1\ndef g():", "def f():\n", "\n", true, "    return 1"},
		{"blank", "go", "  \n ", "x", "", false, ""},
		{"crlf", "go", "a()\r\nb()", "", "", true, "a()\nb()"},
	} {
		if got := Clean(tc.lang, tc.raw, tc.prefix, tc.suffix, tc.multi); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
