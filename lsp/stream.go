package lsp

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"

	"github.com/parleyhq/parley/internal/wire"
)

// tolerantStream keeps a connection alive across a frame whose body is
// not a JSON-RPC message: jsonrpc2's reader ends the connection on any
// read error, but a well-framed body that fails to parse loses nothing
// of the stream, so it is answered with a ParseError response (id null,
// as JSON-RPC prescribes) and reading goes on. Broken framing (a
// *wire.Error from frameStream) still ends the connection, since there is
// no way to find the next message: it is logged and kept for Serve,
// which returns wire.ExitBroken.
type tolerantStream struct {
	inner jsonrpc2.Stream
	mu    sync.Mutex // serialises writes: the connection's and ours
	log   *logSink
	// broken is the framing error that ended reading, if any.
	broken atomic.Pointer[wire.Error]

	closeOnce sync.Once
	closed    chan struct{} // closed by Close
}

func newTolerantStream(inner jsonrpc2.Stream, log *logSink) *tolerantStream {
	return &tolerantStream{inner: inner, log: log, closed: make(chan struct{})}
}

func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		msg, n, err := s.inner.Read(ctx)
		var we *wire.Error
		if errors.As(err, &we) {
			s.broken.Store(we)
			s.log.Errorf("%v; exiting with status %d", err, wire.ExitBroken)
			return nil, 0, err
		}
		if err == nil || !(errors.Is(err, jsonrpc2.ErrParse) || errors.Is(err, jsonrpc2.ErrInvalidRequest)) {
			return msg, n, err
		}
		s.log.Warnf("malformed message: %v", err)
		code := jsonrpc2.ParseError
		if errors.Is(err, jsonrpc2.ErrInvalidRequest) {
			code = jsonrpc2.InvalidRequest
		}
		resp := jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.NewError(code, err.Error()))
		if _, werr := s.Write(ctx, resp); werr != nil {
			return nil, 0, werr
		}
	}
}

func (s *tolerantStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inner.Write(ctx, msg)
}

// Close closes the inner stream; the closed channel tells Serve that the
// connection has nothing left to write.
func (s *tolerantStream) Close() error {
	err := s.inner.Close()
	s.closeOnce.Do(func() { close(s.closed) })
	return err
}
