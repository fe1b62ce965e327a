package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
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

// findDefinitionTool lists where a name is defined.
var findDefinitionTool = New(
	Spec{Name: "find_definition", Description: findDefinitionDesc, ReadOnly: true},
	findDefinitionAccess, findDefinitionRun)

func findDefinitionAccess(env *Env, p *findDefinitionParams) (access.Access, error) {
	return optionalPathAccess(env, p.Path, "find definition of "+p.Name)
}

func findDefinitionRun(ctx context.Context, env *Env, p *findDefinitionParams) (*Result, error) {
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
