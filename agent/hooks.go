package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
)

// Hook call sites (see package hooks for the protocol). They stay small:
// each builds the event's Input, runs the hooks and applies the Result.

// StopHook is the stop reason of a turn a hook ended (continue: false, or
// a UserPromptSubmit hook that blocked the prompt).
const StopHook StopReason = "hook"

// parentSessionKey carries the session ID of the turn that started a
// sub-agent, which is the session its hooks are told about.
type parentSessionKey struct{}

// runHooks runs ev's hooks for session s, reporting each run through
// emit. It is the one path every call site takes.
func (a *Agent) runHooks(ctx context.Context, s *Session, in hooks.Input, emit func(Event)) hooks.Result {
	if !a.Hooks.Has(in.HookEventName) {
		return hooks.Result{}
	}
	in.SessionID = s.ID
	if id, ok := ctx.Value(parentSessionKey{}).(string); ok && a.subAgent {
		in.SessionID = id
	}
	if p, ok := a.Policy.(*permission.Policy); ok {
		in.PermissionMode = string(p.Mode())
	}
	return a.Hooks.Run(ctx, in, func(r hooks.Report) {
		emit(Event{Kind: EventHook, Hook: &r, Text: hookLine(r)})
	})
}

// hookLine says what a hook did in one line, for front ends.
func hookLine(r hooks.Report) string {
	line := "hook " + r.Event + " `" + r.Command + "`: " + r.Outcome
	if r.Message != "" {
		line += ": " + r.Message
	}
	return line
}

func (t *turn) hook(in hooks.Input) hooks.Result {
	return t.a.runHooks(t.ctx, t.s, in, t.emit)
}

// hookContext formats text hooks added for the model.
func hookContext(event string, texts []string) string {
	return "<hook-context event=\"" + event + "\">\n" + strings.Join(texts, "\n") + "\n</hook-context>"
}

// startHooks runs SessionStart (once per session and process) and
// UserPromptSubmit before the prompt joins the history. It returns the
// text to add to the prompt, or a stop reason when a hook refused it.
func (t *turn) startHooks(prompt string) (extra []string, stop StopReason) {
	if t.a.subAgent {
		return nil, ""
	}
	if !t.s.hooksStarted {
		t.s.hooksStarted = true
		source := "resume"
		if len(t.s.Messages) == 0 {
			source = "startup"
		}
		r := t.hook(hooks.Input{HookEventName: config.HookSessionStart, Source: source})
		if len(r.Context) > 0 {
			extra = append(extra, hookContext(config.HookSessionStart, r.Context))
		}
	}
	r := t.hook(hooks.Input{HookEventName: config.HookUserPromptSubmit, Prompt: prompt})
	switch {
	case r.Stop:
		t.res.Text = "stopped by a hook: " + r.StopReason
		return nil, StopHook
	case r.Block:
		t.res.Text = "prompt blocked by a hook: " + r.Reason
		return nil, StopHook
	}
	if len(r.Context) > 0 {
		extra = append(extra, hookContext(config.HookUserPromptSubmit, r.Context))
	}
	return extra, ""
}

// stopHooks runs Stop (SubagentStop in a sub-agent) when the model
// finished. A blocking hook's reason goes to the model as a user message
// and the turn goes on; it returns whether it does.
func (t *turn) stopHooks() (goOn bool, stop StopReason) {
	ev := config.HookStop
	if t.a.subAgent {
		ev = config.HookSubagentStop
	}
	active := t.stopHookActive
	r := t.hook(hooks.Input{HookEventName: ev, StopHookActive: &active})
	switch {
	case r.Stop:
		return false, StopHook
	case r.Block:
		t.stopHookActive = true
		t.s.addUserText("A " + ev + " hook did not let you finish yet: " + r.Reason)
		return true, ""
	}
	return false, ""
}

// preToolHooks runs PreToolUse for a prepared call. It returns false when
// the call must not run (its result is then decided), and the verdict the
// permission check must honour.
func (t *turn) preToolHooks(c *call) (ok bool, decision string) {
	r := t.hook(hooks.Input{HookEventName: config.HookPreToolUse, ToolName: c.use.ToolName, ToolInput: hooks.ClaudeInput(c.use.ToolName, c.input()), ToolUseID: c.use.ToolCallID})
	c.hookContext = append(c.hookContext, r.Context...)
	switch {
	case r.Stop:
		t.stopByHook(r.StopReason)
		return t.decide(c, tools.Errorf("not run: a hook stopped the turn: %s", r.StopReason)), ""
	case r.Block || r.Decision == "deny":
		return t.decide(c, tools.Errorf("blocked by a PreToolUse hook: %s. Do not retry this call unchanged.", r.Reason)), ""
	}
	if len(r.UpdatedInput) > 0 {
		r.UpdatedInput = hooks.ParleyInput(c.use.ToolName, hooks.ClaudeInput(c.use.ToolName, c.input()), r.UpdatedInput)
		prepared, err := c.tool.Prepare(t.a.Env, r.UpdatedInput)
		if err != nil {
			return t.decide(c, tools.Errorf("a PreToolUse hook changed the input of %s into an invalid one: %v", c.use.ToolName, err)), ""
		}
		c.prepared, c.updated = prepared, r.UpdatedInput
	}
	return true, r.Decision
}

// postToolHooks runs PostToolUse for a call that ran; what the hooks say
// is added to the result the model sees.
func (t *turn) postToolHooks(c *call) {
	resp, _ := json.Marshal(struct {
		Content string `json:"content"`
		IsError bool   `json:"is_error"`
	}{c.result.Content, c.result.IsError})
	r := t.hook(hooks.Input{HookEventName: config.HookPostToolUse, ToolName: c.use.ToolName, ToolInput: hooks.ClaudeInput(c.use.ToolName, c.input()), ToolUseID: c.use.ToolCallID, ToolResponse: resp})
	if r.Stop {
		t.stopByHook(r.StopReason)
	}
	if r.Block {
		c.hookContext = append(c.hookContext, "PostToolUse hook feedback: "+r.Reason)
	}
	c.hookContext = append(c.hookContext, r.Context...)
}

// stopByHook ends the turn after the current tool round.
func (t *turn) stopByHook(reason string) {
	t.hookMu.Lock()
	defer t.hookMu.Unlock()
	t.hookStop = true
	if t.res.Text == "" {
		t.res.Text = "stopped by a hook: " + reason
	}
}

func (t *turn) stoppedByHook() bool {
	t.hookMu.Lock()
	defer t.hookMu.Unlock()
	return t.hookStop
}

// hookCheck is the permission check of a call PreToolUse hooks judged:
// "allow" answers the policy's question in place of the user (deny rules
// still deny), "ask" asks the user even when the policy would allow.
func (t *turn) hookCheck(c *call, decision string) (bool, string, error) {
	tool, readOnly, a := c.use.ToolName, c.tool.ReadOnly(), c.prepared.Access()
	ap := t.approver(c)
	switch decision {
	case "allow":
		ap = hookApprover{answer: permission.AllowOnce}
	case "ask":
		asked := &askCounter{inner: ap}
		ap = asked
		ok, reason, err := t.a.Policy.Check(c.ctx, asked, tool, readOnly, a)
		if err != nil || !ok || asked.n > 0 {
			return ok, reason, err
		}
		if t.a.Approver == nil {
			return false, "a PreToolUse hook asked for the user's approval, but this run is non-interactive", nil
		}
		ans, err := t.a.Approver.Approve(c.ctx, tool, a)
		return ans != permission.Deny, "the user answered a PreToolUse hook's question", err
	}
	return t.a.Policy.Check(c.ctx, ap, tool, readOnly, a)
}

// approver is the Approver the policy asks: the user's, behind the
// PermissionRequest hooks when there are any.
func (t *turn) approver(c *call) permission.Approver {
	if !t.a.Hooks.Has(config.HookPermissionRequest) {
		return t.a.Approver
	}
	return &permissionHooks{t: t, c: c}
}

// permissionHooks answers the policy's questions with the
// PermissionRequest hooks first; the user is asked only when no hook
// decided.
type permissionHooks struct {
	t *turn
	c *call
}

func (p *permissionHooks) Approve(ctx context.Context, tool string, a access.Access) (permission.Answer, error) {
	r := p.t.hook(hooks.Input{HookEventName: config.HookPermissionRequest, ToolName: tool, ToolInput: hooks.ClaudeInput(p.c.use.ToolName, p.c.input()), ToolUseID: p.c.use.ToolCallID})
	p.c.hookContext = append(p.c.hookContext, r.Context...)
	switch r.Decision {
	case "allow":
		return permission.AllowOnce, nil
	case "deny":
		p.c.hookDenied = r.Reason
		return permission.Deny, nil
	}
	if p.t.a.Approver == nil {
		p.c.hookDenied = fmt.Sprintf("%s needs approval, no PermissionRequest hook allowed it, and this run is non-interactive; "+
			"to allow such calls add a permissions.allow rule to the configuration", tool)
		return permission.Deny, nil
	}
	return p.t.a.Approver.Approve(ctx, tool, a)
}

// hookApprover answers every question the same way.
type hookApprover struct{ answer permission.Answer }

func (h hookApprover) Approve(context.Context, string, access.Access) (permission.Answer, error) {
	return h.answer, nil
}

// askCounter counts the questions the policy asked.
type askCounter struct {
	inner permission.Approver
	n     int
}

func (a *askCounter) Approve(ctx context.Context, tool string, acc access.Access) (permission.Answer, error) {
	a.n++
	if a.inner == nil {
		return permission.Deny, nil
	}
	return a.inner.Approve(ctx, tool, acc)
}

// EndSession runs the SessionEnd hooks of s; reason is Claude Code's
// ("clear", "logout", "prompt_input_exit" or "other"). Front ends call it
// when a session is left; events go to the Sink. It runs only for a
// session whose SessionStart hooks ran (a turn ran in this process), once.
func (a *Agent) EndSession(ctx context.Context, s *Session, reason string) {
	if !s.hooksStarted {
		return
	}
	s.hooksStarted = false
	a.runHooks(ctx, s, hooks.Input{HookEventName: config.HookSessionEnd, Reason: reason}, func(e Event) {
		if a.Sink != nil {
			e.Session, e.Turn = s.ID, s.Turns
			a.Sink(e)
		}
	})
}

// hookState is the part of a turn the hooks change.
type hookState struct {
	hookMu         sync.Mutex
	hookStop       bool // a hook said continue: false
	stopHookActive bool // a Stop hook blocked the end of this turn before
}

// preCompactHooks runs PreCompact before a compaction; trigger is
// "manual" for Agent.Compact and "auto" otherwise (the threshold or a
// context overflow). Its hooks cannot stop the compaction: the prompt
// would not fit without it.
func (c *compactor) preCompactHooks(ctx context.Context, reason, focus string) {
	trigger := "auto"
	if reason == CompactManual {
		trigger = "manual"
	}
	c.a.runHooks(ctx, c.s, hooks.Input{HookEventName: config.HookPreCompact, Trigger: trigger, CustomInstructions: &focus}, c.emit)
}
