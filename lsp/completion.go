package lsp

import (
	"context"
	"encoding/json"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent/complete"
	"github.com/parleyhq/parley/workspace"
)

// Inline completion (docs/protocol.md): textDocument/inlineCompletion and
// parley/inlineCompletion answer from one agent/complete.Engine per
// server, built from the configuration on first use and rebuilt when it
// changes; every change to an open document feeds the engine's edit ring.

const (
	methodInlineCompletion  = "parley/inlineCompletion"
	methodCompletionEvent   = "parley/completionEvent"
	methodCompletionContext = "parley/completionContext"
	// commandCompletionAccepted is the command an item carries: clients
	// run it when the user accepts the item.
	commandCompletionAccepted = "parley.completion.accepted"
)

// completionHost is the server's completion engine and what feeds it.
type completionHost struct {
	edits *complete.EditRing

	mu      sync.Mutex
	engine  *complete.Engine
	built   bool
	stats   *complete.StatsLog
	noticed bool // the "no completion model" notice was shown
	// proposals counts next-edit proposals and proposalLang keeps their
	// languages (nextedit.go).
	proposals    int
	proposalLang map[string]string
}

func newCompletionHost() *completionHost {
	return &completionHost{edits: complete.NewEditRing()}
}

// engine returns the engine, building it from the configuration the
// first time (and after invalidate).
func (s *Server) completionEngine() *complete.Engine {
	h := s.completion
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.built {
		return h.engine
	}
	set, err := s.completionSettings()
	if err != nil {
		s.log.Warnf("completion: %v", err)
		s.notifyCompletionOnce(h, "parley: inline completion is off: "+err.Error())
	}
	if h.stats == nil {
		if p, ok := s.completionStatsPath(); ok {
			h.stats = complete.OpenStatsLog(p)
		}
	}
	var sink complete.StatsSink
	if h.stats != nil {
		sink = h.stats.Add
	}
	h.engine, h.built = complete.NewEngine(set, sink), true
	return h.engine
}

// forgetCompletion drops a closed document's completion state, cancelling
// its model call in flight.
func (s *Server) forgetCompletion(abs string) {
	h := s.completion
	h.mu.Lock()
	e := h.engine
	h.mu.Unlock()
	if e != nil {
		e.Forget(abs)
	}
}

// invalidateCompletion makes the next request rebuild the engine's
// settings (the configuration changed).
func (s *Server) invalidateCompletion() {
	h := s.completion
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.engine != nil {
		set, err := s.completionSettings()
		if err != nil {
			s.log.Warnf("completion: %v", err)
		}
		h.engine.SetSettings(set)
	}
}

// notifyCompletionOnce shows msg once per session. Precondition: h.mu held.
func (s *Server) notifyCompletionOnce(h *completionHost, msg string) {
	if h.noticed {
		return
	}
	h.noticed = true
	go func() {
		_ = s.client.ShowMessage(context.Background(), &protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: msg})
	}()
}

// completionStatsPath is the stats log of the primary folder: beside its
// index, where `parley stats --completions` reads it.
func (s *Server) completionStatsPath() (string, bool) {
	root := s.primaryRoot()
	if root == "" || s.opts.StoreDir == nil {
		return "", false
	}
	dir, err := s.opts.StoreDir(root)
	if err != nil {
		return "", false
	}
	return complete.StatsPath(dir), true
}

// InlineCompletion answers textDocument/inlineCompletion (LSP 3.18).
func (s *Server) InlineCompletion(ctx context.Context, p *protocol.InlineCompletionParams) (protocol.InlineCompletionResult, error) {
	list, err := s.inlineCompletion(ctx, p)
	if err != nil {
		return nil, err
	}
	return list, nil
}

// inlineCompletion serves both methods.
func (s *Server) inlineCompletion(ctx context.Context, p *protocol.InlineCompletionParams) (*protocol.InlineCompletionList, error) {
	empty := &protocol.InlineCompletionList{Items: []protocol.InlineCompletionItem{}}
	f, abs, rel, err := s.inFolder(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	t, err := s.text(abs)
	if err != nil {
		return nil, invalidParams("%s: %v", abs, err)
	}
	d := &doc{f: f, abs: abs, rel: rel, fileText: t}
	off, err := s.offset(d, p.Position)
	if err != nil {
		return nil, err
	}
	e := s.completionEngine()
	if !e.Configured() {
		h := s.completion
		h.mu.Lock()
		s.notifyCompletionOnce(h, "parley: no completion model is configured, so inline completion is off. Set \"completion\" in ~/.config/parley/config.json (see docs/completion.md).")
		h.mu.Unlock()
		return empty, nil
	}
	head := t.content[:min(len(t.content), 512)]
	res, err := e.Complete(ctx, complete.Request{
		Source: complete.Source{
			Store: f.store, Path: rel, Language: workspace.DetectLanguage(rel, head),
			Text: t.content, Offset: off, Read: s.pyReader(d), Recent: s.completion.edits.Recent(),
		},
		Doc:     abs,
		Invoked: p.Context.TriggerKind == protocol.InlineCompletionTriggerKindInvoked,
	})
	if err != nil {
		// The model's failure is the user's to see in the log, not a
		// failed request per keystroke.
		s.log.Warnf("completion %s: %v", rel, err)
		return empty, nil
	}
	for _, it := range res.Items {
		r := protocol.Range{Start: p.Position, End: p.Position}
		arg, _ := json.Marshal(map[string]string{"id": it.ID})
		empty.Items = append(empty.Items, protocol.InlineCompletionItem{
			InsertText: protocol.String(it.Text),
			Range:      &r,
			Command:    protocol.Command{Title: "", Command: commandCompletionAccepted, Arguments: []protocol.LSPAny{protocol.LSPAny(arg)}},
		})
	}
	return empty, nil
}

// completionEvent records a client's feedback notification.
func (s *Server) completionEvent(raw json.RawMessage) error {
	var ev struct {
		ID    string `json:"id"`
		Event string `json:"event"`
		Chars int    `json:"chars"`
	}
	if err := json.Unmarshal(raw, &ev); err != nil {
		return invalidParams("%s: %v", methodCompletionEvent, err)
	}
	s.completionEngine().Feedback(ev.ID, ev.Event, ev.Chars)
	return nil
}

func (s *Server) completionContext(raw json.RawMessage) (any, error) {
	var p struct {
		ID string `json:"id"`
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(luaObjectsFor[struct{ ID string }](raw), &p); err != nil {
			return nil, invalidParams("%s: %v", methodCompletionContext, err)
		}
	}
	prep, ok := s.completionEngine().LastContext(p.ID)
	if !ok {
		return nil, invalidParams("%s: no completion %q was offered in this session", methodCompletionContext, p.ID)
	}
	return prep.Report(), nil
}

// completionAccepted handles the accepted item's command.
func (s *Server) completionAccepted(p *protocol.ExecuteCommandParams) error {
	if len(p.Arguments) != 1 {
		return invalidParams("%s takes one argument {id}", p.Command)
	}
	var a struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(p.Arguments[0], &a); err != nil {
		return invalidParams("%s: %v", p.Command, err)
	}
	s.completionEngine().Feedback(a.ID, "accepted", 0)
	return nil
}
