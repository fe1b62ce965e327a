package extract

// An Annotator adds to a file's Result what needs the file's whole syntax
// tree after the walk: Python's, TypeScript's and JavaScript's resolution
// descriptors (Ref.Operand into Result.Operands), written by
// index/python and index/typescript. They are passed in (Options.Describe)
// rather than written here because they share the scope rules of the
// query-time resolvers, which must stay one copy: the index records what
// a query would resolve.
// An annotator must be a pure function of its input, safe for concurrent
// use, and must not keep tree, src or res past its return.
type Annotator func(tree *Tree, src []byte, res *Result)

// annotate runs lang's annotator, if opts names one.
func annotate(opts Options, lang string, tree *Tree, src []byte, res *Result) {
	if fn := opts.Describe[lang]; fn != nil {
		fn(tree, src, res)
	}
}
