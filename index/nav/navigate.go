package nav

import (
	"bytes"
	"errors"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/golang"
	"github.com/parleyhq/parley/index/locals"
	"github.com/parleyhq/parley/index/python"
	"github.com/parleyhq/parley/index/syntax"
	"github.com/parleyhq/parley/index/typescript"
)

// SyntaxTargetAt resolves the Python, TypeScript or JavaScript identifier
// at offset off of src, the content of from, to its declaration
// (python.Definitions, typescript.Definitions); ok is false in other languages and when
// the syntax does not settle it.
func SyntaxTargetAt(s *index.Store, from string, src []byte, off int, read syntax.SourceReader) (syntax.Target, bool) {
	if t, ok := python.Definitions(s, from, src, off, read); ok {
		return t, true
	}
	return typescript.Definitions(s, from, src, off, read)
}

// Position is a use to navigate from: the identifier Name at byte offset
// Off of Src, the content of the root-relative file From as the caller
// sees it (an editor's unsaved buffer, or the file on disk).
type Position struct {
	From string
	Src  []byte
	Off  int
	Name string
}

// Budget runs one resolution from syntax (a local's answer; a declaration
// resolved from the syntax of several files, with its references) for a
// caller with a time budget: ok is false when fn did not answer within
// it, and that attempt is then skipped. The language server runs them
// within its resolve budget; nil runs fn and waits for it (the CLI, the
// tools).
type Budget func(fn func() (any, bool, error)) (v any, ok bool, err error)

// Options say how a caller runs the attempts.
type Options struct {
	// Read returns the store's files as the caller sees them; nil skips
	// the resolution from syntax (LocalAt, SyntaxTargetAt) altogether.
	Read SourceReader
	// Budget bounds each resolution from syntax (nil: none).
	Budget Budget
	// Settle is called before an attempt that reads what other files
	// hold (references from syntax, references to a declaration): the
	// language server waits there for its documents' pending writes.
	Settle func()
	// Limit caps the references answered (0: all).
	Limit int
	// NoNames leaves the last attempt, every occurrence of the name, to
	// the caller (References answers StepName with no hits): the
	// language server answers it across its folders.
	NoNames bool
}

// run runs fn within o's budget.
func (o *Options) run(fn func() (any, bool, error)) (any, bool, error) {
	if o.Budget == nil {
		return fn()
	}
	return o.Budget(fn)
}

func (o *Options) settle() {
	if o.Settle != nil {
		o.Settle()
	}
}

// Definitions returns the best class of this store's definitions of the
// identifier at p, the order of attempts every caller shares: with
// o.Read set, a local of a language LocalAt covers, its binding; in
// Python, TypeScript and JavaScript with o.Read set, the declaration
// SyntaxTargetAt resolves (each within o.Budget); for x.F in Go where the
// syntax gives x's type, that type's member (golang.MemberDefinitions);
// otherwise the definitions of the name ranked by RankUse (what the use's
// syntax resolves to, then the same file, directory, imports, the rest),
// only those of the best rank, which is returned with them.
func Definitions(s *index.Store, p Position, o Options) ([]index.NameHit, index.DefinitionRank, error) {
	if o.Read != nil {
		if HasLocals(p.From, p.Src) {
			v, ok, err := o.run(func() (any, bool, error) {
				l, ok := LocalAt(s, p.From, p.Src, p.Off)
				return l, ok, nil
			})
			if err != nil {
				return nil, index.RankElsewhere, err
			}
			if ok {
				return []index.NameHit{v.(Local).NameHit()}, index.RankResolved, nil
			}
		}
		v, ok, _ := o.run(func() (any, bool, error) {
			t, ok := SyntaxTargetAt(s, p.From, p.Src, p.Off, o.Read)
			return t, ok, nil
		})
		if ok {
			return []index.NameHit{v.(Target).NameHit()}, index.RankResolved, nil
		}
	}
	return rankedDefinitions(s, p.From, p.Src, p.Off, p.Name)
}

// DefinitionsAt is Definitions waiting for every attempt, with read as
// Options.Read.
func DefinitionsAt(s *index.Store, from string, src []byte, off int, name string, read SourceReader) ([]index.NameHit, index.DefinitionRank, error) {
	return Definitions(s, Position{From: from, Src: src, Off: off, Name: name}, Options{Read: read})
}

// rankedDefinitions is Definitions after the resolution from syntax: a Go
// member the buffer's syntax types, else the name ranking.
func rankedDefinitions(s *index.Store, from string, src []byte, off int, name string) ([]index.NameHit, index.DefinitionRank, error) {
	ctx, err := s.DefinitionContext(from)
	if err != nil && !errors.Is(err, index.ErrNotIndexed) {
		return nil, index.RankElsewhere, err
	}
	use := index.UseAt(src, off)
	if use.Selector && strings.HasSuffix(from, ".go") {
		if hits, ok := golang.MemberDefinitions(s, from, src, off); ok && len(hits) > 0 {
			out := make([]index.NameHit, len(hits))
			for i, h := range hits {
				out[i] = h.NameHit()
			}
			return out, index.RankResolved, nil
		}
	}
	all, err := s.DefinitionSites(name)
	if err != nil || len(all) == 0 {
		return nil, index.RankElsewhere, err
	}
	rank := func(h index.NameHit) index.DefinitionRank { return ctx.RankUse(use, h.Path, h.Container) }
	best := index.SortDefinitions(all, rank)
	return all[:best], rank(all[0]), nil
}

// DefinitionSymbolsAt is DefinitionsAt with the definitions' symbol
// records, for answers that show signatures and docs. A resolved
// declaration the index keeps no symbol for (a local, a module, an
// attribute assigned on self) is described by its name alone.
func DefinitionSymbolsAt(s *index.Store, from string, src []byte, off int, name string, read syntax.SourceReader) ([]index.SymbolHit, error) {
	sites, _, err := DefinitionsAt(s, from, src, off, name, read)
	if err != nil || len(sites) == 0 {
		return nil, err
	}
	out := make([]index.SymbolHit, 0, len(sites))
	all := map[string][]index.SymbolHit{}
	for _, site := range sites {
		// A resolved site may be named unlike the use (an import alias).
		if _, ok := all[site.Name]; !ok {
			if all[site.Name], err = s.Definitions(site.Name); err != nil {
				return nil, err
			}
		}
		hit := index.SymbolHit{Path: site.Path, Symbol: extract.Symbol{Name: site.Name, Kind: site.Kind,
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
func DeclarationAt(s *index.Store, from string, src []byte, off int, name string) (index.NameHit, bool, error) {
	start := index.IdentStart(src, off)
	line := bytes.Count(src[:start], []byte{'\n'})
	col := start - (bytes.LastIndexByte(src[:start], '\n') + 1)
	here := extract.Pos{Line: uint32(line), Col: uint32(col)}
	sites, err := s.DefinitionSites(name)
	if err != nil {
		return index.NameHit{}, false, err
	}
	for _, h := range sites {
		if h.Path == from && h.Name == name && h.Selection.Start == here {
			return h, true, nil
		}
	}
	defs, rank, err := DefinitionsAt(s, from, src, off, name, nil)
	if err != nil || rank != index.RankResolved || len(defs) != 1 {
		return index.NameHit{}, false, err
	}
	return defs[0], true, nil
}

// Describers returns the index-time describers of the languages resolved
// from syntax, by tree-sitter language name, for index.Config: they write
// the descriptors the resolvers read.
func Describers() map[string]extract.Annotator {
	return map[string]extract.Annotator{
		"python":     python.Describe,
		"typescript": typescript.DescribeTypeScript,
		"tsx":        typescript.DescribeTypeScript,
		"javascript": typescript.DescribeJavaScript,
	}
}

// Open opens the store in dir with every language's describers
// (Describers): what the language server, the CLI and the tools index
// with. The caller must Close it.
func Open(dir string) (*index.Store, error) {
	return index.OpenConfig(dir, index.Config{Describers: Describers()})
}

// SourceReader returns the content of a root-relative file of the store as
// the caller sees it (open buffers first, or the disk).
type SourceReader = syntax.SourceReader

// Target is a declaration resolved from syntax (SyntaxTargetAt).
type Target = syntax.Target

// Local is a local resolved from the buffer alone (LocalAt).
type Local = locals.Local

// LocalAt resolves the identifier at byte offset off of src, the content
// of from, when it names a local of a language HasLocals covers: its
// binding and occurrences, all in src.
func LocalAt(s *index.Store, from string, src []byte, off int) (Local, bool) {
	return locals.At(s, from, src, off)
}

// HasLocals reports whether LocalAt resolves the locals of the file rel
// (its content src, whose first line may name the language).
func HasLocals(rel string, src []byte) bool { return locals.Covers(rel, src) }
