package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools"
)

// maxRefusedRepeats is how many times a turn refuses the same repeated
// call before it stops with StopRepeated.
const maxRefusedRepeats = 3

// Messages the model sees for calls that did not run normally.
const (
	msgCancelled = "cancelled by the user"
	msgNotRun    = "not run: the turn stopped after an internal error in an earlier call"
)

// call is one tool_use on its way to a tool_result.
type call struct {
	use      provider.Block
	tool     tools.Tool
	prepared tools.Call    // set by vet: the input decoded once
	result   *tools.Result // set once decided or run
	err      error         // infrastructure failure
	// updated is the input a PreToolUse hook put in place of use.Input
	// (the history keeps what the model sent).
	updated json.RawMessage
	// hookContext is what hooks said about the call, added to its result.
	hookContext []string
	hookDenied  string // a PermissionRequest hook's reason for denying
	// ctx is the turn's context carrying the call's ID (see ToolCallID),
	// the one both the permission check and the run receive.
	ctx context.Context
}

// input is the call's input as it runs.
func (c *call) input() json.RawMessage {
	if c.updated != nil {
		return c.updated
	}
	return c.use.Input
}

// toolCallKey carries a tool call's ID in the context its permission
// check and its run receive.
type toolCallKey struct{}

// ToolCallID is the ID of the tool call whose permission check or run ctx
// belongs to ("" outside one): the approver and the tools of a front end
// that shows calls by ID (ACP) tie questions, terminals and diffs to the
// call they belong to.
func ToolCallID(ctx context.Context) string {
	id, _ := ctx.Value(toolCallKey{}).(string)
	return id
}

// WithToolCallID returns ctx as the context of tool call id: what the loop
// gives a call's check and run, and what tests of front ends give theirs.
func WithToolCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, toolCallKey{}, id)
}

// runCalls runs a response's tool calls and returns their results in call
// order. Consecutive read-only calls form a batch that runs in parallel;
// any other call runs alone, so a read after a write sees the write.
// Every call gets a result, whatever happens. stop is StopRepeated when
// the model persisted in a refused call; err is the first infrastructure
// failure (later calls are then not run).
func (t *turn) runCalls(uses []provider.Block) (results []provider.Block, stop StopReason, err error) {
	calls := make([]*call, len(uses))
	for i, u := range uses {
		calls[i] = &call{use: u, ctx: WithToolCallID(t.ctx, u.ToolCallID)}
		if t.a.Registry != nil {
			calls[i].tool, _ = t.a.Registry.Get(u.ToolName)
		}
	}
	for i := 0; i < len(calls); {
		j := i + 1
		if isReadOnly(calls[i]) {
			for j < len(calls) && isReadOnly(calls[j]) {
				j++
			}
		}
		if err == nil {
			err = t.runBatch(calls[i:j])
		} else {
			for _, c := range calls[i:j] {
				t.decide(c, &tools.Result{Content: msgNotRun, IsError: true})
			}
		}
		i = j
	}
	results = make([]provider.Block, len(calls))
	for i, c := range calls {
		content := c.result.Content
		if content == "" {
			content = "(no output)"
		}
		results[i] = provider.Block{Kind: provider.BlockToolResult, ToolCallID: c.use.ToolCallID, Text: content, IsError: c.result.IsError}
	}
	for _, n := range t.repeats {
		if n >= t.repeatLimit()+maxRefusedRepeats {
			stop = StopRepeated
		}
	}
	return results, stop, err
}

// isReadOnly is true for calls that may share a parallel batch. Unknown
// tools count as read-only: they only produce an error result.
func isReadOnly(c *call) bool { return c.tool == nil || c.tool.ReadOnly() }

// runBatch vets every call of the batch in order (permission questions are
// asked one at a time), then runs the approved ones, in parallel when
// there are several. It returns the first infrastructure error.
func (t *turn) runBatch(batch []*call) error {
	var approved []*call
	for _, c := range batch {
		if t.vet(c) {
			approved = append(approved, c)
		}
	}
	if len(approved) == 1 {
		t.execute(approved[0])
	} else if len(approved) > 1 {
		sem := make(chan struct{}, maxParallel)
		var wg sync.WaitGroup
		for _, c := range approved {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				t.execute(c)
			})
		}
		wg.Wait()
	}
	for _, c := range batch {
		if c.err != nil {
			return c.err
		}
	}
	return nil
}

// vet decides whether c may run: the tool exists, the call is not a
// refused repeat, its arguments are valid (Prepare decodes them, once, for
// the policy and for execute) and the policy allows it. A call that may
// not run gets its result here; vet reports whether it may run.
func (t *turn) vet(c *call) bool {
	u := c.use
	if t.ctx.Err() != nil {
		return t.decide(c, &tools.Result{Content: msgCancelled, IsError: true})
	}
	if c.tool == nil {
		return t.decide(c, tools.Errorf("unknown tool %q; use one of: %s", u.ToolName, t.toolNames()))
	}
	if n := t.countRepeat(c); n > t.repeatLimit() {
		return t.decide(c, tools.Errorf("refused: this is call %d of %s with exactly these arguments in this turn, and it will not give a different result. Use the result you already have, change the arguments, or tell the user what is blocking you.", n, u.ToolName))
	}
	err := guard(u.ToolName, func() (err error) {
		c.prepared, err = c.tool.Prepare(t.a.Env, u.Input)
		return err
	})
	var pe *panicError
	if errors.As(err, &pe) {
		c.err = err
		return t.decide(c, tools.Errorf("internal error: %v", firstLine(err.Error())))
	}
	if err != nil {
		return t.decide(c, tools.Errorf("invalid call of %s: %v", u.ToolName, err))
	}
	ok, decision := t.preToolHooks(c)
	if !ok {
		return false
	}
	allowed, reason := c.tool.ReadOnly(), "no permission policy is configured, so only read-only tools may run"
	if t.a.Policy != nil {
		err = guard(u.ToolName, func() (err error) {
			allowed, reason, err = t.hookCheck(c, decision)
			return err
		})
	}
	switch {
	case err != nil && t.ctx.Err() != nil:
		return t.decide(c, &tools.Result{Content: msgCancelled, IsError: true})
	case err != nil:
		c.err = fmt.Errorf("permission check for %s: %w", u.ToolName, err)
		return t.decide(c, tools.Errorf("internal error while checking permission: %v", err))
	case !allowed && c.hookDenied != "":
		return t.decide(c, tools.Errorf("permission denied: %s. Do not retry this call unchanged.", c.hookDenied))
	case !allowed:
		reason = strings.TrimRight(strings.TrimSpace(reason), ".")
		if reason == "" {
			reason = "not allowed"
		}
		return t.decide(c, tools.Errorf("permission denied: %s. Do not retry this call; choose another approach or ask the user.", reason))
	}
	return true
}

// guard runs fn, turning a panic into a *panicError: model input reaches
// the tools' parsers, and a bug there must not take the process down.
func guard(tool string, fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicError{fmt.Sprintf("tool %s panicked: %v\n%s", tool, p, debug.Stack())}
		}
	}()
	return fn()
}

// panicError is a recovered panic: an infrastructure failure (a bug), not
// a mistake of the model.
type panicError struct{ msg string }

func (e *panicError) Error() string { return e.msg }

// execute runs an approved call. A panicking tool is an infrastructure
// failure, reported rather than allowed to take the process down.
func (t *turn) execute(c *call) {
	var res *tools.Result
	err := guard(c.use.ToolName, func() (err error) {
		res, err = c.prepared.Run(c.ctx)
		return err
	})
	switch {
	case err != nil && t.ctx.Err() != nil:
		res = &tools.Result{Content: msgCancelled, IsError: true}
	case err != nil:
		c.err = fmt.Errorf("tool %s: %w", c.use.ToolName, err)
		res = tools.Errorf("internal error: %v", firstLine(err.Error()))
	case res == nil:
		res = &tools.Result{}
	}
	if !c.tool.ReadOnly() && err == nil && !res.IsError {
		// The workspace changed, so repeating other calls is legitimate
		// again (re-reading a file, re-running tests).
		t.resetRepeats(repeatKey(c.use))
	}
	c.result = res
	if err == nil {
		t.postToolHooks(c)
	}
	t.decide(c, res)
}

// decide records c's result and reports it; it returns false so vet can
// use it as "may not run".
func (t *turn) decide(c *call, r *tools.Result) bool {
	if len(c.hookContext) > 0 {
		withContext := *r
		withContext.Content += "\n\n" + hookContext("tool", c.hookContext)
		r = &withContext
	}
	c.result = r
	t.emit(Event{Kind: EventToolResult, ToolCallID: c.use.ToolCallID, ToolName: c.use.ToolName,
		Result: &ToolOutcome{Content: r.Content, IsError: r.IsError}})
	if len(r.Changes) > 0 {
		t.emit(Event{Kind: EventEdit, ToolCallID: c.use.ToolCallID, ToolName: c.use.ToolName, Changes: changesOf(r.Changes)})
	}
	return false
}

func (t *turn) repeatLimit() int {
	if t.a.RepeatLimit > 0 {
		return t.a.RepeatLimit
	}
	return DefaultRepeatLimit
}

// countRepeat counts c among identical calls of this turn (since the last
// successful change) and returns its ordinal.
func (t *turn) countRepeat(c *call) int {
	k := repeatKey(c.use)
	t.repeats[k]++
	return t.repeats[k]
}

// resetRepeats forgets every call but keep. It runs only for mutating
// calls, which never run concurrently with vetting.
func (t *turn) resetRepeats(keep string) {
	for k := range t.repeats {
		if k != keep {
			delete(t.repeats, k)
		}
	}
}

func repeatKey(u provider.Block) string {
	var b bytes.Buffer
	if json.Compact(&b, u.Input) != nil {
		b.Reset()
		b.Write(u.Input)
	}
	return u.ToolName + "\x00" + b.String()
}

func (t *turn) toolNames() string {
	if t.a.Registry == nil {
		return "(no tools are available)"
	}
	return strings.Join(t.a.Registry.Names(), ", ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
