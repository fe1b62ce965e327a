package tools

import (
	"context"
	_ "embed"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/tools/ledger"
)

//go:embed desc/get_symbol.md
var getSymbolDesc string

// maxSymbolChoices bounds the candidates listed for an ambiguous name.
const maxSymbolChoices = 20

type getSymbolParams struct {
	Name string `json:"name" jsonschema:"description=Symbol name, optionally qualified by its container: Serve or Server.Serve."`
	Path string `json:"path,omitempty" jsonschema:"description=File or directory to look in, to pick one of several symbols with the same name."`
	Kind string `json:"kind,omitempty" jsonschema:"description=Symbol kind to pick (function, method, struct, class, interface, variable, constant, field, ...)."`
}

// getSymbolTool shows the source of one symbol found through the index.
var getSymbolTool = New(
	Spec{Name: "get_symbol", Description: getSymbolDesc, ReadOnly: true},
	getSymbolAccess, getSymbolRun)

func getSymbolAccess(env *Env, p *getSymbolParams) (access.Access, error) {
	return optionalPathAccess(env, p.Path, "get symbol "+p.Name)
}

// symbolHit is a definition with the scope (store and root) it came from.
type symbolHit struct {
	sc  scope
	hit index.SymbolHit
}

func getSymbolRun(ctx context.Context, env *Env, p *getSymbolParams) (*Result, error) {
	hits, res, err := findSymbols(env, p.Name, p.Path, p.Kind)
	if res != nil || err != nil {
		return res, err
	}
	switch {
	case len(hits) == 0:
		return Errorf("%s", notFound(env, p.Name, p.Path, p.Kind)), nil
	case len(hits) > 1:
		var b strings.Builder
		fmt.Fprintf(&b, "%d symbols are named %s; give path and/or kind to pick one:\n", len(hits), p.Name)
		for i, h := range hits {
			if i == maxSymbolChoices {
				fmt.Fprintf(&b, "... and %d more\n", len(hits)-i)
				break
			}
			b.WriteString(symbolLine(env, h.sc.root, h.hit.Path, h.hit.Symbol) + "\n")
		}
		return Errorf("%s", strings.TrimSuffix(b.String(), "\n")), nil
	}
	return symbolSource(ctx, env, hits[0])
}

// findSymbols looks name up in the scopes of path, filtered by kind and
// by container when the name is qualified.
func findSymbols(env *Env, name, path, kindName string) ([]symbolHit, *Result, error) {
	if strings.TrimSpace(name) == "" {
		return nil, Errorf("name is empty"), nil
	}
	kind, res := parseKind(kindName)
	if res != nil {
		return nil, res, nil
	}
	scopes, res := indexScopes(env, path)
	if res != nil {
		return nil, res, nil
	}
	container, base := splitQualified(name)
	var out []symbolHit
	for _, sc := range scopes {
		want := "" // container to require when the qualified name had no match
		defs, err := sc.store.Definitions(name)
		if err == nil && len(defs) == 0 && container != "" {
			defs, err = sc.store.Definitions(base)
			want = container
		}
		if err != nil {
			return nil, nil, fmt.Errorf("definitions of %s: %w", name, err)
		}
		for _, h := range defs {
			if sc.contains(h.Path) && (kind == 0 || h.Symbol.Kind == kind) && containerMatches(h.Symbol.Container, want) {
				out = append(out, symbolHit{sc: sc, hit: h})
			}
		}
	}
	return out, nil, nil
}

// notFound explains a failed lookup and suggests similar names.
func notFound(env *Env, name, path, kind string) string {
	msg := fmt.Sprintf("no symbol named %s", name)
	if kind != "" {
		msg += " of kind " + kind
	}
	if path != "" {
		msg += " in " + path
	}
	var similar []string
	if scopes, res := indexScopes(env, ""); res == nil {
		_, base := splitQualified(name)
		for _, sc := range scopes {
			hits, err := sc.store.SearchSymbols(base, 8)
			if err != nil {
				continue
			}
			for _, h := range hits {
				similar = append(similar, fmt.Sprintf("%s %s (%s:%d)", h.Symbol.Kind, qualified(h.Symbol), displayRel(env, sc.root, h.Path), h.Symbol.Selection.Start.Line+1))
			}
		}
	}
	if len(similar) > 0 {
		msg += "; similar: " + strings.Join(similar[:min(len(similar), 8)], ", ")
	}
	return msg
}

// symbolSource shows a symbol's source with its leading comment, read
// through env.Files so unsaved edits are seen.
func symbolSource(ctx context.Context, env *Env, h symbolHit) (*Result, error) {
	sym := h.hit.Symbol
	abs := h.sc.absIn(h.hit.Path)
	shown := displayRel(env, h.sc.root, h.hit.Path)
	content, _, res := readText(env, abs, shown)
	if res != nil {
		return res, nil
	}
	lines := splitLines(string(content))
	first := int(sym.Range.Start.Line)
	last := int(endLine(sym.Range.Start.Line, sym.Range.End.Line, sym.Range.End.Col))
	if first >= len(lines) || last >= len(lines) {
		return Errorf("the index is out of date for %s (it has %d lines now, the index expects %s at line %d); read the file instead", shown, len(lines), sym.Name, first+1), nil
	}
	first = leadingComment(lines, first)
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d: %s %s\n", shown, sym.Selection.Start.Line+1, sym.Kind, qualified(sym))
	if sel := int(sym.Selection.Start.Line); !strings.Contains(lines[sel], sym.Name) {
		b.WriteString("[warning: the file changed since it was indexed; these lines may not be the symbol]\n")
	}
	out, err := numberLines(lines[first:last+1], first+1, DefaultReadTokens)
	if err != nil {
		return nil, fmt.Errorf("get_symbol %s: %w", shown, err)
	}
	b.WriteString(out.text)
	if out.truncated {
		fmt.Fprintf(&b, "[truncated at %d tokens; read the rest with read_file path=%s start_line=%d end_line=%d]\n", DefaultReadTokens, shown, first+out.shown+1, last+1)
	}
	if env.Ledger != nil && out.shown > 0 {
		// The body is now seen: an outline's elision no longer hides it.
		if err := env.Ledger.Shown(abs, content, ledger.Range{Start: first + 1, End: first + out.shown}, ledger.TurnOf(ctx)); err != nil {
			return nil, fmt.Errorf("get_symbol %s: %w", shown, err)
		}
	}
	return &Result{Content: b.String()}, nil
}

// leadingComment extends a symbol's first line upwards over the comment
// lines directly above it (doc comments, attributes, decorators).
func leadingComment(lines []string, first int) int {
	for i := first - 1; i >= 0 && first-i <= 50; i-- {
		t := strings.TrimSpace(lines[i])
		if t == "" || !hasCommentPrefix(t) {
			return i + 1
		}
	}
	return max(first-50, 0)
}

func hasCommentPrefix(t string) bool {
	for _, p := range []string{"//", "#", "/*", "*", "--", "@", "["} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// optionalPathAccess describes an index query that may be narrowed to a
// path.
func optionalPathAccess(env *Env, p, summary string) (access.Access, error) {
	if p == "" {
		return access.Access{Kind: access.Read, Summary: summary}, nil
	}
	a, err := pathAccess(env, access.Read, p, summary)
	a.Summary = summary + " in " + filepath.ToSlash(p)
	return a, err
}
