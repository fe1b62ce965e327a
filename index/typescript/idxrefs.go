package typescript

import (
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/syntax"
)

// References to a TypeScript or JavaScript declaration from the
// descriptors stored with each occurrence (describe.go), as
// Python's (python/idxrefs.go): every occurrence of the name is
// evaluated against the index (idx.go), its result taken to the
// declaration references count against (tsIdxCanonical: a member's
// topmost declaration up the extends and implements clauses, an overload
// group's first signature), and kept when that is the target's. A
// property access x.name whose x the syntax does not type is kept
// Uncertain in a file that can see the declaration: its own, any file for
// a member (whose values flow in without an import of its class), or one
// whose imports lead to it. No file is parsed.

// RefsLang is TypeScript's and JavaScript's part of the references
// judge (syntax.Refs).
var RefsLang = &syntax.RefsLang{
	TS: true,
	Canonical: func(r *syntax.Resolver, t syntax.Target) syntax.Target {
		return (&resolver{r}).tsIdxCanonical(t)
	},
	ModuleFile: ModuleFile,
	Export: func(r *syntax.Resolver, mod, via string) syntax.Value {
		return (&resolver{r}).tsIdxExport(mod, via, 0)
	},
	Judge: tsIndexedFile,
}

// tsIndexedFile filters the occurrences hits of file p by their
// descriptors.
func tsIndexedFile(pr *syntax.Refs, p string, hits []index.RefHit) []index.RefHit {
	t := pr.T
	if !IsFile(p) || (t.Local && p != t.Path) {
		return nil
	}
	seen, sees := false, false
	seesDecl := func() bool { // once per file: it reads the file's imports
		if !seen {
			seen, sees = true, p == t.Path || t.Container != "" || pr.SeesDeclaration(p)
		}
		return sees
	}
	x := (&resolver{pr.R}).tsIdxFile(p)
	if x == nil {
		return syntax.UnknownFile(hits, seesDecl())
	}
	eval := func(p, d string) (syntax.Target, bool) { return tsEvalOccurrence(pr, p, d) }
	return pr.ByDescriptors(p, hits, x.desc, eval, func(d string) bool { return d[0] == '.' }, seesDecl)
}

// tsEvalOccurrence resolves the descriptor d of an occurrence of the
// target's name in p to the declaration it counts against.
func tsEvalOccurrence(pr *syntax.Refs, p, d string) (syntax.Target, bool) {
	pr.R.Steps = 0 // each occurrence gets the full budget
	v := (&resolver{pr.R}).tsEvalDesc(p, d, pr.T.Name)
	if !v.OK {
		return syntax.Target{}, false
	}
	if v.Decl.Module {
		return v.Decl, true
	}
	return (&resolver{pr.R}).tsIdxCanonical(v.Decl), true
}
