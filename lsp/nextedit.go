package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/agent/complete"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/workspace"
)

// Next-edit proposals (docs/protocol.md): after the user's edit, the edit
// that most likely comes next (agent/complete.NextEdit), offered for the
// document version the client named and never for another.

const (
	methodNextEdit = "parley/nextEdit"
	// commandNextEditAccepted is the command a proposal carries: clients
	// run it once they applied the proposal's edits.
	commandNextEditAccepted = "parley.nextEdit.accepted"
)

// NextEditParams are parley/nextEdit's params.
type NextEditParams struct {
	TextDocument protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	Position     protocol.Position                        `json:"position"`
}

// NextEditEdit is one edit of a proposal, for the document version it was
// computed against (version null: a file not open in the editor).
type NextEditEdit struct {
	TextDocument protocol.OptionalVersionedTextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                                   `json:"range"`
	NewText      string                                           `json:"newText"`
}

// NextEditResult is parley/nextEdit's answer: no edits when there is no
// proposal, with Reason saying why.
type NextEditResult struct {
	ID      string            `json:"id,omitempty"`
	Edits   []NextEditEdit    `json:"edits"`
	Why     string            `json:"why,omitempty"`
	Reason  string            `json:"reason,omitempty"`
	Command *protocol.Command `json:"command,omitempty"`
}

func (s *Server) nextEdit(ctx context.Context, raw json.RawMessage) (*NextEditResult, error) {
	var p NextEditParams
	if err := json.Unmarshal(luaObjectsFor[NextEditParams](raw), &p); err != nil {
		return nil, invalidParams("%s: %v", methodNextEdit, err)
	}
	f, abs, rel, err := s.inFolder(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	none := &NextEditResult{Edits: []NextEditEdit{}}
	ov, open := s.overlays.Get(abs)
	if !open || ov.Version != p.TextDocument.Version {
		none.Reason = "stale: the document has changed since that version"
		return none, nil
	}
	recent := s.completion.edits.Recent()
	if len(recent) == 0 || recent[0].Path != rel {
		none.Reason = "no recent edit in this document"
		return none, nil
	}
	mode := s.completionEngine().NextEditMode()
	if mode == config.NextEditOff {
		none.Reason = "next-edit proposals are off (completion.next_edit)"
		return none, nil
	}
	d := &doc{f: f, abs: abs, rel: rel}
	src := complete.NextEditSource{Store: f.store, Path: rel, Text: ov.Content, Last: recent[0], Read: s.pyReader(d)}
	prop, ok := complete.NextEdit(src)
	if !ok && mode == config.NextEditModel {
		if prop, ok, err = s.modelNextEdit(ctx, src, recent, int(p.Position.Line)); err != nil {
			s.log.Warnf("next edit %s: %v", rel, err)
		}
	}
	if !ok {
		none.Reason = "nothing to propose"
		return none, nil
	}
	res := &NextEditResult{ID: s.completion.nextID(), Why: prop.Why}
	for _, e := range prop.Edits {
		eabs := filepath.Join(f.root, filepath.FromSlash(e.Path))
		id := protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.File(eabs)}}
		if o, open := s.overlays.Get(eabs); open {
			v := o.Version
			id.Version = &v
		}
		r := s.toRange(s.linesOf(f, e.Path, eabs), extract.Range{Start: e.Start, End: e.End})
		res.Edits = append(res.Edits, NextEditEdit{TextDocument: id, Range: r, NewText: e.NewText})
	}
	arg, _ := json.Marshal(map[string]string{"id": res.ID})
	res.Command = &protocol.Command{Title: prop.Why, Command: commandNextEditAccepted, Arguments: []protocol.LSPAny{protocol.LSPAny(arg)}}
	s.completion.record(res.ID, complete.NextEditOffered, rel)
	return res, nil
}

// modelNextEdit asks the agent's chat model (completion.next_edit
// "model").
func (s *Server) modelNextEdit(ctx context.Context, src complete.NextEditSource, recent []complete.RecentEdit, line int) (complete.Proposal, bool, error) {
	b, err := s.agents.agentFor()
	if err != nil {
		return complete.Proposal{}, false, err
	}
	ask := func(ctx context.Context, system, user string, maxTokens int) (string, error) {
		resp, err := b.provider.Stream(ctx, &provider.Request{
			Model: b.cfg.Model, System: system, MaxTokens: maxTokens,
			Messages: []provider.Message{{Role: provider.RoleUser, Blocks: []provider.Block{{Kind: provider.BlockText, Text: user}}}},
		}, nil)
		if err != nil {
			return "", err
		}
		var text strings.Builder
		for _, bl := range resp.Message.Blocks {
			if bl.Kind == provider.BlockText {
				text.WriteString(bl.Text)
			}
		}
		return text.String(), nil
	}
	return complete.ModelNextEdit(ctx, src, recent, line, ask)
}

// nextEditAccepted counts an applied proposal.
func (s *Server) nextEditAccepted(p *protocol.ExecuteCommandParams) error {
	var a struct {
		ID string `json:"id"`
	}
	if len(p.Arguments) != 1 || json.Unmarshal(p.Arguments[0], &a) != nil || a.ID == "" {
		return invalidParams("%s takes one argument {id}", p.Command)
	}
	s.completion.record(a.ID, complete.NextEditAccepted, "")
	return nil
}

// record writes a next-edit event to the stats log (the language of an
// accepted proposal is its offer's).
func (h *completionHost) record(id, kind, rel string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.proposalLang == nil {
		h.proposalLang = map[string]string{}
	}
	lang := workspace.DetectLanguage(rel, nil)
	if kind == complete.NextEditAccepted {
		l, ok := h.proposalLang[id]
		if !ok {
			return
		}
		lang = l
	} else {
		if len(h.proposalLang) > 256 {
			clear(h.proposalLang)
		}
		h.proposalLang[id] = lang
	}
	if h.stats != nil {
		h.stats.Add(complete.Event{Time: time.Now(), Kind: kind, ID: id, Language: lang})
	}
}

// nextID names a next-edit proposal.
func (h *completionHost) nextID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.proposals++
	return fmt.Sprintf("e%d", h.proposals)
}
