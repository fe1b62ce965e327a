package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/memory"
)

//go:embed desc/remember.md
var rememberDesc string

//go:embed desc/recall_memories.md
var recallMemoriesDesc string

//go:embed desc/forget_memory.md
var forgetMemoryDesc string

// MemoryTools are the long-term memory tools; they need Env.Memory. The
// memory is the agent's own notebook, not the workspace, so its calls are
// Read for the permission policy: writing or deleting a memory asks no
// approval, as with the todo list.
func MemoryTools() []Tool { return []Tool{rememberTool, recallMemoriesTool, forgetMemoryTool} }

type rememberParams struct {
	Content    string         `json:"content" jsonschema:"description=One self-contained statement worth keeping across sessions."`
	Type       string         `json:"type,omitempty" jsonschema:"enum=fact|preference|decision|code_pattern|error_solution|project_context|instruction|note,description=Kind of memory (default fact)."`
	Importance int            `json:"importance,omitempty" jsonschema:"minimum=1,maximum=10,description=1-10 (default 5)."`
	Tags       []string       `json:"tags,omitempty" jsonschema:"description=A few words to find it by."`
	Anchors    []anchorParams `json:"anchors,omitempty" jsonschema:"description=Files (and optionally a symbol in each) the memory is about."`
	Scope      string         `json:"scope,omitempty" jsonschema:"enum=workspace|user,description=workspace (default) or user (every project; personal preferences)."`
}

type anchorParams struct {
	Path   string `json:"path" jsonschema:"description=File path in the workspace."`
	Symbol string `json:"symbol,omitempty" jsonschema:"description=Name of a symbol in that file."`
}

var rememberTool = New(Spec{Name: "remember", Description: rememberDesc}, rememberAccess, rememberRun)

func rememberAccess(env *Env, p *rememberParams) (access.Access, error) {
	if strings.TrimSpace(p.Content) == "" {
		return access.Access{}, inputErrorf("content is empty")
	}
	for i, a := range p.Anchors {
		_, rel, err := env.Resolve(a.Path)
		if err != nil {
			return access.Access{}, inputErrorf("anchor %d: %v", i+1, err)
		}
		p.Anchors[i].Path = rel
	}
	return access.Access{Kind: access.Read, Summary: "remember: " + oneLine(p.Content, 80)}, nil
}

func rememberRun(ctx context.Context, env *Env, p *rememberParams) (*Result, error) {
	if env.Memory == nil {
		return Errorf("long-term memory is unavailable in this session"), nil
	}
	m := memory.Memory{Content: p.Content, Type: memory.Type(p.Type), Importance: p.Importance, Tags: p.Tags, Scope: memory.Scope(p.Scope)}
	for _, a := range p.Anchors {
		m.Anchors = append(m.Anchors, memory.Anchor{Path: a.Path, Symbol: a.Symbol})
	}
	m, err := env.Memory.Add(m)
	if err != nil {
		return memoryResult(err)
	}
	return &Result{Content: fmt.Sprintf("Remembered as %s.", memory.Ref(m))}, nil
}

// memoryResult turns a memory error into the model's result: a mistake
// (unknown id, bad type, scope unavailable) is an error result, a storage
// failure a Go error.
func memoryResult(err error) (*Result, error) {
	if errors.Is(err, memory.ErrInvalid) || errors.Is(err, memory.ErrNotFound) {
		return Errorf("%v", err), nil
	}
	return nil, err
}

type recallMemoriesParams struct {
	Query string   `json:"query" jsonschema:"description=Words the memory would contain."`
	K     int      `json:"k,omitempty" jsonschema:"minimum=1,maximum=50,description=How many to return (default 5)."`
	Types []string `json:"types,omitempty" jsonschema:"description=Only memories of these types."`

	types []memory.Type
}

var recallMemoriesTool = New(Spec{Name: "recall_memories", Description: recallMemoriesDesc, ReadOnly: true}, recallMemoriesAccess, recallMemoriesRun)

func recallMemoriesAccess(env *Env, p *recallMemoriesParams) (access.Access, error) {
	if strings.TrimSpace(p.Query) == "" {
		return access.Access{}, inputErrorf("query is empty")
	}
	for _, t := range p.Types {
		mt, err := memory.ParseType(t)
		if err != nil {
			return access.Access{}, inputErrorf("%v", err)
		}
		p.types = append(p.types, mt)
	}
	return access.Access{Kind: access.Read, Summary: "recall memories: " + oneLine(p.Query, 80)}, nil
}

func recallMemoriesRun(ctx context.Context, env *Env, p *recallMemoriesParams) (*Result, error) {
	if env.Memory == nil {
		return Errorf("long-term memory is unavailable in this session"), nil
	}
	k := p.K
	if k == 0 {
		k = 5
	}
	hits, err := env.Memory.RecallContext(ctx, p.Query, k, p.types...)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if n := env.Memory.Notice(); n != "" {
		b.WriteString("(" + n + ")\n")
	}
	if len(hits) == 0 {
		b.WriteString("No memory matches.")
		return &Result{Content: b.String()}, nil
	}
	if err := env.Memory.MarkUsed(hits); err != nil {
		return nil, err
	}
	for _, h := range hits {
		b.WriteString(memory.FormatDetail(h))
	}
	return &Result{Content: b.String()}, nil
}

type forgetMemoryParams struct {
	ID string `json:"id" jsonschema:"description=The memory's id: 12, or u12 for a user memory."`
}

var forgetMemoryTool = New(Spec{Name: "forget_memory", Description: forgetMemoryDesc}, forgetMemoryAccess, forgetMemoryRun)

func forgetMemoryAccess(env *Env, p *forgetMemoryParams) (access.Access, error) {
	if _, _, err := memory.ParseRef(p.ID); err != nil {
		return access.Access{}, inputErrorf("%v", err)
	}
	return access.Access{Kind: access.Read, Summary: "forget memory " + p.ID}, nil
}

func forgetMemoryRun(ctx context.Context, env *Env, p *forgetMemoryParams) (*Result, error) {
	if env.Memory == nil {
		return Errorf("long-term memory is unavailable in this session"), nil
	}
	m, err := env.Memory.Forget(p.ID)
	if err != nil {
		return memoryResult(err)
	}
	return &Result{Content: fmt.Sprintf("Forgot %s: %s", memory.Ref(m), oneLine(m.Content, 120))}, nil
}

// oneLine folds s onto one line, clipped to n bytes, for summaries.
func oneLine(s string, n int) string { return clipText(strings.Join(strings.Fields(s), " "), n) }
