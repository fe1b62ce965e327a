package extract

import "sync"

// An Annotator adds to a file's Result what needs the file's whole syntax
// tree after the walk: Python's resolution descriptors (Ref.Operand into
// Result.Operands), written by index/resolve_pydesc.go. It is registered
// from the index package rather than written here because it shares the
// scope rules of the query-time resolver (index/resolve_pyscope.go), which
// must stay one copy: the index records what a query would resolve.
// An annotator must be a pure function of its input, safe for concurrent
// use, and must not keep tree, src or res past its return.
type Annotator func(tree *Tree, src []byte, res *Result)

var annotators sync.Map // language name -> Annotator

// SetAnnotator registers fn for the tree-sitter language lang ("python");
// call it from an init function, before any extraction.
func SetAnnotator(lang string, fn Annotator) { annotators.Store(lang, fn) }

// annotate runs lang's annotator, if one is registered.
func annotate(lang string, tree *Tree, src []byte, res *Result) {
	if fn, ok := annotators.Load(lang); ok {
		fn.(Annotator)(tree, src, res)
	}
}
