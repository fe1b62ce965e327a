package lspclient

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/tools"
)

// The few LSP messages a diagnostics client sends and reads, spelled out
// here rather than taken from go.lsp.dev/protocol: a client must accept
// what every server sends (a code that is a number or a string, a missing
// version), and these structs decode exactly that.

type position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type wireDiagnostic struct {
	Range    lspRange        `json:"range"`
	Severity int             `json:"severity,omitempty"`
	Code     json.RawMessage `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
}

// DecodeDiagnostics decodes LSP Diagnostic objects (as a client such as
// VS Code or Neovim reports them in parley/diagnostics) for the tools.
func DecodeDiagnostics(data json.RawMessage) ([]tools.Diagnostic, error) {
	var ds []wireDiagnostic
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	if err := json.Unmarshal(data, &ds); err != nil {
		return nil, fmt.Errorf("diagnostics: %w", err)
	}
	return convert(ds), nil
}

// code is the diagnostic's code as text (LSP allows a number or a string).
func (d wireDiagnostic) code() string {
	s := strings.TrimSpace(string(d.Code))
	if s == "" || s == "null" {
		return ""
	}
	var str string
	if json.Unmarshal(d.Code, &str) == nil {
		return str
	}
	return s
}

type publishDiagnosticsParams struct {
	URI         string           `json:"uri"`
	Version     *int32           `json:"version,omitempty"`
	Diagnostics []wireDiagnostic `json:"diagnostics"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

type initializeParams struct {
	ProcessID        int               `json:"processId"`
	ClientInfo       map[string]string `json:"clientInfo"`
	RootURI          string            `json:"rootUri"`
	WorkspaceFolders []workspaceFolder `json:"workspaceFolders"`
	Capabilities     map[string]any    `json:"capabilities"`
}

// clientCapabilities asks for versioned diagnostics; the rest is what a
// server needs to know to leave the client alone (no progress tokens, no
// watched files).
var clientCapabilities = map[string]any{
	"textDocument": map[string]any{
		"synchronization":    map[string]any{"dynamicRegistration": false},
		"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": false},
	},
	"workspace": map[string]any{"configuration": true, "workspaceFolders": true},
	"window":    map[string]any{"workDoneProgress": false},
	"general":   map[string]any{"positionEncodings": []string{"utf-16"}},
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int32  `json:"version"`
	Text       string `json:"text"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type versionedDocument struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
}

type contentChange struct {
	Text string `json:"text"`
}

type didChangeParams struct {
	TextDocument   versionedDocument `json:"textDocument"`
	ContentChanges []contentChange   `json:"contentChanges"`
}

type documentIdentifier struct {
	URI string `json:"uri"`
}

type didCloseParams struct {
	TextDocument documentIdentifier `json:"textDocument"`
}

type configurationParams struct {
	Items []json.RawMessage `json:"items"`
}

// languageID is the LSP languageId of a workspace.DetectLanguage name.
func languageID(lang, path string) string {
	switch lang {
	case "tsx":
		return "typescriptreact"
	case "javascript":
		if strings.HasSuffix(path, ".jsx") {
			return "javascriptreact"
		}
	}
	return lang
}
