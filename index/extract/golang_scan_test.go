package extract

import (
	"fmt"
	"testing"
	"unsafe"
)

// TestInterner checks that equal names come back as one string, distinct
// names stay distinct, and growing the table loses nothing.
func TestInterner(t *testing.T) {
	in := newInterner(0)
	first := map[string]string{}
	for round := range 2 {
		for i := range 1000 { // well past the initial 64 slots
			b := []byte(fmt.Sprintf("name%d", i))
			got := in.intern(b)
			if got != string(b) {
				t.Fatalf("intern(%q) = %q", b, got)
			}
			if round == 0 {
				first[got] = got
				continue
			}
			if unsafe.StringData(got) != unsafe.StringData(first[got]) {
				t.Fatalf("intern(%q) returned a new string the second time", b)
			}
		}
	}
	if in.n != 1000 || 2*in.n > len(in.slots) {
		t.Errorf("n = %d in %d slots", in.n, len(in.slots))
	}
}

func TestGoIdentSize(t *testing.T) {
	if n := unsafe.Sizeof(goIdent{}); n > 32 {
		t.Errorf("goIdent is %d bytes, want at most 32: a file holds one per ~19 bytes of source", n)
	}
}
