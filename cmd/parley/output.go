package main

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/graph"
)

// The JSON shapes below are a public surface (scripts and the agent's tools
// read them): every entry has name, kind, path (relative to the root) and a
// 1-based line; columns are 1-based byte columns.

type symbolJSON struct {
	Name       string        `json:"name"`
	Kind       string        `json:"kind"`
	Path       string        `json:"path"`
	Line       uint32        `json:"line"`
	Col        uint32        `json:"col"`
	EndLine    uint32        `json:"end_line"`
	Container  string        `json:"container,omitempty"`
	Signature  string        `json:"signature,omitempty"`
	Doc        string        `json:"doc,omitempty"`
	Exported   bool          `json:"exported"`
	Complexity uint16        `json:"complexity,omitempty"`
	Children   []*symbolJSON `json:"children,omitempty"`
}

func toSymbolJSON(path string, s extract.Symbol) *symbolJSON {
	return &symbolJSON{
		Name: s.Name, Kind: s.Kind.String(), Path: path,
		Line: s.Selection.Start.Line + 1, Col: s.Selection.Start.Col + 1,
		EndLine: s.Range.End.Line + 1, Container: s.Container,
		Signature: s.Signature, Doc: s.Doc, Exported: s.Exported,
		Complexity: s.Complexity,
	}
}

func printSymbols(g *globals, hits []index.SymbolHit) error {
	if g.json {
		out := make([]*symbolJSON, len(hits))
		for i, h := range hits {
			out[i] = toSymbolJSON(h.Path, h.Symbol)
		}
		return writeJSON(g.stdout, out)
	}
	for _, h := range hits {
		s := h.Symbol
		name := s.Name
		if s.Container != "" {
			name = s.Container + "." + s.Name
		}
		fmt.Fprintf(g.stdout, "%s:%d:%d\t%s\t%s\n", h.Path, s.Selection.Start.Line+1, s.Selection.Start.Col+1, s.Kind, name)
	}
	return nil
}

type refJSON struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "definition", "call" or "reference"
	Path string `json:"path"`
	Line uint32 `json:"line"`
	Col  uint32 `json:"col"`
	// Uncertain: the syntax allows but cannot confirm the reference
	// (index.RefHit.Uncertain).
	Uncertain bool `json:"uncertain,omitempty"`
}

func refKind(h index.RefHit) string {
	switch {
	case h.Decl:
		return "definition"
	case h.Call:
		return "call"
	}
	return "reference"
}

func printRefs(g *globals, hits []index.RefHit) error {
	if g.json {
		out := make([]refJSON, len(hits))
		for i, h := range hits {
			out[i] = refJSON{Name: h.Name, Kind: refKind(h), Path: h.Path, Line: h.Pos.Line + 1, Col: h.Pos.Col + 1, Uncertain: h.Uncertain}
		}
		return writeJSON(g.stdout, out)
	}
	for _, h := range hits {
		unc := ""
		if h.Uncertain {
			unc = "\tuncertain"
		}
		fmt.Fprintf(g.stdout, "%s:%d:%d\t%s%s\n", h.Path, h.Pos.Line+1, h.Pos.Col+1, refKind(h), unc)
	}
	return nil
}

func printOutline(g *globals, path string, roots []*index.OutlineNode) error {
	if g.json {
		var conv func(n []*index.OutlineNode) []*symbolJSON
		conv = func(nodes []*index.OutlineNode) []*symbolJSON {
			out := make([]*symbolJSON, len(nodes))
			for i, n := range nodes {
				out[i] = toSymbolJSON(path, n.Symbol)
				out[i].Children = conv(n.Children)
			}
			return out
		}
		return writeJSON(g.stdout, conv(roots))
	}
	var walk func(nodes []*index.OutlineNode, depth int)
	walk = func(nodes []*index.OutlineNode, depth int) {
		for _, n := range nodes {
			s := n.Symbol
			fmt.Fprintf(g.stdout, "%s%-5d %s %s", strings.Repeat("  ", depth), s.Selection.Start.Line+1, s.Kind, s.Name)
			if s.Complexity > 1 {
				fmt.Fprintf(g.stdout, "  (complexity %d)", s.Complexity)
			}
			fmt.Fprintln(g.stdout)
			walk(n.Children, depth+1)
		}
	}
	walk(roots, 0)
	return nil
}

type edgeJSON struct {
	Name     string `json:"name"` // the import as written
	Kind     string `json:"kind"` // "package" (a directory) or "file"
	Path     string `json:"path"` // resolved target (deps) or importing file (dependents); "" if unresolved
	Line     uint32 `json:"line"` // line of the import statement
	From     string `json:"from"`
	Resolved bool   `json:"resolved"`
	External bool   `json:"external"`
}

func toEdgeJSON(e graph.Edge, path string) edgeJSON {
	kind := "file"
	if e.ToDir {
		kind = "package"
	}
	return edgeJSON{Name: e.Import, Kind: kind, Path: path, Line: e.Line + 1, From: e.From, Resolved: e.Resolved, External: e.External}
}

// printEdges prints imports: for deps (byImporter false) each line is an
// import and its target; for dependents, the importing file.
func printEdges(g *globals, edges []graph.Edge, byImporter bool) error {
	edges = limitEdges(edges, g.limit)
	if g.json {
		out := make([]edgeJSON, len(edges))
		for i, e := range edges {
			path := e.To
			if byImporter {
				path = e.From
			}
			out[i] = toEdgeJSON(e, path)
		}
		return writeJSON(g.stdout, out)
	}
	for _, e := range edges {
		if byImporter {
			fmt.Fprintf(g.stdout, "%s:%d\t%s\n", e.From, e.Line+1, e.Import)
			continue
		}
		target := e.To
		switch {
		case e.Resolved && e.ToDir:
			target += "/"
		case e.External:
			target = "(external)"
		case !e.Resolved:
			target = "(unresolved)"
		}
		fmt.Fprintf(g.stdout, "%d\t%s\t%s\n", e.Line+1, e.Import, target)
	}
	return nil
}

func limitEdges(edges []graph.Edge, limit int) []graph.Edge {
	if limit > 0 && len(edges) > limit {
		return edges[:limit]
	}
	return edges
}

type hubJSON struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Path       string `json:"path"`
	Lang       string `json:"lang"`
	Dependents int    `json:"dependents"`
}

func printHubs(g *globals, hubs []graph.Hub) error {
	if g.json {
		out := make([]hubJSON, len(hubs))
		for i, h := range hubs {
			kind := "file"
			if h.Dir {
				kind = "package"
			}
			out[i] = hubJSON{Name: h.Path, Kind: kind, Path: h.Path, Lang: h.Lang, Dependents: h.Dependents}
		}
		return writeJSON(g.stdout, out)
	}
	for _, h := range hubs {
		suffix := ""
		if h.Dir {
			suffix = "/"
		}
		fmt.Fprintf(g.stdout, "%6d  %s%s\n", h.Dependents, h.Path, suffix)
	}
	return nil
}

func printStats(g *globals, root string, st index.Stats) error {
	if g.json {
		return writeJSON(g.stdout, st)
	}
	fmt.Fprintf(g.stdout, "%s: %d files, %s, %d symbols, %d refs\n", root, st.Files, humanBytes(st.Bytes), st.Symbols, st.Refs)
	fmt.Fprintf(g.stdout, "%-12s %8s %10s %10s %12s\n", "language", "files", "bytes", "symbols", "refs")
	for _, l := range st.Languages {
		name := l.Lang
		if name == "" {
			name = "(other)"
		}
		fmt.Fprintf(g.stdout, "%-12s %8d %10s %10d %12d\n", name, l.Files, humanBytes(l.Bytes), l.Symbols, l.Refs)
	}
	return nil
}
