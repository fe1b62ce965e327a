package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"strings"

	ts "github.com/odvcencio/gotreesitter"
	"github.com/odvcencio/gotreesitter/grammars"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/nav"
)

// site is one call x.Name(...) whose Name is declared in another file.
type site struct {
	File string `json:"file"`
	Line int    `json:"line"` // 1-based
	Col  int    `json:"col"`  // 1-based byte column of Name
	Name string `json:"name"`
	Off  int    `json:"-"` // byte offset of Name
	Decl decl   `json:"decl"`
}

// decl is the ground truth: where Name is declared.
type decl struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	Line      int    `json:"line"` // 1-based
	Col       int    `json:"-"`    // 0-based byte column of Name
	Container string `json:"container,omitempty"`
	Kind      string `json:"kind"`
	// Signature is the stored symbol's signature (its first line);
	// Source the declaration's line as the file has it.
	Signature string `json:"signature"`
	Source    string `json:"-"`
}

// candidate is a call's selected name before its declaration is known.
type candidate struct {
	off  int
	name string
}

// sample draws n sites from the corpus's files of one half with seed: a
// random file, then a random candidate in it, kept when its ground truth
// (groundTruth) settles one function or method in another file. It
// returns the sites and how many candidates were dropped, by reason.
func sample(c corpus, st *index.Store, files []string, which string, n int, seed uint64) ([]site, map[string]int) {
	var pool []string
	for _, f := range files {
		if c.siteFile(f) && half(f) == which {
			pool = append(pool, f)
		}
	}
	dropped := map[string]int{}
	if len(pool) == 0 {
		return nil, dropped
	}
	rng := rand.New(rand.NewPCG(seed, 0x636f6d70))
	cands := map[string][]candidate{}
	srcs := map[string][]byte{}
	type at struct {
		rel string
		off int
	}
	seen := map[at]bool{}
	var out []site
	for tries := 0; len(out) < n && tries < 200*n; tries++ {
		rel := pool[rng.IntN(len(pool))]
		if _, ok := cands[rel]; !ok {
			src, err := c.read(rel)
			if err != nil {
				cands[rel] = nil
				continue
			}
			srcs[rel], cands[rel] = src, listCandidates(c.Lang, rel, src)
		}
		list := cands[rel]
		if len(list) == 0 {
			continue
		}
		cd := list[rng.IntN(len(list))]
		if seen[at{rel, cd.off}] {
			continue
		}
		seen[at{rel, cd.off}] = true
		d, why := groundTruth(c, st, rel, srcs[rel], cd)
		if why != "" {
			dropped[why]++
			continue
		}
		line, col := lineCol(srcs[rel], cd.off)
		out = append(out, site{File: rel, Line: line, Col: col, Name: cd.name, Off: cd.off, Decl: d})
	}
	return out, dropped
}

// groundTruth is the declaration Name means at the unmodified site, as
// nav.DefinitionsAt resolves it from the syntax (the go-to-definition
// path of the language server and the CLI): it must be one function or
// method, resolved (not a ranked guess), in another file. why says why
// a candidate is dropped.
func groundTruth(c corpus, st *index.Store, rel string, src []byte, cd candidate) (decl, string) {
	defs, rank, err := nav.DefinitionsAt(st, rel, src, cd.off, cd.name, c.read)
	switch {
	case err != nil || len(defs) == 0:
		return decl{}, "no definition"
	case rank != index.RankResolved:
		return decl{}, "not resolved from syntax (a ranked guess)"
	case len(defs) > 1:
		return decl{}, "several definitions"
	}
	d := defs[0]
	if d.Path == rel {
		return decl{}, "declared in the same file"
	}
	if d.Kind != extract.KindMethod && d.Kind != extract.KindFunction {
		return decl{}, "not a function or method"
	}
	out := decl{Name: d.Name, Path: d.Path, Line: int(d.Selection.Start.Line) + 1, Col: int(d.Selection.Start.Col), Container: d.Container, Kind: d.Kind.String()}
	if hits, err := st.Definitions(d.Name); err == nil {
		for _, h := range hits {
			if h.Path == d.Path && h.Symbol.Selection.Start == d.Selection.Start {
				out.Signature = h.Symbol.Signature
			}
		}
	}
	if b, err := c.read(d.Path); err == nil {
		lines := bytes.Split(b, []byte("\n"))
		if out.Line-1 < len(lines) {
			out.Source = string(lines[out.Line-1])
		}
	}
	return out, ""
}

func lineCol(src []byte, off int) (int, int) {
	line := bytes.Count(src[:off], []byte("\n")) + 1
	return line, off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
}

// listCandidates lists the selected names of the calls x.Name(...) of a
// file.
func listCandidates(lang, rel string, src []byte) []candidate {
	switch lang {
	case "go":
		return goCandidates(rel, src)
	case "python":
		return treeCandidates("python", src, pythonCall)
	case "typescript":
		return treeCandidates("typescript", src, typescriptCall)
	}
	return nil
}

// goCandidates: every call whose function is a selector x.Name (a
// method, or a function of an imported package).
func goCandidates(rel string, src []byte) []candidate {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []candidate
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				out = append(out, candidate{fset.Position(sel.Sel.Pos()).Offset, sel.Sel.Name})
			}
		}
		return true
	})
	return out
}

// pythonCall picks the attribute of a call x.name(...), dunders excepted.
func pythonCall(n *ts.Node, lang *ts.Language) *ts.Node {
	if n.Type(lang) != "call" {
		return nil
	}
	f := n.ChildByFieldName("function", lang)
	if f == nil || f.Type(lang) != "attribute" {
		return nil
	}
	return f.ChildByFieldName("attribute", lang)
}

// typescriptCall picks the property of a call x.name(...).
func typescriptCall(n *ts.Node, lang *ts.Language) *ts.Node {
	if n.Type(lang) != "call_expression" {
		return nil
	}
	f := n.ChildByFieldName("function", lang)
	if f == nil || f.Type(lang) != "member_expression" {
		return nil
	}
	p := f.ChildByFieldName("property", lang)
	if p == nil || p.Type(lang) != "property_identifier" {
		return nil
	}
	return p
}

// treeCandidates parses src with a tree-sitter grammar and lists the
// names pick selects.
func treeCandidates(grammar string, src []byte, pick func(*ts.Node, *ts.Language) *ts.Node) []candidate {
	entry := grammars.DetectLanguageByName(grammar)
	if entry == nil || entry.Language == nil {
		return nil
	}
	lang := entry.Language()
	p := ts.NewParser(lang)
	var tree *ts.Tree
	var err error
	if entry.TokenSourceFactory != nil {
		tree, err = p.ParseWithTokenSourceFactory(src, func(b []byte) (ts.TokenSource, error) {
			return entry.TokenSourceFactory(b, lang), nil
		})
	} else {
		tree, err = p.Parse(src)
	}
	if err != nil || tree == nil {
		return nil
	}
	defer tree.Release()
	var out []candidate
	var walk func(n *ts.Node)
	walk = func(n *ts.Node) {
		if id := pick(n, lang); id != nil {
			name := id.Text(src)
			if !strings.HasPrefix(name, "__") || !strings.HasSuffix(name, "__") {
				out = append(out, candidate{int(id.StartByte()), name})
			}
		}
		for i, c := 0, n.ChildCount(); i < c; i++ {
			walk(n.Child(i))
		}
	}
	walk(tree.RootNode())
	return out
}
