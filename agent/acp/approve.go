package acp

import (
	"context"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/permission"
)

// The options of a permission request, by ID.
const (
	optAllowOnce   = "allow_once"
	optAllowAlways = "allow_always"
	optReject      = "reject_once"
)

var permissionOptions = []sdk.PermissionOption{
	{OptionId: optAllowOnce, Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce},
	{OptionId: optAllowAlways, Name: "Allow for this session", Kind: sdk.PermissionOptionKindAllowAlways},
	{OptionId: optReject, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
}

// approver puts the permission policy's questions to the client with
// session/request_permission. "Allow always" is the policy's
// AllowSession: it covers later calls of the same rule in this session.
type approver struct{ ss *session }

func (a *approver) Approve(ctx context.Context, tool string, acc access.Access) (permission.Answer, error) {
	tc := sdk.ToolCallUpdate{
		ToolCallId: sdk.ToolCallId(agent.ToolCallID(ctx)),
		Title:      sdk.Ptr(access.Question(tool, acc)),
		Kind:       sdk.Ptr(toolKind(tool)),
		Status:     sdk.Ptr(sdk.ToolCallStatusPending),
		// The diff of an edit asked about by the edit gate.
		Content: diffsOf(ctx),
	}
	for _, p := range acc.Paths {
		if abs, _, _, err := a.ss.ws.Roots.Resolve(p); err == nil {
			tc.Locations = append(tc.Locations, sdk.ToolCallLocation{Path: abs})
		}
	}
	resp, err := a.ss.srv.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: a.ss.id(), ToolCall: tc, Options: permissionOptions,
	})
	if err != nil {
		if ctx.Err() != nil {
			return permission.Deny, ctx.Err()
		}
		return permission.Deny, fmt.Errorf("session/request_permission: %w", err)
	}
	if resp.Outcome.Cancelled != nil {
		// The client cancelled the prompt while asking: the turn stops
		// with the context; until then the call is not run.
		return permission.Deny, nil
	}
	if sel := resp.Outcome.Selected; sel != nil {
		switch sel.OptionId {
		case optAllowOnce:
			return permission.AllowOnce, nil
		case optAllowAlways:
			return permission.AllowSession, nil
		}
	}
	return permission.Deny, nil
}
