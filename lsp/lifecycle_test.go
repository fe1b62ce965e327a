package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/internal/fixture"
)

func TestLifecycle(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	e := startEditor(t, root, editorConfig{noInit: true})

	// Requests before initialize are refused; the server keeps serving.
	err := e.call(protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: "Fee"}, nil)
	if rpcCode(err) != jsonrpc2.ServerNotInitialized {
		t.Fatalf("request before initialize: %v, want ServerNotInitialized", err)
	}
	res := e.initialize(editorConfig{})
	if res.Capabilities.PositionEncoding != protocol.PositionEncodingKindUTF16 {
		t.Errorf("encoding %q, want utf-16 by default", res.Capabilities.PositionEncoding)
	}
	if res.Capabilities.CompletionProvider != nil || res.Capabilities.RenameProvider != nil {
		t.Errorf("advertises features it does not have: %+v", res.Capabilities)
	}
	if err := e.call(protocol.MethodInitialize, &protocol.InitializeParams{}, nil); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: %v, want InvalidRequest", err)
	}
	e.waitIndexed(1)
	e.mustCall(protocol.MethodShutdown, nil, nil)
	if err := e.call(protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: "Fee"}, nil); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: %v, want InvalidRequest", err)
	}
	e.notify(protocol.MethodExit, nil)
	if code := <-e.exit; code != 0 {
		t.Errorf("exit after shutdown: code %d, want 0", code)
	}
	e.exit <- 0 // for the cleanup
}

func TestExitWithoutShutdown(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	e := startEditor(t, root, editorConfig{})
	e.notify(protocol.MethodExit, nil)
	if code := <-e.exit; code != 1 {
		t.Errorf("exit without shutdown: code %d, want 1", code)
	}
	e.exit <- 1
}

func TestUTF8Negotiated(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	e := startEditor(t, root, editorConfig{noInit: true})
	res := e.initialize(editorConfig{utf8: true})
	if res.Capabilities.PositionEncoding != protocol.PositionEncodingKindUTF8 {
		t.Errorf("encoding %q, want utf-8 when offered", res.Capabilities.PositionEncoding)
	}
}

func TestIndexStatusAndRestart(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	data := t.TempDir()
	opts := func(o *Options) {
		o.StoreDir = func(string) (string, error) { return filepath.Join(data, "index"), nil }
		o.NoWatch = true
	}
	e := startEditor(t, root, editorConfig{serverOpts: opts, progress: true})
	st := e.waitIndexed(1)
	if st.Files != 5 || st.Symbols == 0 || st.Indexing || st.LastError != "" {
		t.Fatalf("status after first run: %+v", st)
	}
	_, i := e.waitNote(0, "progress end", func(n note) bool { k, _ := progressKind(n); return k == "end" })
	_, msg := progressKind(e.notes[i])
	if want := "5 files, 5 changed"; !strings.Contains(msg, want) {
		t.Errorf("first run: %q, want %q", msg, want)
	}
	e.mustCall(protocol.MethodShutdown, nil, nil)
	e.notify(protocol.MethodExit, nil)
	e.exit <- <-e.exit

	// A new server on the same store resumes: nothing to re-extract.
	e2 := startEditor(t, root, editorConfig{serverOpts: opts, progress: true})
	e2.waitIndexed(1)
	_, i = e2.waitNote(0, "progress end", func(n note) bool { k, _ := progressKind(n); return k == "end" })
	_, msg = progressKind(e2.notes[i])
	if want := "5 files, 0 changed"; !strings.Contains(msg, want) {
		t.Errorf("restart: %q, want %q", msg, want)
	}

	// parley/reindex starts another run, which finds a file the server
	// was not told about (no watcher here).
	os.WriteFile(filepath.Join(root, "extra.go"), []byte("package shop\n\nfunc Extra() {}\n"), 0o644)
	e2.mustCall(methodReindex, nil, nil)
	if st := e2.waitIndexed(2); st.Files != 6 {
		t.Errorf("after parley/reindex: %d files, want 6", st.Files)
	}
}

// A panicking handler answers InternalError; the server goes on.
func TestHandlerPanicIsAnError(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	e := startEditor(t, root, editorConfig{})
	hook := func(_ context.Context, method string) {
		if method == protocol.MethodWorkspaceSymbol {
			panic("handler bug")
		}
	}
	e.srv.testHookRequest.Store(&hook)
	err := e.call(protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: "Fee"}, nil)
	if rpcCode(err) != jsonrpc2.InternalError || !strings.Contains(err.Error(), "handler bug") {
		t.Fatalf("panicking request: %v", err)
	}
	e.srv.testHookRequest.Store(nil)
	e.waitIndexed(1)
}

// Bad initializationOptions fail initialize with InvalidParams, and the
// client may try again.
func TestInitializationOptionsRejected(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	for name, opts := range map[string]string{
		"log level":         `{"logLevel": "loud"}`,
		"edit confirmation": `{"editConfirmation": "always"}`,
		"agent layer":       `{"agent": {"modle": "x"}}`,
		"shape":             `{"index": {"exclude": "gen"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			e := startEditor(t, root, editorConfig{noInit: true})
			p := &protocol.InitializeParams{InitializationOptions: protocol.LSPAny(opts)}
			p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: "shop"}})
			if err := e.call(protocol.MethodInitialize, p, nil); rpcCode(err) != jsonrpc2.InvalidParams {
				t.Fatalf("initialize with %s: %v", opts, err)
			}
			p.InitializationOptions = protocol.LSPAny(`{"editConfirmation": "annotations", "agent": {"model": "m"}}`)
			if err := e.call(protocol.MethodInitialize, p, nil); err != nil {
				t.Fatalf("initialize again with valid options: %v", err)
			}
		})
	}
}
