package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// server is a child language server and the connection to it. Requests go
// through conn.Call with raw results: parley and gopls answer definition
// with different shapes (Location[] and Location), which location decodes.
type server struct {
	name string
	cmd  *exec.Cmd
	conn jsonrpc2.Conn
}

func start(ctx context.Context, name, bin string, args, env []string, stderr io.Writer) (*server, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc{out, in}))
	conn.Go(ctx, answerServerRequests)
	return &server{name: name, cmd: cmd, conn: conn}, nil
}

// answerServerRequests accepts what servers ask of a client (capability
// registration, progress tokens, configuration) with an empty answer and
// drops notifications.
func answerServerRequests(_ context.Context, req *jsonrpc2.Request) (any, error) {
	if req.IsCall() && req.Method() == protocol.MethodWorkspaceConfiguration {
		// One answer per item asked (pyright asks for several sections).
		var p protocol.ConfigurationParams
		if err := json.Unmarshal(req.Params(), &p); err != nil || len(p.Items) == 0 {
			return []any{nil}, nil
		}
		return make([]any, len(p.Items)), nil
	}
	return nil, nil
}

type rwc struct {
	io.ReadCloser
	io.WriteCloser
}

func (r rwc) Close() error { r.WriteCloser.Close(); return r.ReadCloser.Close() }

func (s *server) initialize(ctx context.Context, root string, initOptions any) error {
	// A client that can go to a declaration makes pyright answer
	// definition with the source file behind a typeshed stub (as editors
	// see it) rather than the stub.
	p := &protocol.InitializeParams{Capabilities: protocol.ClientCapabilities{
		Workspace:    &protocol.WorkspaceClientCapabilities{Configuration: ptr(true), WorkspaceFolders: ptr(true)},
		TextDocument: &protocol.TextDocumentClientCapabilities{Declaration: &protocol.DeclarationClientCapabilities{}},
	}}
	if initOptions != nil {
		b, err := json.Marshal(initOptions)
		if err != nil {
			return err
		}
		p.InitializationOptions = b
	}
	p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: filepath.Base(root)}})
	if _, err := s.conn.Call(ctx, protocol.MethodInitialize, p, nil); err != nil {
		return fmt.Errorf("%s initialize: %w", s.name, err)
	}
	return s.conn.Notify(ctx, protocol.MethodInitialized, &protocol.InitializedParams{})
}

func (s *server) stop(ctx context.Context) {
	s.conn.Call(ctx, protocol.MethodShutdown, nil, nil)
	s.conn.Notify(ctx, protocol.MethodExit, nil)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	s.conn.Close()
}

func (s *server) open(ctx context.Context, abs string) error {
	b, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	return s.conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: uri.File(abs), LanguageID: protocol.LanguageKind(languageID(abs)), Version: 1, Text: string(b)},
	})
}

func (s *server) close(ctx context.Context, abs string) error {
	return s.conn.Notify(ctx, protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(abs)},
	})
}

// loc is a location reduced to what the comparison looks at.
type loc struct {
	Path string `json:"path"` // root-relative when inside the root
	Line uint32 `json:"line"`
	Col  uint32 `json:"col"`
}

// request sends a definition or references request and returns its
// locations and the client-side latency.
func (s *server) request(ctx context.Context, method, root, abs string, line, col uint32) ([]loc, time.Duration, error) {
	tdpp := protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(abs)},
		Position:     protocol.Position{Line: line, Character: col},
	}
	var params any = &protocol.DefinitionParams{TextDocumentPositionParams: tdpp}
	if method == protocol.MethodTextDocumentReferences {
		params = &protocol.ReferenceParams{TextDocumentPositionParams: tdpp, Context: protocol.ReferenceContext{IncludeDeclaration: true}}
	}
	var raw json.RawMessage
	t := time.Now()
	_, err := s.conn.Call(ctx, method, params, &raw)
	d := time.Since(t)
	if err != nil {
		return nil, d, fmt.Errorf("%s %s %s:%d:%d: %w", s.name, method, abs, line, col, err)
	}
	locs, err := decodeLocations(raw, root)
	return locs, d, err
}

// decodeLocations accepts null, a Location, a Location[] or a
// LocationLink[].
func decodeLocations(raw json.RawMessage, root string) ([]loc, error) {
	type wire struct {
		URI                  uri.URI         `json:"uri"`
		Range                *protocol.Range `json:"range"`
		TargetURI            uri.URI         `json:"targetUri"`
		TargetSelectionRange *protocol.Range `json:"targetSelectionRange"`
	}
	var list []wire
	t := strings.TrimSpace(string(raw))
	switch {
	case t == "" || t == "null":
		return nil, nil
	case t[0] == '{':
		var one wire
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, err
		}
		list = []wire{one}
	default:
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
	}
	out := make([]loc, 0, len(list))
	for _, w := range list {
		u, r := w.URI, w.Range
		if w.TargetURI != "" {
			u, r = w.TargetURI, w.TargetSelectionRange
		}
		if r == nil {
			continue
		}
		p := u.FsPath()
		if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = filepath.ToSlash(rel)
		}
		out = append(out, loc{Path: p, Line: r.Start.Line, Col: r.Start.Character})
	}
	return out, nil
}

// waitParleyIdle polls parley/indexStatus until the first run is over.
func waitParleyIdle(ctx context.Context, s *server) error {
	for {
		var st struct {
			Indexing bool `json:"indexing"`
			Folders  []struct {
				Runs int `json:"runs"`
			} `json:"folders"`
		}
		if _, err := s.conn.Call(ctx, "parley/indexStatus", nil, &st); err != nil {
			return err
		}
		if !st.Indexing && len(st.Folders) > 0 && st.Folders[0].Runs > 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func ptr[T any](v T) *T { return &v }
