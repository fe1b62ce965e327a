package extract

import (
	"strings"
	"testing"
)

// TestGoImpliedConstType: a constant spec without values repeats its
// group's type, which its signature then names (the type resolver reads
// it there); untyped groups and explicit types are left as written.
func TestGoImpliedConstType(t *testing.T) {
	src := `package p

const (
	_    token = iota
	_EOF       // EOF
	_Name
	A, B
)

const (
	x = iota
	y
)

const (
	K kind = 1 << iota
	L
	M float64 = 2
	N
)
`
	want := map[string]string{
		"_EOF": "_EOF token // EOF", "_Name": "_Name token", "A": "A, B token", "B": "A, B token",
		"x": "x = iota", "y": "y",
		"K": "K kind = 1 << iota", "L": "L kind", "M": "M float64 = 2", "N": "N float64",
	}
	for _, compact := range []bool{true, false} {
		r := extractGo("p.go", []byte(src), compact)
		var got []string
		for _, s := range r.Symbols {
			if w, ok := want[s.Name]; ok && s.Signature != w {
				t.Errorf("compact %v: %s: signature %q, want %q", compact, s.Name, s.Signature, w)
			}
			got = append(got, s.Name)
		}
		if len(got) != len(want) {
			t.Errorf("compact %v: symbols %s", compact, strings.Join(got, " "))
		}
	}
}
