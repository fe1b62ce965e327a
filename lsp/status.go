package lsp

import (
	"context"
	"encoding/json"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Custom methods (documented in docs/protocol.md).
const (
	methodIndexStatus = "parley/indexStatus"
	methodReindex     = "parley/reindex"
	methodServerStats = "parley/serverStats"
)

// IndexStatus is the result of parley/indexStatus.
type IndexStatus struct {
	Files     int            `json:"files"`
	Symbols   int64          `json:"symbols"`
	Indexing  bool           `json:"indexing"`
	LastError string         `json:"lastError,omitempty"`
	Folders   []FolderStatus `json:"folders"`
}

// FolderStatus is one workspace folder's part of IndexStatus.
type FolderStatus struct {
	Root      string `json:"root"`
	Files     int    `json:"files"`
	Symbols   int64  `json:"symbols"`
	Indexing  bool   `json:"indexing"`
	Done      int    `json:"done,omitempty"`
	Total     int    `json:"total,omitempty"`
	Runs      int    `json:"runs"`
	LastRun   string `json:"lastRun,omitempty"` // RFC 3339
	LastError string `json:"lastError,omitempty"`
	// Private is set when another process holds the folder's shared store
	// and this server indexes into a temporary one.
	Private bool `json:"private,omitempty"`
}

// ServerStats is the result of parley/serverStats.
type ServerStats struct {
	Methods map[string]OpStats `json:"methods"`
}

// serverStatsParams are parley/serverStats' params.
type serverStatsParams struct {
	Reset bool `json:"reset"`
}

// Request answers parley/ methods; everything else is MethodNotFound.
func (s *Server) Request(ctx context.Context, method string, params any) (any, error) {
	switch method {
	case methodChat:
		return s.chat(ctx, rawParams(params))
	case methodSessions, methodSession, methodDeleteSession:
		return s.sessionsRequest(method, rawParams(params))
	case methodCompact:
		return s.compact(ctx, rawParams(params))
	case methodPromptCommands:
		return s.listPromptCommands(), nil
	case methodMentionCandidates:
		return s.mentionCandidates(ctx, rawParams(params))
	case methodIndexStatus:
		return s.indexStatus(), nil
	case methodInlineCompletion:
		var p protocol.InlineCompletionParams
		if err := json.Unmarshal(luaObjectsFor[protocol.InlineCompletionParams](rawParams(params)), &p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", method, err)
		}
		return s.inlineCompletion(ctx, &p)
	case methodCompletionEvent:
		return nil, s.completionEvent(rawParams(params))
	case methodCompletionContext:
		return s.completionContext(rawParams(params))
	case methodNextEdit:
		return s.nextEdit(ctx, rawParams(params))
	case methodReindex:
		// An incremental run per folder, as after a burst of file events:
		// it picks up changes the watchers missed.
		for _, f := range s.allFolders() {
			f.requestReindex()
		}
		return map[string]bool{"started": true}, nil
	case methodServerStats:
		st := ServerStats{Methods: s.stats.snapshot()}
		var p serverStatsParams
		if raw, ok := params.(protocol.LSPAny); ok && len(raw) > 0 {
			if err := json.Unmarshal(luaObjectsFor[serverStatsParams](raw), &p); err != nil {
				return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", method, err)
			}
		}
		if p.Reset {
			s.stats.reset()
		}
		return st, nil
	}
	if isMemoryMethod(method) {
		return s.memoryRequest(method, rawParams(params))
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)
}

func (s *Server) indexStatus() IndexStatus {
	var st IndexStatus
	for _, f := range s.allFolders() {
		tot := f.store.Stats()
		f.mu.Lock()
		fs := FolderStatus{
			Root: f.root, Files: tot.Files, Symbols: tot.Symbols,
			Indexing: f.indexing, Runs: f.runs, LastError: f.lastErr, Private: f.private != "",
		}
		if f.indexing {
			fs.Done, fs.Total = f.progress.Done, f.progress.Total
		}
		if !f.lastRun.IsZero() {
			fs.LastRun = f.lastRun.Format(time.RFC3339)
		}
		f.mu.Unlock()
		st.Files += fs.Files
		st.Symbols += fs.Symbols
		st.Indexing = st.Indexing || fs.Indexing
		if fs.LastError != "" {
			st.LastError = fs.LastError
		}
		st.Folders = append(st.Folders, fs)
	}
	return st
}

// rawParams is a parley/ request's params as JSON ("null" when absent).
func rawParams(params any) json.RawMessage {
	if raw, ok := params.(protocol.LSPAny); ok && len(raw) > 0 {
		return json.RawMessage(raw)
	}
	return json.RawMessage("null")
}
