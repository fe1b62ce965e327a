package acp

import (
	"context"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
)

// editGate moves the question about an edit from before the tool runs,
// when only its paths are known, to the moment the editor has the change,
// so the permission request carries the diff the client shows (Zed and
// CodeCompanion preview it), as parley chat asks with the diff.
//
// It is a turn's agent.Policy around the session's policy. For an edit the
// policy would ask about, Check lets the tool run and keeps the question,
// by tool call ID (agent.ToolCallID: the check's and the run's context
// carry the same one); the editor (gatedEditor) then puts it through the
// same Policy.Check, so rules, modes, hooks and "allow always" work as for
// any other call. Every other call goes to the policy as is. Edit tools
// all apply through the Editor; one that returns before (a write of the
// content the file already has) changes nothing, so nothing is asked.
type editGate struct {
	pol *permission.Policy

	mu      sync.Mutex
	pending map[string]gatedCall
}

// gatedCall is a checked edit whose question waits for its diff.
type gatedCall struct {
	ap       permission.Approver
	tool     string
	readOnly bool
	access   access.Access
}

func newEditGate(pol *permission.Policy) *editGate {
	return &editGate{pol: pol, pending: map[string]gatedCall{}}
}

// Check implements agent.Policy.
func (g *editGate) Check(ctx context.Context, ap permission.Approver, tool string, readOnly bool, a access.Access) (bool, string, error) {
	id := agent.ToolCallID(ctx)
	if a.Kind != access.Edit || ap == nil || id == "" {
		return g.pol.Check(ctx, ap, tool, readOnly, a)
	}
	if d, _ := g.pol.Decide(tool, readOnly, a); d != permission.DecisionAsk {
		return g.pol.Check(ctx, ap, tool, readOnly, a)
	}
	g.mu.Lock()
	g.pending[id] = gatedCall{ap: ap, tool: tool, readOnly: readOnly, access: a}
	g.mu.Unlock()
	return true, "the user is asked with the diff before anything is written", nil
}

// confirm puts the kept question of the call in ctx, if any, with diffs.
func (g *editGate) confirm(ctx context.Context, diffs []sdk.ToolCallContent) (ok bool, reason string, err error) {
	id := agent.ToolCallID(ctx)
	g.mu.Lock()
	q, found := g.pending[id]
	delete(g.pending, id)
	g.mu.Unlock()
	if !found {
		return true, "", nil
	}
	return g.pol.Check(context.WithValue(ctx, diffsKey{}, diffs), q.ap, q.tool, q.readOnly, q.access)
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
