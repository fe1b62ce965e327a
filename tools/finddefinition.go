package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/index"
)

//go:embed desc/find_definition.md
var findDefinitionDesc string

// maxDefinitions bounds find_definition's output.
const maxDefinitions = 50

type findDefinitionParams struct {
	Name string `json:"name" jsonschema:"description=Symbol name, optionally qualified by its container: Serve or Server.Serve. Exact case is preferred; case-insensitive matches are shown when there are none."`
	Path string `json:"path,omitempty" jsonschema:"description=A file the name is used in: definitions in it, in its directory and in the files it imports come first, then the rest. Or a directory to restrict the search to."`
	Kind string `json:"kind,omitempty" jsonschema:"description=Only symbols of this kind (function, method, struct, class, interface, variable, constant, field, ...)."`
}

// findDefinitionTool lists where a name is defined.
var findDefinitionTool = New(
	Spec{Name: "find_definition", Description: findDefinitionDesc, ReadOnly: true},
	findDefinitionAccess, findDefinitionRun)

func findDefinitionAccess(env *Env, p *findDefinitionParams) (access.Access, error) {
	a, err := optionalPathAccess(env, p.Path, "find definition of "+p.Name)
	if err != nil || p.Path == "" {
		return a, err
	}
	// A file does not restrict the search, it orders it (see the run).
	if abs, _, res := resolveArg(env, p.Path); res == nil {
		if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
			a.Summary = "find definition of " + p.Name + " (ranked from " + filepath.ToSlash(p.Path) + ")"
		}
	}
	return a, nil
}

func findDefinitionRun(ctx context.Context, env *Env, p *findDefinitionParams) (*Result, error) {
	from, err := definitionOrigin(env, p.Path)
	if err != nil {
		return nil, err
	}
	scopePath := p.Path
	if from != nil {
		scopePath = "" // a file ranks the whole workspace rather than restricting it
	}
	hits, res, err := findSymbols(env, p.Name, scopePath, p.Kind)
	if res != nil || err != nil {
		return res, err
	}
	if from != nil {
		index.SortDefinitions(hits, func(h symbolHit) index.DefinitionRank {
			if h.sc.store != from.store {
				return index.RankElsewhere
			}
			return from.ctx.Rank(h.hit.Path)
		})
	}
	if len(hits) == 0 {
		return &Result{Content: notFound(env, p.Name, scopePath, p.Kind) + "\n"}, nil
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

// origin is the indexed file find_definition ranks definitions from.
type origin struct {
	store *index.Store
	ctx   index.DefinitionContext
}

// definitionOrigin returns the origin when p names an indexed file, the
// order the editor's go-to-definition and `parley defs --from` use; nil
// when p is empty, a directory, or a file the index does not know (p then
// restricts the search, as before).
func definitionOrigin(env *Env, p string) (*origin, error) {
	if p == "" {
		return nil, nil
	}
	scs, res := indexScopes(env, p)
	if res != nil || !scs[0].file {
		return nil, nil
	}
	sc := scs[0]
	if _, ok := sc.store.Header(sc.prefix); !ok {
		return nil, nil
	}
	ctx, err := sc.store.DefinitionContext(sc.prefix)
	if err != nil {
		return nil, fmt.Errorf("find definition from %s: %w", sc.prefix, err)
	}
	return &origin{store: sc.store, ctx: ctx}, nil
}
