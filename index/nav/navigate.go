package index

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/parleyhq/parley/index/extract"
)

// Navigation from a position: what the language server's definition,
// references and documentHighlight answer, and what `parley defs/refs
// FILE:LINE:COL` and the agent's find_definition/find_references (with a
// path, line and column) answer the same way, from one implementation.
// src is the content of the root-relative file from as the caller sees it
// (an editor's unsaved buffer, or the file on disk).
//
// Python, TypeScript and JavaScript resolve from the syntax of several
// files (SyntaxTargetAt) through descriptors stored at index time:
// references parse nothing, definitions at most an edited buffer (and, in
// TypeScript, for a call of an overloaded function, the file declaring
// it, whose signature the arguments pick); the other tree-sitter
// languages' locals resolve from the buffer's syntax (LocalAt). The
// functions taking a SourceReader resolve them when it is not nil and
// wait as long as that takes (the CLI and the tools). The language server
// passes nil and runs LocalAt, SyntaxTargetAt and PyReferences itself
// first, within its resolve budget, falling back to these functions' name ranking when the
// budget runs out; it also leaves out the Python references marked
// Uncertain, which the CLI and the tools show marked.

// SourceReader returns the content of a root-relative file of the store as
// the caller sees it (open buffers first, or the disk).
type SourceReader func(rel string) ([]byte, error)

// SyntaxTargetAt resolves the Python, TypeScript or JavaScript identifier
// at offset off of src, the content of from, to its declaration
// (PyDefinitions, TSDefinitions); ok is false in other languages and when
// the syntax does not settle it.
func (s *Store) SyntaxTargetAt(from string, src []byte, off int, read SourceReader) (PyTarget, bool) {
	if t, ok := s.PyDefinitions(from, src, off, read); ok {
		return t, true
	}
	return s.TSDefinitions(from, src, off, read)
}

// IdentAt returns the identifier containing or ending at byte offset off
// of src; ok is false when there is none (or it is a number).
func IdentAt(src []byte, off int) (name string, ok bool) {
	off = min(max(off, 0), len(src))
	isIdent := func(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	start, end := off, off
	for end < len(src) {
		r, n := utf8.DecodeRune(src[end:])
		if !isIdent(r) {
			break
		}
		end += n
	}
	for start > 0 {
		r, n := utf8.DecodeLastRune(src[:start])
		if !isIdent(r) {
			break
		}
		start -= n
	}
	if start == end {
		return "", false
	}
	word := string(src[start:end])
	if r, _ := utf8.DecodeRuneInString(word); unicode.IsDigit(r) {
		return "", false // a number literal
	}
	return word, true
}

// DefinitionsAt returns the best class of this store's definitions of
// name, the identifier at offset off of src: with read set, a local of a
// language LocalAt covers, its binding; for x.F in Go where the
// syntax gives x's type, that type's member (GoMemberDefinitions); in
// Python, TypeScript and JavaScript with read set, the declaration
// SyntaxTargetAt resolves; otherwise the definitions of name ranked by
// RankUse (what the use's syntax resolves to, then the same file,
// directory, imports, the rest), only those of the best rank, which is
// returned with them.
func (s *Store) DefinitionsAt(from string, src []byte, off int, name string, read SourceReader) ([]NameHit, DefinitionRank, error) {
	if read != nil {
		if l, ok := s.LocalAt(from, src, off); ok {
			return []NameHit{l.NameHit()}, RankResolved, nil
		}
		if t, ok := s.SyntaxTargetAt(from, src, off, read); ok {
			return []NameHit{t.NameHit()}, RankResolved, nil
		}
	}
	ctx, err := s.DefinitionContext(from)
	if err != nil && !errors.Is(err, ErrNotIndexed) {
		return nil, RankElsewhere, err
	}
	use := UseAt(src, off)
	if use.Selector && strings.HasSuffix(from, ".go") {
		if hits, ok := s.GoMemberDefinitions(from, src, off); ok && len(hits) > 0 {
			out := make([]NameHit, len(hits))
			for i, h := range hits {
				out[i] = h.NameHit()
			}
			return out, RankResolved, nil
		}
	}
	all, err := s.DefinitionSites(name)
	if err != nil || len(all) == 0 {
		return nil, RankElsewhere, err
	}
	rank := func(h NameHit) DefinitionRank { return ctx.RankUse(use, h.Path, h.Container) }
	best := SortDefinitions(all, rank)
	return all[:best], rank(all[0]), nil
}

// DefinitionSymbolsAt is DefinitionsAt with the definitions' symbol
// records, for answers that show signatures and docs. A resolved
// declaration the index keeps no symbol for (a local, a module, an
// attribute assigned on self) is described by its name alone.
func (s *Store) DefinitionSymbolsAt(from string, src []byte, off int, name string, read SourceReader) ([]SymbolHit, error) {
	sites, _, err := s.DefinitionsAt(from, src, off, name, read)
	if err != nil || len(sites) == 0 {
		return nil, err
	}
	out := make([]SymbolHit, 0, len(sites))
	all := map[string][]SymbolHit{}
	for _, site := range sites {
		// A resolved site may be named unlike the use (an import alias).
		if _, ok := all[site.Name]; !ok {
			if all[site.Name], err = s.Definitions(site.Name); err != nil {
				return nil, err
			}
		}
		hit := SymbolHit{Path: site.Path, Symbol: extract.Symbol{Name: site.Name, Kind: site.Kind,
			Container: site.Container, Range: site.Selection, Selection: site.Selection, Exported: site.Exported}}
		for _, h := range all[site.Name] {
			if h.Path == site.Path && h.Symbol.Selection.Start == site.Selection.Start {
				hit = h
				break
			}
		}
		out = append(out, hit)
	}
	return out, nil
}

// DeclarationAt returns the one declaration the identifier name at
// offset off of src means: the declaration whose name it is, or the
// single definition the use's syntax resolves to. ok is false when the
// syntax does not settle one.
func (s *Store) DeclarationAt(from string, src []byte, off int, name string) (NameHit, bool, error) {
	start := IdentStart(src, off)
	line := bytes.Count(src[:start], []byte{'\n'})
	col := start - (bytes.LastIndexByte(src[:start], '\n') + 1)
	here := extract.Pos{Line: uint32(line), Col: uint32(col)}
	sites, err := s.DefinitionSites(name)
	if err != nil {
		return NameHit{}, false, err
	}
	for _, h := range sites {
		if h.Path == from && h.Name == name && h.Selection.Start == here {
			return h, true, nil
		}
	}
	defs, rank, err := s.DefinitionsAt(from, src, off, name, nil)
	if err != nil || rank != RankResolved || len(defs) != 1 {
		return NameHit{}, false, err
	}
	return defs[0], true, nil
}

// ReferencesAt returns the references to what the identifier name at
// offset off of src means: with read set, a local's occurrences in src
// (LocalAt); in Python, TypeScript and JavaScript with read set,
// PyReferences of the declaration SyntaxTargetAt resolves; else
// DeclReferences of the declaration DeclarationAt settles (resolved);
// else every occurrence of name.
func (s *Store) ReferencesAt(from string, src []byte, off int, name string, limit int, read SourceReader) (hits []RefHit, resolved bool, err error) {
	if read != nil {
		if l, ok := s.LocalAt(from, src, off); ok {
			hits = l.RefHits()
			if limit > 0 && len(hits) > limit {
				hits = hits[:limit]
			}
			return hits, true, nil
		}
		if t, ok := s.SyntaxTargetAt(from, src, off, read); ok {
			if hits, err = s.PyReferences(t, read); err != nil {
				return nil, false, err
			}
			if limit > 0 && len(hits) > limit {
				hits = hits[:limit]
			}
			return hits, true, nil
		}
	}
	if hits, ok, err := s.GoBufferReferences(from, src, off, name); ok || err != nil {
		if limit > 0 && len(hits) > limit {
			hits = hits[:limit]
		}
		return hits, err == nil, err
	}
	decl, ok, err := s.DeclarationAt(from, src, off, name)
	if err != nil {
		return nil, false, err
	}
	if ok {
		hits, err = s.DeclReferences(decl, limit)
		return hits, err == nil, err
	}
	hits, err = s.References(name, limit)
	return hits, false, err
}

// ErrNoReferences is wrapped by the error of a references request at a
// position that names nothing references can be asked of: a predeclared
// name (nil, len, error), a member of unsafe, a keyword, a word in a
// comment or string. gopls refuses them as well; answering every
// occurrence of the word would be wrong and, for nil, cost 100k hits.
var ErrNoReferences = errors.New("no references can be asked of it")

// GoBufferReferences answers the Go references the buffer alone settles:
// a local's (GoLocalReferences), and none, with an error wrapping
// ErrNoReferences, where the position names no declaration
// (GoNotNameAt, GoPredeclaredAt). ok is false for everything else, and
// for files other than Go.
func (s *Store) GoBufferReferences(from string, src []byte, off int, name string) (hits []RefHit, ok bool, err error) {
	if !strings.HasSuffix(from, ".go") {
		return nil, false, nil
	}
	if hits, ok := s.GoLocalReferences(from, src, off, name); ok {
		return hits, true, nil
	}
	if GoNotNameAt(src, off) {
		return nil, false, fmt.Errorf("%s here is a keyword or a word in a comment or string: %w", name, ErrNoReferences)
	}
	if s.GoPredeclaredAt(from, src, off, name) {
		return nil, false, fmt.Errorf("%s is predeclared: %w", name, ErrNoReferences)
	}
	return nil, false, nil
}

// LineColOffset converts a 1-based line and 1-based byte column of src
// (how `parley defs FILE:LINE:COL`, the tools and gopls's command line
// count) to a byte offset.
func LineColOffset(src []byte, line, col int) (int, error) {
	if line < 1 || col < 1 {
		return 0, fmt.Errorf("line and column start at 1")
	}
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0, fmt.Errorf("line %d is past the end (%d lines)", line, l)
		}
		off += i + 1
	}
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src) - off
	}
	if col-1 > end {
		return 0, fmt.Errorf("column %d is past the end of line %d (%d bytes)", col, line, end)
	}
	return off + col - 1, nil
}
