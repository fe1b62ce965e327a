package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
)

//go:embed desc/find_definition.md
var findDefinitionDesc string

// maxDefinitions bounds find_definition's output.
const maxDefinitions = 50

type findDefinitionParams struct {
	Name string `json:"name" jsonschema:"description=Symbol name, optionally qualified by its container: Serve or Server.Serve. Exact case is preferred; case-insensitive matches are shown when there are none."`
	Path string `json:"path,omitempty" jsonschema:"description=File or directory to restrict the search to."`
	Kind string `json:"kind,omitempty" jsonschema:"description=Only symbols of this kind (function, method, struct, class, interface, variable, constant, field, ...)."`
}

// FindDefinitionTool lists where a name is defined.
type FindDefinitionTool struct{}

var findDefinitionSchema = jsonschema.For[findDefinitionParams]()

func (FindDefinitionTool) Name() string            { return "find_definition" }
func (FindDefinitionTool) Description() string     { return findDefinitionDesc }
func (FindDefinitionTool) Schema() json.RawMessage { return findDefinitionSchema }
func (FindDefinitionTool) ReadOnly() bool          { return true }

func (FindDefinitionTool) Access(env *Env, input json.RawMessage) (access.Access, error) {
	p, err := jsonschema.Decode[findDefinitionParams](input)
	if err != nil {
		return access.Access{}, err
	}
	return optionalPathAccess(env, p.Path, "find definition of "+p.Name)
}

func (FindDefinitionTool) Run(ctx context.Context, env *Env, input json.RawMessage) (*Result, error) {
	p, err := jsonschema.Decode[findDefinitionParams](input)
	if err != nil {
		return Errorf("%v", err), nil
	}
	hits, res, err := findSymbols(env, p.Name, p.Path, p.Kind)
	if res != nil || err != nil {
		return res, err
	}
	if len(hits) == 0 {
		return &Result{Content: notFound(env, p.Name, p.Path, p.Kind) + "\n"}, nil
	}
	var b strings.Builder
	for i, h := range hits {
		if i == maxDefinitions {
			fmt.Fprintf(&b, "[%d more definitions not shown; narrow with path or kind]\n", len(hits)-i)
			break
		}
		b.WriteString(symbolLine(env, h.sc.root, h.hit.Path, h.hit.Symbol) + "\n")
		if h.hit.Symbol.Doc != "" {
			fmt.Fprintf(&b, "    // %s\n", h.hit.Symbol.Doc)
		}
	}
	return &Result{Content: b.String()}, nil
}
