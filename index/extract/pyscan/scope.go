package pyscan

// Python scopes and bindings over the scanner's tree: index/python's
// scope.go rules (pyScopeOf, pyBindingNameOf, pyEnclosingImport,
// pyLookupBinding, pyFirstParam, pyMethodClass), node for node.

func isScope(t nodeType) bool {
	switch t {
	case nModule, nFunction, nClass, nLambda, nListComp, nSetComp, nDictComp, nGenerator:
		return true
	}
	return false
}

func isPattern(t nodeType) bool {
	switch t {
	case nPatternList, nTuplePattern, nListPattern, nTuple, nList, nParenthesized,
		nListSplatPattern, nDictSplatPattern, nAsPatternTarget, nExprList:
		return true
	}
	return false
}

// scopeOf is the scope node n appears in: a def's or class's name, and a
// class's bases, belong to the enclosing scope.
func (t *tree) scopeOf(n int32) int32 {
	child := n
	for p := t.parent(n); p >= 0; child, p = p, t.parent(p) {
		typ := t.typ(p)
		if !isScope(typ) {
			continue
		}
		if typ == nFunction || typ == nClass {
			if f := t.nodes[child].field; f == fName || f == fSuperclasses {
				continue
			}
		}
		return p
	}
	return 0
}

// parentScope is the scope enclosing scope s (-1 for the module).
func (t *tree) parentScope(s int32) int32 {
	if t.typ(s) == nModule || t.sameAsRoot(s) {
		return -1
	}
	return t.scopeOf(s)
}

// sameAsRoot reports whether n spans exactly what tree-sitter's module
// node spans: index/python compares nodes by their byte ranges
// (syntax.SameNode), so a def that starts the file and ends it, without a
// final newline, is taken for the module, and the lookups through it
// stop there.
func (t *tree) sameAsRoot(n int32) bool {
	return t.nodes[n].start == t.rootStart && t.nodes[n].end == uint32(len(t.src))
}

// bindingName reports whether identifier id is bound where it stands.
func (t *tree) bindingName(id int32) bool {
	child, p := id, t.parent(id)
	viaAs := false
	for p >= 0 && isPattern(t.typ(p)) {
		viaAs = viaAs || t.typ(p) == nAsPatternTarget
		child, p = p, t.parent(p)
	}
	if p < 0 {
		return false
	}
	f := t.nodes[child].field
	switch t.typ(p) {
	case nAssignment, nAugAssignment, nFor, nForIn:
		return f == fLeft
	case nAsPattern:
		return viaAs
	case nNamedExpr, nFunction, nClass, nDefaultParam, nTypedDefaultParam:
		return f == fName
	case nParameters, nLambdaParams:
		return true
	case nTypedParam:
		return t.typ(child) == nIdent || isPattern(t.typ(child))
	case nAliasedImport:
		return f == fAlias
	case nDottedName:
		g := t.parent(p)
		if g < 0 || t.nodes[p].first != id {
			return false
		}
		switch t.typ(g) {
		case nImport:
			return true
		case nImportFrom:
			return t.nodes[p].field != fModuleName && t.nodes[p].first == t.nodes[p].last
		}
	}
	return false
}

// enclosingImport is the import statement id is part of, or -1.
func (t *tree) enclosingImport(id int32) int32 {
	for p := t.parent(id); p >= 0; p = t.parent(p) {
		switch t.typ(p) {
		case nImport, nImportFrom:
			return p
		case nDottedName, nAliasedImport, nRelativeImport:
			continue
		}
		return -1
	}
	return -1
}

// bindings is the binding table of one file (describe.go's
// pyBindingTable): the first binding of each name in each scope, and the
// names each scope declares global or nonlocal.
type bindings struct {
	bind   map[bindKey]int32
	decl   map[bindKey]string
	scoped []int32 // first bindings of module and class scopes, in order
}

type bindKey struct {
	scope int32
	name  string
}

// newBindings walks the tree once, calling ident on every identifier in
// source order.
func (t *tree) newBindings(ident func(int32)) *bindings {
	b := &bindings{bind: map[bindKey]int32{}, decl: map[bindKey]string{}}
	var walk func(n int32)
	walk = func(n int32) {
		switch t.typ(n) {
		case nIdent:
			ident(n)
			if t.bindingName(n) {
				s := t.scopeOf(n)
				k := bindKey{s, t.name(n)}
				if _, ok := b.bind[k]; !ok {
					b.bind[k] = n
					if st := t.typ(s); st == nModule || st == nClass {
						b.scoped = append(b.scoped, n)
					}
				}
			}
		case nGlobal, nNonlocal:
			s := t.scopeOf(n)
			kind := "global"
			if t.typ(n) == nNonlocal {
				kind = "nonlocal"
			}
			for k := t.nodes[n].first; k >= 0; k = t.nodes[k].next {
				key := bindKey{s, t.text(k)}
				if b.decl[key] == "" {
					b.decl[key] = kind
				}
			}
		}
		for k := t.nodes[n].first; k >= 0; k = t.nodes[k].next {
			walk(k)
		}
	}
	walk(0)
	return b
}

func (b *bindings) binding(scope int32, name string) int32 {
	if n, ok := b.bind[bindKey{scope, name}]; ok {
		return n
	}
	return -1
}

// lookup finds the binding of name used at n through the enclosing
// scopes (pyLookupBinding): class bodies are seen only from themselves;
// global and nonlocal move the lookup out. b is -1 when no scope binds
// the name; scope is then the module.
func (t *tree) lookup(n int32, name string, bs *bindings) (b, scope int32) {
	scope = t.scopeOf(n)
	first := true
	for scope >= 0 {
		typ := t.typ(scope)
		if typ != nClass || first {
			if typ == nFunction || typ == nLambda {
				switch bs.decl[bindKey{scope, name}] {
				case "global":
					scope = 0
					continue
				case "nonlocal":
					scope, first = t.parentScope(scope), false
					continue
				}
			}
			if b := bs.binding(scope, name); b >= 0 {
				return b, scope
			}
			if typ == nModule || t.sameAsRoot(scope) {
				return -1, scope
			}
		}
		scope, first = t.parentScope(scope), false
	}
	return -1, -1
}

// firstParam is the name of fn's first positional parameter, or -1.
func (t *tree) firstParam(fn int32) int32 {
	ps := t.field(fn, fParameters)
	p := t.child(ps, 0)
	switch t.typ(p) {
	case nIdent:
		return p
	case nTypedParam:
		if c := t.child(p, 0); t.typ(c) == nIdent {
			return c
		}
	case nDefaultParam, nTypedDefaultParam:
		return t.field(p, fName)
	}
	return -1
}

// methodClass is the class fn is a method of, unless fn is a
// staticmethod; -1 otherwise.
func (t *tree) methodClass(fn int32) int32 {
	s := t.scopeOf(fn)
	if t.typ(s) != nClass {
		return -1
	}
	if d := t.parent(fn); d >= 0 && t.typ(d) == nDecorated && t.nodes[d].staticMethod {
		return -1
	}
	return s
}
