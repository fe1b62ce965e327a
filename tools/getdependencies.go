package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/index/graph"
)

//go:embed desc/get_dependencies.md
var getDependenciesDesc string

type getDependenciesParams struct {
	Path string `json:"path" jsonschema:"description=Source file (or a directory: the imports of the files directly in it)."`
}

// getDependenciesTool lists what a file imports, resolved to workspace
// files and package directories.
var getDependenciesTool = New(
	Spec{Name: "get_dependencies", Description: getDependenciesDesc, ReadOnly: true},
	getDependenciesAccess, getDependenciesRun)

func getDependenciesAccess(env *Env, p *getDependenciesParams) (access.Access, error) {
	return pathAccess(env, access.Read, p.Path, "dependencies of")
}

func getDependenciesRun(ctx context.Context, env *Env, p *getDependenciesParams) (*Result, error) {
	scs, res := indexScopes(env, p.Path)
	if res != nil {
		return res, nil
	}
	sc := scs[0]
	if _, ok := sc.store.Header(sc.prefix); sc.file && !ok {
		return Errorf("%s is not in the index (ignored, new since the last indexing run, or not a source file)", displayRel(env, sc.root, sc.prefix)), nil
	}
	g, err := sc.store.Graph(sc.root)
	if err != nil {
		return nil, fmt.Errorf("dependency graph: %w", err)
	}
	var files []string
	if sc.file {
		files = []string{sc.prefix}
	} else {
		for _, h := range sc.store.Files() {
			if rest, ok := strings.CutPrefix(h.Path, sc.prefix); ok && !strings.Contains(rest, "/") {
				files = append(files, h.Path)
			}
		}
	}
	var b strings.Builder
	for _, f := range files {
		deps := g.Deps(f)
		if len(deps) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n", displayRel(env, sc.root, f))
		for _, e := range deps {
			fmt.Fprintf(&b, "  line %d: %q -> %s\n", e.Line+1, e.Import, edgeTarget(env, sc.root, e))
		}
	}
	if b.Len() == 0 {
		return &Result{Content: fmt.Sprintf("%s imports nothing (according to the index).\n", p.Path)}, nil
	}
	return &Result{Content: b.String()}, nil
}

// edgeTarget describes where an import resolved to.
func edgeTarget(env *Env, root string, e graph.Edge) string {
	switch {
	case e.Resolved && e.ToDir:
		return displayRel(env, root, e.To) + "/ (package directory)"
	case e.Resolved:
		return displayRel(env, root, e.To)
	case e.External:
		return "external"
	}
	return "unresolved"
}
