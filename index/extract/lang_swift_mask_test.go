package extract

import "testing"

// TestSwiftMask: an if or while ending in a valued optional binding gets a
// comparison, and a tuple metatype's generic arguments get parentheses,
// byte for byte; shorthand bindings, guard, bindings followed by another
// condition, comments and strings are kept.
func TestSwiftMask(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"if let due = item.dueBack {", "if     due ==item.dueBack {"},
		{"while var x = it.next {", "while     x ==it.next {"},
		{"if let a = b.c, let d = e.f {", "if let a = b.c,     d ==e.f {"},
		{"if let a = b[0] {} ; if let c = d(e: { $0 }) {", "if let a = b[0] {} ; if let c = d(e: { $0 }) {"},
		{"if let a = b, a > 1 {", "if let a = b, a > 1 {"},
		{"if let due {", "if let due {"},
		{"guard let x = y else {", "guard let x = y else {"},
		{"f(of: (UUID, Result<Date, Error>).self)", "f(of: (UUID, Result(Date, Error)).self)"},
		{"f(of: (A, [String: Int]).self) // if let a = b {", "f(of: (A, [String: Int]).self) // if let a = b {"},
		{"let s = \"if let a = b {\"\n/* if let c = d { */", "let s = \"if let a = b {\"\n/* if let c = d { */"},
		{"let s = \"\\(x) (A<B>).self\"", "let s = \"\\(x) (A<B>).self\""},
	} {
		if got := string(swiftMask([]byte(c.in))); got != c.want {
			t.Errorf("swiftMask(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
