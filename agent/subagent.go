package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
)

// DefaultSubAgentIterations caps a sub-agent's model calls.
const DefaultSubAgentIterations = 25

// SubAgentOptions configure the sub-agents behind the task tool.
type SubAgentOptions struct {
	MaxIterations int  // 0: DefaultSubAgentIterations
	Sink          Sink // receives the sub-agent's events (nil: dropped)
}

// SubAgent returns the function behind the task tool (Env.SubAgent). Each
// call runs a fresh in-memory session with the same provider, model,
// policy and approver as a, and a restricted tool set: the named tools, or
// by default every read-only tool of a's registry. The task tool itself is
// never available to a sub-agent, so delegation cannot recurse. The
// sub-agent gets its own copy of the Env (its own todo list and re-read
// ledger, no SubAgent).
// It returns the sub-agent's final text; errors are the sub-agent's
// infrastructure failures, unknown tool names, or ctx's error.
func (a *Agent) SubAgent(o SubAgentOptions) tools.SubAgentFunc {
	return func(ctx context.Context, prompt string, names []string) (string, error) {
		reg, err := a.subRegistry(names)
		if err != nil {
			return "", err
		}
		var env tools.Env
		if a.Env != nil {
			env = *a.Env
		}
		env.SubAgent = nil
		env.Todos = nil
		if a.Env != nil && a.Env.Todos != nil {
			env.Todos = &tools.TodoList{}
		}
		if env.Ledger != nil {
			// The sub-agent's context starts empty: what the caller's
			// model has seen is no stub's business here. The caller's
			// ledger keys on content, so the sub-agent's edits show up
			// there as diffs.
			env.Ledger = ledger.NewMemory()
		}
		limit := o.MaxIterations
		if limit <= 0 {
			limit = DefaultSubAgentIterations
		}
		child := &Agent{
			Provider: a.Provider, Model: a.Model, Registry: reg, Env: &env,
			Policy: a.Policy, Approver: a.Approver, Sink: o.Sink,
			MaxIterations: limit, MaxTokens: a.MaxTokens, ThinkingBudget: a.ThinkingBudget,
			RepeatLimit: a.RepeatLimit, SystemPrompt: a.SystemPrompt + subAgentNote,
			ContextWindow: a.ContextWindow, CompactThreshold: a.CompactThreshold,
			Hooks: a.Hooks, subAgent: true,
		}
		res, err := child.Run(ctx, NewSession(), prompt)
		chargeUsage(ctx, res.Usage)
		if err != nil {
			return "", fmt.Errorf("sub-agent: %w", err)
		}
		switch res.StopReason {
		case StopCancelled:
			return "", context.Cause(ctx)
		case StopEndTurn:
		default:
			return res.Text + fmt.Sprintf("\n\n[the sub-agent stopped early: %s]", res.StopReason), nil
		}
		if res.Text == "" {
			return "(the sub-agent finished without a reply)", nil
		}
		return res.Text, nil
	}
}

// subRegistry picks the sub-agent's tools from a's registry.
func (a *Agent) subRegistry(names []string) (*tools.Registry, error) {
	if a.Registry == nil {
		return tools.NewRegistry()
	}
	if slices.Contains(names, tools.TaskToolName) {
		return nil, errors.New("the task tool is not available to sub-agents")
	}
	if len(names) > 0 {
		return a.Registry.Subset(names...)
	}
	var ts []tools.Tool
	for _, t := range a.Registry.Tools() {
		if t.ReadOnly() && t.Name() != tools.TaskToolName {
			ts = append(ts, t)
		}
	}
	return tools.NewRegistry(ts...)
}
