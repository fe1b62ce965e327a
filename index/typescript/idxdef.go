package typescript

import (
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// tsIndexedDefinition answers Definitions from the descriptor of the
// occurrence at off when src is the content the index holds for from:
// nothing is parsed, not even the buffer. answered is false when the
// index cannot say (the buffer was edited since, off is no stored
// occurrence, or a call of an overloaded function, whose signature
// tsPickOverload picks from the arguments' syntax); the caller then
// parses.
func tsIndexedDefinition(s *index.Store, from string, src []byte, off int, read syntax.SourceReader) (t syntax.Target, ok, answered bool) {
	name, pos, ok := syntax.IndexedOccurrence(s, from, src, off)
	if !ok {
		return syntax.Target{}, false, false
	}
	r := newResolver(s, read)
	defer r.Release()
	x := r.tsIdxFile(from)
	if x == nil {
		return syntax.Target{}, false, false
	}
	occ, _ := s.FileReferences(from, name)
	for _, o := range occ {
		if o.Pos != pos {
			continue
		}
		d := x.desc(o.Operand)
		if d == "" {
			return syntax.Target{}, false, true
		}
		v := r.tsEvalDesc(from, d, name)
		if v.OK && o.Call && r.tsOverloaded(v.Decl) {
			return syntax.Target{}, false, false
		}
		t, ok = v.Target()
		return t, ok, true
	}
	return syntax.Target{}, false, false
}

// tsOverloaded reports whether the function or method t is declared by
// more than one signature.
func (r *resolver) tsOverloaded(t syntax.Target) bool {
	x := r.tsIdxFile(t.Path)
	if x == nil || t.Module {
		return false
	}
	i := x.symbolAt(t.Selection.Start)
	if i < 0 {
		return false
	}
	s := x.syms[i]
	if s.Kind != extract.KindFunction && s.Kind != extract.KindMethod {
		return false
	}
	for j := range x.syms {
		if o := x.syms[j]; j != i && o.Name == s.Name && o.Parent == s.Parent && o.Kind == s.Kind {
			return true
		}
	}
	return false
}
