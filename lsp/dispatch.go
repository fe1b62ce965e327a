package lsp

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// handler builds the connection's handler stack. It differs from
// protocol.NewServer's in three ways: notifications run inline, in wire
// order, so a request never overtakes the change before it; requests are
// gated by the lifecycle state; and parameter decoding failures are
// InvalidParams, not ParseError (the frame itself was valid JSON).
func (s *Server) handler() jsonrpc2.Handler {
	standard := protocol.ServerHandler(s, nil)
	// parley/ methods bypass the protocol package, which insists on params
	// even for requests that take none.
	dispatch := func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if hook := s.testHookRequest.Load(); hook != nil {
			(*hook)(ctx, req.Method())
		}
		if strings.HasPrefix(req.Method(), "parley/") {
			return s.Request(ctx, req.Method(), protocol.LSPAny(slices.Clone(req.Params())))
		}
		return standard(ctx, req)
	}
	return func(ctx context.Context, req *jsonrpc2.Request) (res any, err error) {
		// The method string borrows the transport frame, which is reused
		// once the handler goes asynchronous.
		method := strings.Clone(req.Method())
		// A bug in a handler answers InternalError instead of ending the
		// process (and with it the user's editing session).
		defer func() {
			if p := recover(); p != nil {
				s.log.Errorf("%s panicked: %v\n%s", method, p, debug.Stack())
				res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: internal error: %v", method, p)
			}
		}()
		switch method {
		case protocol.MethodCancelRequest:
			s.cancelRequest(req)
			return nil, nil
		case protocol.MethodExit:
			s.exitOnce.Do(func() { close(s.exited) })
			return nil, nil
		}
		if err := s.gate(method); err != nil {
			if !req.IsCall() {
				s.log.Debugf("dropped %s: %v", method, err)
				return nil, nil
			}
			return nil, err
		}
		if !req.IsCall() {
			if _, err := dispatch(ctx, req); err != nil && !errors.Is(err, jsonrpc2.ErrMethodNotFound) {
				s.log.Warnf("%s: %v", method, err)
			}
			return nil, nil
		}
		if method != protocol.MethodInitialize && method != protocol.MethodShutdown {
			// Let later messages be read while this request works.
			jsonrpc2.Async(ctx)
		}
		start := time.Now()
		res, err = s.cancellable(ctx, req, dispatch)
		if err == nil {
			s.stats.record(method, time.Since(start))
		}
		return res, wireError(method, err)
	}
}

// gate rejects methods the lifecycle state does not allow.
func (s *Server) gate(method string) error {
	switch st := s.state.Load(); {
	case method == protocol.MethodInitialize:
		if st != stateNew {
			return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received")
		}
	case st == stateNew:
		return jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, method+": the server is not initialized yet")
	case st == stateShutdown:
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, method+": the server is shutting down")
	}
	return nil
}

// cancellable runs a request under a context that $/cancelRequest and
// server teardown cancel. jsonrpc2.CancelHandler is not used: it derives
// that context from the connection's pooled request context, whose
// cancellation watcher can outlive the request and read it after the
// connection recycled it (a panic under load, found by FuzzServerFrames).
// Here the request context only lends its values, while the handler runs.
func (s *Server) cancellable(ctx context.Context, req *jsonrpc2.Request, h jsonrpc2.Handler) (any, error) {
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(s.bg, cancel)
	id := req.ID()
	s.inflightMu.Lock()
	s.inflight[id] = cancel
	s.inflightMu.Unlock()
	defer func() {
		s.inflightMu.Lock()
		delete(s.inflight, id)
		s.inflightMu.Unlock()
		s.requestBell.ring()
		stop()
		cancel()
	}()
	return h(rctx, req)
}

// cancelRequest handles $/cancelRequest for a request still running.
func (s *Server) cancelRequest(req *jsonrpc2.Request) {
	var p protocol.CancelParams
	if err := protocol.Unmarshal(req.Params(), &p); err != nil {
		s.log.Warnf("$/cancelRequest: %v", err)
		return
	}
	var id jsonrpc2.ID
	switch v := p.ID.(type) {
	case protocol.Integer:
		id = jsonrpc2.NewNumberID(int64(v))
	case protocol.String:
		id = jsonrpc2.NewStringID(string(v))
	default:
		return
	}
	s.inflightMu.Lock()
	cancel := s.inflight[id]
	s.inflightMu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// wireError gives every error a JSON-RPC code: coded errors keep theirs,
// undecodable params become InvalidParams, a cancelled context
// RequestCancelled and anything else InternalError.
func wireError(method string, err error) error {
	if err == nil {
		return nil
	}
	switch {
	case errors.Is(err, context.Canceled):
		return protocol.ErrRequestCancelled
	case errors.Is(err, jsonrpc2.ErrParse):
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: invalid params: %v", method, err)
	}
	var coded *jsonrpc2.Error
	if errors.As(err, &coded) {
		return err
	}
	return jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: %v", method, err)
}

// invalidParams is the error for a request that names something the
// server cannot serve (a position outside the document, a URI outside the
// workspace).
func invalidParams(format string, args ...any) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf(format, args...))
}
