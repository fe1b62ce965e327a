package permission

import (
	"context"
	"sync"

	"github.com/parleyhq/parley/agent/access"
)

// Deferred moves the question about an edit from before the tool runs,
// when only its paths are known, to the moment the change is computed and
// can be shown: the terminal's diff, an editor's refactor preview. The user
// then approves what will be written rather than a file name.
//
// Check lets an edit the policy would ask about run unasked and remembers
// it; the front end, handed the change, calls Take with the same context
// and asks if the call is Pending. Edits the policy decides without a
// question (rules, modes, session allowances) are checked at once and need
// no answer later, so every rule holds the same way in every front end.
// Every other call goes to the policy as is.
//
// A check is matched to its edit by the tool call's ID, which the agent
// loop puts in the context of both the check and the run (agent.ToolCallID;
// this package cannot import agent, so the front end passes it). Take
// reports an edit with no matching check as not found; front ends ask
// about it all the same. A call with no approver or no ID is checked at
// once: nobody could answer later, or the answer could not be found. Safe
// for concurrent use.
type Deferred struct {
	policy *Policy
	callID func(context.Context) string

	mu    sync.Mutex
	calls map[string]DeferredCall // by tool call ID
}

// DeferredCall is a checked edit call.
type DeferredCall struct {
	Pending  bool     // the user's answer is still needed
	Approver Approver // the one the check was given
	Tool     string
	ReadOnly bool
	Access   access.Access
}

// NewDeferred wraps p; callID names the tool call a context belongs to
// ("" outside one).
func NewDeferred(p *Policy, callID func(context.Context) string) *Deferred {
	return &Deferred{policy: p, callID: callID, calls: map[string]DeferredCall{}}
}

// Policy returns the wrapped policy.
func (d *Deferred) Policy() *Policy { return d.policy }

// Check is Policy.Check, except that an edit the policy would ask about is
// allowed now and left Pending for the front end (see Deferred).
func (d *Deferred) Check(ctx context.Context, ap Approver, tool string, readOnly bool, a access.Access) (bool, string, error) {
	id := d.callID(ctx)
	if a.Kind != access.Edit || ap == nil || id == "" {
		return d.policy.Check(ctx, ap, tool, readOnly, a)
	}
	call := DeferredCall{Approver: ap, Tool: tool, ReadOnly: readOnly, Access: a}
	dec, _ := d.policy.Decide(tool, readOnly, a)
	call.Pending = dec == DecisionAsk
	d.mu.Lock()
	d.calls[id] = call
	d.mu.Unlock()
	if call.Pending {
		return true, "the user is asked when the change is shown, before anything is written", nil
	}
	return d.policy.Check(ctx, ap, tool, readOnly, a)
}

// MarkPending records that the edit checked under ctx needs the user's
// answer after all: an approver that leaves edits to the change's preview
// calls it when a question reaches it by another way (a PreToolUse hook
// asking).
func (d *Deferred) MarkPending(ctx context.Context) {
	id := d.callID(ctx)
	if id == "" {
		return // Take will not find it, and front ends then ask
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	call := d.calls[id]
	call.Pending = true
	d.calls[id] = call
}

// Take returns and forgets the edit checked under ctx.
func (d *Deferred) Take(ctx context.Context) (call DeferredCall, found bool) {
	id := d.callID(ctx)
	d.mu.Lock()
	defer d.mu.Unlock()
	call, found = d.calls[id]
	delete(d.calls, id)
	return call, found
}

// EndTurn forgets every check (sub-agents' included); front ends call it
// when a turn ends, since checks that never reached an editor stay behind.
func (d *Deferred) EndTurn() {
	d.mu.Lock()
	defer d.mu.Unlock()
	clear(d.calls)
}
