package locals

import (
	"bytes"
	"context"
	"slices"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
	"github.com/parleyhq/parley/workspace"
)

// Locals resolved from the syntax of one buffer, in the tree-sitter
// languages that have no resolver of their own (Java, Rust, C, C++, C#,
// Kotlin, Ruby, Lua, PHP, Bash; Swift when it is turned on, in functions
// its grammar parses without error): parameters, local variables, closure and
// lambda parameters, for/catch/match/pattern bindings, Kotlin's implicit
// `it` (bound at its lambda's opening brace), Java's and Rust's
// flow-scoped pattern bindings (flow.go). One interpreter
// walks the buffer's tree with the language's table (localsLang,
// lang.go); nothing is stored at index time.
//
// The contract: nav.LocalAt answers only for an identifier that names a
// local, its binding or a use the language's scope rules bind to it, and
// then with exactly the occurrences bound to that binding, all in the
// buffer. Everything else (fields, methods, types, globals, members after
// `.`, `->` or `::`, a use before its declaration where the language does
// not bind it yet) gets ok false and is left to the name ranking.

// Local is a local binding of a buffer and the occurrences bound to it.
type Local struct {
	Path string
	Name string
	// Selection is the binding's name; for an implicit binding (Kotlin's
	// `it`), which has no text of its own, the token that introduces it
	// (the lambda's opening brace).
	Selection extract.Range
	// Refs are the occurrences bound to the binding in source order, the
	// binding among them unless Implicit: an edit of every reference must
	// not touch a brace.
	Refs     []extract.Range
	Implicit bool
}

// NameHit is the binding as a definition hit.
func (l Local) NameHit() index.NameHit {
	return index.NameHit{Path: l.Path, Name: l.Name, Kind: extract.KindVariable, Selection: l.Selection}
}

// RefHits are the occurrences as references, the binding marked Decl.
func (l Local) RefHits() []index.RefHit {
	out := make([]index.RefHit, 0, len(l.Refs))
	for _, r := range l.Refs {
		out = append(out, index.RefHit{Path: l.Path, Name: l.Name, Pos: r.Start, Decl: r == l.Selection})
	}
	return out
}

// nav.LocalAt resolves the identifier containing or ending at byte offset off
// of src, the content of the root-relative file from, when it names a
// local of a language localsLangs covers. It costs one parse of src the
// first time (the tree is kept in the store's tree cache, keyed by
// content) and one walk of the outermost function or block around the
// name (localsLang.walkRoot). Safe for concurrent use: it holds the tree
// cache, as the Python and TypeScript resolvers do.
func At(s *index.Store, from string, src []byte, off int) (Local, bool) {
	lang, tbl := localsLangOf(from, src)
	if tbl == nil || !localsEnabled(s, lang, from) {
		return Local{}, false
	}
	return localAt(s, lang, tbl, from, src, off)
}

// localAt is nav.LocalAt in language lang, whose table is tbl.
func localAt(s *index.Store, lang string, tbl *localsLang, from string, src []byte, off int) (Local, bool) {
	start := index.IdentStart(src, off)
	if start >= len(src) || !index.IsIdentByte(src[start]) {
		return Local{}, false
	}
	if afterMemberOp(src, start, tbl.arrowMembers) {
		return Local{}, false // obj.x, p->x, N::x: a member, without a parse
	}
	c := syntax.CacheOf(s)
	c.Lock()
	defer c.Unlock()
	f := localsTree(c, lang, from, src)
	if f == nil {
		return Local{}, false
	}
	name := tbl.nameAt(f, start)
	if name == nil {
		return Local{}, false
	}
	path := descend(f, uint32(start))
	top := tbl.walkRoot(f, path)
	if tbl.strict && path[top].HasError() {
		return Local{}, false // a tree the grammar got wrong (localsLang.strict)
	}
	a := newLocalsAnalysis(f, tbl, name, uint32(start), path[:top+1])
	if a.target < 0 {
		return Local{}, false // not a name a local can have: a member
	}
	b := a.resolve(a.occ[a.target])
	if b == nil || !a.isLocal(b) {
		return Local{}, false
	}
	out := Local{Path: from, Name: string(name), Selection: syntax.NodeRange(b.node), Implicit: b.unnamed}
	for _, o := range a.occ {
		if !o.unnamed && a.resolve(o) == b {
			out.Refs = append(out.Refs, syntax.NodeRange(o.node))
		}
	}
	return out, true
}

// nav.HasLocals reports whether nav.LocalAt resolves the locals of the file rel
// (its content src, whose first line may name the language).
func Covers(rel string, src []byte) bool {
	_, tbl := localsLangOf(rel, src)
	return tbl != nil
}

func localsLangOf(rel string, src []byte) (string, *localsLang) {
	lang := workspace.DetectLanguage(rel, src[:min(len(src), 128)])
	return lang, localsLangs[lang]
}

// localsEnabled reports whether nav.LocalAt may parse rel, of language
// lang: a language off by default (OptInLanguages: Swift, whose grammar
// takes seconds and a gigabyte to load) only when the store extracted the
// file, that is when the user turned the language on.
func localsEnabled(s *index.Store, lang, rel string) bool {
	if _, optIn := index.OptInLanguages[lang]; !optIn {
		return true
	}
	h, ok := s.Header(rel)
	return ok && h.Status != index.StatusSkipped
}

// Warm parses the buffer from into the tree cache when nav.LocalAt
// covers its language (nav.WarmSyntax, when the editor opens it), and
// returns it; nil otherwise.
func Warm(s *index.Store, from string, src []byte) []string {
	lang, tbl := localsLangOf(from, src)
	if tbl == nil || !localsEnabled(s, lang, from) {
		return nil
	}
	c := syntax.CacheOf(s)
	c.Lock()
	defer c.Unlock()
	if localsTree(c, lang, from, src) == nil {
		return nil
	}
	return []string{from}
}

// afterMemberOp reports whether the name at byte start follows `.`, `::`
// or, when arrow is set (C, C++, PHP), `->` (spaces between allowed), which
// makes it a member in every language of localsLangs; `..` (a Rust range,
// Lua's concatenation) does not. Elsewhere `->` starts a lambda's body
// (Java, Kotlin) or a return type (Rust), where a name may be a local.
func afterMemberOp(src []byte, start int, arrow bool) bool {
	i := index.SkipSpaceBack(src, start)
	switch {
	case i >= 2 && (string(src[i-2:i]) == "::" || arrow && string(src[i-2:i]) == "->"):
		return true
	case i >= 1 && src[i-1] == '.':
		return i < 2 || src[i-2] != '.'
	}
	return false
}

// localsTree parses src (the buffer of rel) with lang's grammar, or takes
// the tree from the cache c. Precondition: the caller holds c.
func localsTree(c *syntax.Cache, lang, rel string, src []byte) *syntax.File {
	key := "locals:" + lang + ":" + rel
	f, h := c.Get(key, src)
	if f != nil {
		return f
	}
	tree, err := extract.ParseTree(context.Background(), lang, src, extract.BudgetFor(len(src)))
	if err != nil {
		return nil
	}
	f = &syntax.File{Rel: rel, Src: src, Tree: tree}
	c.Put(key, f, h)
	c.EvictLocals(key)
	return f
}

// localsOcc is one occurrence of the name: a binding (rule set) or a use.
type localsOcc struct {
	node *ts.Node
	// anc are node's ancestors, the root first. They are recorded by the
	// walk down: gotreesitter's Parent links are lazy and, in some
	// grammars (C#'s hidden statement nodes), stop short of the root.
	anc  []*ts.Node
	rule *bindRule
	// spans are where a binding is visible: the scope it binds in first
	// (isLocal goes by its kind), more only for a flow rule's binding
	// (Java's `if (!(o instanceof T t)) return;` binds t in the rest of
	// the condition and after the if).
	spans []localsSpan
	// unnamed: a binding the language makes without naming it (Kotlin's
	// `it`); node is the token that introduces it, not an occurrence.
	unnamed bool
}

// localsAnalysis holds the occurrences of one name in a buffer, in source
// order, with the bindings among them.
type localsAnalysis struct {
	f      *syntax.File
	tbl    *localsLang
	name   []byte
	occ    []*localsOcc
	target int // the index of the queried identifier in occ
	// byScope lists the bindings by the scope they bind in.
	byScope map[scopeKey][]scopedBinding
	// resolved memoizes resolve.
	resolved map[*localsOcc]*localsOcc
}

// localsSpan is a region a binding is visible in: within scope, from
// byte from up to byte to (0: the scope's end).
type localsSpan struct {
	scope    *ts.Node
	from, to uint32
}

// scopedBinding is a binding with its region in one scope (byScope).
type scopedBinding struct {
	b        *localsOcc
	from, to uint32
}

type scopeKey struct {
	start, end uint32
	sym        ts.Symbol
}

func keyOf(n *ts.Node) scopeKey { return scopeKey{n.StartByte(), n.EndByte(), n.Symbol()} }

// newLocalsAnalysis collects the occurrences of name under within's last
// node, whose ancestors are the nodes before it.
func newLocalsAnalysis(f *syntax.File, tbl *localsLang, name []byte, start uint32, within []*ts.Node) *localsAnalysis {
	a := &localsAnalysis{f: f, tbl: tbl, name: name, target: -1,
		byScope: map[scopeKey][]scopedBinding{}, resolved: map[*localsOcc]*localsOcc{}}
	path := slices.Clone(within[:len(within)-1])
	var walk func(n *ts.Node)
	walk = func(n *ts.Node) {
		if n.NamedChildCount() == 0 && tbl.idents[f.Type(n)] || n.ChildCount() == 0 {
			if tbl.idents[f.Type(n)] && bytes.Equal(a.nameOf(n), a.name) && tbl.isName(f, n, path) {
				a.add(n, slices.Clone(path), start)
			}
			return
		}
		if tbl.implicit != nil {
			if at := tbl.implicit(f, n, name); at != nil {
				a.occ = append(a.occ, &localsOcc{node: at, anc: slices.Clone(path), rule: &implicitRule,
					spans: []localsSpan{{scope: n, from: n.StartByte()}}, unnamed: true})
			}
		}
		path = append(path, n)
		for i, c := 0, n.ChildCount(); i < c; i++ {
			walk(n.Child(i))
		}
		path = path[:len(path)-1]
	}
	walk(within[len(within)-1])
	// Implicit bindings (an assignment in Ruby, PHP) bind only where the
	// name is not bound yet; decided in source order, each seeing the
	// bindings before it.
	for _, o := range a.occ {
		if o.rule == nil {
			continue
		}
		if o.rule.implicit && a.lookup(o, o) != nil {
			o.rule = nil
			continue
		}
		for _, sp := range o.spans {
			k := keyOf(sp.scope)
			a.byScope[k] = append(a.byScope[k], scopedBinding{o, sp.from, sp.to})
		}
	}
	return a
}

// descend is the path from the root to the leaf at byte start (the root
// first), found by byte ranges rather than Parent links (localsOcc.anc).
func descend(f *syntax.File, start uint32) []*ts.Node {
	var path []*ts.Node
	for n := f.Tree.Root(); n != nil; {
		path = append(path, n)
		var next *ts.Node
		for i, c := 0, n.ChildCount(); i < c; i++ {
			if ch := n.Child(i); ch.StartByte() <= start && start < ch.EndByte() {
				next = ch
				break
			}
		}
		n = next
	}
	return path
}

// add records the occurrence n, whose ancestors are anc.
func (a *localsAnalysis) add(n *ts.Node, anc []*ts.Node, start uint32) {
	o := &localsOcc{node: n, anc: anc}
	if n.StartByte() == start {
		a.target = len(a.occ)
	}
	if rule, decl := a.tbl.bindingOf(a.f, n, anc); rule != nil {
		o.rule = rule
		sp := localsSpan{scope: a.tbl.scopeOf(a.f, anc, decl, rule.outer), from: n.EndByte()}
		if rule.after {
			sp.from = decl.EndByte()
		}
		o.spans = []localsSpan{sp}
		if rule.flow && a.tbl.flow != nil {
			if spans := a.tbl.flow(a.f, n, decl, anc); len(spans) > 0 {
				o.spans = spans
			}
		}
	}
	a.occ = append(a.occ, o)
}

// nameOf is the text of an identifier node as the table compares it.
func (a *localsAnalysis) nameOf(n *ts.Node) []byte {
	if n.EndByte() > uint32(len(a.f.Src)) || n.StartByte() > n.EndByte() {
		return nil
	}
	return a.f.Src[n.StartByte():n.EndByte()]
}

// resolve is the binding o is bound to (itself for a binding), or nil.
func (a *localsAnalysis) resolve(o *localsOcc) *localsOcc {
	if b, ok := a.resolved[o]; ok {
		return b
	}
	var b *localsOcc
	if o.rule != nil {
		b = o
	} else {
		b = a.lookup(o, nil)
	}
	a.resolved[o] = b
	return b
}

// lookup finds the binding a use at o sees, walking its ancestors
// outward, skipping the binding self: in each scope, the last binding
// visible at o; the walk stops past a function that does not see outer
// locals or at a class body, unless the class is one that captures the
// locals around it (localsLang.captures) and declares no member of the
// name. Every ancestor is looked in, not only the table's scopes: a
// flow-scoped binding (localsLang.flow) binds in the statement or
// expression that holds it.
func (a *localsAnalysis) lookup(o, self *localsOcc) *localsOcc {
	pos := o.node.StartByte()
	for i := len(o.anc) - 1; i >= 0; i-- {
		n := o.anc[i]
		kind, ok := a.tbl.scopes[a.f.Type(n)]
		if ok && kind == scopeClass {
			if !a.captures(o.anc, i) || len(a.byScope[keyOf(n)]) > 0 {
				return nil // a member, or a member of the name shadows
			}
			continue
		}
		if ok && kind == scopeRoot && !a.tbl.rootLocal {
			return nil
		}
		if best := a.visibleIn(a.byScope[keyOf(n)], self, pos); best != nil {
			return best
		}
		if ok && (kind == scopeRoot || kind == scopeGate && !a.captures(o.anc, a.outerScope(o.anc, i))) {
			return nil
		}
	}
	return nil
}

// outerScope is the index in anc of the nearest scope of the table
// around anc[i], -1 for none.
func (a *localsAnalysis) outerScope(anc []*ts.Node, i int) int {
	for j := i - 1; j >= 0; j-- {
		if _, ok := a.tbl.scopes[a.f.Type(anc[j])]; ok {
			return j
		}
	}
	return -1
}

// captures reports whether anc[i] is a class body that sees the locals
// around it (localsLang.captures: Java's anonymous and local classes,
// Kotlin's object expressions and local classes).
func (a *localsAnalysis) captures(anc []*ts.Node, i int) bool {
	return i > 0 && a.tbl.captures != nil && a.tbl.scopes[a.f.Type(anc[i])] == scopeClass && a.tbl.captures(a.f, anc, i)
}

// visibleIn picks of a scope's bindings the one a use at pos sees: the
// last bound before it (a later declaration shadows an earlier one from
// where it stands), else a hoisted one (PHP: a variable is its function's
// wherever it is first assigned).
func (a *localsAnalysis) visibleIn(list []scopedBinding, self *localsOcc, pos uint32) *localsOcc {
	var best *localsOcc
	for _, sb := range list {
		b := sb.b
		if b != self && sb.from <= pos && (sb.to == 0 || pos < sb.to) && (best == nil || b.node.StartByte() > best.node.StartByte()) {
			best = b
		}
	}
	if best != nil {
		return best
	}
	for _, sb := range list {
		if sb.b != self && sb.b.rule.hoist {
			return sb.b
		}
	}
	return nil
}

// isLocal reports whether binding b is a local: bound in a function or
// block scope, or at the top of a file in a language whose file-level
// bindings are the file's own (Lua's local, Ruby).
func (a *localsAnalysis) isLocal(b *localsOcc) bool {
	kind := a.tbl.scopes[a.f.Type(b.spans[0].scope)]
	return !b.rule.foreign && kind != scopeClass && (kind != scopeRoot || a.tbl.rootLocal)
}
