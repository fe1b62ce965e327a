package extract

import (
	"strconv"
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// Definition handling for the generic walker in treesitter.go: matching a
// node against its def rules, and filling one Symbol (name, kind, container,
// parent, ranges, signature, doc, exported).

// define records the first matching def rule of n; it reports whether the
// node opened a scope.
func (w *tsWalker) define(n, parent *ts.Node, idx int, rules []*defC) bool {
	for _, r := range rules {
		if len(r.parents) > 0 && (parent == nil || !r.parents.has(parent.Symbol())) {
			continue
		}
		if r.field != "" && (parent == nil || parent.FieldNameForChild(idx, w.c.lang) != r.field) {
			continue
		}
		if r.topOnly && w.inFunc() {
			continue
		}
		d := defSite{node: n, decl: n, kind: r.kind, scope: r.scope, rule: r}
		if r.outer > 0 {
			if a := w.ancestor(r.outer); a != nil {
				d.decl = a
			}
		}
		// The node being visited is not on the stack yet, so its parent is
		// ancestor(1) and decl's parent is one further up.
		if a := w.ancestor(r.outer + 1); a != nil {
			if si := w.c.kindOf(a); si != nil && si.wrapper {
				d.wrapper = a
			}
		}
		d.nameNode = w.c.follow(n, r.path)
		d.name = strings.TrimSpace(textOf(w.src, d.nameNode))
		if r.custom != nil && !r.custom(w, &d) {
			continue
		}
		if d.nameNode == nil || d.name == "" || len(d.name) > 4*maxRefName {
			continue
		}
		return w.record(&d)
	}
	return false
}

// JoinQual joins a container's qualified name and a member's, either
// possibly empty.
func JoinQual(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "." + b
}

// LastSegment is a qualified name's last part.
func LastSegment(q string) string {
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		return q[i+1:]
	}
	return q
}

// parentSym is the innermost enclosing real symbol (pseudo scopes such as
// Rust impl blocks are not symbols).
func (w *tsWalker) parentSym() int32 {
	return w.scopes.ParentSym()
}

func (w *tsWalker) record(d *defSite) bool {
	outer := w.innerScope()
	base := ""
	if outer != nil {
		base = outer.Qual
	}
	container := JoinQual(base, d.container)
	if d.kind == 0 {
		sk := d.scope
		if sk == scopeNone {
			sk = scopeType
		}
		w.scopes = append(w.scopes, Scope{Sym: -1, Qual: JoinQual(container, d.name), Kind: sk, Access: !d.membersPrivate})
		return !d.sticky
	}
	kind := w.adjustKind(d.kind, d.name, container, outer)
	parent := w.parentSym()
	if d.rule.topOnly && (kind == KindVariable || kind == KindConstant || kind == KindField) && w.seenVar(parent, d.name) {
		// Reassignments (x = 1 ... x = 2) define nothing new.
		return false
	}
	sym := Symbol{
		Name:      d.name,
		Kind:      kind,
		Container: container,
		Parent:    parent,
		Range:     w.rangeOf(d.decl),
		Selection: w.rangeOf(d.nameNode),
		Signature: SignatureAt(w.src, w.sigStart(d)),
		Doc:       w.docFor(d),
	}
	if !sym.Range.Contains(sym.Selection) {
		// Names found through a custom path can sit outside decl (C
		// declarators under a shared specifier); widen rather than lie.
		sym.Range = w.rangeOf(d.node)
		if !sym.Range.Contains(sym.Selection) {
			sym.Range = sym.Selection
		}
	}
	if !w.inFunc() && w.c.spec.exported != nil {
		sym.Exported = w.c.spec.exported(w, d)
	}
	idx := int32(len(w.res.Symbols))
	w.res.Symbols = append(w.res.Symbols, sym)
	if d.scope == scopeNone {
		return false
	}
	w.scopes = append(w.scopes, Scope{Sym: idx, Qual: JoinQual(container, d.name), Kind: d.scope, Access: !d.membersPrivate})
	return true
}

// adjustKind applies the rules shared by all languages: functions in class
// bodies are methods, methods named like constructors are constructors, and
// variables in class bodies are fields.
func (w *tsWalker) adjustKind(kind SymbolKind, name, container string, outer *Scope) SymbolKind {
	inType := outer != nil && outer.Kind == scopeType
	switch kind {
	case KindFunction:
		if inType {
			kind = KindMethod
		}
	case KindVariable:
		if inType {
			return KindField
		}
		if w.c.spec.upperConst && isUpper(name) {
			return KindConstant
		}
	}
	if kind == KindMethod {
		if w.c.ctors[name] || w.c.spec.ctorSameName && container != "" && name == LastSegment(container) {
			return KindConstructor
		}
	}
	return kind
}

func (w *tsWalker) seenVar(parent int32, name string) bool {
	if w.vars == nil {
		w.vars = map[string]struct{}{}
	}
	key := strconv.Itoa(int(parent)) + "\x00" + name
	if _, ok := w.vars[key]; ok {
		return true
	}
	w.vars[key] = struct{}{}
	return false
}

// sigStart picks the byte where the signature line starts: the wrapper when
// it shares the line (export function f), else the declaration after any
// leading annotations, attributes and comments.
func (w *tsWalker) sigStart(d *defSite) int {
	row := d.decl.StartPoint().Row
	if d.wrapper != nil {
		if ch := w.firstUnskipped(d.wrapper); ch != nil && ch.StartPoint().Row == row {
			return int(ch.StartByte())
		}
	}
	n := d.decl
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		ch := n.Child(i)
		if ch == nil {
			continue
		}
		si := w.c.kindOf(ch)
		if si == nil {
			return int(ch.StartByte())
		}
		if si.sigSkip || si.comment {
			continue
		}
		if !si.sigInto {
			return int(ch.StartByte())
		}
		if g := w.firstUnskipped(ch); g != nil {
			return int(g.StartByte())
		}
	}
	return int(n.StartByte())
}

func (w *tsWalker) firstUnskipped(n *ts.Node) *ts.Node {
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		ch := n.Child(i)
		if ch == nil {
			continue
		}
		if si := w.c.kindOf(ch); si != nil && (si.sigSkip || si.comment) {
			continue
		}
		return ch
	}
	return nil
}

// docFor returns the doc line for a definition and consumes the pending
// comment block: a run of whole-line comments ending on the line before the
// definition (or its wrapper), or a docstring where the language has them.
func (w *tsWalker) docFor(d *defSite) string {
	first := d.decl
	if d.wrapper != nil {
		first = d.wrapper
	}
	doc := ""
	if start, end, ok := w.doc.Take(first.StartPoint().Row, first.StartByte()); ok {
		doc = w.cleanDoc(string(w.src[start:end]))
	}
	if w.c.spec.docstring {
		if s := w.docstring(d.node); s != "" {
			doc = s
		}
	}
	return doc
}

func (w *tsWalker) cleanDoc(raw string) string {
	if w.c.spec.docClean != nil {
		raw = w.c.spec.docClean(raw)
	}
	doc := DocLine(raw)
	if w.c.spec.docTrim != "" {
		doc = strings.TrimSpace(strings.TrimLeft(doc, w.c.spec.docTrim))
	}
	return doc
}

// docstring returns the first line of a Python-style docstring: a string
// that is the first statement of the definition's body.
func (w *tsWalker) docstring(n *ts.Node) string {
	body := w.c.field(n, "body")
	if body == nil {
		return ""
	}
	for i, cnt := 0, body.ChildCount(); i < cnt; i++ {
		ch := body.Child(i)
		if ch == nil || !ch.IsNamed() {
			continue
		}
		if si := w.c.kindOf(ch); si != nil && si.comment {
			continue
		}
		if w.c.typeIs(ch, "expression_statement") {
			ch = ch.NamedChild(0)
		}
		if !w.c.typeIs(ch, "string") {
			return ""
		}
		var sb strings.Builder
		for j, k := 0, ch.ChildCount(); j < k; j++ {
			if part := ch.Child(j); w.c.typeIs(part, "string_content") {
				sb.WriteString(textOf(w.src, part))
			}
		}
		return DocLine(sb.String())
	}
	return ""
}

// modifierText reports whether n, or a modifiers-like child of it, contains
// a token whose text is one of words (Java "private", Kotlin
// visibility_modifier "private"). Only direct children and one level below
// are searched: modifiers never nest deeper.
func (w *tsWalker) modifierText(n *ts.Node, holders string, words ...string) bool {
	if n == nil {
		return false
	}
	match := func(ch *ts.Node) bool {
		t := textOf(w.src, ch)
		for _, word := range words {
			if t == word {
				return true
			}
		}
		return false
	}
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		ch := n.Child(i)
		if ch == nil {
			continue
		}
		if match(ch) {
			return true
		}
		if holders != "" && w.c.typeIs(ch, holders) {
			for j, k := 0, ch.ChildCount(); j < k; j++ {
				g := ch.Child(j)
				if g != nil && match(g) {
					return true
				}
			}
		}
	}
	return false
}
