package extract

import (
	"context"
	"slices"
	"testing"
)

// TestTSMaskHeritage: the type arguments of a class's extends clause become
// call parentheses, byte for byte; type parameters' constraints, other
// angle brackets and type arguments too intricate for a call are kept.
func TestTSMaskHeritage(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"class B extends S<T> { m() {} }", "class B extends S(T) { m() {} }"},
		{"export class B<T extends X<Y>> extends ns.S<Map<K, T[]>> {", "export class B<T extends X<Y>> extends ns.S(Map(K, T  )) {"},
		{"class B extends S {} const x = a < b && c > d;", "class B extends S {} const x = a < b && c > d;"},
		{"function f<T extends S<U>>() {}", "function f<T extends S<U>>() {}"},
		{"class B extends S<() => void> {}", "class B extends S<() => void> {}"},
		{"subclass B extends S<T> {", "subclass B extends S<T> {"},
		{"class B extends S<T", "class B extends S<T"},
		{"class B implements I<T> {}", "class B implements I<T> {}"},
	} {
		if got := string(tsMaskHeritage([]byte(c.in))); got != c.want {
			t.Errorf("tsMaskHeritage(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTSMaskDefaults: literal defaults of unannotated parameters become
// identifiers, byte for byte; annotated ones, other defaults, comparisons
// and assignments elsewhere are kept.
func TestTSMaskDefaults(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"function f(a = 0, b: S = 1, c = 'x y', d = -1.5) {}", "function f(a = _, b: S = 1, c = _____, d = ____) {}"},
		{"m(y = false): void {}", "m(y = _____): void {}"},
		{"const f = (\n  x = null\n) => x;", "const f = (\n  x = ____\n) => x;"},
		{"f(a = b, c = [])", "f(a = b, c = [])"},
		{"for (i = 0; i < n; i++) {}", "for (i = 0; i < n; i++) {}"},
		{"if (a == 1 || b >= 2, c === 3) {}", "if (a == 1 || b >= 2, c === 3) {}"},
		{"(x = 'unterminated", "(x = 'unterminated"},
		{"(x = -)", "(x = -)"},
	} {
		if got := string(tsMaskDefaults([]byte(c.in))); got != c.want {
			t.Errorf("tsMaskDefaults(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTSMaskedExtract: a class extending a generic and a function with a
// literal default parse cleanly, so their symbols and references are
// extracted, and names and signatures still come from the original
// source.
func TestTSMaskedExtract(t *testing.T) {
	src := "export class B<T> extends S<T> {\n  m(): T { return this.x; }\n}\n" +
		"export function tick(period = 0, s: S): number {\n  return helper(period);\n}\n"
	res, err := For("typescript").Extract(context.Background(), "a.ts", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Partial != "" {
		t.Errorf("partial: %s", res.Partial)
	}
	var syms []string
	for _, s := range res.Symbols {
		syms = append(syms, s.Container+"."+s.Name+" "+s.Signature)
	}
	want := []string{".B export class B<T> extends S<T>", "B.m m(): T { return this.x; }",
		".tick export function tick(period = 0, s: S): number"}
	if !slices.Equal(syms, want) {
		t.Errorf("symbols:\n got %q\nwant %q", syms, want)
	}
	calls := 0
	for _, r := range res.Refs {
		if r.Name == "helper" && r.Call && r.Pos.Line == 4 {
			calls++
		}
	}
	if calls != 1 {
		t.Errorf("helper(period) on line 5: %d call references, want 1", calls)
	}
}

// FuzzTSMask: masking keeps the length, every line break and every byte
// outside the brackets and literals it rewrites; it never panics.
func FuzzTSMask(f *testing.F) {
	for _, s := range []string{"class B extends S<T> { m() {} }", "function f(a = 0, b = 'x') {}",
		"class A<T extends X<Y>> extends ns.S<Map<K, T[]>> {", "(x = -", "class class extends < >", "f(a = '"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out := tsMask(src)
		if len(out) != len(src) {
			t.Fatalf("length %d, want %d", len(out), len(src))
		}
		for i := range src {
			if out[i] == src[i] {
				continue
			}
			switch {
			case src[i] == '<' && out[i] == '(', src[i] == '>' && out[i] == ')',
				(src[i] == '[' || src[i] == ']') && out[i] == ' ', out[i] == '_' && src[i] != '\n':
			default:
				t.Fatalf("byte %d: %q became %q", i, src[i], out[i])
			}
		}
	})
}
