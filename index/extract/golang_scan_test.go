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

// TestHasTodoTag: the prefilter must pass every comment ScanTodos can find
// a marker in, wherever the tag sits.
func TestHasTodoTag(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"// TODO: x", true},
		{"/* ends with FIXME", true},
		{"HACK", true},
		{"# see XXX", true},
		{"XXX", true},
		{"// The Thing Fixes Half", false},
		{"// todo fixme", false},
		{"// TOD", false},
		{"XX", false},
		{"// FIXM", false},
		{"", false},
	} {
		if got := hasTodoTag([]byte(tc.text)); got != tc.want {
			t.Errorf("hasTodoTag(%q) = %v, want %v", tc.text, got, tc.want)
		}
		if found := len(ScanTodos(tc.text, 1, nil)) > 0; found && !tc.want {
			t.Errorf("ScanTodos finds a marker in %q, which hasTodoTag rejects", tc.text)
		}
	}
}
