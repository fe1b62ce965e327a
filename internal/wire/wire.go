// Package wire holds what parley's three stdio servers (`parley serve`,
// `parley mcp`, `parley acp`) share about input a client can break beyond
// repair: the bound on one frame, the error that reports a broken stream
// and the exit status the commands end with then.
//
// A stream is broken when the reader can no longer tell where the next
// message starts: an LSP header that declares more than MaxFrame bytes
// (reading, or skipping, that many bytes only to find out would let one
// client exhaust the machine), a malformed LSP header, or a
// newline-delimited line that runs past its bound without a newline.
// The servers then log why and end with ExitBroken; they never allocate
// the declared size first. NewFrameStream is that LSP framing; the
// agent's LSP client (agent/lspclient) reads the language servers it
// starts through it too.
package wire

import (
	"fmt"
	"io"
	"sync/atomic"
)

// MaxFrame is the largest frame parley reads: an LSP body (its
// Content-Length) and the longest line `parley mcp` skips over before it
// gives up on the stream. 256 MiB: no real message comes near it (a whole
// file sent by didOpen is its own size), and reading one is still cheap.
const MaxFrame = 256 << 20

// ExitBroken is the exit status of a server whose client broke the stream
// beyond repair (see Error). It is sysexits.h's EX_PROTOCOL ("remote
// error in protocol"); parley's other statuses are 0 and 1.
const ExitBroken = 76

// Error reports input after which the stream cannot be resynchronised.
// Commands that return one exit with ExitBroken.
type Error struct {
	Reason string
}

func (e *Error) Error() string {
	return e.Reason + "; the stream cannot be resynchronised"
}

// TooLarge is the Error for a frame of size bytes (what a header
// declared) over limit. what names the frame: "frame", "header".
func TooLarge(what string, size, limit int64) *Error {
	return &Error{Reason: fmt.Sprintf("%s of %d bytes exceeds the %d-byte limit", what, size, limit)}
}

// LineTooLong is the Error for a line that reached limit bytes without
// its newline.
func LineTooLong(limit int64) *Error {
	return &Error{Reason: fmt.Sprintf("a line reached the %d-byte limit without a newline", limit)}
}

// LimitLines returns a reader of r that ends with a LineTooLong Error
// (and never reads r again) once a line has limit bytes without its
// newline: every line it passes on, newline included, fits in limit
// bytes. Err reports that error once it happened. It is for a
// newline-delimited protocol whose reader would otherwise buffer an
// endless line, or end the connection without saying why. A limit
// below 1 is 1.
func LimitLines(r io.Reader, limit int64) *LineLimiter {
	return &LineLimiter{r: r, limit: max(limit, 1)}
}

// LineLimiter is the reader LimitLines returns. Not safe for concurrent
// reads (no reader is); Err is safe to call from any goroutine.
type LineLimiter struct {
	r     io.Reader
	limit int64
	run   int64 // bytes of the current line passed on so far
	err   atomic.Pointer[Error]
}

func (l *LineLimiter) Read(p []byte) (int, error) {
	if err := l.err.Load(); err != nil {
		return 0, err
	}
	// Never pass on more than the current line still has room for, so
	// that the reader behind sees the error before a byte too many.
	if room := l.limit - 1 - l.run; int64(len(p)) > room+1 {
		p = p[:room+1]
	}
	n, err := l.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			l.run = 0
		} else {
			l.run++
		}
	}
	if l.run >= l.limit {
		// The last byte read is one the line has no room for.
		err := LineTooLong(l.limit)
		l.err.Store(err)
		return n - 1, err
	}
	return n, err
}

// Err is the LineTooLong error the reader ended with, or nil.
func (l *LineLimiter) Err() error {
	if err := l.err.Load(); err != nil {
		return err
	}
	return nil
}
