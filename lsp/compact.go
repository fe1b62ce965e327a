package lsp

import (
	"context"
	"encoding/json"

	"github.com/parleyhq/parley/agent"
)

// methodCompact compacts a session on request (documented in
// docs/protocol.md).
const methodCompact = "parley/compact"

// CompactParams are parley/compact's params.
type CompactParams struct {
	Session string `json:"session"`
	// Focus tells the summary what to keep above all (optional).
	Focus string `json:"focus,omitempty"`
}

// CompactResult is parley/compact's result; Compaction is nil when there
// was nothing to compact.
type CompactResult struct {
	Session    string            `json:"session"`
	Compaction *agent.Compaction `json:"compaction,omitempty"`
}

// compact summarises a session's history but for its last exchange, like
// the terminal's /compact. The compaction event goes out as a
// parley/event before the result. A session running a turn is refused.
func (s *Server) compact(ctx context.Context, raw json.RawMessage) (*CompactResult, error) {
	var p CompactParams
	if err := json.Unmarshal(raw, &p); err != nil || p.Session == "" {
		return nil, invalidParams("%s: params must be {\"session\": ID, \"focus\"?: TEXT}", methodCompact)
	}
	b, err := s.agents.agentFor()
	if err != nil {
		return nil, requestFailed("the agent is not configured: %v", err)
	}
	ls, err := s.agents.session(p.Session)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	if !ls.turn.TryLock() {
		return nil, requestFailed("session %s is running a turn; compact it when the turn ends", p.Session)
	}
	defer ls.turn.Unlock()
	a, err := s.turnAgent(ctx, b, ls, "")
	if err != nil {
		return nil, err
	}
	a.Sink = func(e agent.Event) { s.sendEvent(ctx, e) }
	// The progress item's cancel button stops the summary request.
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr := s.beginProgressKind(ctx, "compact", "parley: compacting the conversation", cancel)
	rec, err := a.Compact(runCtx, ls.session, p.Focus)
	pr.done()
	if err != nil {
		return nil, requestFailed("compact session %s: %v", p.Session, err)
	}
	return &CompactResult{Session: ls.session.ID, Compaction: rec}, nil
}
