package tools

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
)

//go:embed desc/get_dependents.md
var getDependentsDesc string

const (
	defaultDependents = 100
	defaultHubs       = 20
)

type getDependentsParams struct {
	Path       string `json:"path,omitempty" jsonschema:"description=File or package directory whose importers to list. Omit to list the most imported files and packages of the workspace (hubs)."`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"minimum=1,maximum=1000,description=Maximum lines to show (default 100 importers, or 20 hubs)."`
}

// getDependentsTool lists who imports a file or package, or the hubs.
var getDependentsTool = New(
	Spec{Name: "get_dependents", Description: getDependentsDesc, ReadOnly: true},
	getDependentsAccess, getDependentsRun)

func getDependentsAccess(env *Env, p *getDependentsParams) (access.Access, error) {
	return optionalPathAccess(env, p.Path, "dependents")
}

func getDependentsRun(ctx context.Context, env *Env, p *getDependentsParams) (*Result, error) {
	scopes, res := indexScopes(env, p.Path)
	if res != nil {
		return res, nil
	}
	if p.Path == "" {
		return hubs(env, scopes, cmp.Or(p.MaxResults, defaultHubs))
	}
	sc := scopes[0]
	g, err := sc.store.Graph(sc.root)
	if err != nil {
		return nil, fmt.Errorf("dependency graph: %w", err)
	}
	target := strings.TrimSuffix(sc.prefix, "/")
	if target == "" {
		target = "."
	}
	edges := g.Dependents(target)
	shownTarget := displayRel(env, sc.root, target)
	if len(edges) == 0 {
		return &Result{Content: fmt.Sprintf("Nothing in the workspace imports %s (according to the index).\n", shownTarget)}, nil
	}
	limit := cmp.Or(p.MaxResults, defaultDependents)
	var b strings.Builder
	fmt.Fprintf(&b, "%s is imported by:\n", shownTarget)
	for i, e := range edges {
		if i == limit {
			fmt.Fprintf(&b, "[%d more not shown]\n", len(edges)-i)
			break
		}
		fmt.Fprintf(&b, "%s:%d: %q\n", displayRel(env, sc.root, e.From), e.Line+1, e.Import)
	}
	return &Result{Content: b.String()}, nil
}

// hubs lists the most imported targets of every scope.
func hubs(env *Env, scopes []scope, limit int) (*Result, error) {
	var b strings.Builder
	for _, sc := range scopes {
		g, err := sc.store.Graph(sc.root)
		if err != nil {
			return nil, fmt.Errorf("dependency graph: %w", err)
		}
		for _, h := range g.Hubs(limit) {
			name := displayRel(env, sc.root, h.Path)
			if h.Dir {
				name += "/"
			}
			fmt.Fprintf(&b, "%4d importers  %s (%s)\n", h.Dependents, name, cmp.Or(h.Lang, "unknown"))
		}
	}
	if b.Len() == 0 {
		return &Result{Content: "No file in the workspace is imported by another (according to the index).\n"}, nil
	}
	return &Result{Content: "Most imported files and packages:\n" + b.String()}, nil
}
