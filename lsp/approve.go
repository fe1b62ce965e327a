package lsp

import (
	"context"
	"fmt"
	"strings"

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
		Message: approvalMessage(tool, acc),
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

// approvalMessage is the question's text: what the agent wants to do, in
// one line when it can.
func approvalMessage(tool string, acc access.Access) string {
	var b strings.Builder
	b.WriteString("parley wants to ")
	switch acc.Kind {
	case access.Shell:
		fmt.Fprintf(&b, "run: %s", acc.Command)
	case access.Network:
		fmt.Fprintf(&b, "fetch %s", acc.URL)
	case access.Edit:
		fmt.Fprintf(&b, "change %s", strings.Join(acc.Paths, ", "))
	default:
		fmt.Fprintf(&b, "use %s", tool)
	}
	if acc.Summary != "" && acc.Kind != access.Shell {
		fmt.Fprintf(&b, " (%s)", acc.Summary)
	}
	return b.String()
}
