package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/internal/fixture"
)

// waitTimeout bounds every wait in these tests; nothing sleeps.
const waitTimeout = 20 * time.Second

// fakeEditor drives a Server over an in-memory pipe the way an editor
// does: it answers the server's requests (progress tokens, watcher
// registration) and records every notification in arrival order.
type fakeEditor struct {
	t      *testing.T
	root   string
	srv    *Server
	conn   jsonrpc2.Conn
	raw    net.Conn // the editor's end, for writing malformed frames
	exit   chan int
	mu     sync.Mutex
	notes  []note
	signal chan struct{} // closed and replaced on every note
	regs   []protocol.Registration
	agent  agentClient // chat tests: the client's side of the agent
}

type note struct {
	method string
	params json.RawMessage
}

type editorConfig struct {
	progress   bool // window.workDoneProgress
	dynWatch   bool // dynamic registration of watched files
	fsWatch    bool // let the server watch the folders itself (fsnotify)
	utf8       bool // offer utf-8 position encoding
	folders    []string
	initOpts   string
	noInit     bool
	agent      bool // applyEdit, workspace edits with resource operations, showMessageRequest
	annotate   bool // also change annotations
	serverOpts func(*Options)
}

// loadTxtar writes a txtar archive of this package's testdata under a new
// temp dir and returns it.
func loadTxtar(t *testing.T, file string) string {
	t.Helper()
	return fixture.Extract(t, file)
}

func startEditor(t *testing.T, root string, cfg editorConfig) *fakeEditor {
	t.Helper()
	dataDir := t.TempDir()
	opts := Options{
		StoreDir: func(r string) (string, error) {
			return filepath.Join(dataDir, strings.ReplaceAll(strings.TrimPrefix(r, "/"), "/", "_")), nil
		},
		LogFile: testLog{t},
		NoWatch: !cfg.fsWatch,
		// Resolution answers whatever the load: tests check answers, and
		// TestResolveBudget the budget.
		ResolveBudget: -1,
	}
	if cfg.serverOpts != nil {
		cfg.serverOpts(&opts)
	}
	return startEditorWith(t, root, cfg, opts)
}

func startEditorWith(t *testing.T, root string, cfg editorConfig, opts Options) *fakeEditor {
	t.Helper()
	srvSide, edSide := net.Pipe()
	e := &fakeEditor{t: t, root: root, srv: New(opts), raw: edSide, exit: make(chan int, 1), signal: make(chan struct{})}
	go func() { e.exit <- e.srv.Serve(context.Background(), NewStream(srvSide)) }()
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(edSide), jsonrpc2.WithCodec(lspCodec{}))
	e.conn.Go(context.Background(), e.handle)
	t.Cleanup(func() {
		e.conn.Close()
		select {
		case <-e.exit:
		case <-time.After(waitTimeout):
			t.Error("server did not stop")
		}
	})
	if !cfg.noInit {
		e.initialize(cfg)
	}
	return e
}

// testLog sends the server's log file to the test log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func (e *fakeEditor) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	method := strings.Clone(req.Method())
	params := json.RawMessage(slices.Clone(req.Params()))
	switch method {
	case protocol.MethodWorkspaceApplyEdit, protocol.MethodWindowShowMessageRequest:
		// Answered concurrently, as editors do: applying an edit sends
		// didChange before the answer.
		jsonrpc2.Async(ctx)
		return e.agentRequest(ctx, method, params)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !req.IsCall() {
		e.notes = append(e.notes, note{method, params})
		close(e.signal)
		e.signal = make(chan struct{})
		return nil, nil
	}
	switch method {
	case methodDiagnostics:
		return e.agent.answerDiagnostics(params)
	case protocol.MethodWindowWorkDoneProgressCreate:
		return nil, nil
	case protocol.MethodClientRegisterCapability:
		var p protocol.RegistrationParams
		if err := protocol.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		e.regs = append(e.regs, p.Registrations...)
		return nil, nil
	}
	return nil, jsonrpc2.ErrMethodNotFound
}

func (e *fakeEditor) initialize(cfg editorConfig) *protocol.InitializeResult {
	e.t.Helper()
	caps := protocol.ClientCapabilities{
		Window:       &protocol.WindowClientCapabilities{WorkDoneProgress: ptr(cfg.progress)},
		Workspace:    &protocol.WorkspaceClientCapabilities{WorkspaceFolders: ptr(true), DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: ptr(cfg.dynWatch)}},
		TextDocument: &protocol.TextDocumentClientCapabilities{DocumentSymbol: &protocol.DocumentSymbolClientCapabilities{HierarchicalDocumentSymbolSupport: ptr(true)}, Hover: &protocol.HoverClientCapabilities{ContentFormat: []protocol.MarkupKind{protocol.MarkupKindMarkdown}}},
	}
	if cfg.agent {
		caps.Window.ShowMessage = &protocol.ShowMessageRequestClientCapabilities{}
		caps.Workspace.ApplyEdit = ptr(true)
		caps.Workspace.WorkspaceEdit = &protocol.WorkspaceEditClientCapabilities{
			DocumentChanges:    ptr(true),
			ResourceOperations: []protocol.ResourceOperationKind{protocol.ResourceOperationKindCreate, protocol.ResourceOperationKindRename, protocol.ResourceOperationKindDelete},
		}
		if cfg.annotate {
			caps.Workspace.WorkspaceEdit.ChangeAnnotationSupport = &protocol.ChangeAnnotationsSupportOptions{}
		}
	}
	if cfg.utf8 {
		caps.General = &protocol.GeneralClientCapabilities{PositionEncodings: []protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF8, protocol.PositionEncodingKindUTF16}}
	}
	folders := cfg.folders
	if folders == nil {
		folders = []string{e.root}
	}
	var wf []protocol.WorkspaceFolder
	for _, f := range folders {
		wf = append(wf, protocol.WorkspaceFolder{URI: uri.File(f), Name: filepath.Base(f)})
	}
	p := &protocol.InitializeParams{Capabilities: caps}
	p.WorkspaceFolders = protocol.NewNullable(wf)
	if cfg.initOpts != "" {
		p.InitializationOptions = protocol.LSPAny(cfg.initOpts)
	}
	var res protocol.InitializeResult
	if err := e.call(protocol.MethodInitialize, p, &res); err != nil {
		e.t.Fatalf("initialize: %v", err)
	}
	e.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	return &res
}

func (e *fakeEditor) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	_, err := e.conn.Call(ctx, method, params, result)
	return err
}

func (e *fakeEditor) mustCall(method string, params, result any) {
	e.t.Helper()
	if err := e.call(method, params, result); err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
}

func (e *fakeEditor) notify(method string, params any) {
	e.t.Helper()
	if err := e.conn.Notify(context.Background(), method, params); err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
}

// waitNote waits for the first note at or after index from that
// satisfies pred and returns it with its index.
func (e *fakeEditor) waitNote(from int, what string, pred func(note) bool) (note, int) {
	e.t.Helper()
	deadline := time.After(waitTimeout)
	for {
		e.mu.Lock()
		for i := from; i < len(e.notes); i++ {
			if pred(e.notes[i]) {
				n := e.notes[i]
				e.mu.Unlock()
				return n, i
			}
		}
		ch := e.signal
		e.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			e.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// progressKind decodes the kind of a $/progress note ("" for others).
func progressKind(n note) (kind, message string) {
	if n.method != protocol.MethodProgress {
		return "", ""
	}
	var p struct {
		Value struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"value"`
	}
	if json.Unmarshal(n.params, &p) != nil {
		return "", ""
	}
	return p.Value.Kind, p.Value.Message
}

// waitIndexed waits for the n-th completed index run (counting from 1)
// through parley/indexStatus, which works with or without progress.
func (e *fakeEditor) waitIndexed(runs int) IndexStatus {
	e.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		var st IndexStatus
		e.mustCall(methodIndexStatus, nil, &st)
		done := len(st.Folders) > 0
		for _, f := range st.Folders {
			done = done && f.Runs >= runs && !f.Indexing
		}
		if done {
			return st
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("index runs did not reach %d: %+v", runs, st)
		}
		// Poll on the next note or a short tick; indexing has no
		// notification of its own without progress support.
		e.mu.Lock()
		ch := e.signal
		e.mu.Unlock()
		select {
		case <-ch:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (e *fakeEditor) uri(rel string) uri.URI { return uri.File(filepath.Join(e.root, rel)) }

func (e *fakeEditor) open(rel string) string {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.root, rel))
	if err != nil {
		e.t.Fatal(err)
	}
	e.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: e.uri(rel), LanguageID: "go", Version: 1, Text: string(b),
	}})
	return string(b)
}

func (e *fakeEditor) change(rel string, version int32, changes ...protocol.TextDocumentContentChangeEvent) {
	e.t.Helper()
	e.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: e.uri(rel)}, Version: version},
		ContentChanges: changes,
	})
}

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func (e *fakeEditor) tdpp(rel string, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(rel)}, Position: p}
}

// rpcCode extracts a JSON-RPC error code.
func rpcCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func (e *fakeEditor) uriAbs(abs string) uri.URI { return uri.File(abs) }

func (e *fakeEditor) tdppAbs(abs string, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(abs)}, Position: p}
}

// writeRaw sends one framed message with an arbitrary body. The
// connection serialises its own writes; tests call this only while no
// other message is being sent.
func (e *fakeEditor) writeRaw(t *testing.T, body string) {
	t.Helper()
	if _, err := fmt.Fprintf(e.raw, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		t.Fatal(err)
	}
}
