package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/permission"
)

// Titles of the approval question's buttons.
const (
	approveOnce    = "Allow once"
	approveSession = "Allow for this session"
	approveDeny    = "Deny"
)

// editorApprover asks the user with window/showMessageRequest. Edits are
// not asked about when the client confirms them itself (gate is set: change
// annotations with needsConfirmation): the editor's preview is the
// question, and asking twice would be noise.
type editorApprover struct {
	s    *Server
	gate *permission.Deferred
}

func (a editorApprover) Approve(ctx context.Context, tool string, acc access.Access) (permission.Answer, error) {
	if acc.Kind == access.Edit && a.gate != nil {
		a.gate.MarkPending(ctx)
		return permission.AllowOnce, nil
	}
	item, err := a.s.client.ShowMessageRequest(ctx, &protocol.ShowMessageRequestParams{
		Type:    protocol.MessageTypeWarning,
		Message: access.Question(tool, acc),
		Actions: []protocol.MessageActionItem{{Title: approveOnce}, {Title: approveSession}, {Title: approveDeny}},
	})
	if err != nil {
		if ctx.Err() != nil {
			return permission.Deny, ctx.Err()
		}
		return permission.Deny, fmt.Errorf("window/showMessageRequest: %w", err)
	}
	if item == nil {
		return permission.Deny, nil // dismissed
	}
	switch item.Title {
	case approveOnce:
		return permission.AllowOnce, nil
	case approveSession:
		return permission.AllowSession, nil
	}
	return permission.Deny, nil
}
