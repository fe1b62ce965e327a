package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/index"
)

//go:embed desc/outline.md
var outlineDesc string

type outlineParams struct {
	Path string `json:"path" jsonschema:"description=Source file: relative to the workspace root, or absolute inside it."`
}

// outlineTool shows the nested symbols of a file from the index.
var outlineTool = New(
	Spec{Name: "outline", Description: outlineDesc, ReadOnly: true},
	outlineAccess, outlineRun)

func outlineAccess(env *Env, p *outlineParams) (access.Access, error) {
	return pathAccess(env, access.Read, p.Path, "outline")
}

func outlineRun(ctx context.Context, env *Env, p *outlineParams) (*Result, error) {
	sc, res := indexedFile(env, p.Path)
	if res != nil {
		return res, nil
	}
	nodes, err := sc.store.Outline(sc.prefix)
	if err != nil {
		return nil, fmt.Errorf("outline %s: %w", sc.prefix, err)
	}
	shown := displayRel(env, sc.root, sc.prefix)
	if len(nodes) == 0 {
		return &Result{Content: fmt.Sprintf("%s has no symbols in the index.\n", shown)}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", shown)
	writeOutline(&b, nodes, 1)
	return &Result{Content: b.String()}, nil
}

// writeOutline renders nodes as "<indent><kind> <name> [L<a>-<b>]: <sig>".
func writeOutline(b *strings.Builder, nodes []*index.OutlineNode, depth int) {
	for _, n := range nodes {
		s := n.Symbol
		fmt.Fprintf(b, "%s%s %s [L%d-%d]", strings.Repeat("  ", depth), s.Kind, s.Name, s.Range.Start.Line+1, endLine(s.Range.Start.Line, s.Range.End.Line, s.Range.End.Col)+1)
		if s.Signature != "" {
			fmt.Fprintf(b, ": %s", s.Signature)
		}
		if s.Complexity > 1 {
			fmt.Fprintf(b, " (complexity %d)", s.Complexity)
		}
		b.WriteByte('\n')
		writeOutline(b, n.Children, depth+1)
	}
}

// endLine is the 0-based last line a half-open range really covers: a
// range ending at column 0 stops before that line.
func endLine(start, end, endCol uint32) uint32 {
	if endCol == 0 && end > start {
		return end - 1
	}
	return end
}
