package tools

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"github.com/parleyhq/parley/agent/provider"
)

// Registry is an ordered, immutable set of tools with unique names. The
// order is the order the model sees them in (keep it stable: it is part of
// the cached prompt prefix). Safe for concurrent use.
type Registry struct {
	tools  []Tool
	byName map[string]Tool
}

// toolName is what every provider accepts (Anthropic's rule is the
// strictest: ^[a-zA-Z0-9_-]{1,64}$).
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// NewRegistry checks and orders ts: nil tools, invalid or duplicate names
// and schemas that are not JSON objects are rejected.
func NewRegistry(ts ...Tool) (*Registry, error) {
	r := &Registry{byName: make(map[string]Tool, len(ts))}
	for i, t := range ts {
		if t == nil {
			return nil, fmt.Errorf("tool registry: tool %d is nil", i)
		}
		name := t.Name()
		if !toolName.MatchString(name) {
			return nil, fmt.Errorf("tool registry: invalid tool name %q", name)
		}
		if _, dup := r.byName[name]; dup {
			return nil, fmt.Errorf("tool registry: duplicate tool name %q", name)
		}
		var schema struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(t.Schema(), &schema); err != nil || schema.Type != "object" {
			return nil, fmt.Errorf("tool registry: %s: input schema is not a JSON object schema", name)
		}
		r.byName[name] = t
		r.tools = append(r.tools, t)
	}
	return r, nil
}

// Get returns the tool called name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Tools returns the tools in order (a copy).
func (r *Registry) Tools() []Tool { return slices.Clone(r.tools) }

// Names returns the tool names in order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.tools))
	for i, t := range r.tools {
		out[i] = t.Name()
	}
	return out
}

// Specs describes the tools to a provider, in order.
func (r *Registry) Specs() []provider.ToolSpec {
	out := make([]provider.ToolSpec, len(r.tools))
	for i, t := range r.tools {
		out[i] = provider.ToolSpec{Name: t.Name(), Description: t.Description(), InputSchema: t.Schema()}
	}
	return out
}

// Subset returns a registry of the named tools, kept in this registry's
// order (names may repeat). Unknown names are an error that lists them all.
func (r *Registry) Subset(names ...string) (*Registry, error) {
	want := make(map[string]bool, len(names))
	var unknown []string
	for _, n := range names {
		if _, ok := r.byName[n]; !ok {
			unknown = append(unknown, n)
		}
		want[n] = true
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("tool subset: unknown tools %q", unknown)
	}
	var ts []Tool
	for _, t := range r.tools {
		if want[t.Name()] {
			ts = append(ts, t)
		}
	}
	return NewRegistry(ts...)
}

// FileTools returns the file, search, index and todo tools, in the order
// the model should see them: reading and searching first, then editing,
// then the index, then planning.
func FileTools() []Tool {
	return []Tool{
		readFileTool,
		listDirTool,
		globTool,
		grepTool,
		fileInfoTool,
		writeFileTool,
		editFileTool,
		multiEditTool,
		fileDeltaTool,
		deleteFileTool,
		moveFileTool,
		outlineTool,
		getSymbolTool,
		findDefinitionTool,
		findReferencesTool,
		getDependenciesTool,
		getDependentsTool,
		getComplexityTool,
		getTodosTool,
		getDiagnosticsTool,
		todoWriteTool,
	}
}
