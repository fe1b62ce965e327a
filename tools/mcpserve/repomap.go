package mcpserve

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/repomap"
	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/tools"
)

//go:embed repo_map.md
var repoMapDesc string

// The repo map's token budget: the default, and the most a client may ask.
const (
	defaultMapTokens = 2048
	maxMapTokens     = 16384
)

type repoMapParams struct {
	Focus  []string `json:"focus,omitempty" jsonschema:"description=Files you are working on (workspace paths); the ranking moves toward them."`
	Tokens int      `json:"tokens,omitempty" jsonschema:"minimum=1,maximum=16384,description=Token budget of the map (default 2048)."`

	rels map[string][]string // focus, store-relative, by root
}

// mappers keeps one repomap.Mapper per store: a Mapper caches the import
// graph and rankings of the index generation it last saw.
type mappers struct {
	mu sync.Mutex
	m  map[*index.Store]*repomap.Mapper
}

func (ms *mappers) get(st *index.Store, root string) *repomap.Mapper {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.m == nil {
		ms.m = map[*index.Store]*repomap.Mapper{}
	}
	m, ok := ms.m[st]
	if !ok {
		m = repomap.New(st, root)
		ms.m[st] = m
	}
	return m
}

// repoMapTool is the repo_map tool; the agent has the map in its system
// prompt, an MCP client asks for it.
func repoMapTool(ms *mappers) tools.Tool {
	count := tokcount.Counter("")
	return tools.New(tools.Spec{Name: "repo_map", Description: repoMapDesc, ReadOnly: true},
		func(env *tools.Env, p *repoMapParams) (access.Access, error) {
			if p.Tokens < 0 || p.Tokens > maxMapTokens {
				return access.Access{}, fmt.Errorf("tokens must be between 1 and %d", maxMapTokens)
			}
			p.rels = map[string][]string{}
			for _, f := range p.Focus {
				abs, _, err := env.Resolve(f)
				if err != nil {
					return access.Access{}, fmt.Errorf("focus %s: %w", f, err)
				}
				if env.Index != nil {
					if _, rel, ok := env.Index.StoreFor(abs); ok {
						root := rootOf(env, abs)
						p.rels[root] = append(p.rels[root], rel)
					}
				}
			}
			return access.Access{Kind: access.Read, Summary: "repo map"}, nil
		},
		func(_ context.Context, env *tools.Env, p *repoMapParams) (*tools.Result, error) {
			if env.Index == nil || len(env.Index.Stores()) == 0 {
				return tools.Errorf("the code index is unavailable (another parley process may hold it)"), nil
			}
			tokens := p.Tokens
			if tokens == 0 {
				tokens = defaultMapTokens
			}
			stores := env.Index.Stores()
			var b strings.Builder
			for _, rs := range stores {
				m, err := ms.get(rs.Store, rs.Root).Build(repomap.Options{Tokens: tokens / len(stores), Focus: p.rels[rs.Root], Count: count})
				if err != nil {
					return nil, fmt.Errorf("repo map %s: %w", rs.Root, err)
				}
				if len(stores) > 1 {
					fmt.Fprintf(&b, "# %s\n", rs.Root)
				}
				b.WriteString(m)
			}
			if b.Len() == 0 {
				return &tools.Result{Content: "The index has no files with symbols to map."}, nil
			}
			return &tools.Result{Content: b.String()}, nil
		})
}

// rootOf is the workspace root holding abs.
func rootOf(env *tools.Env, abs string) string {
	for _, rs := range env.Index.Stores() {
		if st, _, ok := env.Index.StoreFor(abs); ok && st == rs.Store {
			return rs.Root
		}
	}
	return ""
}
