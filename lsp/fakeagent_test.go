package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/workspace"
)

// agentClient is the editor's side of the agent in the fake editor: it
// keeps open documents, applies workspace/applyEdit the way editors do
// (open documents change and are reported with didChange; closed files
// change in an editor buffer the server is not told about) and answers
// approval questions from a script.
type agentClient struct {
	mu      sync.Mutex
	docs    map[string]*editorDoc // open documents by absolute path
	buffers map[string]string     // closed files changed by edits
	// reject, when it returns a reason, refuses an edit with it.
	reject  func(p wireApply) string
	answers []string // showMessageRequest answers in order; "" dismisses
	asked   []string
	applied []wireApply // every applyEdit received
	// diagnostics are what parley/diagnostics answers, by URI, once the
	// open document was changed (before: an empty list); noDiagnostics makes it MethodNotFound, as a client
	// without the request answers. diagRequests records the requests.
	diagnostics   map[string]string
	noDiagnostics bool
	diagRequests  []diagnosticsParams
}

// answerDiagnostics is the client's side of parley/diagnostics.
func (a *agentClient) answerDiagnostics(params json.RawMessage) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.noDiagnostics {
		return nil, jsonrpc2.ErrMethodNotFound
	}
	var p diagnosticsParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	a.diagRequests = append(a.diagRequests, p)
	res := diagnosticsResult{Items: []diagnosticsItem{}}
	for _, u := range p.URIs {
		d := ""
		if doc := a.docs[uri.URI(u).FsPath()]; doc != nil && doc.version > 1 {
			d = a.diagnostics[u]
		}
		if d == "" {
			d = "[]"
		}
		res.Items = append(res.Items, diagnosticsItem{URI: u, Diagnostics: json.RawMessage(d), Settled: true})
	}
	return res, nil
}

type editorDoc struct {
	version int32
	text    string
}

// wireApply is workspace/applyEdit's params as JSON, decoded without the
// protocol package so the wire shape itself is checked.
type wireApply struct {
	Label string `json:"label"`
	Edit  struct {
		Changes           map[string][]wireTextEdit `json:"changes"`
		DocumentChanges   []json.RawMessage         `json:"documentChanges"`
		ChangeAnnotations map[string]struct {
			Label             string `json:"label"`
			NeedsConfirmation bool   `json:"needsConfirmation"`
		} `json:"changeAnnotations"`
	} `json:"edit"`
}

type wireTextEdit struct {
	Range        protocol.Range `json:"range"`
	NewText      string         `json:"newText"`
	AnnotationID string         `json:"annotationId"`
}

type wireDocChange struct {
	Kind         string `json:"kind"` // create, rename, delete; "" for a text edit
	URI          string `json:"uri"`
	OldURI       string `json:"oldUri"`
	NewURI       string `json:"newUri"`
	TextDocument struct {
		URI     string `json:"uri"`
		Version *int32 `json:"version"`
	} `json:"textDocument"`
	Edits []wireTextEdit `json:"edits"`
}

// openText opens rel in the editor with text (possibly unsaved).
func (e *fakeEditor) openText(rel, text string) {
	e.t.Helper()
	abs := filepath.Join(e.root, rel)
	e.agent.mu.Lock()
	if e.agent.docs == nil {
		e.agent.docs = map[string]*editorDoc{}
	}
	e.agent.docs[abs] = &editorDoc{version: 1, text: text}
	e.agent.mu.Unlock()
	e.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: e.uri(rel), LanguageID: "go", Version: 1, Text: text,
	}})
}

// docText returns an open document's text and version.
func (e *fakeEditor) docText(rel string) (string, int32) {
	e.agent.mu.Lock()
	defer e.agent.mu.Unlock()
	d := e.agent.docs[filepath.Join(e.root, rel)]
	if d == nil {
		return "", 0
	}
	return d.text, d.version
}

// bufferText returns what the editor holds for a closed file it changed.
func (e *fakeEditor) bufferText(rel string) (string, bool) {
	e.agent.mu.Lock()
	defer e.agent.mu.Unlock()
	t, ok := e.agent.buffers[filepath.Join(e.root, rel)]
	return t, ok
}

func (e *fakeEditor) agentRequest(ctx context.Context, method string, params json.RawMessage) (any, error) {
	a := &e.agent
	if method == protocol.MethodWindowShowMessageRequest {
		var p protocol.ShowMessageRequestParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		a.asked = append(a.asked, p.Message)
		if len(a.answers) == 0 {
			return nil, fmt.Errorf("unexpected question %q", p.Message)
		}
		ans := a.answers[0]
		a.answers = a.answers[1:]
		if ans == "" {
			return nil, nil
		}
		return map[string]string{"title": ans}, nil
	}
	var p wireApply
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.applied = append(a.applied, p)
	reject := a.reject
	a.mu.Unlock()
	if reject != nil {
		if reason := reject(p); reason != "" {
			return map[string]any{"applied": false, "failureReason": reason}, nil
		}
	}
	changed, err := e.applyWire(p)
	if err != nil {
		return map[string]any{"applied": false, "failureReason": err.Error()}, nil
	}
	for _, abs := range changed {
		a.mu.Lock()
		d := *a.docs[abs]
		a.mu.Unlock()
		e.conn.Notify(ctx, protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument":   map[string]any{"uri": uri.File(abs), "version": d.version},
			"contentChanges": []map[string]string{{"text": d.text}},
		})
	}
	return map[string]any{"applied": true}, nil
}

// applyWire applies an edit to the editor's state and returns the open
// documents it changed. Like an editor, it refuses the whole edit when a
// versioned document is not at that version.
func (e *fakeEditor) applyWire(p wireApply) ([]string, error) {
	a := &e.agent
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.buffers == nil {
		a.buffers = map[string]string{}
	}
	var changed []string
	for _, raw := range p.Edit.DocumentChanges {
		var dc wireDocChange
		if err := json.Unmarshal(raw, &dc); err != nil {
			return nil, err
		}
		switch dc.Kind {
		case "create":
			abs := uri.URI(dc.URI).FsPath()
			if err := os.WriteFile(abs, nil, 0o644); err != nil {
				return nil, err
			}
			a.buffers[abs] = ""
			continue
		case "rename":
			from, to := uri.URI(dc.OldURI).FsPath(), uri.URI(dc.NewURI).FsPath()
			if err := os.Rename(from, to); err != nil {
				return nil, err
			}
			if b, ok := a.buffers[from]; ok {
				a.buffers[to] = b
				delete(a.buffers, from)
			}
			continue
		case "delete":
			abs := uri.URI(dc.URI).FsPath()
			if err := os.Remove(abs); err != nil {
				return nil, err
			}
			delete(a.buffers, abs)
			continue
		}
		abs := uri.URI(dc.TextDocument.URI).FsPath()
		if d, open := a.docs[abs]; open {
			if dc.TextDocument.Version == nil || *dc.TextDocument.Version != d.version {
				return nil, fmt.Errorf("%s is at version %d", abs, d.version)
			}
			text, err := applyWireEdits(d.text, dc.Edits)
			if err != nil {
				return nil, err
			}
			d.text, d.version = text, d.version+1
			changed = append(changed, abs)
			continue
		}
		if dc.TextDocument.Version != nil {
			return nil, fmt.Errorf("%s is not open but the edit names version %d", abs, *dc.TextDocument.Version)
		}
		base, ok := a.buffers[abs]
		if !ok {
			b, err := os.ReadFile(abs)
			if err != nil {
				return nil, err
			}
			base = string(b)
		}
		text, err := applyWireEdits(base, dc.Edits)
		if err != nil {
			return nil, err
		}
		a.buffers[abs] = text
	}
	return changed, nil
}

// applyWireEdits applies UTF-16 edits, last first.
func applyWireEdits(text string, edits []wireTextEdit) (string, error) {
	lines := workspace.NewLines([]byte(text))
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, ed := range edits {
		s, err1 := lines.Offset(ed.Range.Start.Line, ed.Range.Start.Character, workspace.UTF16)
		t, err2 := lines.Offset(ed.Range.End.Line, ed.Range.End.Character, workspace.UTF16)
		if err1 != nil || err2 != nil || t < s {
			return "", fmt.Errorf("bad range %v", ed.Range)
		}
		spans = append(spans, span{s, t, ed.NewText})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start > spans[j].start })
	for _, sp := range spans {
		text = text[:sp.start] + sp.text + text[sp.end:]
	}
	return text, nil
}

// modelStep answers one model call of a session.
type modelStep func(ctx context.Context, req *provider.Request) (*provider.Response, error)

// scriptModel is an in-process model whose answers are scripted per
// session, keyed by the first line of the session's first message, so
// sessions running at once each follow their own script.
type scriptModel struct {
	mu      sync.Mutex
	scripts map[string][]modelStep
	calls   map[string]int
}

func newScriptModel() *scriptModel {
	return &scriptModel{scripts: map[string][]modelStep{}, calls: map[string]int{}}
}

func (m *scriptModel) script(firstLine string, steps ...modelStep) {
	m.mu.Lock()
	m.scripts[firstLine] = steps
	m.mu.Unlock()
}

func (m *scriptModel) Name() string { return "script" }

func (m *scriptModel) Stream(ctx context.Context, req *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error) {
	key := ""
	if len(req.Messages) > 0 && len(req.Messages[0].Blocks) > 0 {
		key, _, _ = strings.Cut(req.Messages[0].Blocks[0].Text, "\n")
	}
	m.mu.Lock()
	steps := m.scripts[key]
	n := m.calls[key]
	m.calls[key]++
	m.mu.Unlock()
	if n >= len(steps) {
		return nil, fmt.Errorf("script %q: unexpected model call %d", key, n+1)
	}
	res, err := steps[n](ctx, req)
	if err == nil {
		for _, b := range res.Message.Blocks {
			if b.Kind == provider.BlockText {
				onDelta(provider.Delta{Kind: provider.DeltaText, Text: b.Text})
			}
		}
	}
	return res, err
}

var stepUsage = provider.Usage{InputTokens: 10, OutputTokens: 3}

// reply answers with text and ends the turn.
func reply(text string) modelStep {
	return func(context.Context, *provider.Request) (*provider.Response, error) {
		return &provider.Response{
			Message:    provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{{Kind: provider.BlockText, Text: text}}},
			StopReason: provider.StopEndTurn, Usage: stepUsage,
		}, nil
	}
}

var callSeq atomic.Int64

// calls answers with tool calls given as name, JSON input pairs.
func calls(nameInput ...string) modelStep {
	return func(context.Context, *provider.Request) (*provider.Response, error) {
		var blocks []provider.Block
		for i := 0; i+1 < len(nameInput); i += 2 {
			blocks = append(blocks, provider.Block{Kind: provider.BlockToolUse, ToolCallID: fmt.Sprintf("call%d", callSeq.Add(1)),
				ToolName: nameInput[i], Input: json.RawMessage(nameInput[i+1])})
		}
		return &provider.Response{
			Message:    provider.Message{Role: provider.RoleAssistant, Blocks: blocks},
			StopReason: provider.StopToolUse, Usage: stepUsage,
		}, nil
	}
}

// agentOpts serves the model and a configuration (JSON of a config
// layer) that reads no user files or environment.
func agentOpts(m provider.Provider, layer string) func(*Options) {
	return func(o *Options) {
		o.Agent = AgentOptions{
			Config:      config.Options{UserFile: "-", Getenv: func(string) string { return "" }},
			NewProvider: func(*config.Config) (provider.Provider, error) { return m, nil },
		}
		if layer != "" {
			o.Agent.Config.Flags = mustLayer(layer)
		}
	}
}

func mustLayer(s string) config.Layer {
	var l config.Layer
	if err := json.Unmarshal([]byte(s), &l); err != nil {
		panic(err)
	}
	return l
}

// chatCall runs parley/chat in the background.
func (e *fakeEditor) chatCall(ctx context.Context, p ChatParams) <-chan chatOutcome {
	out := make(chan chatOutcome, 1)
	go func() {
		var res ChatResult
		err := protocol.Call(ctx, e.conn, methodChat, p, &res)
		out <- chatOutcome{res, err}
	}()
	return out
}

type chatOutcome struct {
	res ChatResult
	err error
}

// events returns the parley/event notifications of a session so far.
func (e *fakeEditor) events(session string) []ChatEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []ChatEvent
	for _, n := range e.notes {
		if n.method != methodEvent {
			continue
		}
		var ev ChatEvent
		if json.Unmarshal(n.params, &ev) == nil && (session == "" || ev.Session == session) {
			out = append(out, ev)
		}
	}
	return out
}

// toolResults maps tool names to their results' content, in order.
func toolResults(evs []ChatEvent) map[string][]string {
	out := map[string][]string{}
	calls := map[string]string{}
	for _, ev := range evs {
		switch ev.Kind {
		case "toolCall":
			calls[ev.ToolCallID] = ev.ToolName
		case "toolResult":
			name := calls[ev.ToolCallID]
			out[name] = append(out[name], ev.Result.Content)
		}
	}
	return out
}

func kinds(evs []ChatEvent) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Kind)
	}
	return slices.Compact(out)
}
