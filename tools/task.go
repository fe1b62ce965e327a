package tools

import (
	"context"
	_ "embed"
	"strings"

	"github.com/parleyhq/parley/agent/access"
)

//go:embed desc/task.md
var taskDesc string

// TaskToolName is the task tool's name; sub-agents never get this tool.
const TaskToolName = "task"

type taskParams struct {
	Description string   `json:"description" jsonschema:"description=A short (3-5 word) label for the task, shown to the user."`
	Prompt      string   `json:"prompt" jsonschema:"description=The complete, self-contained task for the sub-agent, including what its report must contain."`
	Tools       []string `json:"tools,omitempty" jsonschema:"description=Names of the tools the sub-agent may use (any of yours except task). Default: your read-only tools."`
}

// taskTool delegates a task to a sub-agent through Env.SubAgent.
//
// It counts as read-only: the tool itself changes nothing, so several
// tasks may run in parallel and plan mode allows them. Whatever the
// sub-agent does goes through the same permission policy, call by call.
var taskTool = New(
	Spec{Name: TaskToolName, Description: taskDesc, ReadOnly: true},
	taskAccess, taskRun)

func taskAccess(env *Env, p *taskParams) (access.Access, error) {
	p.Description = strings.TrimSpace(p.Description)
	if strings.TrimSpace(p.Prompt) == "" {
		return access.Access{}, inputErrorf("prompt must not be empty")
	}
	if p.Description == "" {
		p.Description = "task"
	}
	return access.Access{Kind: access.Read, Summary: "run a sub-agent: " + p.Description}, nil
}

func taskRun(ctx context.Context, env *Env, p *taskParams) (*Result, error) {
	if env.SubAgent == nil {
		return Errorf("the task tool is unavailable here: no sub-agent is configured; do the work yourself"), nil
	}
	out, err := env.SubAgent(ctx, p.Prompt, p.Tools)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// A failed sub-agent is an outcome the caller can adapt to.
		return Errorf("the sub-agent failed: %v", err), nil
	}
	return &Result{Content: out}, nil
}
