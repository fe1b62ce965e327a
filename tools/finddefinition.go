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
	"github.com/parleyhq/parley/index/nav"
)

//go:embed desc/find_definition.md
var findDefinitionDesc string

// maxDefinitions bounds find_definition's output.
const maxDefinitions = 50

type findDefinitionParams struct {
	Name   string `json:"name,omitempty" jsonschema:"description=Symbol name, optionally qualified by its container: Serve or Server.Serve. Exact case is preferred; case-insensitive matches are shown when there are none. May be omitted with line and column."`
	Path   string `json:"path,omitempty" jsonschema:"description=A file the name is used in: definitions in it, in its directory and in the files it imports come first, then the rest. Or a directory to restrict the search to. With line and column, the file the identifier is in."`
	Kind   string `json:"kind,omitempty" jsonschema:"description=Only symbols of this kind (function, method, struct, class, interface, variable, constant, field, ...)."`
	Line   int    `json:"line,omitempty" jsonschema:"minimum=1,description=With column and path: the definition of what the identifier at this 1-based line means, resolved as the editor's go-to-definition does."`
	Column int    `json:"column,omitempty" jsonschema:"minimum=1,description=1-based byte column of the identifier on line."`
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
	if p.Line > 0 || p.Column > 0 {
		return findDefinitionAt(env, p)
	}
	if strings.TrimSpace(p.Name) == "" {
		return Errorf("name is empty; give a name, or path, line and column"), nil
	}
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
	return &Result{Content: definitionLines(env, hits)}, nil
}

// findDefinitionAt answers for the identifier at path, line and column.
func findDefinitionAt(env *Env, p *findDefinitionParams) (*Result, error) {
	at, res := spotAt(env, p.Path, p.Line, p.Column, p.Name)
	if res != nil {
		return res, nil
	}
	syms, err := nav.DefinitionSymbolsAt(at.sc.store, at.sc.prefix, at.src, at.off, at.name, at.read)
	if err != nil {
		return nil, fmt.Errorf("definition of %s: %w", at.name, err)
	}
	if len(syms) == 0 {
		return &Result{Content: fmt.Sprintf("No definition of %s in the index.\n", at.name)}, nil
	}
	hits := make([]symbolHit, len(syms))
	for i, h := range syms {
		hits[i] = symbolHit{sc: at.sc, hit: h}
	}
	return &Result{Content: definitionLines(env, hits)}, nil
}

func definitionLines(env *Env, hits []symbolHit) string {
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
	return b.String()
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
