package tools

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/index"
)

//go:embed desc/get_todos.md
var getTodosDesc string

const defaultTodos = 200

type getTodosParams struct {
	Path       string `json:"path,omitempty" jsonschema:"description=File or directory to list markers from. Default: the whole workspace."`
	Tag        string `json:"tag,omitempty" jsonschema:"enum=TODO|FIXME|HACK|XXX,description=Only markers with this tag."`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"minimum=1,maximum=2000,description=Maximum markers to show (default 200); the rest are counted."`
}

// getTodosTool lists TODO/FIXME/HACK/XXX comments recorded by the index.
var getTodosTool = New(
	Spec{Name: "get_todos", Description: getTodosDesc, ReadOnly: true},
	getTodosAccess, getTodosRun)

func getTodosAccess(env *Env, p *getTodosParams) (access.Access, error) {
	return optionalPathAccess(env, p.Path, "todos")
}

func getTodosRun(ctx context.Context, env *Env, p *getTodosParams) (*Result, error) {
	scopes, res := indexScopes(env, p.Path)
	if res != nil {
		return res, nil
	}
	limit := cmp.Or(p.MaxResults, defaultTodos)
	var b strings.Builder
	shown, total := 0, 0
	for _, sc := range scopes {
		err := eachIndexedFile(ctx, sc, func(h index.FileHeader) error {
			d, err := sc.store.Detail(h.Path)
			if err != nil {
				return fmt.Errorf("todos of %s: %w", h.Path, err)
			}
			for _, t := range d.Todos {
				if p.Tag != "" && t.Tag != p.Tag {
					continue
				}
				total++
				if shown < limit {
					shown++
					fmt.Fprintf(&b, "%s:%d: %s %s\n", displayRel(env, sc.root, h.Path), t.Line+1, t.Tag, t.Text)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if total == 0 {
		return &Result{Content: "No TODO/FIXME/HACK/XXX markers found (according to the index).\n"}, nil
	}
	if total > shown {
		fmt.Fprintf(&b, "[%d more markers not shown (%d in all); narrow with path or tag]\n", total-shown, total)
	}
	return &Result{Content: b.String()}, nil
}
