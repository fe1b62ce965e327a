package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/internal/fixture"
)

func workspaceSymbols(t *testing.T, e *fakeEditor, query string) []string {
	t.Helper()
	var ws []protocol.SymbolInformation
	e.mustCall(protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: query}, &ws)
	var got []string
	for _, s := range ws {
		rel, _ := filepath.Rel(e.root, s.Location.URI.FsPath())
		got = append(got, fmt.Sprintf("%s@%s:%d:%d", s.Name, rel, s.Location.Range.Start.Line, s.Location.Range.Start.Character))
	}
	return got
}

// An unsaved edit is visible to the very next request: the request waits
// for the buffer to reach the index, not for a timer.
func TestEditSeenByNextRequest(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	e := startEditor(t, root, editorConfig{})
	e.waitIndexed(1)
	e.open("cart/fee.go")
	// Insert a function after the non-ASCII line (incremental change,
	// UTF-16 positions), then rename Discount in place.
	e.change("cart/fee.go", 2, &protocol.TextDocumentContentChangePartial{
		Range: protocol.Range{Start: pos(3, 69), End: pos(3, 69)},
		Text:  "\n\nfunc Surchargé() int { return 5 }",
	})
	if got, want := workspaceSymbols(t, e, "Surcharg"), []string{"Surchargé@cart/fee.go:5:5"}; !slices.Equal(got, want) {
		t.Fatalf("after change: %v, want %v", got, want)
	}
	e.change("cart/fee.go", 3, &protocol.TextDocumentContentChangePartial{
		Range: protocol.Range{Start: pos(3, 5), End: pos(3, 13)}, Text: "Rebate",
	})
	if got := workspaceSymbols(t, e, "Discount"); len(got) != 0 {
		t.Errorf("Discount after rename: %v", got)
	}
	if got := definitions(t, e, "cart/fee.go", pos(3, 7)); !slices.Equal(got, []string{"cart/fee.go:3:5-11"}) {
		t.Errorf("definition of Rebate: %v", got)
	}
	// A stale version is refused and changes nothing.
	e.change("cart/fee.go", 3, &protocol.TextDocumentContentChangeWholeDocument{Text: "package cart\n"})
	if got := workspaceSymbols(t, e, "Rebate"); len(got) != 1 {
		t.Errorf("stale change applied: Rebate %v", got)
	}
	// Closing without saving brings back the disk content.
	e.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri("cart/fee.go")}})
	e.waitIndexed(2)
	if got := workspaceSymbols(t, e, "Discount"); len(got) != 1 {
		t.Errorf("Discount after close: %v", got)
	}
	if got := workspaceSymbols(t, e, "Surcharg"); len(got) != 0 {
		t.Errorf("unsaved Surcharge after close: %v", got)
	}
}

// Disk changes reach the index through the client's watched-file events
// (dynamic registration) or the server's own watcher.
func TestWatchedFiles(t *testing.T) {
	for _, dyn := range []bool{true, false} {
		t.Run(fmt.Sprintf("dynamic=%v", dyn), func(t *testing.T) {
			root := fixture.Workspace(t, "shop")
			e := startEditor(t, root, editorConfig{dynWatch: dyn, fsWatch: !dyn})
			e.waitIndexed(1)
			if dyn {
				// Registration happens in the background after initialized.
				e.waitNote(0, "a round trip", func(note) bool { return true })
			}
			p := filepath.Join(root, "price", "tax.go")
			if err := os.WriteFile(p, []byte("package price\n\nfunc Tax() int { return 7 }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if dyn {
				e.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: e.uri("price/tax.go"), Type: protocol.FileChangeTypeCreated}}})
			}
			e.waitIndexed(2)
			if got := workspaceSymbols(t, e, "Tax"); !slices.Equal(got, []string{"Tax@price/tax.go:2:5"}) {
				t.Errorf("after create: %v", got)
			}
			if dyn {
				e.mu.Lock()
				regs := len(e.regs)
				e.mu.Unlock()
				if regs != 1 {
					t.Errorf("%d registrations, want 1", regs)
				}
			}
		})
	}
}

func TestMultiRoot(t *testing.T) {
	a := fixture.Workspace(t, "shop")
	b := fixture.Workspace(t, "shop")
	if err := os.WriteFile(filepath.Join(b, "only_b.go"), []byte("package shop\n\nfunc OnlyInB() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := startEditor(t, a, editorConfig{folders: []string{a}})
	e.waitIndexed(1)
	if got := workspaceSymbols(t, e, "OnlyInB"); len(got) != 0 {
		t.Fatalf("OnlyInB before adding b: %v", got)
	}
	e.notify(protocol.MethodWorkspaceDidChangeWorkspaceFolders, &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{
		Added: []protocol.WorkspaceFolder{{URI: e.uriAbs(b), Name: "b"}},
	}})
	e.waitIndexed(1)
	// Adding a folder that is already served changes nothing.
	e.notify(protocol.MethodWorkspaceDidChangeWorkspaceFolders, &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{
		Added: []protocol.WorkspaceFolder{{URI: e.uriAbs(a), Name: "a"}},
	}})
	if st := e.waitIndexed(1); len(st.Folders) != 2 {
		t.Fatalf("folders after re-adding a: %+v", st.Folders)
	}
	var ws []protocol.SymbolInformation
	e.mustCall(protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: "OnlyInB"}, &ws)
	if len(ws) != 1 || ws[0].Location.URI.FsPath() != filepath.Join(b, "only_b.go") {
		t.Fatalf("OnlyInB after adding b: %+v", ws)
	}
	e.mustCall(protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: "Discount"}, &ws)
	if len(ws) != 2 {
		t.Errorf("Discount in two folders: %d hits", len(ws))
	}
	e.notify(protocol.MethodWorkspaceDidChangeWorkspaceFolders, &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{
		Removed: []protocol.WorkspaceFolder{{URI: e.uriAbs(b), Name: "b"}},
	}})
	if got := workspaceSymbols(t, e, "OnlyInB"); len(got) != 0 {
		t.Errorf("OnlyInB after removing b: %v", got)
	}
}

// A request cancelled with $/cancelRequest stops and answers
// RequestCancelled; the server keeps serving.
func TestCancelRequest(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	e := startEditor(t, root, editorConfig{})
	e.waitIndexed(1)
	started := make(chan struct{})
	hook := func(ctx context.Context, method string) {
		if method == protocol.MethodWorkspaceSymbol {
			close(started)
			<-ctx.Done()
		}
	}
	e.srv.testHookRequest.Store(&hook)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		// protocol.Call sends $/cancelRequest when ctx is cancelled.
		errc <- protocol.Call(ctx, e.conn, protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: "Fee"}, nil)
	}()
	<-started
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("cancelled request succeeded")
	}
	e.srv.testHookRequest.Store(nil)
	// The server answered the cancelled call with RequestCancelled (seen
	// by the stats: no success recorded) and still serves.
	if got := workspaceSymbols(t, e, "Fee"); len(got) != 3 {
		t.Errorf("after cancel: %v", got)
	}
	if n := e.srv.stats.snapshot()[protocol.MethodWorkspaceSymbol].Count; n != 1 {
		t.Errorf("%d successful workspace/symbol calls, want 1", n)
	}
}

func TestMalformedInput(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.go"), []byte("package x\n"), 0o644)
	if err := os.Symlink(filepath.Join(outside, "x.go"), filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	e := startEditor(t, root, editorConfig{})
	e.waitIndexed(1)
	cases := []struct {
		name   string
		method string
		params any
		want   jsonrpc2.Code
	}{
		{"unknown method", "textDocument/frobnicate", map[string]any{}, jsonrpc2.MethodNotFound},
		{"unknown parley method", "parley/frobnicate", nil, jsonrpc2.MethodNotFound},
		{"line past the end", protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: e.tdpp("cart/fee.go", pos(99, 0))}, jsonrpc2.InvalidParams},
		{"uri outside the roots", protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: e.tdppAbs(filepath.Join(outside, "x.go"), pos(0, 0))}, jsonrpc2.InvalidParams},
		{"symlink out of the roots", protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri("link.go")}}, jsonrpc2.InvalidParams},
		{"params of the wrong shape", protocol.MethodTextDocumentDefinition, map[string]any{"textDocument": 7}, jsonrpc2.InvalidParams},
		{"missing file", protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri("nope.go")}}, jsonrpc2.InvalidParams},
	}
	for _, c := range cases {
		err := e.call(c.method, c.params, nil)
		if rpcCode(err) != c.want {
			t.Errorf("%s: %v, want code %d", c.name, err, c.want)
		}
	}
	// Unknown notifications and changes to unopened documents are
	// ignored.
	e.notify("$/unknownNotification", map[string]any{})
	e.change("cart/cart.go", 9, &protocol.TextDocumentContentChangeWholeDocument{Text: "x"})
	// A frame that is not JSON at all gets a parse error, and the
	// connection survives it.
	if got := workspaceSymbols(t, e, "Fee"); len(got) != 3 {
		t.Fatalf("before garbage: %v", got)
	}
	e.writeRaw(t, "{not json")
	e.writeRaw(t, `{"jsonrpc":"2.0","id":77,"method":`)
	if got := workspaceSymbols(t, e, "Fee"); len(got) != 3 {
		t.Errorf("after garbage: %v", got)
	}
}

// Cancelling the indexing progress item stops the run; the server keeps
// serving and reports the run as cancelled.
func TestCancelIndexing(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	srvOpts := Options{NoWatch: true}
	data := t.TempDir()
	srvOpts.StoreDir = func(string) (string, error) { return filepath.Join(data, "index"), nil }
	e := startEditorWith(t, root, editorConfig{noInit: true}, srvOpts)
	e.srv.testHookIndexProgress = func(ctx context.Context) { <-ctx.Done() }
	e.initialize(editorConfig{progress: true})
	begin, _ := e.waitNote(0, "progress begin", func(n note) bool { k, _ := progressKind(n); return k == "begin" })
	var p struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(begin.params, &p); err != nil {
		t.Fatal(err)
	}
	e.notify(protocol.MethodWindowWorkDoneProgressCancel, &protocol.WorkDoneProgressCancelParams{Token: protocol.String(p.Token)})
	end, _ := e.waitNote(0, "progress end", func(n note) bool { k, _ := progressKind(n); return k == "end" })
	if _, msg := progressKind(end); !strings.Contains(msg, "cancelled") {
		t.Errorf("end message %q, want cancelled", msg)
	}
	var st IndexStatus
	e.mustCall(methodIndexStatus, nil, &st)
	if st.Indexing || st.Folders[0].Runs != 0 {
		t.Errorf("status after cancel: %+v", st)
	}
}
