package keyrange

import (
	"bytes"
	"testing"
)

func TestPrefixEnd(t *testing.T) {
	for _, c := range []struct{ in, want []byte }{
		{[]byte("ab"), []byte("ac")},
		{[]byte{'a', 0xff}, []byte("b")},
		{[]byte{'a', 0xff, 0xff}, []byte("b")},
		{[]byte{0xff, 0xff}, nil},
		{nil, nil},
	} {
		in := bytes.Clone(c.in)
		if got := PrefixEnd(in); !bytes.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("PrefixEnd(%q) = %q, want %q", c.in, got, c.want)
		}
		if !bytes.Equal(in, c.in) {
			t.Errorf("PrefixEnd modified its input: %q", in)
		}
	}
}
