package lsp

// Diagnostics after the agent's edits in the editor: the editor's own,
// from every language server the user runs there, asked for with
// parley/diagnostics; a client that does not implement the request gets
// parley's own language servers (agent/lspclient), as the terminal does.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/agent/lspclient"
	"github.com/parleyhq/parley/tools"
)

const methodDiagnostics = "parley/diagnostics"

// clientAnswerGrace is how much longer than timeoutMs the server waits
// for the client's answer before it gives up on it.
const clientAnswerGrace = 2 * time.Second

// diagnosticsParams is parley/diagnostics' request (docs/protocol.md).
type diagnosticsParams struct {
	URIs []string `json:"uris"`
	// Version, when set, is the version the agent's edit gave the
	// documents: the client answers once their diagnostics changed after
	// that version (the language servers analysed it), or at timeoutMs.
	Version   *int32 `json:"version,omitempty"`
	TimeoutMS int    `json:"timeoutMs"`
}

type diagnosticsItem struct {
	URI         string          `json:"uri"`
	Diagnostics json.RawMessage `json:"diagnostics"`
	Settled     bool            `json:"settled"`
}

type diagnosticsResult struct {
	Items []diagnosticsItem `json:"items"`
}

// editorDiagnostics is the tools.DiagnosticSource of the editor's turns.
type editorDiagnostics struct {
	s *Server
	b *builtAgent
}

func (d editorDiagnostics) Timeout() time.Duration {
	return time.Duration(d.b.cfg.LSPTimeoutMS) * time.Millisecond
}

func (d editorDiagnostics) Diagnose(ctx context.Context, files []tools.DiagnosticFile) []tools.FileDiagnostics {
	if !d.s.noClientDiagnostics.Load() {
		out, err := d.askClient(ctx, files)
		if err == nil {
			return out
		}
		var je *jsonrpc2.Error
		if !errors.As(err, &je) || je.Code != jsonrpc2.MethodNotFound {
			return problemAll(files, fmt.Sprintf("the editor did not report diagnostics: %v", err))
		}
		d.s.noClientDiagnostics.Store(true)
		d.s.log.Infof("the client does not implement %s; the agent's diagnostics come from parley's own language servers", methodDiagnostics)
	}
	if m := d.b.ownLSP(d.s); m != nil {
		return m.Diagnose(ctx, files)
	}
	out := make([]tools.FileDiagnostics, len(files))
	for i, f := range files {
		out[i] = tools.FileDiagnostics{Path: f.Path, Unsupported: true}
	}
	return out
}

func (d editorDiagnostics) Forget(ctx context.Context, paths []string) {
	if d.s.noClientDiagnostics.Load() {
		if m := d.b.ownLSP(d.s); m != nil {
			m.Forget(ctx, paths)
		}
	}
}

// askClient sends one parley/diagnostics per edited file (each with the
// version the edit gave it) and one for the rest, which the client
// answers with what it has.
func (d editorDiagnostics) askClient(ctx context.Context, files []tools.DiagnosticFile) ([]tools.FileDiagnostics, error) {
	timeout := d.Timeout()
	var now []string
	byURI := map[string]tools.FileDiagnostics{}
	for _, f := range files {
		u := string(uri.File(f.Path))
		if !f.Edited {
			now = append(now, u)
			continue
		}
		p := diagnosticsParams{URIs: []string{u}, TimeoutMS: int(timeout / time.Millisecond)}
		// A closed file the editor changed without opening it has no
		// version to wait for, and no language server analyses it.
		if ov, open := d.s.overlays.Get(f.Path); open {
			v := ov.Version
			p.Version = &v
		}
		if err := d.call(ctx, p, timeout, byURI); err != nil {
			return nil, err
		}
	}
	if len(now) > 0 {
		if err := d.call(ctx, diagnosticsParams{URIs: now}, 0, byURI); err != nil {
			return nil, err
		}
	}
	out := make([]tools.FileDiagnostics, len(files))
	for i, f := range files {
		fd, ok := byURI[filepath.Clean(f.Path)]
		if !ok {
			fd = tools.FileDiagnostics{Problem: "the editor's answer left this file out"}
		}
		fd.Path = f.Path
		out[i] = fd
	}
	return out, nil
}

func (d editorDiagnostics) call(ctx context.Context, p diagnosticsParams, timeout time.Duration, into map[string]tools.FileDiagnostics) error {
	ctx, cancel := context.WithTimeout(ctx, timeout+clientAnswerGrace)
	defer cancel()
	var res diagnosticsResult
	if _, err := d.s.conn.Call(ctx, methodDiagnostics, p, &res); err != nil {
		return fmt.Errorf("%s: %w", methodDiagnostics, err)
	}
	for _, it := range res.Items {
		fd := tools.FileDiagnostics{Server: "the editor", Settled: it.Settled}
		diags, err := lspclient.DecodeDiagnostics(it.Diagnostics)
		if err != nil {
			fd.Problem = fmt.Sprintf("the editor's answer: %v", err)
		}
		fd.Diags = diags
		into[filepath.Clean(uri.URI(it.URI).FsPath())] = fd
	}
	return nil
}

func problemAll(files []tools.DiagnosticFile, problem string) []tools.FileDiagnostics {
	out := make([]tools.FileDiagnostics, len(files))
	for i, f := range files {
		out[i] = tools.FileDiagnostics{Path: f.Path, Problem: problem}
	}
	return out
}

// ownLSPState is a configuration's own language servers, started on first
// use and closed with the configuration.
type ownLSPState struct {
	once sync.Once
	m    *lspclient.Manager
}

// ownLSP returns the configuration's own language servers (nil: none can
// run).
func (b *builtAgent) ownLSP(s *Server) *lspclient.Manager {
	b.lsp.once.Do(func() {
		b.lsp.m = lspclient.FromConfig(b.cfg, func(err error) { s.log.Warnf("%v", err) })
	})
	return b.lsp.m
}

// closeLSP shuts the configuration's own language servers down.
func (b *builtAgent) closeLSP() {
	b.lsp.once.Do(func() {}) // none start after this
	if b.lsp.m != nil {
		b.lsp.m.Close()
	}
}
