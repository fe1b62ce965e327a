package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
)

// editGate moves the question about an edit from before the tool runs,
// when only its paths are known, to the moment the editor has the change,
// so the permission request carries the diff the client shows (Zed and
// CodeCompanion preview it), as parley chat asks with the diff.
//
// It is a turn's agent.Policy: a permission.Deferred around the session's
// policy, keyed by tool call ID. The editor (gatedEditor) puts a pending
// question through the same Policy.Check with the approver the check had,
// so rules, modes, hooks and "allow always" work as for any other call.
// Edit tools all apply through the Editor; one that returns before (a
// write of the content the file already has) changes nothing, so nothing
// is asked.
type editGate struct{ *permission.Deferred }

func newEditGate(pol *permission.Policy) *editGate {
	return &editGate{permission.NewDeferred(pol, agent.ToolCallID)}
}

// confirm puts the kept question of the call in ctx, if any, with diffs.
// An apply outside a checked call (none happens today) is not asked about:
// there is no approver to ask with.
func (g *editGate) confirm(ctx context.Context, diffs []sdk.ToolCallContent) (ok bool, reason string, err error) {
	q, found := g.Take(ctx)
	if !found || !q.Pending {
		return true, "", nil
	}
	return g.Policy().Check(context.WithValue(ctx, diffsKey{}, diffs), q.Approver, q.Tool, q.ReadOnly, q.Access)
}

// diffsKey carries the diffs of the edit a question is about to the
// approver.
type diffsKey struct{}

func diffsOf(ctx context.Context) []sdk.ToolCallContent {
	d, _ := ctx.Value(diffsKey{}).([]sdk.ToolCallContent)
	return d
}

// gatedEditor asks the gate's kept question with the change's diff before
// applying it, and keeps the diff of every applied change for the update
// of the tool call that made it.
type gatedEditor struct {
	tools.Editor
	ss   *session
	gate *editGate
}

func (e gatedEditor) Apply(ctx context.Context, label string, changes []tools.FileChange) (tools.ApplyResult, error) {
	diffs := diffContents(changes)
	ok, reason, err := e.gate.confirm(ctx, diffs)
	if err != nil {
		return tools.ApplyResult{}, err
	}
	if !ok {
		return tools.ApplyResult{Reason: reason}, nil
	}
	r, err := e.Editor.Apply(ctx, label, changes)
	if err != nil || !r.Applied {
		return r, err
	}
	e.ss.addContent(agent.ToolCallID(ctx), diffs...)
	return r, nil
}

// diffContents shows changes as ACP diffs (a new file has no old text).
func diffContents(changes []tools.FileChange) []sdk.ToolCallContent {
	var out []sdk.ToolCallContent
	for _, c := range changes {
		switch c.Op {
		case tools.OpModify:
			out = append(out, sdk.ToolDiffContent(c.Path, string(c.New), string(c.Old)))
		case tools.OpCreate:
			out = append(out, sdk.ToolDiffContent(c.Path, string(c.New)))
		case tools.OpDelete:
			out = append(out, sdk.ToolDiffContent(c.Path, "", string(c.Old)))
		case tools.OpRename:
			out = append(out, sdk.ToolDiffContent(c.Path, "", string(c.Old)), sdk.ToolDiffContent(c.NewPath, string(c.Old)))
		}
	}
	return out
}
