package pyscan

import (
	"strconv"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// The records walk: one pre-order pass over the scanner's tree that
// writes what index/extract's generic tree-sitter walker writes for a
// Python file (lang_python.go's table interpreted by treesitter.go and
// treesitter_def.go): symbols with kinds, containers, ranges, signatures,
// docs and complexity; every identifier as a reference, callees marked;
// imports; TODO markers. Each rule below names the walker behaviour it
// reproduces, because equivalence with it is the contract.

const maxRefName = 128

type walker struct {
	t        *tree
	src      []byte
	lines    []uint32
	lastLine int
	comments []comment
	ci       int
	res      *extract.Result
	scopes   extract.Scopes
	calls    []uint32
	doc      extract.ScanDoc
	vars     map[string]bool
}

// pos converts a byte offset; lookups mostly go forward a little, so the
// last line found is tried first.
func (w *walker) pos(off uint32) extract.Pos {
	ls := w.lines
	if l := w.lastLine; l < len(ls) && ls[l] <= off {
		for k := l; k < len(ls) && k < l+4; k++ {
			if k+1 == len(ls) || ls[k+1] > off {
				w.lastLine = k
				return extract.Pos{Line: uint32(k), Col: off - ls[k]}
			}
		}
	}
	lo, hi := 0, len(ls)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if ls[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	w.lastLine = lo
	return extract.Pos{Line: uint32(lo), Col: off - ls[lo]}
}

func (w *walker) rangeOf(n int32) extract.Range {
	return extract.Range{Start: w.pos(w.t.nodes[n].start), End: w.pos(w.t.nodes[n].end)}
}

// flushComments handles the comments before offset off: the walker meets
// a comment, an extra, in document order among the nodes.
func (w *walker) flushComments(off uint32) {
	for w.ci < len(w.comments) && w.comments[w.ci].start < off {
		w.comment(w.comments[w.ci])
		w.ci++
	}
}

// comment is the walker's: a Python comment is one line.
func (w *walker) comment(c comment) {
	line := w.pos(c.start).Line
	w.doc.Comment(w.src, c.start, c.end, line, line, w.res)
}

// visit walks n and its subtree.
func (w *walker) visit(n int32) {
	nd := &w.t.nodes[n]
	w.flushComments(nd.start)
	opened := false
	switch nd.typ {
	case nIf, nElif, nFor, nWhile, nExcept, nConditional, nForIn, nIfClause, nBoolOp, nCaseClause:
		w.scopes.Branch(1)
	case nImport:
		for k := nd.first; k >= 0; k = w.t.nodes[k].next {
			if w.t.nodes[k].field != fName {
				continue
			}
			name := k
			if w.t.typ(k) == nAliasedImport {
				name = w.t.field(k, fName)
			}
			w.addImport(squash(w.t.text(name)), n)
		}
	case nImportFrom:
		w.addImport(squash(w.t.text(w.t.field(n, fModuleName))), n)
	case nFutureImport:
		w.addImport("__future__", n)
	case nCall:
		f := w.t.field(n, fFunction)
		if w.t.typ(f) == nAttribute {
			f = w.t.field(f, fAttr)
		}
		if f >= 0 {
			w.calls = append(w.calls, w.t.nodes[f].start)
		}
	case nClass, nFunction, nAssignment:
		opened = w.define(n)
	case nIdent:
		w.ref(n)
	}
	for k := w.t.nodes[n].first; k >= 0; k = w.t.nodes[k].next {
		w.visit(k)
	}
	if opened {
		w.closeScope()
	}
}

func (w *walker) addImport(path string, n int32) {
	path = strings.TrimSpace(path)
	if path == "" {
		return
	}
	w.res.Imports = append(w.res.Imports, extract.Import{Path: path, Line: w.pos(w.t.nodes[n].start).Line})
}

// squash is extract's: import paths lose their whitespace.
func squash(s string) string {
	if !strings.ContainsAny(s, " \t\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), "")
}

// ref records an identifier; the pending-callee stack is the walker's
// (treesitter.go ref): entries before the name are dropped, one equal
// to its start marks it called.
func (w *walker) ref(n int32) {
	s, e := w.t.nodes[n].start, w.t.nodes[n].end
	if e <= s || e-s > maxRefName {
		return
	}
	var call bool
	w.calls, call = extract.PopCallee(w.calls, s)
	w.res.Refs = append(w.res.Refs, extract.Ref{Name: w.t.name(n), Pos: w.pos(s), Call: call})
}

// define records a class, a function or a module- or class-level
// assignment to a plain name (treesitter_def.go define and record).
func (w *walker) define(n int32) bool {
	t := w.t
	nd := &t.nodes[n]
	var kind extract.SymbolKind
	var name int32
	switch nd.typ {
	case nClass:
		kind, name = extract.KindClass, t.field(n, fName)
	case nFunction:
		kind, name = extract.KindFunction, t.field(n, fName)
	default:
		if w.scopes.InFunc() {
			return false
		}
		name = t.field(n, fLeft)
		if t.typ(name) != nIdent {
			return false
		}
		kind = extract.KindVariable
	}
	if name < 0 {
		return false
	}
	nameText := t.name(name)
	if len(nameText) > 4*maxRefName {
		return false // define's cap on a definition's name
	}
	outer := w.scopes.Inner()
	container := ""
	if outer != nil {
		container = outer.Qual
	}
	inType := outer != nil && outer.Kind != extract.ScopeFunc
	switch kind {
	case extract.KindFunction:
		if inType {
			kind = extract.KindMethod
			if nameText == "__init__" {
				kind = extract.KindConstructor
			}
		}
	case extract.KindVariable:
		if inType {
			kind = extract.KindField
		} else if isUpper(nameText) {
			kind = extract.KindConstant
		}
	}
	parent := int32(-1)
	if outer != nil {
		parent = outer.Sym
	}
	if nd.typ == nAssignment {
		key := strconv.Itoa(int(parent)) + "\x00" + nameText
		if w.vars[key] {
			return false
		}
		w.vars[key] = true
	}
	sym := extract.Symbol{
		Name: nameText, Kind: kind, Container: container, Parent: parent,
		Range: w.rangeOf(n), Selection: w.rangeOf(name),
		Signature: extract.SignatureAt(w.src, int(nd.start)),
		Doc:       w.docFor(n),
	}
	if !w.scopes.InFunc() {
		sym.Exported = underscoreExported(nameText)
	}
	idx := int32(len(w.res.Symbols))
	w.res.Symbols = append(w.res.Symbols, sym)
	if nd.typ == nAssignment {
		return false
	}
	kindOf := extract.ScopeType
	if nd.typ == nFunction {
		kindOf = extract.ScopeFunc
	}
	w.scopes = append(w.scopes, extract.Scope{Sym: idx, Qual: extract.JoinQual(container, nameText), Kind: kindOf})
	return true
}

func (w *walker) closeScope() { w.scopes.Close(w.res.Symbols) }

// docFor is treesitter_def.go docFor: the comment block ending on the
// line before the definition (or its decorators), then the docstring.
func (w *walker) docFor(n int32) string {
	first := n
	if p := w.t.parent(n); p >= 0 && w.t.typ(p) == nDecorated {
		first = p
	}
	fs := w.t.nodes[first].start
	doc := w.doc.For(w.src, w.pos(fs).Line, fs)
	doc = strings.TrimSpace(strings.TrimLeft(doc, "#"))
	if typ := w.t.typ(n); typ == nFunction || typ == nClass {
		if s := w.docstring(n); s != "" {
			doc = s
		}
	}
	return doc
}

// docstring is the first line of the string that is the body's first
// statement (tree-sitter's string_content parts, quotes and prefix off).
func (w *walker) docstring(n int32) string {
	body := w.t.field(n, fBody)
	if body < 0 {
		return ""
	}
	s := w.t.nodes[body].first
	if s < 0 || w.t.typ(s) != nString {
		return ""
	}
	return extract.DocLine(w.stringContent(s))
}

// stringContent is a string literal's text without prefix, quotes and
// replacement fields.
func (w *walker) stringContent(s int32) string {
	nd := w.t.nodes[s]
	src := w.src[nd.start:nd.end]
	i := 0
	for i < len(src) && src[i] != '\'' && src[i] != '"' {
		i++
	}
	q := 1
	if i+2 < len(src) && src[i+1] == src[i] && src[i+2] == src[i] {
		q = 3
	}
	if len(src)-q < i+q {
		return ""
	}
	body := string(src[i+q : len(src)-q])
	if nd.first < 0 {
		return body
	}
	var b strings.Builder
	off := nd.start + uint32(i+q)
	for k := nd.first; k >= 0; k = w.t.nodes[k].next {
		ks := w.t.nodes[k].start
		if ks > off {
			b.Write(w.src[off : ks-1])
		}
		off = w.t.nodes[k].end + 1
	}
	if end := nd.end - uint32(q); off < end {
		b.Write(w.src[off:end])
	}
	return b.String()
}

func isUpper(name string) bool {
	letter := false
	for i := 0; i < len(name); i++ {
		b := name[i]
		switch {
		case b >= 'a' && b <= 'z':
			return false
		case b >= 'A' && b <= 'Z':
			letter = true
		}
	}
	return letter
}

func underscoreExported(name string) bool {
	if !strings.HasPrefix(name, "_") {
		return true
	}
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}
