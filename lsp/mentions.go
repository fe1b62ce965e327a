package lsp

// @-mentions in the editor chat (docs/protocol.md): the picker's
// candidates, and the mentions of a parley/chat message expanded into
// context before the turn's first model call. The work is package
// mentions'; this file adapts the folders, the symbols and the chat's
// context to it.

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/index/extract"
)

const methodMentionCandidates = "parley/mentionCandidates"

// eventMentions is the parley/event kind that reports a message's
// expanded mentions.
const eventMentions = "mentions"

type mentionCandidatesParams struct {
	Query string `json:"query"`
	URI   string `json:"uri,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

type mentionCandidatesResult struct {
	Items      []mentions.Item `json:"items"`
	Incomplete bool            `json:"incomplete"`
}

// mentionCandidates answers parley/mentionCandidates from the folders'
// file lists and symbol names, without waiting for indexing: a picker
// answers as the user types.
func (s *Server) mentionCandidates(ctx context.Context, raw json.RawMessage) (*mentionCandidatesResult, error) {
	var p mentionCandidatesParams
	if len(raw) > 0 {
		if err := json.Unmarshal(luaObjectsFor[mentionCandidatesParams](raw), &p); err != nil {
			return nil, invalidParams("%s: %v", methodMentionCandidates, err)
		}
	}
	if p.Limit < 0 || p.Limit > 1000 {
		return nil, invalidParams("%s: limit must be between 1 and 1000", methodMentionCandidates)
	}
	src := mentions.Source{Symbols: s.mentionSymbols}
	for _, f := range s.allFolders() {
		src.Roots = append(src.Roots, mentions.Root{Dir: f.root, Store: f.store})
	}
	items, incomplete, err := mentions.Candidates(ctx, src, mentions.Query{Text: p.Query, URI: p.URI, Limit: p.Limit})
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = []mentions.Item{}
	}
	return &mentionCandidatesResult{Items: items, Incomplete: incomplete}, nil
}

// mentionSymbols are the picker's symbols: workspace/symbol's ranking
// (the index's name table), located in the editor's units.
func (s *Server) mentionSymbols(ctx context.Context, query string, limit int) ([]mentions.Item, error) {
	type hit struct {
		f    *folder
		abs  string
		name string
		sym  extract.Symbol
	}
	var hits []hit
	for _, f := range s.allFolders() {
		hs, err := f.store.SearchNames(query, limit)
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			sym := extract.Symbol{Name: h.Name, Kind: h.Kind, Container: h.Container, Selection: h.Selection}
			hits = append(hits, hit{f, filepath.Join(f.root, filepath.FromSlash(h.Path)), h.Path, sym})
		}
	}
	out := make([]mentions.Item, 0, min(len(hits), limit))
	for _, h := range hits[:min(len(hits), limit)] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		si := s.symbolInformation(h.abs, s.linesOf(h.f, h.name, h.abs), h.sym)
		label := h.sym.Name
		if c := h.sym.Container; c != "" {
			label = c + "." + label
		}
		loc := si.Location
		out = append(out, mentions.Item{
			Label:  label,
			Detail: fmt.Sprintf("%s · %s:%d", h.sym.Kind, h.name, h.sym.Selection.Start.Line+1),
			Mention: mentions.Mention{Kind: mentions.KindSymbol, Text: "@" + label, Name: label, Path: h.name,
				Location: &loc},
		})
	}
	return out, nil
}

// pendingMentions is a chat message with mentions: expanded once the
// turn's agent exists, so reads go through its tools.
type pendingMentions struct {
	p ChatParams
}

// mentionsOf returns the message's pending mentions, or nil when it has
// none (picked or typed).
func mentionsOf(p ChatParams) *pendingMentions {
	if len(p.Mentions) == 0 && len(mentions.Parse(p.Message)) == 0 {
		return nil
	}
	return &pendingMentions{p: p}
}

// expand resolves the mentions, reports them to the client (a
// parley/event of kind "mentions") and returns the turn's message: the
// user's text, the editor context (unless @selection quoted it) and the
// mentions' context.
func (pm *pendingMentions) expand(ctx context.Context, s *Server, a *agent.Agent, ls *liveSession) (*agent.Agent, string, error) {
	p := pm.p
	r := &mentions.Resolver{Tools: mentions.Tools{Agent: a, Session: ls.session}, OpenFiles: s.overlays.Paths()}
	selected := false
	if c := p.Context; c != nil && c.URI != "" {
		r.CurrentFile = c.URI.FsPath()
		if c.Range != nil {
			// The selection is quoted as the chat's context always is.
			r.Selection = func(context.Context) (string, string, error) {
				selected = true
				text, err := s.contextMessage(ChatParams{Context: c})
				_, _, rel, _ := s.inFolder(c.URI)
				return fmt.Sprintf("%s:%d-%d", filepath.ToSlash(rel), c.Range.Start.Line+1, c.Range.End.Line+1), strings.TrimSpace(text), err
			}
		}
	}
	extra, reports := r.Expand(ctx, p.Message, p.Mentions)
	msg := p.Message
	if !selected {
		var err error
		if msg, err = s.contextMessage(p); err != nil {
			return nil, "", err
		}
	}
	if len(reports) > 0 {
		ev := ChatEvent{Session: ls.session.ID, Turn: ls.session.Turns + 1, Kind: eventMentions, Mentions: reports}
		if err := s.conn.Notify(context.WithoutCancel(ctx), methodEvent, ev); err != nil {
			s.log.Debugf("%s: %v", methodEvent, err)
		}
	}
	return a, msg + extra, nil
}
