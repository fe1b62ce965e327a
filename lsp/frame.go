package lsp

import (
	"io"

	"go.lsp.dev/jsonrpc2"

	"github.com/parleyhq/parley/internal/wire"
)

// NewStream is the LSP base protocol (Content-Length framing) over conn,
// as `parley serve` reads it: jsonrpc2's framing, except that a header
// declaring more than wire.MaxFrame bytes, or malformed, ends the stream
// with a *wire.Error before anything is allocated for the body. Serve
// logs that error and returns wire.ExitBroken.
func NewStream(conn io.ReadWriteCloser) jsonrpc2.Stream {
	return newFrameStream(conn, wire.MaxFrame)
}

// newFrameStream is wire.NewFrameStream (the tests bound it lower).
func newFrameStream(conn io.ReadWriteCloser, max int64) jsonrpc2.Stream {
	return wire.NewFrameStream(conn, max)
}
