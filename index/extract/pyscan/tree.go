package pyscan

import "github.com/parleyhq/parley/index/extract"

// The scanner's syntax tree: only the nodes index-time facts look at, with
// tree-sitter-python's node types and fields where they matter (scopes,
// binding targets, imports, the expressions a descriptor's value reads),
// so that the descriptor rules read like index/python's. Every other
// construct is a nOther node that only keeps its children in order.

type nodeType uint8

const (
	nOther nodeType = iota
	nModule
	nBlock
	nIdent
	nAttribute
	nCall
	nArgList
	nKeywordArg
	nFunction
	nClass
	nDecorated
	nDecorator
	nParameters
	nLambdaParams
	nLambda
	nTypedParam
	nTypedDefaultParam
	nDefaultParam
	nListSplatPattern
	nDictSplatPattern
	nListSplat
	nAssignment
	nAugAssignment
	nFor
	nForIn
	nIfClause
	nNamedExpr
	nAsPattern
	nAsPatternTarget
	nPatternList
	nTuplePattern
	nListPattern
	nTuple
	nList
	nParenthesized
	nExprList
	nListComp
	nSetComp
	nDictComp
	nGenerator
	nImport
	nImportFrom
	nFutureImport
	nAliasedImport
	nDottedName
	nRelativeImport
	nWildcard
	nGlobal
	nNonlocal
	nString
	nConcatString
	nType
	nConditional
	nBoolOp
	nIf
	nElif
	nWhile
	nExcept
	nCaseClause
	nSubscript
)

type field uint8

const (
	fNone field = iota
	fName
	fAlias
	fObject
	fAttr
	fFunction
	fArguments
	fParameters
	fSuperclasses
	fBody
	fLeft
	fRight
	fType
	fValue
	fModuleName
	fReturnType
)

// node is one tree node; children are linked in source order.
type node struct {
	typ          nodeType
	field        field
	start, end   uint32
	parent       int32
	first, last  int32
	next         int32
	staticMethod bool // nDecorated: a decorator reads exactly "@staticmethod"
}

type tree struct {
	src   []byte
	nodes []node
	// rootStart is where tree-sitter's module node starts: at the file's
	// first token or comment, leading blank lines being no node's.
	rootStart uint32
	names     extract.Names
}

func (t *tree) mk(typ nodeType, start, end uint32, kids ...int32) int32 {
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{typ: typ, start: start, end: end, parent: -1, first: -1, last: -1, next: -1})
	for _, k := range kids {
		t.add(i, k)
	}
	return i
}

// add appends child k to n.
func (t *tree) add(n, k int32) {
	if k < 0 {
		return
	}
	t.nodes[k].parent = n
	if t.nodes[n].last < 0 {
		t.nodes[n].first = k
	} else {
		t.nodes[t.nodes[n].last].next = k
	}
	t.nodes[n].last = k
}

// fld adds k to n in field f.
func (t *tree) fld(n int32, f field, k int32) {
	if k < 0 {
		return
	}
	t.nodes[k].field = f
	t.add(n, k)
}

func (t *tree) typ(n int32) nodeType {
	if n < 0 {
		return nOther
	}
	return t.nodes[n].typ
}

func (t *tree) parent(n int32) int32 { return t.nodes[n].parent }

// field returns n's child in field f, or -1.
func (t *tree) field(n int32, f field) int32 {
	if n < 0 {
		return -1
	}
	for k := t.nodes[n].first; k >= 0; k = t.nodes[k].next {
		if t.nodes[k].field == f {
			return k
		}
	}
	return -1
}

// child returns n's i-th child, or -1.
func (t *tree) child(n int32, i int) int32 {
	if n < 0 {
		return -1
	}
	k := t.nodes[n].first
	for ; k >= 0 && i > 0; i-- {
		k = t.nodes[k].next
	}
	return k
}

// name is identifier n's text, one string per distinct name of the file
// (the map lookup keyed by the bytes does not allocate).
func (t *tree) name(n int32) string {
	return t.names.Intern(t.src[t.nodes[n].start:t.nodes[n].end])
}

func (t *tree) text(n int32) string {
	if n < 0 {
		return ""
	}
	return string(t.src[t.nodes[n].start:t.nodes[n].end])
}

// textIs compares n's text with s without allocating.
func (t *tree) textIs(n int32, s string) bool {
	return n >= 0 && string(t.src[t.nodes[n].start:t.nodes[n].end]) == s
}

func (t *tree) setEnd(n int32, end uint32) {
	if end > t.nodes[n].end {
		t.nodes[n].end = end
	}
}
