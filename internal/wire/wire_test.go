package wire

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// endless writes one line for ever.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

func TestLimitLines(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		limit    int64
		pass     string // what is passed on
		broken   bool
	}{
		{"lines that fit", "abc\nde\n\nxyz", 4, "abc\nde\n\nxyz", false},
		{"a line of limit bytes with its newline", "abcd\n", 5, "abcd\n", false},
		{"a line of limit bytes without one", "abcde\nx\n", 5, "abcd", true},
		{"a long line after short ones", "a\nb\nccccccc", 3, "a\nb\ncc", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte at a time and all at once read the same.
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
				l := LimitLines(r, tc.limit)
				got, err := io.ReadAll(l)
				var we *Error
				if string(got) != tc.pass || errors.As(err, &we) != tc.broken || (l.Err() != nil) != tc.broken {
					t.Errorf("passed %q, %v (Err %v); want %q, broken %v", got, err, l.Err(), tc.pass, tc.broken)
				}
			}
		})
	}
}

// TestLimitLinesEndless: an endless line ends reading with the error
// after limit-1 bytes, and the reader is not read again.
func TestLimitLinesEndless(t *testing.T) {
	l := LimitLines(endless{}, 1<<20)
	n, err := io.Copy(io.Discard, l)
	if n != 1<<20-1 || err == nil || err.Error() != "a line reached the 1048576-byte limit without a newline; the stream cannot be resynchronised" {
		t.Errorf("copied %d bytes, %v", n, err)
	}
	if n, err := l.Read(make([]byte, 10)); n != 0 || err == nil {
		t.Errorf("read after the error: %d, %v", n, err)
	}
}

// FuzzLimitLines: what LimitLines passes on is a prefix of its input
// whose lines, newline included, fit in the limit, and it stops early
// only at a line that does not.
func FuzzLimitLines(f *testing.F) {
	f.Add([]byte("abc\nde\n"), uint8(4))
	f.Add([]byte("abcdefgh"), uint8(3))
	f.Fuzz(func(t *testing.T, in []byte, limit uint8) {
		l := LimitLines(bytes.NewReader(in), int64(limit))
		got, err := io.ReadAll(l)
		if !bytes.HasPrefix(in, got) {
			t.Fatalf("passed %q, not a prefix of %q", got, in)
		}
		lim := max(int(limit), 1)
		for line := range bytes.Lines(got) {
			if len(line) > lim || len(line) == lim && line[len(line)-1] != '\n' {
				t.Fatalf("passed line %q over the limit %d", line, lim)
			}
		}
		if err == nil && len(got) != len(in) {
			t.Fatalf("stopped after %d of %d bytes without an error", len(got), len(in))
		}
		if err != nil {
			// The refused line, newline excluded, has at least lim bytes.
			rest := in[len(got):]
			line := len(got) - (bytes.LastIndexByte(got, '\n') + 1)
			if i := bytes.IndexByte(rest, '\n'); i >= 0 {
				line += i
			} else {
				line += len(rest)
			}
			if line < lim {
				t.Fatalf("refused a line of %d bytes under the limit %d: %q", line, lim, in)
			}
		}
	})
}
