package mcpserve

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/internal/wire"
)

// MaxFrame bounds one message, over stdio and HTTP. A longer line is
// answered with an error and skipped without being buffered; a longer
// HTTP body is refused with 413.
const MaxFrame = 8 << 20

// maxSkip bounds the line the stdio filter skips: a line still without
// its newline after wire.MaxFrame bytes is no message a client meant to
// send, and skipping on (an endless line) would leave the client without
// an answer for ever, so the session ends with a *wire.Error. Tests
// lower it.
var maxSkip int64 = wire.MaxFrame

// JSON-RPC error codes for frames the filter answers itself.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// StdioTransport is the stdio transport of `parley mcp`: the SDK's
// newline-delimited JSON-RPC over r and w, behind a filter that answers
// malformed frames (not JSON, not a JSON-RPC message, a batch, a line over
// MaxFrame) with a JSON-RPC error and goes on. The SDK's own reader ends
// the session at the first such frame (it decodes one JSON stream), which
// would let one bad line from a client end every later call; JSON-RPC
// asks for an error response instead.
//
// Batches are refused because protocol versions from 2025-06-18 on have
// none and the SDK ends the session on one. A line longer than maxSkip
// ends the session: Run returns a *wire.Error.
func StdioTransport(r io.Reader, w io.WriteCloser) mcp.Transport {
	pr, pw := io.Pipe()
	lw := &lockedWriter{w: w}
	t := &stdioTransport{IOTransport: &mcp.IOTransport{Reader: pr, Writer: lw, MaxLineLength: MaxFrame + 1}}
	go func() {
		if err := filterFrames(r, pw, lw); err != nil {
			t.broken.Store(err)
			pw.CloseWithError(err)
		}
	}()
	return t
}

// stdioTransport is the SDK's transport plus the error that broke the
// stream, which the SDK's session does not report as such.
type stdioTransport struct {
	*mcp.IOTransport
	broken atomic.Pointer[wire.Error]
}

// lockedWriter serialises the SDK's writes with the filter's error
// replies, so that lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }

// filterFrames copies the well-formed lines of r to pw and answers the
// others on reply. It ends, closing pw, at the end of r or when the SDK
// stops reading; at a line over maxSkip it returns that *wire.Error
// instead, leaving pw to the caller.
func filterFrames(r io.Reader, pw *io.PipeWriter, reply io.Writer) *wire.Error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br)
		var we *wire.Error
		if errors.As(err, &we) {
			return we
		}
		if len(line) > 0 || tooLong {
			if bad := checkFrame(line, tooLong); bad != nil {
				if _, werr := reply.Write(bad); werr != nil {
					pw.CloseWithError(werr)
					return nil
				}
			} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
				return nil // the session is over
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			pw.CloseWithError(err)
			return nil
		}
	}
}

// readLine returns the next line without its end, trimmed of blanks; a
// line over MaxFrame is consumed but not returned (tooLong), and one
// still without its newline after maxSkip bytes is a *wire.Error.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	var size int64
	for {
		chunk, err := br.ReadSlice('\n')
		if size += int64(len(chunk)); size > maxSkip {
			return nil, true, wire.LineTooLong(maxSkip)
		}
		if !tooLong {
			if len(line)+len(chunk) > MaxFrame+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return trimSpace(line), tooLong, err
	}
}

func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// checkFrame returns the error reply for a frame the SDK must not see, or
// nil for a well-formed message.
func checkFrame(line []byte, tooLong bool) []byte {
	switch {
	case tooLong:
		return errorReply(nil, codeInvalidRequest, fmt.Sprintf("message longer than %d bytes", MaxFrame))
	case !json.Valid(line):
		return errorReply(nil, codeParseError, "parse error: the line is not JSON")
	case line[0] == '[':
		return errorReply(nil, codeInvalidRequest, "JSON-RPC batches are not supported")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return errorReply(frameID(line), codeInvalidRequest, "invalid request: "+err.Error())
	}
	return nil
}

// frameID is the id of a JSON object frame, for the error reply (null
// when it has none or it is not a valid id).
func frameID(line []byte) json.RawMessage {
	var f struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &f) != nil || len(f.ID) == 0 {
		return nil
	}
	switch f.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return f.ID
	}
	return nil
}

func errorReply(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	out, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return append(out, '\n')
}
