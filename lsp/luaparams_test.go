package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/internal/fixture"
)

// A Lua client sends an empty table as []: initialize takes null, {} and
// [] as no options, and [] for each object inside them.
func TestInitializationOptionsEmpty(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	for _, opts := range []string{`null`, `{}`, `[]`, ` [ ] `, `{"index": [], "agent": []}`,
		`{"agent": {"model": "m", "permissions": []}, "index": {"exclude": []}}`} {
		t.Run(opts, func(t *testing.T) {
			e := startEditor(t, root, editorConfig{noInit: true})
			p := &protocol.InitializeParams{InitializationOptions: protocol.LSPAny(opts)}
			p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: "shop"}})
			if err := e.call(protocol.MethodInitialize, p, nil); err != nil {
				t.Fatalf("initialize with initializationOptions %s: %v", opts, err)
			}
		})
	}
}

// didChangeConfiguration takes [] for the settings and each object in
// them; an empty agent object resets the client's agent settings.
func TestDidChangeConfigurationEmptyTables(t *testing.T) {
	s := New(Options{})
	for _, settings := range []string{`[]`, `{"parley": []}`, `{"parley": {"agent": []}}`, `{"agent": []}`,
		`{"parley": {"agent": {"model": "m", "permissions": []}}}`} {
		err := s.DidChangeConfiguration(context.Background(), &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(settings)})
		if err != nil {
			t.Errorf("settings %s: %v", settings, err)
		}
	}
	if err := s.DidChangeConfiguration(context.Background(), &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(`{"agent": {"modle": "m"}}`)}); err == nil {
		t.Error("a misspelt agent setting was accepted")
	}
}

// parley/ requests take [] for their params and for objects in them.
func TestParleyParamsEmptyTables(t *testing.T) {
	m := newScriptModel()
	m.script("hi", reply("hello"))
	e := chatEditor(t, m, "", false)
	var res ChatResult
	if err := e.call(methodChat, json.RawMessage(`{"message": "hi", "context": []}`), &res); err != nil {
		t.Fatalf("parley/chat with context []: %v", err)
	}
	if res.Text != "hello" {
		t.Errorf("chat result %+v", res)
	}
	var stats ServerStats
	if err := e.call(methodServerStats, json.RawMessage(`[]`), &stats); err != nil {
		t.Errorf("parley/serverStats with params []: %v", err)
	}
	if err := e.call(methodSession, json.RawMessage(`[]`), nil); err == nil || !strings.Contains(err.Error(), `{"session": ID}`) {
		t.Errorf("parley/session with params []: %v, want the params' shape explained", err)
	}
	var cmdRes json.RawMessage
	m.script("Explain what this code does", reply("explained"))
	if err := e.call(protocol.MethodWorkspaceExecuteCommand, json.RawMessage(`{"command": "parley.explain", "arguments": [[]]}`), &cmdRes); err != nil {
		t.Errorf("parley.explain with argument []: %v", err)
	}
}
