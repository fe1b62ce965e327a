package extract

import (
	"bytes"
	"testing"
)

// TestCSMask: empty collection expressions become empty strings, an
// interpolation ending in a name's element access gets parentheses and a
// slice pattern with more after it a discard, byte for byte; array types, list patterns, comments, strings and other
// brackets are kept.
func TestCSMask(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"List<int> a = [];", `List<int> a = "";`},
		{"return [ ];", `return " ";`},
		{"F([], x => [], c ? [] : [1], items: []);", `F("", x => "", c ? "" : [1], items: "");`},
		{"int[] a; T?[] b; new int[] { }; new[] { 1 }; List<T>[] c;", "int[] a; T?[] b; new int[] { }; new[] { 1 }; List<T>[] c;"},
		{"if (a is []) {}", "if (a is []) {}"},
		{`var s = "= []"; // = []` + "\n/* = [] */ char c = '['; x = [];", `var s = "= []"; // = []` + "\n/* = [] */ char c = '['; x = \"\";"},
		{`$"first: {items[0]}"`, `$"first: {items(0)}"`},
		{`$"{a.b[i]} {c?[j]} {d[i].E} {f()[0]} {g[0]:F2}"`, `$"{a.b(i)} {c (j)} {d[i].E} {f()[0]} {g[0]:F2}"`},
		{`$@"{{x[0]}} {y[1]}"`, `$@"{{x[0]}} {y(1)}"`},
		{"$$\"\"\"\n{{z[0]}} {w[0]}\n\"\"\"", "$$\"\"\"\n{{z(0)}} {w[0]}\n\"\"\""},
		{`$"{(a ? b[0] : c[1])}" + $"{F($"{n[2]}")}"`, `$"{(a ? b[0] : c[1])}" + $"{F($"{n(2)}")}"`},
		{"#region Don't\nx = [];\n#endregion", "#region Don't\nx = \"\";\n#endregion"},
		{`@"C:\{x[0]}" + "\"[]"`, `@"C:\{x[0]}" + "\"[]"`},
		{`$"unterminated {a[0]`, `$"unterminated {a[0]`},
		{"a is [1, .. var rest] or [.., var last] or [var f, ..]", "a is [1, _, var rest] or [_ , var last] or [var f, ..]"},
		{"xs[1.., 2]; ys = [..a, .. b]; zs[..^1]; [.. var ", "xs[1.., 2]; ys = [..a, .. b]; zs[..^1]; [.. var "},
	} {
		if got := string(csMask([]byte(c.in))); got != c.want {
			t.Errorf("csMask(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// FuzzCSMask: masking keeps the length and changes only brackets, the
// `?` of a null-conditional access and a slice's dots.
func FuzzCSMask(f *testing.F) {
	for _, s := range []string{"x = [];", "[.. var ", "[1, .. var r]", `$"{a[0]}"`, `$$"""{{a[0]}}"""`, `@$"{a?[0]}"`, "'", `"`, "$", "{"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out := csMask(src)
		if len(out) != len(src) {
			t.Fatalf("length %d, want %d", len(out), len(src))
		}
		for i := range src {
			if out[i] != src[i] && !bytes.ContainsRune([]byte("[]?."), rune(src[i])) {
				t.Fatalf("byte %d %q became %q", i, src[i], out[i])
			}
		}
	})
}
