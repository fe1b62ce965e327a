package nav

import (
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/golang"
	"github.com/parleyhq/parley/index/python"
	"github.com/parleyhq/parley/index/syntax"
	"github.com/parleyhq/parley/index/typescript"
)

// Step names the attempt that answered References.
type Step int

const (
	// StepLocal: a local of the buffer (LocalAt); Refs.Local is set.
	StepLocal Step = iota + 1
	// StepSyntax: a Python, TypeScript or JavaScript declaration
	// resolved from syntax (SyntaxTargetAt, SyntaxReferences);
	// Refs.Target is set.
	StepSyntax
	// StepGoBuffer: what a Go buffer alone settles (a local's uses,
	// golang.BufferReferences).
	StepGoBuffer
	// StepDeclaration: the one declaration the syntax settles
	// (DeclarationAt, golang.DeclReferences); Refs.Decl is set.
	StepDeclaration
	// StepName: nothing settled; every occurrence of the name.
	StepName
)

// Refs is the answer of References.
type Refs struct {
	Hits   []index.RefHit
	Step   Step
	Local  Local         // StepLocal
	Target Target        // StepSyntax
	Decl   index.NameHit // StepDeclaration
}

// References returns the references to what the identifier at p means,
// the one order of attempts the language server, the CLI and the tools
// share: with o.Read set, a local's occurrences in the buffer (LocalAt),
// then, settled (o.Settle), the references to the declaration
// SyntaxTargetAt resolves (SyntaxReferences), each within o.Budget; a Go
// buffer's own answer (golang.BufferReferences, whose error wraps
// index.ErrNoReferences where the position names nothing references can
// be asked of); settled, the references DeclReferences keeps for the
// declaration DeclarationAt settles; else every occurrence of the name
// (unless o.NoNames). Hits are capped at o.Limit except a declaration's,
// which DeclReferences caps itself.
func References(s *index.Store, p Position, o Options) (Refs, error) {
	limit := func(h []index.RefHit) []index.RefHit {
		if o.Limit > 0 && len(h) > o.Limit {
			return h[:o.Limit]
		}
		return h
	}
	if o.Read != nil {
		if HasLocals(p.From, p.Src) {
			v, ok, err := o.run(func() (any, bool, error) {
				l, ok := LocalAt(s, p.From, p.Src, p.Off)
				return l, ok, nil
			})
			if err != nil {
				return Refs{}, err
			}
			if ok {
				l := v.(Local)
				return Refs{Hits: limit(l.RefHits()), Step: StepLocal, Local: l}, nil
			}
		}
		o.settle()
		type resolved struct {
			t    Target
			hits []index.RefHit
		}
		v, ok, err := o.run(func() (any, bool, error) {
			var r resolved
			var ok bool
			if r.t, ok = SyntaxTargetAt(s, p.From, p.Src, p.Off, o.Read); !ok {
				return r, false, nil
			}
			var err error
			r.hits, err = SyntaxReferences(s, r.t, o.Read)
			return r, err == nil, err
		})
		if err != nil {
			return Refs{}, err
		}
		if ok {
			r := v.(resolved)
			return Refs{Hits: limit(r.hits), Step: StepSyntax, Target: r.t}, nil
		}
	}
	if hits, ok, err := golang.BufferReferences(s, p.From, p.Src, p.Off, p.Name); ok || err != nil {
		return Refs{Hits: limit(hits), Step: StepGoBuffer}, err
	}
	decl, ok, err := DeclarationAt(s, p.From, p.Src, p.Off, p.Name)
	if err != nil {
		return Refs{}, err
	}
	if ok {
		o.settle()
		hits, err := golang.DeclReferences(s, decl, o.Limit)
		return Refs{Hits: hits, Step: StepDeclaration, Decl: decl}, err
	}
	if o.NoNames {
		return Refs{Step: StepName}, nil
	}
	hits, err := s.References(p.Name, o.Limit)
	return Refs{Hits: hits, Step: StepName}, err
}

// ReferencesAt is References waiting for every attempt, with read as
// Options.Read; resolved is false for StepName.
func ReferencesAt(s *index.Store, from string, src []byte, off int, name string, limit int, read SourceReader) (hits []index.RefHit, resolved bool, err error) {
	r, err := References(s, Position{From: from, Src: src, Off: off, Name: name}, Options{Read: read, Limit: limit})
	if err != nil {
		return nil, false, err
	}
	return r.Hits, r.Step != StepName, nil
}

// SyntaxReferences returns the references to t, a Python, TypeScript or
// JavaScript declaration (SyntaxTargetAt), in path and position order,
// judged from the descriptors stored with each occurrence: no file is
// parsed, so a references query costs the reads of the name's
// occurrences and of the few files their descriptors lead to, whatever
// the number of candidate files. read returns the content of a file of
// the store.
func SyntaxReferences(s *index.Store, t Target, read SourceReader) ([]index.RefHit, error) {
	return syntax.References(s, refsLangOf(t.Path), t, read)
}

// SyntaxFileReferences is SyntaxReferences within file p (document
// highlights).
func SyntaxFileReferences(s *index.Store, t Target, p string, read SourceReader) ([]index.RefHit, error) {
	return syntax.FileReferences(s, refsLangOf(t.Path), t, p, read)
}

// refsLangOf is the language of the declaration in file p, for the
// references judge.
func refsLangOf(p string) *syntax.RefsLang {
	if typescript.IsFile(p) {
		return typescript.RefsLang
	}
	return python.RefsLang
}
