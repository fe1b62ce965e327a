package python

import (
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// References to a Python declaration from the descriptors stored with
// each occurrence (describe.go): every occurrence of the name is
// evaluated against the index (idx.go) and kept when it
// resolves to the declaration, dropped when it resolves elsewhere or is
// a bare name the syntax leaves unbound (a builtin), and kept Uncertain
// when it is x.name with x unknown, in the declaration's file or a file
// whose imports lead to it. No file is parsed: a references query costs
// the reads of the name's occurrences and of the few files its
// descriptors lead to, whatever the number of candidate files.

// RefsLang is Python's part of the references judge (syntax.Refs).
var RefsLang = &syntax.RefsLang{
	ModuleFile: ImportModule,
	Export: func(r *syntax.Resolver, mod, via string) syntax.Value {
		return (&resolver{r}).moduleMember(mod, via)
	},
	Judge: indexedFile,
}

// indexedFile filters the occurrences hits of the Python file p by their
// descriptors.
func indexedFile(pr *syntax.Refs, p string, hits []index.RefHit) []index.RefHit {
	t := pr.T
	if !IsFile(p) || (t.Local && p != t.Path) {
		return nil
	}
	x := (&resolver{pr.R}).idxFile(p)
	seen, sees := false, false
	seesDecl := func() bool { // once per file: it reads the file's imports
		if !seen {
			seen, sees = true, p == t.Path || pr.SeesDeclaration(p)
		}
		return sees
	}
	if x == nil {
		return syntax.UnknownFile(hits, seesDecl())
	}
	desc := func(op uint32) string { return x.desc(index.Occurrence{Operand: op}) }
	eval := func(p, d string) (syntax.Target, bool) { return evalOccurrence(pr, p, d) }
	return pr.ByDescriptors(p, hits, desc, eval, pyAttrDesc, seesDecl)
}

// evalOccurrence resolves the descriptor d of an occurrence of the
// target's name in p. A bare binding of p is settled without reading
// anything: it is p's, at its position.
func evalOccurrence(pr *syntax.Refs, p, d string) (syntax.Target, bool) {
	if b := strings.TrimPrefix(d, "g"); strings.HasPrefix(b, "@") && !strings.ContainsAny(b, ".(") {
		pos, ok := syntax.ParsePos(b[1:])
		return syntax.Target{Path: p, Name: pr.T.Name, Selection: extract.Range{Start: pos}}, ok
	}
	pr.R.Steps = 0 // each occurrence gets the full budget
	return (&resolver{pr.R}).evalDesc(p, d, pr.T.Name).Target()
}
