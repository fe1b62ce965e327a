package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent/provider"
)

// replay sends a loaded session's history to the client as the updates
// it would have seen: the user's messages, the answers and thoughts, and
// each tool call with its final status and result. Diffs are not
// replayed: the history keeps what the model saw, not the files' content.
func (ss *session) replay(ctx context.Context) error {
	for _, m := range ss.s.Messages {
		for _, b := range m.Blocks {
			u, ok := replayUpdate(ss, m.Role, b)
			if !ok {
				continue
			}
			if err := ss.srv.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: ss.id(), Update: u}); err != nil {
				return err
			}
		}
	}
	if len(ss.todos.Items()) > 0 {
		ss.update(ctx, ss.plan())
	}
	return nil
}

func replayUpdate(ss *session, role provider.Role, b provider.Block) (sdk.SessionUpdate, bool) {
	switch b.Kind {
	case provider.BlockText:
		if role == provider.RoleUser {
			return sdk.UpdateUserMessageText(b.Text), true
		}
		return sdk.UpdateAgentMessageText(b.Text), true
	case provider.BlockImage:
		if role == provider.RoleUser {
			return sdk.UpdateUserMessage(sdk.ImageBlock(b.Data, b.MediaType)), true
		}
	case provider.BlockThinking:
		if b.Text == "" {
			return sdk.SessionUpdate{}, false // redacted
		}
		return sdk.UpdateAgentThoughtText(b.Text), true
	case provider.BlockToolUse:
		return ss.toolStart(b.ToolCallID, b.ToolName, b.Input), true
	case provider.BlockToolResult:
		return toolEnd(b.ToolCallID, b.IsError, []sdk.ToolCallContent{resultContent(b.Text)}), true
	}
	return sdk.SessionUpdate{}, false
}
