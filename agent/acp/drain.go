package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// wireCount counts the requests read from the client and the responses
// written to it, so that Serve, once the client has closed its end, can
// let the answers to what it sent go out before returning: a client that
// writes its requests and closes stdin at once (a script, `parley acp <
// file`) still gets every answer. The SDK reads a request, handles it on
// a goroutine of its own and writes the response after the handler
// returned (or at once, for an unknown method); only the wire shows when
// that is done. A line that is not a JSON-RPC request is not counted,
// since the SDK answers none.
type wireCount struct {
	mu        sync.Mutex
	requests  int
	responses int
	broken    bool          // a write failed: nothing more can be answered
	changed   chan struct{} // closed and replaced on every count
}

func newWireCount() *wireCount { return &wireCount{changed: make(chan struct{})} }

// frame is what wireCount reads of a message.
type frame struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// kind says whether line is a request (1), a response (-1) or neither.
func kind(line []byte) int {
	var f frame
	if json.Unmarshal(line, &f) != nil || len(f.ID) == 0 {
		return 0
	}
	if f.Method != "" {
		if f.Method == "$/cancel_request" {
			return 0
		}
		return 1
	}
	return -1
}

func (l *wireCount) count(requests, responses int) {
	if requests == 0 && responses == 0 {
		return
	}
	l.mu.Lock()
	l.requests += requests
	l.responses += responses
	close(l.changed)
	l.changed = make(chan struct{})
	l.mu.Unlock()
}

// answered returns whether every request read has been answered, and a
// channel closed at the next count.
func (l *wireCount) answered() (bool, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.broken || l.responses >= l.requests, l.changed
}

// reader passes r through, counting the requests of its lines, once
// ready is closed. A line longer than the SDK takes (it ends the
// connection) is passed on uncounted; `parley acp` refuses one itself
// first (see MaxLine).
func (l *wireCount) reader(r io.Reader, ready <-chan struct{}) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		<-ready
		br := bufio.NewReaderSize(r, 64<<10)
		var line []byte
		tooLong := false
		for {
			chunk, err := br.ReadSlice('\n')
			if !tooLong && len(line)+len(chunk) > MaxLine {
				tooLong, line = true, nil
			} else if !tooLong {
				line = append(line, chunk...)
			}
			if err == nil || err == io.EOF {
				// The line is complete: counted before the SDK can see its
				// end, so no answer comes before its request is counted.
				if !tooLong && kind(bytes.TrimSpace(line)) == 1 {
					l.count(1, 0)
				}
				line, tooLong = line[:0], false
			}
			if len(chunk) > 0 {
				if _, werr := pw.Write(chunk); werr != nil {
					return
				}
			}
			if err != nil && err != bufio.ErrBufferFull {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// MaxLine is the SDK's limit on a message line, its newline included:
// its reader (a bufio.Scanner) ends the connection at a longer one,
// without saying why. A server that wants to say so bounds its input
// with wire.LimitLines(r, MaxLine), which ends it just before.
const MaxLine = 10 << 20

// countingWriter passes writes to w, counting the responses among them (the SDK
// writes one whole message per call).
type countingWriter struct {
	l *wireCount
	w io.Writer
}

func (lw countingWriter) Write(p []byte) (int, error) {
	n, err := lw.w.Write(p)
	switch {
	case err != nil:
		lw.l.mu.Lock()
		lw.l.broken = true
		close(lw.l.changed)
		lw.l.changed = make(chan struct{})
		lw.l.mu.Unlock()
	case kind(bytes.TrimSpace(p)) == -1:
		lw.l.count(0, 1)
	}
	return n, err
}
