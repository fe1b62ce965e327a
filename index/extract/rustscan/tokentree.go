package rustscan

import "github.com/parleyhq/parley/index/extract"

// treeKeyword reports whether tree-sitter-rust reads a word inside a
// token tree as something other than an identifier: its token-tree
// keywords, self, super, crate, mut, booleans, _ and primitive types.
// Other reserved words (else, in, move, ref, dyn...) are identifiers
// there.
func treeKeyword(kw uint8) bool {
	switch kw {
	case kwAs, kwAsync, kwAwait, kwBreak, kwConst, kwContinue, kwDefault, kwEnum, kwFn, kwFor,
		kwGen, kwIf, kwImpl, kwLet, kwLoop, kwMatch, kwMod, kwPub, kwReturn, kwStatic, kwStruct,
		kwTrait, kwType, kwUnion, kwUnsafe, kwUse, kwWhere, kwWhile,
		kwSelf, kwSuper, kwCrate, kwMut, kwTrue, kwFalse, kwUnderscore, kwPrim:
		return true
	}
	return false
}

// tokenTree reads a delimited token tree: its identifiers and lifetime
// names are Refs, $name is a metavariable.
func (p *parser) tokenTree() { p.tokens(false) }

// tokens reads a token tree; in a macro_rules pattern, $name:fragment
// binds a metavariable and the fragment specifier is no identifier.
func (p *parser) tokens(pattern bool) {
	open := p.byteAt(p.t())
	if open != '(' && open != '[' && open != '{' {
		p.failHere("expected a token tree")
	}
	p.i++
	depth := 1
	var reps []int // depths of open $( groups
	for depth > 0 {
		t := p.t()
		switch t.kind {
		case tEOF:
			p.failHere("unterminated token tree")
		case tIdent:
			if !treeKeyword(t.kw) || t.kw == kwDefault && p.isPAt(1, ':') {
				p.ref(t.start, t.end, t.line)
			}
		case tLifetime:
			if kw := keyword(p.src[t.start+1 : t.end]); !treeKeyword(kw) {
				p.ref(t.start+1, t.end, t.line)
			}
		case tPunct:
			switch p.src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
				if k := len(reps); k > 0 && reps[k-1] == depth+1 {
					reps = reps[:k-1]
					p.separator()
				}
			case '$':
				if p.isPAt(1, '(') {
					reps = append(reps, depth+1)
					depth++
					p.i++
				} else if n := p.peek(1); p.macroRulesDepth > 0 && n.kind == tIdent && n.start == t.end {
					p.i++ // metavariable
					if pattern && p.isPAt(1, ':') && p.peek(2).kind == tIdent {
						p.i += 2
					}
				} else if b := p.byteAt(p.peek(1)); p.macroRulesDepth > 0 && b != ')' && b != ']' && b != '}' {
					// a lone $ ([$] matches a dollar) is a token; before
					// anything else tree-sitter's reading is not replicated
					p.failHere("$ before neither a name nor a repetition")
				}
			}
		}
		p.i++
	}
}

// isMacroStart reports whether a macro invocation starts here: a path
// followed by "!" and a delimiter.
func (p *parser) isMacroStart() bool {
	k := 0
	if p.isOp("::") {
		k = 2
	}
	for {
		t := p.peek(k)
		if t.kind != tIdent && !(p.byteAt(t) == '$' && p.isKwAt(k+1, kwCrate)) {
			return false
		}
		if p.byteAt(t) == '$' {
			k++
		}
		k++
		if p.isOp2At(k, "::") {
			k += 2
			continue
		}
		if !p.isPAt(k, '!') {
			return false
		}
		n := p.peek(k + 1)
		b := p.byteAt(n)
		return b == '(' || b == '[' || b == '{'
	}
}

// macroInvocation reads an item-level macro call: m!(..); or m! {..}.
func (p *parser) macroInvocation(item bool) {
	refs := len(p.res.Refs)
	start := p.t().start
	name := p.exprPath()
	p.call(refs, start, name)
	p.expectP('!')
	brace := p.isP('{')
	p.tokenTree()
	if !brace && item {
		p.expectP(';')
	}
}

// macroRules reads macro_rules! name { (pattern) => { body }; ... }.
func (p *parser) macroRules(start int) {
	p.i += 2
	d := p.newDef(start, extract.KindFunction, scopeNone, false)
	d.name = p.name()
	sym, _ := p.define(d)
	open := p.byteAt(p.t())
	close := map[byte]byte{'(': ')', '[': ']', '{': '}'}[open]
	if close == 0 {
		p.failHere("macro_rules body")
	}
	p.i++
	p.macroRulesDepth++
	defer func() { p.macroRulesDepth-- }()
	for !p.eatP(close) {
		p.tokens(true)
		p.expectOp("=>")
		p.tokenTree()
		if !p.eatP(';') && !p.isP(close) {
			p.failHere("expected ; between macro rules")
		}
	}
	if open != '{' {
		p.expectP(';')
	}
	p.end(sym, false, p.prevEnd())
}

// attributes reads outer attributes; it reports whether it read an inner
// attribute (#![...]), which stands alone.
func (p *parser) attributes() bool {
	if p.isOp("#!") && p.isPAt(2, '[') {
		p.attribute(false)
		return true
	}
	p.outerAttrs()
	return false
}

func (p *parser) outerAttrs() {
	for p.isP('#') && p.isPAt(1, '[') {
		p.attribute(true)
	}
}

// attribute reads #[path], #[path = expr] or #[path(tokens)].
func (p *parser) attribute(outer bool) {
	first := p.t()
	start, line := first.start, first.line
	p.i++
	if !outer {
		p.i++
	}
	p.expectP('[')
	if p.isKw(kwUnsafe) {
		fail("unsafe attribute")
	}
	p.exprPath()
	switch {
	case p.eatP('='):
		p.nested(func() { p.expr(0) })
	case p.isP('(') || p.isP('[') || p.isP('{'):
		p.tokenTree()
	}
	p.expectP(']')
	if outer {
		p.emitter.attribute(start, line, p.toks[p.i-1].line)
	}
}

// separator skips the separator of a $(...) repetition, which
// tree-sitter lexes as one anonymous token: whatever comes before the
// +, * or ? (",", "::", "else"). Separators of more than three tokens or
// holding a bracket decline inside macro_rules.
func (p *parser) separator() {
	op := func(k int) bool { return p.isPAt(k, '+') || p.isPAt(k, '*') || p.isPAt(k, '?') }
	for k := 1; k <= 4; k++ {
		if op(k) {
			p.i += k - 1
			return
		}
		b := p.byteAt(p.peek(k))
		if b == '(' || b == '[' || b == '{' || b == ')' || b == ']' || b == '}' || p.peek(k).kind == tEOF {
			break
		}
	}
	if p.macroRulesDepth > 0 {
		p.failHere("repetition separator")
	}
}
