package tools

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

//go:embed desc/get_complexity.md
var getComplexityDesc string

const defaultComplexity = 20

type getComplexityParams struct {
	Path  string `json:"path,omitempty" jsonschema:"description=File or directory to report on. Default: the whole workspace."`
	Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=500,description=How many functions to list, most complex first (default 20)."`
}

// getComplexityTool ranks functions by cyclomatic complexity.
var getComplexityTool = New(
	Spec{Name: "get_complexity", Description: getComplexityDesc, ReadOnly: true},
	getComplexityAccess, getComplexityRun)

func getComplexityAccess(env *Env, p *getComplexityParams) (access.Access, error) {
	return optionalPathAccess(env, p.Path, "complexity")
}

type complexFunc struct {
	root, path string
	sym        extract.Symbol
}

func getComplexityRun(ctx context.Context, env *Env, p *getComplexityParams) (*Result, error) {
	scopes, res := indexScopes(env, p.Path)
	if res != nil {
		return res, nil
	}
	var funcs []complexFunc
	for _, sc := range scopes {
		err := eachIndexedFile(ctx, sc, func(h index.FileHeader) error {
			syms, err := sc.store.Symbols(h.Path)
			if err != nil {
				return fmt.Errorf("symbols of %s: %w", h.Path, err)
			}
			for _, s := range syms {
				if s.Complexity > 0 {
					funcs = append(funcs, complexFunc{root: sc.root, path: h.Path, sym: s})
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(funcs) == 0 {
		return &Result{Content: "No functions with a computed complexity here (complexity is computed for languages the index parses fully).\n"}, nil
	}
	slices.SortStableFunc(funcs, func(a, b complexFunc) int { return cmp.Compare(b.sym.Complexity, a.sym.Complexity) })
	limit := cmp.Or(p.Limit, defaultComplexity)
	var b strings.Builder
	b.WriteString("complexity  function\n")
	for i, f := range funcs {
		if i == limit {
			fmt.Fprintf(&b, "[%d more functions not shown]\n", len(funcs)-i)
			break
		}
		fmt.Fprintf(&b, "%10d  %s:%d: %s %s\n", f.sym.Complexity, displayRel(env, f.root, f.path), f.sym.Selection.Start.Line+1, f.sym.Kind, qualified(f.sym))
	}
	return &Result{Content: b.String()}, nil
}

// eachIndexedFile calls fn for every file header in scope that has
// symbols, in path order.
func eachIndexedFile(ctx context.Context, sc scope, fn func(index.FileHeader) error) error {
	if sc.file {
		h, ok := sc.store.Header(sc.prefix)
		if !ok {
			return nil
		}
		return fn(h)
	}
	for _, h := range sc.store.Files() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !strings.HasPrefix(h.Path, sc.prefix) {
			continue
		}
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}
