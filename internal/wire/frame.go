package wire

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// maxHeader bounds the header block of a frame (real ones are about 30
// bytes): without it an endless header line would be buffered whole.
const maxHeader = 4 << 10

// frameStream reads frames itself and leaves writing to jsonrpc2's
// stream. jsonrpc2's reader is not enough: it allocates whatever a
// header declares up to 1 GiB before reading a byte of the body, buffers
// a header line of any length, and reports a refused header as the same
// ErrInvalidHeader whatever the reason, so the server could neither
// bound the allocation nor say why the connection ended.
type frameStream struct {
	jsonrpc2.Stream // Write and Close; its reader is never used
	in              *bufio.Reader
	max             int64
}

// NewFrameStream is the LSP base protocol (Content-Length framing) over
// conn with frames bounded by max bytes: jsonrpc2's framing, except that a
// header declaring more than max bytes, or malformed, ends the stream with
// an *Error before anything is allocated for the body. `parley serve` reads
// its client through it (bound MaxFrame), and the agent's LSP client reads
// the language servers it starts.
func NewFrameStream(conn io.ReadWriteCloser, max int64) jsonrpc2.Stream {
	return &frameStream{Stream: jsonrpc2.NewStream(conn), in: bufio.NewReaderSize(conn, 64<<10), max: max}
}

// Read returns the next message. A body that is not a JSON-RPC message
// is jsonrpc2's ErrParse or ErrInvalidRequest (tolerantStream answers
// it and reads on); broken framing is a *Error; the end of the
// input is io.EOF between frames and io.ErrUnexpectedEOF inside one.
func (s *frameStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	length, header, err := s.readHeader()
	if err != nil {
		return nil, 0, err
	}
	// A fresh buffer per frame: decoded messages may keep pointers into it.
	body := make([]byte, length)
	if _, err := io.ReadFull(s.in, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, 0, fmt.Errorf("frame body: %w", err)
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		return nil, 0, err
	}
	return msg, header + length, nil
}

// readHeader reads a header block and returns its Content-Length and
// size. Like jsonrpc2, it takes "\r\n" or "\n" line ends, matches field
// names without regard to case, ignores other fields and lets the last
// Content-Length count.
func (s *frameStream) readHeader() (length, size int64, err error) {
	length = -1
	for {
		line, err := s.in.ReadSlice('\n')
		size += int64(len(line))
		switch {
		case errors.Is(err, bufio.ErrBufferFull) || size > maxHeader:
			return 0, 0, TooLarge("header", size, maxHeader)
		case errors.Is(err, io.EOF) && size == 0:
			return 0, 0, io.EOF // the client closed between frames
		case errors.Is(err, io.EOF):
			return 0, 0, fmt.Errorf("frame header: %w", io.ErrUnexpectedEOF)
		case err != nil:
			return 0, 0, fmt.Errorf("frame header: %w", err)
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, 0, &Error{Reason: fmt.Sprintf("frame header line %q has no colon", line)}
		}
		if !bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			continue
		}
		value = bytes.TrimSpace(value)
		n, perr := strconv.ParseUint(string(value), 10, 63)
		switch {
		case errors.Is(perr, strconv.ErrRange):
			return 0, 0, &Error{Reason: fmt.Sprintf("frame of %s bytes exceeds the %d-byte limit", value, s.max)}
		case perr != nil || n == 0:
			return 0, 0, &Error{Reason: fmt.Sprintf("frame header has Content-Length %q", value)}
		case int64(n) > s.max:
			return 0, 0, TooLarge("frame", int64(n), s.max)
		}
		length = int64(n)
	}
	if length < 0 {
		return 0, 0, &Error{Reason: "frame header has no Content-Length"}
	}
	return length, size, nil
}
